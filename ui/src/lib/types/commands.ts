// Generated from the desktop shell's command list (src-tauri/commands/list.rs) and the commands' Rust
// signatures by its `bindings` test; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p search-studio --test commands bindings

import type { Configuration, ConfigurationList, Document, FacetHealth, LogEntry, Offers, RecommendQuery, Recommendations, SearchRequest, SearchResponse, SearchSpace, SimilarQuery, WriteOutcome } from './generated';
import type { Choices, DraftRecord, HistoryEntry, ImportedConfig, Plan, PublishOutcome, Scenario } from './sync';
import type { BackupSettings, ConnectionInput, ConnectionState, Connections, CopyPlan, DesktopSettings, Folder, FolderApplied, FolderChange, FolderPlan, RecoverReport, SignInInput, StoreStatus, Theme } from './desktop';

/** Calls a command of the desktop shell with its arguments by name; answers what the command answers. */
export type Invoke = <T>(command: string, args: Record<string, unknown>) => Promise<T>;

/** Every command of the desktop shell, as a function over `invoke` with the arguments of its Rust signature. */
export function shellCommands(invoke: Invoke) {
  return {
    /** Operation 1: the default template. */
    defaultConfiguration: (): Promise<Configuration> => invoke<Configuration>('default_configuration', {}),
    /** Operation 2: every configuration, oldest first, and the active id. */
    listConfigurations: (): Promise<ConfigurationList> => invoke<ConfigurationList>('list_configurations', {}),
    /** Operation 3: the active configuration; `NotFound` when there is none. */
    activeConfiguration: (): Promise<Configuration> => invoke<Configuration>('active_configuration', {}),
    /** Operation 4. */
    getConfiguration: (id: number): Promise<Configuration> => invoke<Configuration>('get_configuration', { id }),
    /** Operation 5, with the semantics of docs/api.md, Create and update. */
    createConfiguration: (body: unknown): Promise<WriteOutcome> => invoke<WriteOutcome>('create_configuration', { body }),
    /** Operation 6: keys absent from the body keep their values. */
    updateConfiguration: (id: number, body: unknown): Promise<WriteOutcome> => invoke<WriteOutcome>('update_configuration', { id, body }),
    /** Makes a configuration the active one. */
    setActive: (id: number): Promise<Configuration> => invoke<Configuration>('set_active', { id }),
    /** History of one configuration, newest first. */
    configurationLogs: (id: number): Promise<Array<LogEntry>> => invoke<Array<LogEntry>>('configuration_logs', { id }),
    /** Deletes a configuration; `Conflict` for the active one. */
    deleteConfiguration: (id: number): Promise<void> => invoke<void>('delete_configuration', { id }),
    /** Operation 7: documents similar to one document, never the document itself. */
    similarDocuments: (id: number, query: SimilarQuery): Promise<Array<Document>> => invoke<Array<Document>>('similar_documents', { id, query }),
    /** Operation 8. */
    recommendations: (id: number, query: RecommendQuery): Promise<Recommendations> => invoke<Recommendations>('recommendations', { id, query }),
    /** Operation 9. */
    search: (id: number, request: SearchRequest): Promise<SearchResponse> => invoke<SearchResponse>('search', { id, request }),
    /** The search spaces this backend can search, with their facet fields. */
    searchSpaces: (): Promise<Array<SearchSpace>> => invoke<Array<SearchSpace>>('search_spaces', {}),
    /** How well each facet field of search space `space` serves as a facet; `NotFound` for an unknown space. */
    facetHealth: (space: string): Promise<FacetHealth> => invoke<FacetHealth>('facet_health', { space }),
    /**
     * Which extensions this backend offers, as far as it knows now. Never fails: what cannot be known
     * yet counts as offered.
     */
    offers: (): Promise<Offers> => invoke<Offers>('offers', {}),
    getSettings: (): Promise<DesktopSettings> => invoke<DesktopSettings>('get_settings', {}),
    setPreference: (theme: Theme | null, lastConfigId: number | null): Promise<DesktopSettings> => invoke<DesktopSettings>('set_preference', { theme, lastConfigId }),
    saveDraft: (configId: number, draft: unknown, base: unknown): Promise<DraftRecord> => invoke<DraftRecord>('save_draft', { configId, draft, base }),
    getDraft: (configId: number): Promise<DraftRecord | null> => invoke<DraftRecord | null>('get_draft', { configId }),
    discardDraft: (configId: number): Promise<boolean> => invoke<boolean>('discard_draft', { configId }),
    scenarios: (configId: number): Promise<Array<Scenario>> => invoke<Array<Scenario>>('scenarios', { configId }),
    saveScenarios: (configId: number, scenarios: Array<Scenario>): Promise<void> => invoke<void>('save_scenarios', { configId, scenarios }),
    publish: (id: number | null, mine: unknown, base: unknown): Promise<PublishOutcome> => invoke<PublishOutcome>('publish', { id, mine, base }),
    history: (id: number): Promise<Array<HistoryEntry>> => invoke<Array<HistoryEntry>>('history', { id }),
    checkConnection: (): Promise<ConnectionState> => invoke<ConnectionState>('check_connection', {}),
    startPull: (id: number): Promise<number> => invoke<number>('start_pull', { id }),
    startImport: (path: string, searchSpace: string): Promise<number> => invoke<number>('start_import', { path, searchSpace }),
    loadDemo: (): Promise<number> => invoke<number>('load_demo', {}),
    cancelTask: (taskId: number): Promise<boolean> => invoke<boolean>('cancel_task', { taskId }),
    /** Writes configuration `id`, or every configuration when `id` is null, as a bundle; answers how many. */
    exportConfigurations: (path: string, id: number | null): Promise<number> => invoke<number>('export_configurations', { path, id }),
    /** Stores every configuration in the file as a new one; never replaces an existing configuration. */
    importConfigurations: (path: string): Promise<Array<ImportedConfig>> => invoke<Array<ImportedConfig>>('import_configurations', { path }),
    /** Opens `url` in the system's default browser. */
    openLink: (url: string): Promise<void> => invoke<void>('open_link', { url }),
    listConnections: (): Promise<Connections> => invoke<Connections>('list_connections', {}),
    /** Adds or changes a remote connection; with a password given, signs in first. */
    saveConnection: (input: ConnectionInput): Promise<Connections> => invoke<Connections>('save_connection', { input }),
    removeConnection: (id: string): Promise<Connections> => invoke<Connections>('remove_connection', { id }),
    /** Switches the backend; `unauthorized` still switches, so that the UI can ask for a sign-in. */
    useConnection: (id: string): Promise<Connections> => invoke<Connections>('use_connection', { id }),
    signIn: (id: string, input: SignInInput): Promise<Connections> => invoke<Connections>('sign_in', { id, input }),
    signInBrowser: (id: string): Promise<Connections> => invoke<Connections>('sign_in_browser', { id }),
    /** Ends a browser sign-in to connection `id` that is waiting (the sign-in dialog's Cancel). */
    cancelSignIn: (id: string): Promise<void> => invoke<void>('cancel_sign_in', { id }),
    signOut: (id: string): Promise<Connections> => invoke<Connections>('sign_out', { id }),
    /** Opens the folder at `path` as the workspace and makes it the current connection. */
    openWorkspaceFolder: (path: string): Promise<Connections> => invoke<Connections>('open_workspace_folder', { path }),
    /** The open folder's path and every file of it that cannot be read as a configuration now. */
    folderStatus: (): Promise<FolderChange> => invoke<FolderChange>('folder_status', {}),
    /** Makes the folder's preview search connection `id` (`local` or a remote connection's id). */
    setFolderSearch: (id: string): Promise<Connections> => invoke<Connections>('set_folder_search', { id }),
    /**
     * The plan of applying the open folder's files (as they are on disk) to connection `target` (`local` or a
     * remote connection's id), as `studio config plan` makes it; with `prune`, what only the target has is
     * deleted. A folder with problems answers them instead.
     */
    planFolder: (target: string, prune: boolean): Promise<FolderPlan> => invoke<FolderPlan>('plan_folder', { target, prune }),
    /**
     * Makes the changes of `plan` (the one shown) on connection `target`, conflicts resolved as `choices` say,
     * and answers each write with its line; nothing is written when the folder or the target changed since the plan.
     */
    applyFolder: (target: string, prune: boolean, plan: Plan, choices: Choices): Promise<FolderApplied> => invoke<FolderApplied>('apply_folder', { target, prune, plan, choices }),
    /**
     * What copying configuration `id` to connection `target` would change; `target_id` null lets the plan
     * find the target's configuration of the same title and search space, or none ("new there").
     */
    copyPlan: (target: string, id: number, targetId: number | null): Promise<CopyPlan> => invoke<CopyPlan>('copy_plan', { target, id, targetId }),
    /** Creates configuration `id` on connection `target`, or updates `target_id` there if it is still `base`. */
    copyConfiguration: (target: string, id: number, targetId: number | null, base: Configuration | null): Promise<PublishOutcome> => invoke<PublishOutcome>('copy_configuration', { target, id, targetId, base }),
    /** What the launch found: the store open, damaged, or behind its newest backup. */
    storeStatus: (): Promise<StoreStatus> => invoke<StoreStatus>('store_status', {}),
    /**
     * Recovers the damaged store (a background task reporting progress) and opens the recovered one; answers
     * what was saved.
     */
    recoverStore: (): Promise<RecoverReport> => invoke<RecoverReport>('recover_store', {}),
    /** Goes on with a store that is behind its newest backup, as it is. */
    openStoreAsIs: (): Promise<void> => invoke<void>('open_store_as_is', {}),
    /** Opens a folder of the data directory in the system's file manager. */
    openFolder: (folder: Folder): Promise<void> => invoke<void>('open_folder', { folder }),
    /** Where the automatic backups are, how many, and when the newest was taken. */
    backupSettings: (): Promise<BackupSettings> => invoke<BackupSettings>('backup_settings', {}),
    /**
     * The UI's first screen is complete (the preview's first answer, the recovery screen, a sign-in, or what could
     * not be loaded): shows the main window, created hidden so that its first paint is that screen.
     */
    firstScreenReady: (): Promise<void> => invoke<void>('first_screen_ready', {}),
  };
}

/** The desktop shell's commands, by the names the UI calls them. */
export type ShellCommands = ReturnType<typeof shellCommands>;

/** The operations of the API (the `Backend` trait's, the `backend::` commands of the list). */
export const API_OPERATIONS = ['defaultConfiguration', 'listConfigurations', 'activeConfiguration', 'getConfiguration', 'createConfiguration', 'updateConfiguration', 'setActive', 'configurationLogs', 'deleteConfiguration', 'similarDocuments', 'recommendations', 'search', 'searchSpaces', 'facetHealth', 'offers'] as const;

/** The operations of the API, with the arguments and answers of the `Backend` trait. */
export type ApiOperations = Pick<ShellCommands, (typeof API_OPERATIONS)[number]>;

/** The API's operations among the shell's commands. */
export function apiOperations(shell: ShellCommands): ApiOperations {
  return Object.fromEntries(API_OPERATIONS.map((name) => [name, shell[name]])) as ApiOperations;
}
