// Reads and writes a value at a dotted path (`config.filter.facetsToShow.2.title`), the same paths the
// server uses for its `errors` keys.

export function splitPath(path: string): (string | number)[] {
  return path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

export function getPath(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const part of splitPath(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

/** Sets the value in place, creating missing objects on the way. */
export function setPath(root: object, path: string, value: unknown): void {
  const parts = splitPath(path);
  let node = root as Record<string | number, unknown>;
  for (const part of parts.slice(0, -1)) {
    let next = node[part];
    if (next === null || typeof next !== 'object') {
      next = {};
      node[part] = next;
    }
    node = next as Record<string | number, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}
