// A Backend that tells a watcher what passes through it: every search answer, with the request it answered,
// and every failure. The editor's state learns facet fields from the preview's searches and reads again what
// the server offers after a `not_offered` answer this way, whichever part of the UI made the call.
import type { Backend, PreviewSearchRequest } from './Backend';
import { BackendError } from './Backend';
import type { SearchResponse } from '../types/generated';

export interface Watcher {
  onSearch(id: number, request: PreviewSearchRequest, answer: SearchResponse): void;
  onError(error: BackendError): void;
}

/** `backend` with every operation reported to `watcher`; answers and errors pass through unchanged. */
export function watchBackend(backend: Backend, watcher: Watcher): Backend {
  const report = (tell: () => void) => {
    try {
      tell();
    } catch {
      /* a watcher's failure is never the operation's */
    }
  };
  return new Proxy(backend, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (answer: unknown) => {
            if (key === 'search') report(() => watcher.onSearch(args[0] as number, args[1] as PreviewSearchRequest, answer as SearchResponse));
            return answer;
          },
          (e: unknown) => {
            report(() => watcher.onError(BackendError.from(e)));
            throw e;
          },
        );
      };
    },
  });
}
