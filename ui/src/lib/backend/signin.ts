// Signing in again without losing work (decisions.md §7, "Token life"). In the desktop build every Backend and
// Desktop call goes through a SignInGate: a call that fails with `unauthorized` while the current connection is
// remote asks the designer to sign in (one dialog, however many calls failed at once) and, once signed in, is
// retried once and answers its caller as if nothing had happened. A cancel gives the caller the original error.
// The gate never touches the editor's state: a waiting call simply waits.
import type { Backend, Desktop } from './Backend';
import { BackendError } from './Backend';
import type { Connection } from '../types/desktop';

/** Shows the sign-in dialog for `connection`; true once signed in, false when the designer cancels. */
export type AskSignIn = (connection: Connection) => Promise<boolean>;

/**
 * Calls that never ask: the connection and sign-in commands answer for a connection of their own (a refused
 * password in the connection form is that form's error), and switching connections lets the first call on the
 * new one ask, so that switching to a server whose sign-in has ended asks once, not twice.
 */
const NEVER_ASK = new Set<string>([
  'listConnections', 'saveConnection', 'removeConnection', 'useConnection', 'signIn', 'signInBrowser', 'signOut',
  'onTaskProgress',
]);

/**
 * Calls made on the designer's behalf in the background (the preview's searches while typing, the connection
 * check every few seconds): once the designer has cancelled a sign-in they fail quietly instead of opening the
 * dialog again on every keystroke, until a sign-in succeeds or another connection is used.
 */
const BACKGROUND = new Set<string>(['search', 'similarDocuments', 'recommendations', 'checkConnection', 'offers']);

export class SignInGate {
  readonly #desktop: Desktop;
  readonly #ask: AskSignIn;
  /** The dialog on screen, shared by every call that failed while it is open. */
  #pending: Promise<boolean> | null = null;
  /** Successful sign-ins so far: a call that started before one and failed after it retries without asking. */
  #signIns = 0;
  #declined = false;

  constructor(desktop: Desktop, ask: AskSignIn) {
    this.#desktop = desktop;
    this.#ask = ask;
  }

  /** Runs `call`; on `unauthorized`, signs in (asking at most once at a time) and runs it once more. */
  async run<T>(name: string, call: () => Promise<T>): Promise<T> {
    const before = this.#signIns;
    try {
      return await call();
    } catch (error) {
      if (NEVER_ASK.has(name) || BackendError.from(error).code !== 'unauthorized') throw error;
      const signedInSince = this.#signIns !== before;
      if (!signedInSince && !(await this.#signIn(BACKGROUND.has(name)))) throw error;
      return call();
    }
  }

  /** A sign-in made elsewhere (the Settings' "Sign in") counts as one made here. */
  signedIn(): void {
    this.#signIns++;
    this.#declined = false;
  }

  /** Another connection is in use: a cancel on the previous one no longer keeps background calls quiet. */
  connectionChanged(): void {
    this.#declined = false;
  }

  #signIn(background: boolean): Promise<boolean> {
    if (this.#pending) return this.#pending;
    if (background && this.#declined) return Promise.resolve(false);
    this.#pending = this.#prompt().finally(() => (this.#pending = null));
    return this.#pending;
  }

  async #prompt(): Promise<boolean> {
    const list = await this.#desktop.listConnections().catch(() => null);
    const current = list?.connections.find((c) => c.id === list.current);
    if (!current || current.kind !== 'remote' || current.signIn === 'none') return false;
    const done = await this.#ask(current);
    if (done) this.signedIn();
    else this.#declined = true;
    return done;
  }
}

/** Wraps every method of `target` (except those in `own`) so that it runs through `gate`. */
function guard<T extends object>(target: T, gate: SignInGate, own: Partial<Record<string | symbol, unknown>>): T {
  return new Proxy(target, {
    get(object, key) {
      if (key in own) return own[key];
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      if (typeof key !== 'string') return method.bind(object);
      return (...args: unknown[]) => gate.run(key, () => method.apply(object, args));
    },
  });
}

/** The same Backend, with every call of it and of its Desktop going through one SignInGate. */
export function withSignIn(backend: Backend, ask: AskSignIn): Backend {
  const raw = backend.desktop;
  if (!raw) return backend;
  const gate = new SignInGate(raw, ask);
  const counted = async <T>(work: Promise<T>, after: () => void): Promise<T> => {
    const answer = await work;
    after();
    return answer;
  };
  const desktop = guard(raw, gate, {
    signIn: (...args: Parameters<Desktop['signIn']>) => counted(raw.signIn(...args), () => gate.signedIn()),
    signInBrowser: (id: string) => counted(raw.signInBrowser(id), () => gate.signedIn()),
    useConnection: (id: string) =>
      raw.useConnection(id).finally(() => gate.connectionChanged()),
  });
  return guard(backend, gate, { desktop });
}
