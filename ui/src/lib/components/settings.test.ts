import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import SettingsDialog from './SettingsDialog.svelte';
import TokenDialog from './TokenDialog.svelte';
import type { Desktop, DesktopSettings, TaskProgress } from '../backend/Backend';
import { BackendError } from '../backend/Backend';

function fakeDesktop(settings: Partial<DesktopSettings> = {}) {
  let listener: ((p: TaskProgress) => void) | null = null;
  const current: DesktopSettings = {
    mode: 'remote', remoteUrl: 'https://search.example.org', tokenSaved: true, tokenStorage: 'file', theme: 'system',
    lastConfigId: null, dataDir: '/home/ana/.local/share/search-studio', ...settings,
  };
  const desktop = {
    getSettings: vi.fn(async () => ({ ...current })),
    saveBackend: vi.fn(async (mode: 'local' | 'remote', remoteUrl: string | null) => ({ ...current, mode, remoteUrl })),
    setPreference: vi.fn(async () => {}),
    pickFile: vi.fn(async () => '/data/news.jsonl'),
    startImport: vi.fn(async () => 7),
    loadDemo: vi.fn(async (): Promise<number> => {
      throw new BackendError('storage', 'the disk is full');
    }),
    cancelTask: vi.fn(async () => {}),
    saveDraft: vi.fn(async () => {}),
    getDraft: vi.fn(async () => null),
    discardDraft: vi.fn(async () => {}),
    publish: vi.fn(async () => { throw new BackendError('internal', 'not in this test'); }),
    history: vi.fn(async () => []),
    checkConnection: vi.fn(async () => ({ backend: 'local', online: true, message: null })),
    exportConfigurations: vi.fn(async () => false),
    importConfigurations: vi.fn(async () => null),
    startPull: vi.fn(async () => 1),
    openLink: vi.fn(async () => {}),
    onTaskProgress: vi.fn(async (l: (p: TaskProgress) => void) => {
      listener = l;
      return () => (listener = null);
    }),
  } satisfies Desktop;
  return { desktop, emit: (p: TaskProgress) => listener?.(p) };
}

describe('desktop settings', () => {
  test('shows the remote server, never the token, and says when the token is kept in a file', async () => {
    const { desktop } = fakeDesktop();
    const onBackendChanged = vi.fn();
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged, onDataChanged: () => {} } });
    expect(await screen.findByText(/kept in a file readable only by you; no system keyring was found/)).toBeTruthy();
    const url = screen.getByLabelText('Server URL') as HTMLInputElement;
    expect(url.value).toBe('https://search.example.org');
    const token = screen.getByLabelText('Access token') as HTMLInputElement;
    expect(token.type).toBe('password');
    expect(token.value).toBe('');
    await fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(desktop.saveBackend).toHaveBeenCalledWith('remote', 'https://search.example.org', null));
    expect(onBackendChanged).toHaveBeenCalled();
    await fireEvent.click(screen.getByLabelText(/Local store/));
    await fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(desktop.saveBackend).toHaveBeenLastCalledWith('local', null, null));
  });

  test('imports a chosen file with a progress bar that can be cancelled', async () => {
    const { desktop, emit } = fakeDesktop({ mode: 'local', remoteUrl: null, tokenSaved: false, tokenStorage: null });
    const onDataChanged = vi.fn();
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged } });
    await waitFor(() => expect(desktop.onTaskProgress).toHaveBeenCalled());
    expect(screen.queryByText(/no system keyring/)).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Choose a file…' }));
    expect(await screen.findByText('/data/news.jsonl')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('Search space name'), { target: { value: 'news' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(desktop.startImport).toHaveBeenCalledWith('/data/news.jsonl', 'news'));
    emit({ taskId: 7, label: 'Importing news', done: 50, total: 200, finished: false, error: null, cancelled: false });
    const bar = (await screen.findByRole('progressbar', { name: 'Importing news' })) as HTMLProgressElement;
    expect(bar.value).toBe(50);
    expect(screen.getByText('25%')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(desktop.cancelTask).toHaveBeenCalledWith(7);
    emit({ taskId: 7, label: 'Importing news', done: 200, total: 200, finished: true, error: null, cancelled: false });
    await waitFor(() => expect(screen.getByText('Done')).toBeTruthy());
    expect(onDataChanged).toHaveBeenCalled();
  });

  test('a failing task is reported', async () => {
    const { desktop } = fakeDesktop({ mode: 'local' });
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged: () => {} } });
    await fireEvent.click(screen.getByRole('button', { name: 'Load demo data' }));
    expect(await screen.findByText('the disk is full')).toBeTruthy();
  });
});

describe('token dialog', () => {
  test('answers with the typed token', async () => {
    const onAnswer = vi.fn();
    render(TokenDialog, { props: { retry: false, onAnswer } });
    await fireEvent.input(screen.getByLabelText('Token'), { target: { value: ' abc ' } });
    await fireEvent.click(screen.getByLabelText(/Remember on this device/));
    await fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(onAnswer).toHaveBeenCalledWith({ token: 'abc', remember: true });
  });
});
