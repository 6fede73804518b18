// Picks the Backend at start: the desktop shell when running inside Tauri, else HTTP against the origin.
import type { Backend } from './Backend';
import type { HttpOptions } from './http';

export function isDesktop(): boolean {
  return typeof window !== 'undefined' && '__TAURI_INTERNALS__' in window;
}

export async function pickBackend(askToken: HttpOptions['askToken']): Promise<Backend> {
  if (isDesktop()) {
    const { createTauriBackend } = await import('./tauri');
    return createTauriBackend();
  }
  // The browser's backend is a chunk of its own too: the desktop app never loads it.
  const { createHttpBackend } = await import('./http');
  return createHttpBackend({ askToken });
}

export * from './Backend';
