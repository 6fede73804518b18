// A desktop shell in memory for component tests: the connections (the local store and remote ones), signing in
// by password or token against fixed credentials, the desktop's Workspace (publishing to a FakeBackend while
// signed in) and the other commands as spies a test can replace. Every command is a vi.fn, so a test can assert
// what the UI sent and swap in another answer. `over(store)` makes the desktop app's Backend over a FakeBackend.
import { vi } from 'vitest';
import type { Plan, Scenario } from '../lib/types/sync';
import type { Backend, Desktop, DesktopSettings, Prefs, TaskProgress, Workspace } from '../lib/backend/Backend';
import { BackendError } from '../lib/backend/Backend';
import type {
  BackupSettings, Connection, Connections, ConnectionInput, CopyOutcome, CopyPlan, Folder, FolderApplied, FolderChange, FolderPlan, RecoverReport, StoreStatus,
} from '../lib/types/desktop';
import type { FakeBackend } from './fakeBackend';

export const LOCAL: Connection = {
  id: 'local', name: 'Local store', kind: 'local', url: null, signIn: 'none', issuer: null, clientId: null, username: null,
  rememberPassword: false, hasToken: false, hasClientSecret: false, hasPassword: false, signedIn: false, secretStorage: null,
  path: null, searches: null,
};

/** The folder workspace at `path`, whose preview searches connection `searches`. */
export function folder(path = '/home/ana/search-configs', searches = 'local'): Connection {
  return { ...LOCAL, id: 'folder', name: path.split('/').pop() ?? path, kind: 'folder', path, searches };
}

export function remote(fields: Partial<Connection> = {}): Connection {
  return {
    ...LOCAL, id: 'c-staging', name: 'Staging', kind: 'remote', url: 'https://staging.example.org', signIn: 'password',
    issuer: 'https://sso.example.org/realms/search', clientId: 'ppt', username: 'ana', signedIn: true, secretStorage: 'keyring',
    ...fields,
  };
}

/** The password and token the fake accepts. */
export const PASSWORD = 'ana-password';
export const TOKEN = 'good-token';

export function fakeDesktop(connections: Connection[] = [LOCAL], current = connections[0].id, store?: FakeBackend) {
  const state: Connections = { connections: structuredClone(connections), current, notices: [] };
  let listener: ((p: TaskProgress) => void) | null = null;
  let folderListener: ((c: FolderChange) => void) | null = null;
  const folderState = (): FolderChange => ({ path: find('folder').path ?? '', changed: [], removed: [], problems: [] });
  const snapshot = () => structuredClone(state);
  const find = (id: string) => {
    const c = state.connections.find((x) => x.id === id);
    if (!c) throw new BackendError('not_found', `no connection ${id}`);
    return c;
  };
  const settings = { theme: 'light', lastConfigId: null, dataDir: '/home/ana/.local/share/search-studio' } as DesktopSettings;

  const workspace = {
    preferences: vi.fn(async (): Promise<Prefs> => ({ theme: settings.theme, lastConfigId: settings.lastConfigId })),
    savePreferences: vi.fn(async () => {}),
    saveDraft: vi.fn(async () => {}),
    getDraft: vi.fn(async () => null),
    discardDraft: vi.fn(async () => {}),
    scenarios: vi.fn(async (): Promise<Scenario[]> => []),
    saveScenarios: vi.fn(async () => {}),
    /** Publishes to `store` while the current connection is signed in; `unauthorized` once its sign-in ended. */
    publish: vi.fn(async (id: number, mine: unknown) => {
      if (!find(state.current).signedIn) throw new BackendError('unauthorized', 'the sign-in has ended');
      if (!store) throw new BackendError('internal', 'no store in this test');
      return { status: 'published' as const, outcome: await store.updateConfiguration(id, mine) };
    }),
    history: vi.fn(async () => []),
    checkConnection: vi.fn(async () => ({ backend: 'local', online: true, message: null })),
  };

  const desktop = {
    storeStatus: vi.fn(async (): Promise<StoreStatus> => ({ state: 'ready' })),
    recoverStore: vi.fn(async (): Promise<RecoverReport> => {
      throw new BackendError('internal', 'not in this test');
    }),
    openStoreAsIs: vi.fn(async () => {}),
    openFolder: vi.fn(async (_folder: Folder) => {}),
    firstScreenReady: vi.fn(async () => {}),
    backupSettings: vi.fn(async (): Promise<BackupSettings> => ({ folder: `${settings.dataDir}/backups`, count: 0, newest: null })),
    getSettings: vi.fn(async () => ({ ...settings })),
    pickFile: vi.fn(async () => '/data/news.jsonl'),
    startImport: vi.fn(async () => 7),
    loadDemo: vi.fn(async (): Promise<number> => {
      throw new BackendError('storage', 'the disk is full');
    }),
    cancelTask: vi.fn(async () => true),
    exportConfigurations: vi.fn(async () => false),
    importConfigurations: vi.fn(async () => null),
    startPull: vi.fn(async () => 1),
    openLink: vi.fn(async () => {}),
    onTaskProgress: vi.fn(async (l: (p: TaskProgress) => void) => {
      listener = l;
      return () => (listener = null);
    }),
    listConnections: vi.fn(async () => snapshot()),
    saveConnection: vi.fn(async (input: ConnectionInput) => {
      if (input.password !== null && input.password !== PASSWORD) throw new BackendError('unauthorized', 'invalid user credentials');
      const id = input.id ?? `c-${state.connections.length}`;
      const old = state.connections.find((c) => c.id === id);
      const saved: Connection = {
        ...(old ?? remote({ signedIn: false, secretStorage: 'file' })),
        id, name: input.name, url: input.url, signIn: input.signIn, issuer: input.issuer, clientId: input.clientId,
        username: input.username, rememberPassword: input.rememberPassword,
        signedIn: input.password !== null || (old?.signedIn ?? false),
      };
      state.connections = old ? state.connections.map((c) => (c.id === id ? saved : c)) : [...state.connections, saved];
      return snapshot();
    }),
    removeConnection: vi.fn(async (id: string) => {
      state.connections = state.connections.filter((c) => c.id !== id);
      if (state.current === id) state.current = 'local';
      return snapshot();
    }),
    useConnection: vi.fn(async (id: string) => {
      find(id);
      state.current = id;
      return snapshot();
    }),
    signIn: vi.fn(async (id: string, input: { password: string | null; token: string | null; remember: boolean }) => {
      const c = find(id);
      if (input.password !== PASSWORD && input.token !== TOKEN) throw new BackendError('unauthorized', 'invalid user credentials');
      c.signedIn = true;
      return snapshot();
    }),
    signInBrowser: vi.fn(async (id: string) => {
      find(id).signedIn = true;
      return snapshot();
    }),
    cancelSignIn: vi.fn(async (_id: string) => {}),
    signOut: vi.fn(async (id: string) => {
      const c = find(id);
      c.signedIn = false;
      c.hasPassword = false;
      return snapshot();
    }),
    copyPlan: vi.fn(async (target: string, id: number, targetId: number | null): Promise<CopyPlan> => ({
      target, sourceId: id, targetId, base: null, diff: [], candidates: [],
    })),
    copyConfiguration: vi.fn(async (): Promise<CopyOutcome> => {
      throw new BackendError('internal', 'not in this test');
    }),
    pickFolder: vi.fn(async (): Promise<string | null> => '/home/ana/search-configs'),
    openWorkspaceFolder: vi.fn(async (path: string) => {
      const before = state.connections.find((c) => c.id === 'folder');
      state.connections = [...state.connections.filter((c) => c.id !== 'folder'), folder(path, before?.searches ?? 'local')];
      state.current = 'folder';
      return snapshot();
    }),
    folderStatus: vi.fn(async () => folderState()),
    setFolderSearch: vi.fn(async (id: string) => {
      find(id);
      find('folder').searches = id;
      return snapshot();
    }),
    planFolder: vi.fn(async (target: string, _prune: boolean): Promise<FolderPlan> => ({
      status: 'plan', hasChanges: false, summary: 'Nothing to do: the target holds every configuration of the source.',
      plan: { target, items: [], setActive: null } satisfies Plan,
    })),
    applyFolder: vi.fn(async (): Promise<FolderApplied> => ({ done: [], lines: [] })),
    onFolderChange: vi.fn(async (l: (c: FolderChange) => void) => {
      folderListener = l;
      return () => (folderListener = null);
    }),
  };
  // Checked as a whole, so that the fakes keep up with the interfaces.
  const checkedDesktop: Desktop = desktop;
  const checkedWorkspace: Workspace = workspace;

  return {
    desktop: desktop as typeof desktop & typeof checkedDesktop,
    workspace: workspace as typeof workspace & typeof checkedWorkspace,
    /** The desktop app's Backend: `store`'s operations, this shell's Workspace and its desktop commands. */
    over: (api: FakeBackend): Backend => Object.assign(api, workspace, { desktop: checkedDesktop }),
    state,
    /** Ends the sign-in of a connection, as an expired refresh token does. */
    endSignIn: (id: string) => (find(id).signedIn = false),
    emit: (p: TaskProgress) => listener?.(p),
    /** Tells the UI that the folder changed on disk. */
    emitFolderChange: (c: FolderChange) => folderListener?.(c),
  };
}
