// The Backend over the desktop shell's commands. This is the only module that imports `@tauri-apps/*`;
// it is loaded on demand, so the browser build never evaluates it.
import { invoke } from '@tauri-apps/api/core';
import { listen } from '@tauri-apps/api/event';
import { open, save } from '@tauri-apps/plugin-dialog';
import type { Backend, ConnectionState, Desktop, DesktopSettings, PreviewSearchRequest, TaskProgress } from './Backend';
import type { DraftRecord, HistoryEntry, ImportedConfig, PublishOutcome } from '../types/sync';
import type { Connections, CopyOutcome, CopyPlan } from '../types/desktop';
import { BackendError } from './Backend';
import type {
  Configuration, ConfigurationList, Document, LogEntry, Offers, RecommendQuery, Recommendations,
  SearchResponse, SearchSpace, SimilarQuery, WriteOutcome,
} from '../types/generated';

/** Commands reject with `{code, message}`; every rejection becomes a BackendError. */
async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (e) {
    throw BackendError.from(e);
  }
}

const desktop: Desktop = {
  getSettings: () => call<DesktopSettings>('get_settings'),
  setPreference: (prefs) => call<void>('set_preference', prefs),
  async pickFile() {
    const chosen = await open({
      multiple: false,
      directory: false,
      filters: [{ name: 'JSON Lines documents', extensions: ['jsonl', 'ndjson', 'json'] }],
    });
    return typeof chosen === 'string' ? chosen : null;
  },
  startImport: (path, searchSpace) => call<number>('start_import', { path, searchSpace }),
  loadDemo: () => call<number>('load_demo'),
  cancelTask: (taskId) => call<void>('cancel_task', { taskId }),
  saveDraft: (configId, draft, base) => call<void>('save_draft', { configId, draft, base }),
  getDraft: (configId) => call<DraftRecord | null>('get_draft', { configId }),
  discardDraft: (configId) => call<void>('discard_draft', { configId }),
  publish: (id, mine, base) => call<PublishOutcome>('publish', { id, mine, base }),
  history: (id) => call<HistoryEntry[]>('history', { id }),
  checkConnection: () => call<ConnectionState>('check_connection'),
  async exportConfigurations(id) {
    const name = id === null ? 'configurations.json' : `configuration-${id}.json`;
    const path = await save({ defaultPath: name, filters: [{ name: 'Configurations', extensions: ['json'] }] });
    if (!path) return false;
    await call<number>('export_configurations', { path, id });
    return true;
  },
  async importConfigurations() {
    const path = await open({ multiple: false, directory: false, filters: [{ name: 'Configurations', extensions: ['json'] }] });
    return typeof path === 'string' ? call<ImportedConfig[]>('import_configurations', { path }) : null;
  },
  startPull: (id) => call<number>('start_pull', { id }),
  openLink: (url) => call<void>('open_link', { url }),
  async onTaskProgress(listener) {
    return listen<TaskProgress>('task-progress', (event) => listener(event.payload));
  },
  listConnections: () => call<Connections>('list_connections'),
  saveConnection: (input) => call<Connections>('save_connection', { input }),
  removeConnection: (id) => call<Connections>('remove_connection', { id }),
  useConnection: (id) => call<Connections>('use_connection', { id }),
  signIn: (id, input) => call<Connections>('sign_in', { id, input }),
  signInBrowser: (id) => call<Connections>('sign_in_browser', { id }),
  cancelSignIn: (id) => call<void>('cancel_sign_in', { id }),
  signOut: (id) => call<Connections>('sign_out', { id }),
  copyPlan: (target, id, targetId) => call<CopyPlan>('copy_plan', { target, id, targetId }),
  copyConfiguration: (target, id, targetId, base) => call<CopyOutcome>('copy_configuration', { target, id, targetId, base }),
};

export function createTauriBackend(): Backend {
  return {
    defaultConfiguration: () => call<Configuration>('default_configuration'),
    listConfigurations: () => call<ConfigurationList>('list_configurations'),
    activeConfiguration: () => call<Configuration>('active_configuration'),
    getConfiguration: (id) => call<Configuration>('get_configuration', { id }),
    createConfiguration: (body) => call<WriteOutcome>('create_configuration', { body }),
    updateConfiguration: (id, body) => call<WriteOutcome>('update_configuration', { id, body }),
    similarDocuments: (id, query: SimilarQuery) => call<Document[]>('similar_documents', { id, query }),
    recommendations: (id, query: RecommendQuery) => call<Recommendations>('recommendations', { id, query }),
    search: (id, request: PreviewSearchRequest) => call<SearchResponse>('search', { id, request }),
    setActive: (id) => call<Configuration>('set_active', { id }),
    visibleConfigurations: () => call<Configuration[]>('visible_configurations'),
    configurationLogs: (id) => call<LogEntry[]>('configuration_logs', { id }),
    deleteConfiguration: (id) => call<void>('delete_configuration', { id }),
    searchSpaces: () => call<SearchSpace[]>('search_spaces'),
    offers: () => call<Offers>('offers'),
    desktop,
  };
}
