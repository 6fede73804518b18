// How an error answer of a server of the API is read: the code the UI acts on, and the reason shown, by the
// answer's most specific text. Any server may answer: this project's own (`{status, error, message}`), a
// Spring application (`{timestamp, status, error, path}`), an OAuth resource server, a problem document or a
// plain-text page. The rules are pinned by crates/remote/cases/error-answers.json, which the Rust client's
// tests and this module's tests both read; a bare reason phrase ("Not Found") is never the whole message.
import { ERROR_STATUS } from '../types/generated';
import type { ErrorCode, Extension } from '../types/generated';
import { extensionOf, notOfferedMessage } from './offers';

/** Each HTTP status as one error code, derived from ERROR_STATUS; a status two codes share means `internal`. */
const CODE_OF_STATUS = new Map<number, ErrorCode>();
for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number | null][]) {
  if (status !== null && (!CODE_OF_STATUS.has(status) || code === 'internal')) CODE_OF_STATUS.set(status, code);
}

/** The error code for an HTTP status: this API's own, else `upstream` for another 4xx and `internal` beyond. */
export function codeForStatus(status: number): ErrorCode {
  return CODE_OF_STATUS.get(status) ?? (status >= 400 && status < 500 ? 'upstream' : 'internal');
}

/** The standard reason phrases, since a browser's `statusText` is empty over HTTP/2 and may be anything. */
const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 406: 'Not Acceptable', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  411: 'Length Required', 412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long',
  415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** How many characters of a plain-text body a message shows. */
const SNIPPET = 200;

export interface ErrorAnswer {
  method: string;
  /** The path under the server's base, `/api/configurations/4`. */
  path: string;
  status: number;
  /** The reason phrase the server sent, used only for a status without a standard one. */
  statusText?: string;
  contentType: string | null;
  body: string;
}

export interface ReadError {
  code: ErrorCode;
  message: string;
  /** The extension the answer says this server lacks, if it says so. */
  lacks: Extension | null;
}

type Body = Record<string, unknown>;

function parseObject(text: string): Body | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : null;
  } catch {
    return null;
  }
}

const textOf = (body: Body, key: string) => (typeof body[key] === 'string' ? (body[key] as string).trim() || null : null);

/** This API's own error body (docs/api.md, Errors): exactly `status`, `error` and `message`. */
function isApiErrorBody(body: Body): boolean {
  return Object.keys(body).length === 3 && Number.isInteger(body.status) && textOf(body, 'error') !== null && typeof body.message === 'string';
}

function snippet(text: string): string {
  const line = text.slice(0, SNIPPET).split(/\s+/).filter(Boolean).join(' ');
  return text.length > SNIPPET ? `${line}…` : line;
}

/** Reads an error answer into its code, its message and the extension it says the server lacks. */
export function readErrorAnswer(answer: ErrorAnswer): ReadError {
  const { method, path, status } = answer;
  const body = parseObject(answer.body);
  const extension = extensionOf(method, path);
  // A 501 on an extension path (as a proxy of this project answers), or a 404 or 405 there without this API's
  // error body: the server has no such operation (its framework answered). This API's own 404 there names a
  // missing configuration instead.
  const framework = (status === 404 || status === 405) && !(body && isApiErrorBody(body));
  if (extension && (status === 501 || framework)) {
    return { code: 'not_offered', message: notOfferedMessage(extension), lacks: extension };
  }
  // "Not Implemented" anywhere else is a failure of the server, not a missing extension.
  const code = status === 501 ? 'internal' : codeForStatus(status);
  const lacks = null;
  const reason = REASONS[status] ?? (answer.statusText?.trim() || 'Error');
  const request = `${method.toUpperCase()} ${path}`;
  if (body) {
    if (isApiErrorBody(body)) {
      const message = textOf(body, 'message');
      if (message) return { code, message, lacks };
    } else {
      const specific = ['message', 'error_description', 'detail', 'error', 'title']
        .map((key) => textOf(body, key))
        .find((text) => text !== null && text.toLowerCase() !== reason.toLowerCase() && text !== 'No message available');
      const at = textOf(body, 'path') ? ` at ${textOf(body, 'path')}` : '';
      const message = specific ? `${specific} (${status} ${reason}${at})` : `${request} was answered ${status} ${reason}${at}`;
      return { code, message, lacks };
    }
  }
  const plain = (answer.contentType ?? '').split(';')[0].trim().toLowerCase() === 'text/plain';
  if (plain && answer.body.trim()) return { code, message: `${snippet(answer.body)} (${status} ${reason})`, lacks };
  return { code, message: `${request} was answered ${status} ${reason}`, lacks };
}
