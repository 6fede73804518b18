// The Backend over the desktop shell's commands. This is the only module that imports `@tauri-apps/*`; it is
// evaluated on demand (fetched ahead: vite.config.ts), so the browser build never runs it. The commands themselves (names, arguments,
// answers) are generated from the shell's command list (types/commands.ts), and the API's operations are its
// `backend::` commands as they are; what is written here is only how the rest of the Backend maps onto the
// commands, and the system dialogs and events.
import { invoke } from '@tauri-apps/api/core';
import { listen } from '@tauri-apps/api/event';
import { open, save } from '@tauri-apps/plugin-dialog';
import type { Backend, Desktop, KeptDraft, TaskProgress } from './Backend';
import { BackendError } from './Backend';
import { apiOperations, shellCommands } from '../types/commands';
import type { Configuration, JsonValue } from '../types/generated';
import type { FolderChange } from '../types/desktop';

/** Commands reject with `{code, message}`; every rejection becomes a BackendError. */
async function call<T>(command: string, args: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (e) {
    throw BackendError.from(e);
  }
}

const shell = shellCommands(call);

/** A draft as the shell keeps it: the envelopes the UI sent, as JSON values. */
function kept(draft: JsonValue, base: JsonValue | null): KeptDraft {
  return { draft: draft as Configuration, base: base === null ? null : (base as Configuration) };
}

const desktop: Desktop = {
  storeStatus: shell.storeStatus,
  recoverStore: shell.recoverStore,
  openStoreAsIs: shell.openStoreAsIs,
  openFolder: shell.openFolder,
  backupSettings: shell.backupSettings,
  firstScreenReady: shell.firstScreenReady,
  getSettings: shell.getSettings,
  async pickFile() {
    const chosen = await open({
      multiple: false,
      directory: false,
      filters: [{ name: 'JSON Lines documents', extensions: ['jsonl', 'ndjson', 'json'] }],
    });
    return typeof chosen === 'string' ? chosen : null;
  },
  startImport: shell.startImport,
  loadDemo: shell.loadDemo,
  cancelTask: shell.cancelTask,
  async exportConfigurations(id) {
    const name = id === null ? 'configurations.json' : `configuration-${id}.json`;
    const path = await save({ defaultPath: name, filters: [{ name: 'Configurations', extensions: ['json'] }] });
    if (!path) return false;
    await shell.exportConfigurations(path, id);
    return true;
  },
  async importConfigurations() {
    const path = await open({ multiple: false, directory: false, filters: [{ name: 'Configurations', extensions: ['json'] }] });
    return typeof path === 'string' ? shell.importConfigurations(path) : null;
  },
  startPull: shell.startPull,
  openLink: shell.openLink,
  async onTaskProgress(listener: (p: TaskProgress) => void) {
    return listen<TaskProgress>('task-progress', (event) => listener(event.payload));
  },
  listConnections: shell.listConnections,
  saveConnection: shell.saveConnection,
  removeConnection: shell.removeConnection,
  useConnection: shell.useConnection,
  signIn: shell.signIn,
  signInBrowser: shell.signInBrowser,
  cancelSignIn: shell.cancelSignIn,
  signOut: shell.signOut,
  copyPlan: shell.copyPlan,
  copyConfiguration: shell.copyConfiguration,
  async pickFolder() {
    const chosen = await open({ multiple: false, directory: true });
    return typeof chosen === 'string' ? chosen : null;
  },
  openWorkspaceFolder: shell.openWorkspaceFolder,
  folderStatus: shell.folderStatus,
  setFolderSearch: shell.setFolderSearch,
  planFolder: shell.planFolder,
  applyFolder: shell.applyFolder,
  async onFolderChange(listener: (change: FolderChange) => void) {
    return listen<FolderChange>('folder-changed', (event) => listener(event.payload));
  },
};

export function createTauriBackend(): Backend {
  return {
    ...apiOperations(shell),
    scenarios: shell.scenarios,
    saveScenarios: shell.saveScenarios,
    async preferences() {
      const settings = await shell.getSettings();
      return { theme: settings.theme, lastConfigId: settings.lastConfigId };
    },
    async savePreferences(change) {
      await shell.setPreference(change.theme ?? null, change.lastConfigId ?? null);
    },
    async saveDraft(id, draft, base) {
      await shell.saveDraft(id, draft, base);
    },
    async getDraft(id) {
      const record = await shell.getDraft(id);
      return record && kept(record.draft, record.base);
    },
    async discardDraft(id) {
      await shell.discardDraft(id);
    },
    publish: shell.publish,
    history: shell.history,
    checkConnection: shell.checkConnection,
    desktop,
  };
}
