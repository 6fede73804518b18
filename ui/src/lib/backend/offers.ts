// What a server offers beyond the API's nine operations (docs/api.md, Operations; docs/choices.md, Real servers): which request stands for which
// extension, and which extensions an OpenAPI document (2.0 as the production server serves it, or 3.x as
// `studio serve` does) lists. The extensions themselves (method, path, operation in words) are generated
// from Rust as EXTENSIONS; nothing here repeats them.
import { EXTENSIONS } from '../types/generated';
import type { Extension, Offers } from '../types/generated';

export const ALL_EXTENSIONS = Object.keys(EXTENSIONS) as Extension[];

/** Everything offered: what is assumed until the server's document or an answer says otherwise. */
export function allOffered(): Offers {
  return Object.fromEntries(ALL_EXTENSIONS.map((e) => [e, true])) as Offers;
}

/** The message of a `not_offered` error: "this server does not offer making a configuration active". */
export function notOfferedMessage(extension: Extension): string {
  return `this server does not offer ${EXTENSIONS[extension].operation}`;
}

/** The same as a sentence, for the reason a control is unavailable. */
export function notOfferedReason(extension: Extension): string {
  const message = notOfferedMessage(extension);
  return `${message[0].toUpperCase()}${message.slice(1)}.`;
}

const segments = (path: string) => path.split('?')[0].split('/').filter(Boolean);
const isId = (part: string) => part.startsWith('{') || /^-?\d+$/.test(part);

/** The extension a request stands for (`POST /api/configurations/4/set` → `setActive`), or null. */
export function extensionOf(method: string, path: string): Extension | null {
  const parts = segments(path);
  for (const extension of ALL_EXTENSIONS) {
    const route = EXTENSIONS[extension];
    if (route.method !== method.toLowerCase()) continue;
    const wanted = segments(route.path);
    // A configuration id is a number; another parameter (a search space) any segment.
    const matches = (w: string, part: string) => (w === '{configId}' ? isId(part) : w.startsWith('{') || w === part);
    const same = wanted.length === parts.length && wanted.every((w, i) => matches(w, parts[i]));
    if (same) return extension;
  }
  return null;
}

/** A path as compared: parameters written `{}`, one leading slash, no trailing one. */
function normalise(path: string): string {
  return '/' + segments(path.replace(/\{[^}]*\}/g, '{}')).join('/');
}

/** The prefix every documented path sits under: 2.0's `basePath`, or the path of 3.x's first server URL. */
function basePath(document: Record<string, unknown>): string {
  if (typeof document.basePath === 'string') return document.basePath;
  const servers = document.servers;
  const url = Array.isArray(servers) && typeof servers[0]?.url === 'string' ? (servers[0].url as string) : '';
  const afterScheme = url.includes('://') ? url.slice(url.indexOf('://') + 3) : null;
  if (afterScheme === null) return url;
  const slash = afterScheme.indexOf('/');
  return slash < 0 ? '' : afterScheme.slice(slash);
}

/** Which extensions an OpenAPI document lists; null when the value is not such a document. */
export function offersInDocument(document: unknown): Offers | null {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return null;
  const doc = document as Record<string, unknown>;
  const paths = doc.paths;
  if (!('swagger' in doc || 'openapi' in doc) || !paths || typeof paths !== 'object' || Array.isArray(paths)) return null;
  const base = basePath(doc).replace(/\/+$/, '');
  const listed = Object.entries(paths as Record<string, unknown>).map(([path, item]) => ({ path: normalise(`${base}/${path}`), item }));
  const offers = allOffered();
  for (const extension of ALL_EXTENSIONS) {
    const { method, path } = EXTENSIONS[extension];
    const wanted = normalise(path);
    offers[extension] = listed.some((l) => l.path === wanted && !!l.item && typeof l.item === 'object' && method in l.item);
  }
  return offers;
}
