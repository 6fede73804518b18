// Passes an API request to the upstream `studio serve` (method, path, query, Authorization, body) and
// answers with the upstream's status and body. An upstream error body `{status, error, message}` is
// rewritten as a Spring application's own error answer (with timestamp and path). The query parameter
// `explain` (an extension of this project's engine) is not passed on: the production server ignores it. A search's
// results at the places in `unstorable` (from 1, over the whole search) are sent with an empty id; while
// `failingSearches.left` is above 0, a search for the page at `failingSearches.start` answers 500 and counts it down.

import { readBody } from '../lib/lifecycle.mjs';
import { errorBody, sendError, sendJson } from './spring.mjs';

const TIMEOUT_MS = 60_000;
const REQUEST_HEADERS = ['authorization', 'content-type', 'accept'];
const ANSWER_HEADERS = ['content-type', 'www-authenticate'];

function springShaped(status, text, pathname) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const message = typeof body.message === 'string' ? body.message : undefined;
  return errorBody(status, pathname, { error: typeof body.error === 'string' ? body.error : undefined, message });
}

/** The search answer `text` with an empty id for each result at a place in `unstorable`, the page starting at the
 * request body's `start`. */
function withUnstorable(text, requestBody, unstorable) {
  const answer = JSON.parse(text);
  const start = startOf(requestBody);
  for (const [i, document] of (answer.result ?? []).entries()) {
    if (unstorable.has(start + i + 1)) document.id = '';
  }
  return JSON.stringify(answer);
}

/** The `start` of a search's request body, 0 when it names none. */
function startOf(requestBody) {
  return JSON.parse(requestBody || '{}').start ?? 0;
}

export async function forward(req, res, { upstream, pathname, log, unstorable = new Set(), failingSearches }) {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.searchParams.has('explain')) url.searchParams.delete('explain');
  const target = `${upstream}${pathname}${url.search}`;
  const headers = {};
  for (const name of REQUEST_HEADERS) {
    if (req.headers[name] !== undefined) headers[name] = req.headers[name];
  }
  const body = ['GET', 'HEAD'].includes(req.method) ? undefined : await readBody(req);
  const search = req.method === 'POST' && pathname.endsWith('/search');
  if (search && failingSearches?.left > 0 && startOf(body) === failingSearches.start) {
    failingSearches.left -= 1;
    sendError(res, 500, pathname, { message: 'failing as told' });
    return;
  }

  let answer;
  try {
    answer = await fetch(target, { method: req.method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error.name === 'TimeoutError';
    log(`${req.method} ${pathname}: upstream ${timedOut ? 'timed out' : 'unreachable'}: ${error.cause?.message ?? error.message}`);
    sendError(res, timedOut ? 504 : 502, pathname, { message: timedOut ? 'upstream timed out' : 'upstream unreachable' });
    return;
  }

  let text = await answer.text();
  if (unstorable.size > 0 && answer.ok && search) {
    text = withUnstorable(text, body, unstorable);
  }
  const passed = {};
  for (const name of ANSWER_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) passed[name] = value;
  }
  if (answer.status >= 400) {
    const spring = springShaped(answer.status, text, pathname);
    if (spring) {
      sendJson(res, answer.status, spring, passed['www-authenticate'] ? { 'www-authenticate': passed['www-authenticate'] } : {});
      return;
    }
  }
  res.writeHead(answer.status, { ...passed, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
