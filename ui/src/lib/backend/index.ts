// Picks the Backend at start: the desktop shell when running inside Tauri, else HTTP against the origin.
import type { Backend } from './Backend';
import { createHttpBackend, type HttpOptions } from './http';

export function isDesktop(): boolean {
  return typeof window !== 'undefined' && '__TAURI_INTERNALS__' in window;
}

export async function pickBackend(askToken: HttpOptions['askToken']): Promise<Backend> {
  if (isDesktop()) {
    const { createTauriBackend } = await import('./tauri');
    return createTauriBackend();
  }
  return createHttpBackend({ askToken });
}

export * from './Backend';
