// The built web UI served from a directory, so that a browser can use the double as its origin (the
// same origin as the API). Unknown paths get index.html, as `studio serve` does for the UI's own routes.
// The security headers are the upstream's own (read from its answer), so the page runs under the same
// Content-Security-Policy as it does behind `studio serve`.

import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy'];

/** The security headers `studio serve` sends, taken from an answer of the upstream. */
export async function upstreamSecurityHeaders(upstream) {
  const answer = await fetch(`${upstream}/healthz`, { signal: AbortSignal.timeout(15_000) });
  await answer.arrayBuffer();
  const headers = {};
  for (const name of SECURITY_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  if (!headers['content-security-policy']) {
    throw new Error(`${upstream}/healthz sent no Content-Security-Policy`);
  }
  return headers;
}

async function fileAt(root, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const path = resolve(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  try {
    return (await stat(path)).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Answers GET/HEAD `pathname` from `dir`; returns false when the request is not one for a file. */
export async function serveUi(req, res, { dir, pathname, headers }) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const root = resolve(dir);
  const path = (await fileAt(root, pathname)) ?? (await fileAt(root, '/index.html'));
  if (!path) return false;
  const body = await readFile(path);
  res.writeHead(200, {
    'content-type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': 'no-cache',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
