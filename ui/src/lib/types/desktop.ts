// Generated from the Rust types of the desktop shell (src-tauri) by its `bindings` test; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p search-studio --test commands bindings

import type { Configuration } from './generated';
import type { Done, FieldDiff, Plan, Problem, PublishOutcome } from './sync';

export type SignInMethod = "none" | "token" | "password" | "browser";

export type SecretStorage = "keyring" | "file";

export type Connection = { 
/**
 * `local` for the local store; others e.g. `c-3f9a…`.
 */
id: string, name: string, kind: "local" | "remote" | "folder", 
/**
 * The remote server's base URL (the part before `/api`); null for the local store.
 */
url: string | null, signIn: SignInMethod, 
/**
 * The OpenID Connect issuer URL (password and browser methods).
 */
issuer: string | null, clientId: string | null, 
/**
 * The password method's username.
 */
username: string | null, rememberPassword: boolean, 
/**
 * A pasted token is saved.
 */
hasToken: boolean, hasClientSecret: boolean, 
/**
 * A remembered password is saved.
 */
hasPassword: boolean, 
/**
 * The shell holds tokens for it now (or a saved refresh token, or a pasted token).
 */
signedIn: boolean, 
/**
 * Where its secrets are kept; null while none are.
 */
secretStorage: SecretStorage | null, 
/**
 * A folder's full path; null for the others.
 */
path: string | null, 
/**
 * For a folder: the id of the connection its preview searches (`local` or a remote one); null for the others.
 */
searches: string | null, };

export type Connections = { connections: Array<Connection>, 
/**
 * The id of the current connection.
 */
current: string, 
/**
 * What went wrong with the connections or their secrets since the app started, each a sentence for
 * Settings (the last connection could not be set up, the keyring did not answer, the secrets file was
 * damaged).
 */
notices: Array<string>, };

export type ConnectionInput = { 
/**
 * Null for a new connection.
 */
id: string | null, name: string, url: string, signIn: SignInMethod, issuer: string | null, clientId: string | null, username: string | null, rememberPassword: boolean, 
/**
 * The token method's token; null keeps the saved one, "" removes it.
 */
token: string | null, 
/**
 * Null keeps the saved one, "" removes it.
 */
clientSecret: string | null, 
/**
 * The password method's password: used to sign in now, kept only when `rememberPassword`.
 */
password: string | null, };

export type SignInInput = { password: string | null, token: string | null, 
/**
 * Keep the password (password method) or the token (token method) for the next start.
 */
remember: boolean, };

export type CopyPlan = { 
/**
 * The connection the configuration goes to.
 */
target: string, 
/**
 * The configuration copied, on the current connection.
 */
sourceId: number, 
/**
 * The target's configuration that would be updated; null when a new one would be created ("new there").
 */
targetId: number | null, 
/**
 * The target's current version of it (null when new); the copy checks that it is still the same.
 */
base: Configuration | null, 
/**
 * Field by field, what changes on the target.
 */
diff: Array<FieldDiff>, 
/**
 * The target's configurations, to pick which one to update instead.
 */
candidates: Array<Configuration>, };

export type Theme = "light" | "dark" | "system";

export type DesktopSettings = { theme: Theme, lastConfigId: number | null, dataDir: string, };

export type TaskProgress = { taskId: number, label: string, done: number, total: number | null, finished: boolean, error: string | null, cancelled: boolean, 
/**
 * What the task did, once it finished without an error (`imported 2400 documents into news; 1 line
 * skipped (line 7: ...)`); none before, and for a task that tells its outcome otherwise.
 */
message: string | null, };

export type ConnectionState = { 
/**
 * `local`, or the remote server's base URL.
 */
backend: string, online: boolean, 
/**
 * Why it is offline.
 */
message: string | null, };

export type StoreStatus = { "state": "ready" } | { "state": "damaged", file: string, problem: string, message: string, dataDir: string, } | { "state": "behindBackup", configurations: Array<string>, dataDir: string, };

export type LostDocuments = { searchSpace: string, 
/**
 * Its documents the recovered store holds.
 */
kept: number, 
/**
 * Its documents that could not be read; `None` when the damaged file cannot tell how many it had.
 */
lost: number | null, 
/**
 * The command that loads them again.
 */
getBack: string, 
/**
 * All of it in one sentence, as the CLI and the desktop say it.
 */
message: string, };

export type RecoverReport = { 
/**
 * The damaged files, under their new names.
 */
movedAside: Array<string>, configurations: number, drafts: number, versions: number, history: number, 
/**
 * Configurations whose copy came from the backup (the store had lost it or its last changes).
 */
fromBackup: number, documents: number, 
/**
 * Whether the full-text index was built again from the documents (it or its state file was damaged, or
 * documents were copied out of a damaged file).
 */
textRebuilt: boolean, 
/**
 * The search spaces that lost documents, each with how to get them back.
 */
lostDocuments: Array<LostDocuments>, };

export type Folder = "data" | "backups";

export type BackupSettings = { 
/**
 * Where they are kept.
 */
folder: string, 
/**
 * How many there are now.
 */
count: number, 
/**
 * When the newest was taken (RFC 3339), if there is one.
 */
newest: string | null, };

export type FileProblem = { 
/**
 * The file's name in the folder, e.g. `news.json`.
 */
file: string, 
/**
 * The configuration's id when the file is one of the folder's configurations (its name is a key).
 */
id: number | null, line: number, column: number, message: string, };

export type FolderEntry = { id: number, key: string, };

export type FolderChange = { 
/**
 * The folder's full path.
 */
path: string, 
/**
 * Files written or added, that read as configurations.
 */
changed: Array<FolderEntry>, 
/**
 * Files that are gone.
 */
removed: Array<FolderEntry>, 
/**
 * Every file of the folder that cannot be read as a configuration now.
 */
problems: Array<FileProblem>, };

export type FolderApplied = { done: Array<Done>, lines: Array<string>, };

export type FolderPlan = { "status": "plan", plan: Plan, 
/**
 * Whether applying would change anything on the target (a conflict counts: it waits for a side).
 */
hasChanges: boolean, 
/**
 * The plan's summary line, in the words `studio config plan` ends with.
 */
summary: string, } | { "status": "problems", problems: Array<Problem>, };

/** What a copy answers: published, or a conflict when the target changed after the plan. */
export type CopyOutcome = PublishOutcome;

/** The client id a provider sign-in uses when none is given. */
export const DEFAULT_CLIENT_ID = "ppt";

/** The sign-in methods that go through an OpenID Connect provider (they need its issuer URL and a client id). */
export const SIGN_IN_METHODS_WITH_PROVIDER: readonly SignInMethod[] = ["password","browser"];

/** Which automatic backups of the store are kept: the newest `keepLast`, and the newest of each of the last `dailyDays` days. */
export const BACKUP_POLICY = { keepLast: 20, dailyDays: 7 } as const;
