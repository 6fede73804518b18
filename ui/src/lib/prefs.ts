// Preferences the editor keeps: theme and the last edited configuration. The desktop shell stores them in its
// preference store; in a browser they live in localStorage.
import type { Backend, Theme } from './backend/Backend';

export interface Prefs {
  theme: Theme;
  lastConfigId: number | null;
}

const KEY = 'search-studio.prefs';

export async function loadPrefs(backend: Backend): Promise<Prefs> {
  if (backend.desktop) {
    try {
      const s = await backend.desktop.getSettings();
      return { theme: s.theme ?? 'system', lastConfigId: s.lastConfigId ?? null };
    } catch {
      return { theme: 'system', lastConfigId: null };
    }
  }
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return {
      theme: ['light', 'dark', 'system'].includes(stored.theme) ? stored.theme : 'system',
      lastConfigId: Number.isInteger(stored.lastConfigId) ? stored.lastConfigId : null,
    };
  } catch {
    return { theme: 'system', lastConfigId: null };
  }
}

export async function savePrefs(backend: Backend, change: Partial<Prefs>): Promise<void> {
  if (backend.desktop) {
    await backend.desktop.setPreference(change).catch(() => undefined);
    return;
  }
  try {
    const current = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    localStorage.setItem(KEY, JSON.stringify({ ...current, ...change }));
  } catch {
    /* storage unavailable: preferences last for this session only */
  }
}

export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia?.('(prefers-color-scheme: dark)')?.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
