// The editor's preferences as the app uses them: read once at start, saved on change, the theme applied to the
// page. Where they are kept is the backend's business (the desktop's settings, or localStorage in a browser).
import type { Backend, Prefs, Theme } from './backend/Backend';

const DEFAULTS: Prefs = { theme: 'system', lastConfigId: null };

/** The kept preferences; the defaults when they cannot be read. */
export function loadPrefs(backend: Backend): Promise<Prefs> {
  return backend.preferences().catch(() => ({ ...DEFAULTS }));
}

/** Keeps a change; one that cannot be kept lasts for this session only. */
export function savePrefs(backend: Backend, change: Partial<Prefs>): Promise<void> {
  return backend.savePreferences(change).catch(() => undefined);
}

export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia?.('(prefers-color-scheme: dark)')?.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
