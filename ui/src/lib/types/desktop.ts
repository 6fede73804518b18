// The desktop shell's connection, sign-in and copy types, as its commands answer them. The shell's `bindings`
// test writes this file from its Rust types; until then it holds the same declarations, name for name.

import type { Configuration } from './generated';
import type { FieldDiff, PublishOutcome } from './sync';

export type SignInMethod = "none" | "token" | "password" | "browser";

export type SecretStorage = "keyring" | "file";

export type Connection = { 
/**
 * `local` for the local store (always present, cannot be removed).
 */
id: string, name: string, kind: "local" | "remote", 
/**
 * The remote base URL (the part before /api); null for the local store.
 */
url: string | null, signIn: SignInMethod, 
/**
 * The OpenID Connect issuer URL (password and browser sign-in).
 */
issuer: string | null, clientId: string | null, username: string | null, rememberPassword: boolean, hasToken: boolean, hasClientSecret: boolean, hasPassword: boolean, 
/**
 * The shell holds tokens for it now (or a saved refresh token).
 */
signedIn: boolean, 
/**
 * Where its secrets are kept.
 */
secretStorage: SecretStorage | null, };

export type Connections = { connections: Array<Connection>, 
/**
 * The id of the current connection.
 */
current: string, };

export type ConnectionInput = { 
/**
 * Null for a new connection.
 */
id: string | null, name: string, url: string, signIn: SignInMethod, issuer: string | null, clientId: string | null, username: string | null, rememberPassword: boolean, 
/**
 * Token method; null keeps the saved one.
 */
token: string | null, 
/**
 * Null keeps the saved one, "" removes it.
 */
clientSecret: string | null, 
/**
 * Password method: used to sign in now; kept only with `rememberPassword`.
 */
password: string | null, };

export type SignInInput = { password: string | null, token: string | null, remember: boolean, };

export type CopyPlan = { 
/**
 * The target connection's id.
 */
target: string, sourceId: number, 
/**
 * Null: it will be created there.
 */
targetId: number | null, 
/**
 * The target's current version; null when new there.
 */
base: Configuration | null, 
/**
 * What changes on the target, field by field.
 */
diff: Array<FieldDiff>, 
/**
 * The target's configurations, to pick which one to update.
 */
candidates: Array<Configuration>, };

export type CopyOutcome = PublishOutcome;
