// The edited copy of one configuration: the whole envelope (unknown fields included) deep-copied from the
// stored one, its undo and redo history, the keys the client rules refuse as the user types, and the keys the
// server refused at the last save. Every edit goes through `set`, so every edit can be undone.
import type { Configuration, FieldError } from '../types/generated';
import { getPath, setPath } from './paths';
import { validateConfig } from './rules';

const HISTORY_LIMIT = 200;

interface Step {
  snapshot: string;
}

export function errorsByKey(errors: FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[e.key] = out[e.key] ? `${out[e.key]}; ${e.message}` : e.message;
  return out;
}

export class Draft {
  envelope: Configuration = $state() as Configuration;
  /** JSON of the configuration as last stored; the draft is dirty when it differs. */
  savedJson: string = $state.raw('');
  /** Messages of the keys the server refused at the last save, by dotted path. */
  serverErrors: Record<string, string> = $state.raw({});
  undoCount = $state(0);
  redoCount = $state(0);

  json = $derived(JSON.stringify(this.envelope));
  dirty = $derived(this.json !== this.savedJson);
  clientErrors = $derived(errorsByKey(validateConfig(this.envelope?.config)));

  #undo: Step[] = [];
  #redo: Step[] = [];
  /** The path of the last edit while it may still be merged into one undo step (typing into one field). */
  #openPath: string | null = null;

  constructor(stored: Configuration) {
    this.envelope = structuredClone(stored);
    this.savedJson = JSON.stringify(stored);
  }

  get id(): number | null {
    return this.envelope.id;
  }

  get(path: string): unknown {
    return getPath(this.envelope, path);
  }

  /** The message to show next to a field: the server's refusal first, else the client rule's. */
  errorFor(path: string): string | undefined {
    return this.serverErrors[path] ?? this.clientErrors[path];
  }

  /** Errors of a path and everything under it (for a facet item or a pane's badge). */
  errorsUnder(prefix: string): string[] {
    const all = { ...this.clientErrors, ...this.serverErrors };
    return Object.keys(all).filter((k) => k === prefix || k.startsWith(prefix + '.'));
  }

  /**
   * Sets one value. Consecutive edits of the same path form one undo step until `seal` is called (a field
   * seals when it loses focus), so typing a word is undone at once.
   */
  set(path: string, value: unknown): void {
    if (JSON.stringify(this.get(path)) === JSON.stringify(value)) return;
    if (this.#openPath !== path) this.#record();
    this.#openPath = path;
    setPath(this.envelope, path, value);
    if (path in this.serverErrors) {
      const { [path]: _, ...rest } = this.serverErrors;
      this.serverErrors = rest;
    }
  }

  /** Writes a value that follows the one just set (`refId` follows `uri`), within the same undo step. */
  follow(path: string, value: unknown): void {
    setPath(this.envelope, path, value);
  }

  /** Replaces a value through a function of a copy of it (arrays: add, remove, move). One undo step. */
  update<T>(path: string, change: (copy: T) => T | void): void {
    const copy = structuredClone($state.snapshot(this.get(path))) as T;
    const result = change(copy);
    this.seal();
    this.set(path, result === undefined ? copy : result);
    this.seal();
  }

  seal(): void {
    this.#openPath = null;
  }

  #record() {
    this.#undo.push({ snapshot: this.json });
    if (this.#undo.length > HISTORY_LIMIT) this.#undo.shift();
    this.#redo = [];
    this.#counts();
  }

  #counts() {
    this.undoCount = this.#undo.length;
    this.redoCount = this.#redo.length;
  }

  undo(): boolean {
    const step = this.#undo.pop();
    if (!step) return false;
    this.#redo.push({ snapshot: this.json });
    this.envelope = JSON.parse(step.snapshot);
    this.#openPath = null;
    this.#counts();
    return true;
  }

  redo(): boolean {
    const step = this.#redo.pop();
    if (!step) return false;
    this.#undo.push({ snapshot: this.json });
    this.envelope = JSON.parse(step.snapshot);
    this.#openPath = null;
    this.#counts();
    return true;
  }

  /** Goes back to the stored configuration; itself one undoable step. */
  revert(): void {
    if (!this.dirty) return;
    this.#record();
    this.envelope = JSON.parse(this.savedJson);
    this.serverErrors = {};
    this.#openPath = null;
  }

  /** What an update sends: the whole envelope, unknown fields included. */
  body(): Configuration {
    return $state.snapshot(this.envelope) as Configuration;
  }

  /**
   * Takes in the answer of a save. With no refused key the draft becomes the stored configuration (the server
   * may have normalised it). With refused keys, what the user typed stays in the draft, still unsaved, and each
   * refused key is marked at its field. Edits made while the save was under way are kept either way.
   */
  markSaved(sentJson: string, stored: Configuration, errors: FieldError[]): void {
    this.savedJson = JSON.stringify(stored);
    this.serverErrors = errorsByKey(errors);
    const editedMeanwhile = this.json !== sentJson;
    if (errors.length === 0 && !editedMeanwhile) {
      this.envelope = structuredClone(stored);
    } else {
      this.envelope.id = stored.id;
      this.envelope.created = stored.created;
      this.envelope.user = stored.user;
    }
    this.#openPath = null;
  }

  /** Takes back edits kept from an earlier session; undo goes back to the stored configuration. */
  restore(edited: Configuration): void {
    this.#record();
    this.envelope = edited;
  }

  /** Replaces the stored baseline after a change made elsewhere (make active, reload) without touching edits. */
  rebase(stored: Configuration): void {
    const wasClean = !this.dirty;
    this.savedJson = JSON.stringify(stored);
    if (wasClean) this.envelope = structuredClone(stored);
  }
}
