// Where drafts are autosaved: in the desktop app, the local SQLite store through the shell's commands (per
// backend and configuration; survives a crash of the app); in a browser, localStorage (per server).
// Both keep the draft with the stored version it started from, which publishing compares against.
import type { Desktop } from '../backend/Backend';
import type { Configuration } from '../types/generated';

export interface KeptDraft {
  draft: Configuration;
  base: Configuration | null;
}

export interface DraftKeeper {
  load(id: number): Promise<KeptDraft | null>;
  save(id: number, draft: Configuration, base: Configuration): Promise<void>;
  discard(id: number): Promise<void>;
}

export function localStorageKeeper(storeKey: string): DraftKeeper {
  const key = (id: number) => `search-studio.draft.${storeKey}.${id}`;
  return {
    async load(id) {
      try {
        const saved = JSON.parse(localStorage.getItem(key(id)) ?? 'null');
        return saved ? { draft: JSON.parse(saved.draft), base: saved.base ? JSON.parse(saved.base) : null } : null;
      } catch {
        return null;
      }
    },
    async save(id, draft, base) {
      try {
        localStorage.setItem(key(id), JSON.stringify({ base: JSON.stringify(base), draft: JSON.stringify(draft) }));
      } catch {
        /* storage full or unavailable: the draft lives in memory only */
      }
    },
    async discard(id) {
      try {
        localStorage.removeItem(key(id));
      } catch {
        /* nothing kept */
      }
    },
  };
}

export function desktopKeeper(desktop: Desktop): DraftKeeper {
  return {
    async load(id) {
      const kept = await desktop.getDraft(id);
      return kept ? { draft: kept.draft as Configuration, base: (kept.base as Configuration | null) ?? null } : null;
    },
    save: (id, draft, base) => desktop.saveDraft(id, draft, base),
    discard: (id) => desktop.discardDraft(id),
  };
}
