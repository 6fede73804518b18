// A part of the UI that the first screen does not show (a dialog, Compare, Inspect, the sign-in popup's page), built
// by Vite into a chunk of its own and loaded the first time it is shown. Code that is loaded but never run still
// costs the desktop's WebKit about ten times its size in memory for as long as the window is open
// (docs/performance-journal.md, "The desktop app beside an empty window").
import type { Component } from 'svelte';

// Svelte's own type for a component of any props.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProps = Record<string, any>;

/** Why a part could not be loaded, in words a designer can act on. */
export function loadFailure(what: string, error: unknown): string {
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return `The ${what} could not be loaded${detail}. Try again; if it keeps failing, restart Search Studio or reload the page.`;
}

export class Part<P extends AnyProps> {
  /** The component once loaded. */
  component: Component<P> | null = $state(null);
  /** Why the last load failed, or null. */
  failed: string | null = $state(null);
  #loading = false;

  /** `what` names the part in the error shown when its chunk cannot be loaded ("Settings dialog"). */
  constructor(
    readonly what: string,
    private readonly importer: () => Promise<{ default: Component<P> }>,
  ) {}

  /** Shown, or why not: loaded, or its load failed. */
  get settled(): boolean {
    return this.component !== null || this.failed !== null;
  }

  /** Starts loading the part, once; again after a failure only through `retry`. */
  load(): void {
    if (this.#loading || this.component || this.failed) return;
    this.#loading = true;
    this.importer().then(
      (module) => {
        this.component = module.default;
        this.#loading = false;
      },
      (error: unknown) => {
        this.failed = loadFailure(this.what, error);
        this.#loading = false;
      },
    );
  }

  retry(): void {
    this.failed = null;
    this.load();
  }
}

/** A part loaded by `importer` when first shown. */
export function part<P extends AnyProps>(what: string, importer: () => Promise<{ default: Component<P> }>): Part<P> {
  return new Part(what, importer);
}
