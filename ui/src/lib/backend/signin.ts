// Signing in again without losing work (docs/architecture.md, Sign-in and token life). In the desktop build every Backend and
// Desktop call goes through a SignInGate: a call that fails because a remote connection's sign-in has ended asks
// the designer to sign in to that connection (one dialog at a time, however many calls failed at once) and, once
// signed in, is retried once and answers its caller as if nothing had happened. A cancel gives the caller the
// original error. The gate never touches the editor's state: a waiting call simply waits.
//
// The connection a failure concerns is the one the call was made on: the current connection, or for a copy the
// target connection, and for a folder's plan and apply the connection it is applied to. A call whose connection stopped being current while it ran (another connection was chosen,
// or the current one removed) is not retried: it gives its original error, since a retry would go elsewhere.
import type { Backend, Desktop } from './Backend';
import { BackendError } from './Backend';
import type { Connection } from '../types/desktop';

/** Shows the sign-in dialog for `connection`; true once signed in, false when the designer cancels. */
export type AskSignIn = (connection: Connection) => Promise<boolean>;

/** The error codes that mean "sign in again": the server refused the token, or the provider's session ended. */
const SIGN_IN_CODES: ReadonlySet<string> = new Set(['unauthorized', 'sign_in_needed']);

/** Whether `error` asks for a new sign-in. */
export function needsSignIn(error: unknown): boolean {
  return SIGN_IN_CODES.has(BackendError.from(error).code);
}

/**
 * Calls that never ask: the connection and sign-in commands answer for a connection of their own (a refused
 * password in the connection form is that form's error), and switching connections lets the first call on the
 * new one ask, so that switching to a server whose sign-in has ended asks once, not twice.
 */
const NEVER_ASK = new Set<string>([
  'listConnections', 'saveConnection', 'removeConnection', 'useConnection', 'signIn', 'signInBrowser', 'cancelSignIn',
  'signOut', 'onTaskProgress',
]);

/** Calls about another connection than the current one: the connection's id is their first argument. */
const ON_TARGET = new Set<string>(['copyPlan', 'copyConfiguration', 'planFolder', 'applyFolder']);

/** Calls that may change which connection is current. */
const SWITCHING = new Set<string>(['useConnection', 'removeConnection']);

/**
 * Calls made on the designer's behalf in the background (the preview's searches while typing, the connection
 * check every few seconds): once the designer has cancelled a sign-in they fail quietly instead of opening the
 * dialog again on every keystroke, until a sign-in succeeds or another connection is used.
 */
const BACKGROUND = new Set<string>(['search', 'similarDocuments', 'recommendations', 'checkConnection', 'offers']);

export class SignInGate {
  readonly #desktop: Desktop;
  readonly #ask: AskSignIn;
  /** The dialog on screen (for one connection), shared by every call about it that failed while it is open. */
  #pending: { id: string; answer: Promise<boolean> } | null = null;
  /** The connections signed in to so far, in order: a call that failed after one for its connection retries without asking. */
  readonly #signedIn: string[] = [];
  /** Connections whose sign-in the designer cancelled: background calls about them do not ask again. */
  readonly #declined = new Set<string>();
  /** Counts the settled calls that may have changed the current connection. */
  #switches = 0;

  constructor(desktop: Desktop, ask: AskSignIn) {
    this.#desktop = desktop;
    this.#ask = ask;
  }

  /** Runs `call` (the method `name` with `args`); on an ended sign-in, signs in (asking at most once at a time) and runs it once more. */
  async run<T>(name: string, args: readonly unknown[], call: () => Promise<T>): Promise<T> {
    const switches = this.#switches;
    const mark = this.#signedIn.length;
    try {
      return await call();
    } catch (error) {
      if (NEVER_ASK.has(name) || !needsSignIn(error)) throw error;
      const target = ON_TARGET.has(name) ? String(args[0]) : null;
      // A call on the current connection that is no longer current would be retried on another one.
      const moved = () => target === null && this.#switches !== switches;
      if (moved()) throw error;
      const connection = await this.#connection(target);
      if (!connection || connection.kind !== 'remote' || connection.signIn === 'none') throw error;
      const signedInSince = this.#signedIn.slice(mark).includes(connection.id);
      if (!signedInSince && !(await this.#signIn(connection, BACKGROUND.has(name)))) throw error;
      if (moved()) throw error;
      return call();
    }
  }

  /** A sign-in to connection `id` made elsewhere (Settings' "Sign in") counts as one made here. */
  signedIn(id: string): void {
    this.#signedIn.push(id);
    this.#declined.delete(id);
  }

  /** A call that may have changed the current connection settled: a cancel no longer keeps background calls quiet. */
  connectionChanged(): void {
    this.#switches++;
    this.#declined.clear();
  }

  /** Connection `id`, or the current one for null. */
  async #connection(id: string | null): Promise<Connection | undefined> {
    const list = await this.#desktop.listConnections().catch(() => null);
    const wanted = id ?? list?.current;
    return list?.connections.find((c) => c.id === wanted);
  }

  async #signIn(connection: Connection, background: boolean): Promise<boolean> {
    while (this.#pending && this.#pending.id !== connection.id) await this.#pending.answer.catch(() => false);
    if (this.#pending) return this.#pending.answer;
    if (background && this.#declined.has(connection.id)) return false;
    const answer = this.#prompt(connection).finally(() => (this.#pending = null));
    this.#pending = { id: connection.id, answer };
    return answer;
  }

  async #prompt(connection: Connection): Promise<boolean> {
    const done = await this.#ask(connection);
    if (done) this.signedIn(connection.id);
    else this.#declined.add(connection.id);
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
      return (...args: unknown[]) => gate.run(key, args, () => method.apply(object, args));
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
  const own: Partial<Record<string, unknown>> = {
    signIn: (...args: Parameters<Desktop['signIn']>) => counted(raw.signIn(...args), () => gate.signedIn(args[0])),
    signInBrowser: (id: string) => counted(raw.signInBrowser(id), () => gate.signedIn(id)),
  };
  for (const name of SWITCHING) {
    const method = raw[name as 'useConnection' | 'removeConnection'].bind(raw);
    own[name] = (id: string) => method(id).finally(() => gate.connectionChanged());
  }
  return guard(backend, gate, { desktop: guard(raw, gate, own) });
}
