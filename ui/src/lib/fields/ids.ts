// Element ids derived from a dotted path, so a label, its input and its error message find each other.
export const fieldId = (path: string) => 'f-' + path.replace(/[^A-Za-z0-9_-]/g, '-');
export const errorId = (path: string) => fieldId(path) + '-error';
