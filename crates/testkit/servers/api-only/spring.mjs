// Error bodies as a Spring Boot server writes them. Its default error answer has no "message" (Spring
// Boot leaves it out unless configured to include it); an error the application raises itself carries
// its message.

import { STATUS_CODES } from 'node:http';

/** Spring's timestamp: ISO 8601 with milliseconds and a numeric offset. */
export function timestamp(date = new Date()) {
  return date.toISOString().replace('Z', '+00:00');
}

/** `{timestamp, status, error[, message], path}` */
export function errorBody(status, path, { error, message } = {}) {
  return {
    timestamp: timestamp(),
    status,
    error: error || STATUS_CODES[status] || 'Error',
    ...(message !== undefined ? { message } : {}),
    path,
  };
}

export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Spring Boot's default error answer. */
export function sendError(res, status, path, options = {}) {
  sendJson(res, status, errorBody(status, path, options), options.headers);
}
