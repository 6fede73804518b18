// What a browser keeps and does on its own side of the API (the Workspace of Backend.ts), for the HTTP backend
// and anything else that offers only the API: preferences and autosaved drafts in localStorage (drafts per
// server), publishing that never overwrites a change made elsewhere, and a history of the server's log and of
// what this tab published. The desktop app does the same in its shell (crates/sync); this is the browser's copy
// of those rules, over the API's operations only.
import type { Api, KeptDraft, Prefs, Workspace } from './Backend';
import { BackendError, isUnreachable } from './Backend';
import type { HistoryEntry, PublishOutcome } from '../types/sync';
import { publishConflict } from '../editor/conflict';
import { scenarioProblem, scenariosIn } from './scenarios';

const PREFS_KEY = 'search-studio.prefs';
const THEMES: readonly string[] = ['light', 'dark', 'system'];

/** localStorage as JSON; null when absent, unreadable or unavailable. */
function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** Writes `value` (removes the key for undefined); storage that is full or unavailable keeps it in memory only. */
function write(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or unavailable: it lasts for this page only */
  }
}

function preferences(): Prefs {
  const stored = read(PREFS_KEY);
  const kept = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  return {
    theme: typeof kept.theme === 'string' && THEMES.includes(kept.theme) ? (kept.theme as Prefs['theme']) : 'system',
    lastConfigId: Number.isInteger(kept.lastConfigId) ? (kept.lastConfigId as number) : null,
  };
}

/** A draft as kept: both envelopes as JSON text, so that what is read back is exactly what was written. */
type StoredDraft = { draft: string; base: string | null };

function keptDraft(stored: unknown): KeptDraft | null {
  if (!stored || typeof stored !== 'object') return null;
  const { draft, base } = stored as Partial<StoredDraft>;
  if (typeof draft !== 'string') return null;
  try {
    return { draft: JSON.parse(draft), base: typeof base === 'string' ? JSON.parse(base) : null };
  } catch {
    return null;
  }
}

/**
 * The browser's Workspace over `api`, which it calls at the time of each operation (so a wrapped or replaced
 * operation is the one used). `server` names the server: drafts of different servers never mix, and the
 * connection state names it.
 */
export function webWorkspace(api: Api, server: string): Workspace {
  const draftKey = (id: number) => `search-studio.draft.${server}.${id}`;
  const scenarioKey = (id: number) => `search-studio.scenarios.${server}.${id}`;
  /** Versions published from this tab, newest first: the history a server without one still has here. */
  const published = new Map<number, HistoryEntry[]>();

  return {
    async preferences() {
      return preferences();
    },
    async savePreferences(change) {
      write(PREFS_KEY, { ...preferences(), ...change });
    },
    async saveDraft(id, draft, base) {
      const stored: StoredDraft = { draft: JSON.stringify(draft), base: JSON.stringify(base) };
      write(draftKey(id), stored);
    },
    async getDraft(id) {
      return keptDraft(read(draftKey(id)));
    },
    async discardDraft(id) {
      write(draftKey(id), undefined);
    },
    async scenarios(id) {
      return scenariosIn(read(scenarioKey(id)));
    },
    async saveScenarios(id, list) {
      const problem = scenarioProblem(list);
      if (problem) throw new BackendError('bad_request', problem);
      // Acknowledged only once stored: a full or unavailable storage is an error, not a silent loss.
      try {
        if (list.length) localStorage.setItem(scenarioKey(id), JSON.stringify(list));
        else localStorage.removeItem(scenarioKey(id));
      } catch (e) {
        throw new BackendError('storage', `the scenarios could not be stored in this browser: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    async publish(id, mine, base): Promise<PublishOutcome> {
      const conflict = publishConflict(base, mine, await api.getConfiguration(id));
      if (conflict) return { status: 'conflict', conflict };
      const outcome = await api.updateConfiguration(id, mine);
      const entry: HistoryEntry = { at: new Date().toISOString(), user: outcome.config.user, action: 'publish', source: 'published', config: outcome.config };
      published.set(id, [entry, ...(published.get(id) ?? [])]);
      return { status: 'published', outcome };
    },
    async history(id) {
      const mine = published.get(id) ?? [];
      if (!(await api.offers()).logs) return mine;
      try {
        return (await api.configurationLogs(id)).map((entry) => ({ ...entry, source: 'server' as const }));
      } catch (e) {
        if (BackendError.from(e).code === 'not_offered') return mine;
        throw e;
      }
    },
    // The rule of crates/sync (connection.rs), held to it by crates/sync/cases/connection.json.
    async checkConnection() {
      try {
        await api.defaultConfiguration();
        return { backend: server, online: true, message: null };
      } catch (e) {
        return { backend: server, online: !isUnreachable(e), message: BackendError.from(e).message };
      }
    },
  };
}
