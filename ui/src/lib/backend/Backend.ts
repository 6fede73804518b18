// The one interface the UI talks to. `http.ts` implements it over fetch against `studio serve` (with what a browser
// keeps on its own side, webworkspace.ts); `tauri.ts` over the desktop shell's commands. Only what truly needs the
// desktop (files, long work, connections, sign-in, copying, links) is in the optional `desktop`; nothing else in
// the UI knows which one it has.
import type { Config, Configuration, ErrorCode, SearchRequest, SearchResponse } from '../types/generated';
import type { ApiOperations } from '../types/commands';
import { ERROR_STATUS, UNREACHABLE_CODES } from '../types/generated';
import type { Choices, HistoryEntry, ImportedConfig, Plan, PublishOutcome, Scenario } from '../types/sync';
import type {
  BackupSettings, ConnectionState, Connections, ConnectionInput, CopyOutcome, CopyPlan, DesktopSettings, Folder, FolderApplied, FolderChange, FolderPlan,
  RecoverReport, SignInInput, StoreStatus, TaskProgress, Theme,
} from '../types/desktop';

/** The desktop shell's own types, generated from its Rust types. */
export type { ConnectionState, DesktopSettings, TaskProgress, Theme };

/** What went wrong, as a code the UI can act on without matching message strings (generated from Rust). */
export type { ErrorCode };

export class BackendError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'BackendError';
    this.code = code;
  }

  /** Turns whatever a transport threw into a BackendError (a `{code, message}` object from IPC included). */
  static from(e: unknown): BackendError {
    if (e instanceof BackendError) return e;
    if (e && typeof e === 'object' && 'code' in e && 'message' in e) {
      const code = String((e as { code: unknown }).code);
      const known = Object.hasOwn(ERROR_STATUS, code) ? (code as ErrorCode) : 'internal';
      return new BackendError(known, String((e as { message: unknown }).message));
    }
    if (e instanceof Error) return new BackendError('network', e.message);
    return new BackendError('internal', String(e));
  }
}

/** The codes that mean the server could not be reached at all (or not in time), as opposed to one that answered. */
const UNREACHABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(UNREACHABLE_CODES);

/** Whether `error` means the server could not be reached: only then is the connection offline. */
export function isUnreachable(error: unknown): boolean {
  return UNREACHABLE.has(BackendError.from(error).code);
}

/**
 * The search body with the Search Studio extension `config` (in the generated SearchRequest as a JSON value):
 * settings that stand in for the stored configuration's in this one search, so that unsaved edits (facets, page
 * size) reach the results. The preview always sends a whole, valid `Config`; other servers ignore the field,
 * and the preview then shapes what it can on its own side.
 */
export type PreviewSearchRequest = SearchRequest & { config?: Config };

/**
 * The operations of the API (docs/api.md, Operations: the nine and the extensions), as any server of it answers them:
 * the methods of the Rust `Backend` trait, with their arguments and answers generated from it (types/commands.ts).
 * A search may carry the preview's settings (PreviewSearchRequest).
 */
export interface Api extends Omit<ApiOperations, 'search'> {
  search(id: number, request: PreviewSearchRequest): Promise<SearchResponse>;
}

/** The editor's preferences. */
export interface Prefs {
  theme: Theme;
  lastConfigId: number | null;
}

/** An autosaved draft, with the stored version it started from (null when that is not known). */
export interface KeptDraft {
  draft: Configuration;
  base: Configuration | null;
}

/**
 * What the editor keeps and does around the API, which both builds offer in their own way: the desktop app
 * through its shell (its settings, its local store, crates/sync), a browser on its own side (localStorage,
 * and publishing and history over the API: webworkspace.ts).
 */
export interface Workspace {
  /** The theme and the last edited configuration; the defaults when none were kept. */
  preferences(): Promise<Prefs>;
  savePreferences(change: Partial<Prefs>): Promise<void>;
  /** Keeps the unsaved draft of configuration `id` (of the current server) with the version it started from. */
  saveDraft(id: number, draft: Configuration, base: Configuration): Promise<void>;
  getDraft(id: number): Promise<KeptDraft | null>;
  discardDraft(id: number): Promise<void>;
  /** The preview scenarios kept for configuration `id` (of the current server); never sent to it. */
  scenarios(id: number): Promise<Scenario[]>;
  /** Keeps `list` as those scenarios (checked against their limits); resolves once stored. */
  saveScenarios(id: number, list: Scenario[]): Promise<void>;
  /** Updates only when the server still holds `base`; otherwise answers the conflict and writes nothing. */
  publish(id: number, mine: Configuration, base: Configuration): Promise<PublishOutcome>;
  /** The server's log of configuration `id` and the versions published from here, newest first. */
  history(id: number): Promise<HistoryEntry[]>;
  /** Whether the server answers: only one that cannot be reached is offline. */
  checkConnection(): Promise<ConnectionState>;
}

/** The one interface the UI talks to. */
export interface Backend extends Api, Workspace {
  /** What only the desktop app can do. */
  readonly desktop?: Desktop;
}

/** What only the desktop app can do: files, long work, connections and their sign-in, copying, links, the local
 * store's health and backups, a folder of configuration files as the workspace. */
export interface Desktop {
  /** What the launch found: the local store open, damaged, or behind its newest backup. */
  storeStatus(): Promise<StoreStatus>;
  /** Recovers a damaged local store and opens the recovered one; answers what was saved. */
  recoverStore(): Promise<RecoverReport>;
  /** Goes on with a store that is behind its newest backup, as it is. */
  openStoreAsIs(): Promise<void>;
  /** Opens the data directory, or its backups folder, in the system's file manager. */
  openFolder(folder: Folder): Promise<void>;
  /** Where the automatic backups are, how many, and when the newest was taken. */
  backupSettings(): Promise<BackupSettings>;
  /** The first screen is complete: the window, hidden until then, is shown with it. */
  firstScreenReady(): Promise<void>;
  /** The settings, for their data directory. */
  getSettings(): Promise<DesktopSettings>;
  /** Opens the system's file dialog; null when the user cancelled. */
  pickFile(): Promise<string | null>;
  startImport(path: string, searchSpace: string): Promise<number>;
  loadDemo(): Promise<number>;
  /** False when the task had finished already. */
  cancelTask(taskId: number): Promise<boolean>;
  /** Asks where to save, then writes one configuration (or all, for null); false when the user cancelled. */
  exportConfigurations(id: number | null): Promise<boolean>;
  /** Asks for a file, then stores its configurations as new ones; null when the user cancelled. */
  importConfigurations(): Promise<ImportedConfig[] | null>;
  /** Opens an http(s) address in the system's browser (the app's window opens no new windows). */
  openLink(url: string): Promise<void>;
  /** Takes a configuration of the current remote server offline, as a task. */
  startPull(id: number): Promise<number>;
  /** Calls `listener` for every progress report; the returned function stops listening. */
  onTaskProgress(listener: (p: TaskProgress) => void): Promise<() => void>;
  listConnections(): Promise<Connections>;
  /** With a password given, signs in first and fails without saving when the provider refuses. */
  saveConnection(input: ConnectionInput): Promise<Connections>;
  /** Forgets its secrets; removing the current one switches to the local store. */
  removeConnection(id: string): Promise<Connections>;
  /** Switches the backend; a connection whose sign-in has ended still becomes current (then sign in). When another
   * switch was asked for while the server was being reached, the later one wins and this one fails with `conflict`. */
  useConnection(id: string): Promise<Connections>;
  signIn(id: string, input: SignInInput): Promise<Connections>;
  /** Authorization code with PKCE through the system's browser and a loopback redirect. */
  signInBrowser(id: string): Promise<Connections>;
  /** Ends a browser sign-in to connection `id` that is waiting; the waiting `signInBrowser` fails. */
  cancelSignIn(id: string): Promise<void>;
  /** Forgets the tokens and the remembered password. */
  signOut(id: string): Promise<Connections>;
  /** What copying configuration `id` to connection `target` changes; `targetId` null lets the shell pick. */
  copyPlan(target: string, id: number, targetId: number | null): Promise<CopyPlan>;
  copyConfiguration(target: string, id: number, targetId: number | null, base: Configuration | null): Promise<CopyOutcome>;
  /** Opens the system's folder dialog; null when the user cancelled. */
  pickFolder(): Promise<string | null>;
  /** Opens a folder of configuration files as the workspace (the connection `folder`) and makes it current. */
  openWorkspaceFolder(path: string): Promise<Connections>;
  /** The open folder's path and every file of it that cannot be read as a configuration now. */
  folderStatus(): Promise<FolderChange>;
  /** Makes the folder's preview search connection `id` (`local` or a remote one). */
  setFolderSearch(id: string): Promise<Connections>;
  /** The plan of applying the open folder's files (on disk) to connection `target`; with `prune`, what only the
   * target has is deleted. A folder with problems answers them instead. */
  planFolder(target: string, prune: boolean): Promise<FolderPlan>;
  /** Makes the changes of `plan` (the one shown) on `target`; nothing is written when it no longer holds. */
  applyFolder(target: string, prune: boolean, plan: Plan, choices: Choices): Promise<FolderApplied>;
  /** Calls `listener` for every change to the open folder on disk; the returned function stops listening. */
  onFolderChange(listener: (change: FolderChange) => void): Promise<() => void>;
}
