// A browser's cookie jar, as much of one as a sign-in needs: cookies by host (not port, as browsers
// keep them), path and name; expired or deleted ones are dropped.

export class CookieJar {
  /** key `host path name` -> { host, path, name, value, expires } */
  #cookies = new Map();

  /** Takes the Set-Cookie headers of an answer to a request for `url`. */
  store(url, setCookies) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const cookie = {
        host: url.hostname,
        name: pair.slice(0, eq).trim(),
        value: pair.slice(eq + 1).trim(),
        path: defaultPath(url.pathname),
        expires: undefined,
      };
      for (const attribute of attributes) {
        const [key, ...rest] = attribute.split('=');
        const value = rest.join('=').trim();
        switch (key.trim().toLowerCase()) {
          case 'path':
            if (value.startsWith('/')) cookie.path = value;
            break;
          case 'max-age':
            cookie.expires = Date.now() + Number(value) * 1000;
            break;
          case 'expires':
            if (cookie.expires === undefined) cookie.expires = Date.parse(value);
            break;
          default:
        }
      }
      const key = `${cookie.host} ${cookie.path} ${cookie.name}`;
      if (cookie.expires !== undefined && !(cookie.expires > Date.now())) this.#cookies.delete(key);
      else this.#cookies.set(key, cookie);
    }
  }

  /** The Cookie header for a request to `url`, or an empty string. */
  header(url) {
    const now = Date.now();
    return [...this.#cookies.values()]
      .filter((c) => c.host === url.hostname && pathMatches(url.pathname, c.path))
      .filter((c) => c.expires === undefined || c.expires > now)
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

function defaultPath(pathname) {
  const slash = pathname.lastIndexOf('/');
  return slash <= 0 ? '/' : pathname.slice(0, slash);
}

function pathMatches(requestPath, cookiePath) {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
