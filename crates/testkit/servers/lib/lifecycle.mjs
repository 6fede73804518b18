// How every test server lives: it announces itself with one line of JSON on stdout (the only thing it
// ever writes there), logs to stderr, and ends on SIGTERM/SIGINT or as soon as its stdin closes, so that
// a test process that crashes never leaves a server behind.

/** Prints the one line a test reads to learn where the server is. */
export function announce(fields) {
  process.stdout.write(`${JSON.stringify(fields)}\n`);
}

/** A line on stderr, prefixed with the server's name. */
export function logger(name) {
  return (...parts) => process.stderr.write(`${name}: ${parts.join(' ')}\n`);
}

/** Ends the process (after `close`) on SIGTERM, SIGINT, or the end of stdin. */
export function exitWithParent(close) {
  let ending = false;
  const end = (code) => {
    if (ending) return;
    ending = true;
    Promise.resolve()
      .then(close)
      .catch(() => {})
      .finally(() => process.exit(code));
  };
  process.on('SIGTERM', () => end(0));
  process.on('SIGINT', () => end(0));
  process.stdin.on('end', () => end(0));
  process.stdin.on('close', () => end(0));
  process.stdin.on('error', () => end(0));
  process.stdin.resume();
}

/** Stops with a message on stderr and exit status 2 (bad arguments). */
export function usage(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** A whole number of seconds from a command line value, or a usage error. */
export function positiveSeconds(name, value) {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1) {
    usage(`--${name} wants a whole number of seconds above 0, not "${value}"`);
  }
  return seconds;
}

/** A TCP port from a command line value (0 = any free port), or a usage error. */
export function port(value) {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) {
    usage(`--port wants a port number (0 for any free port), not "${value}"`);
  }
  return number;
}

/** The whole body of a request, as a string. */
export function readBody(req, limit = 8 * 1024 * 1024) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
