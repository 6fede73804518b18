// The desktop app under store faults, in the UI: the recovery screen in front of the editor when the local store
// is damaged at launch, and a full disk that refuses saves and drafts while every edit stays in the editor.
import { describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import App from '../../App.svelte';
import RecoveryScreen from './RecoveryScreen.svelte';
import SettingsDialog from './SettingsDialog.svelte';
import { plainProblem } from './recovery.svelte';
import { BackendError } from '../backend/Backend';
import type { ErrorCode } from '../types/generated';
import type { RecoverReport, StoreStatus } from '../types/desktop';
import { BACKUP_POLICY } from '../types/desktop';
import { FakeBackend } from '../../test/fakeBackend';
import { fakeDesktop } from '../../test/fakeDesktop';

const DAMAGED: StoreStatus = {
  state: 'damaged',
  file: '/home/ana/.local/share/search-studio/studio.db',
  problem: 'file is not a database',
  message: 'the store /home/ana/.local/share/search-studio/studio.db is damaged (file is not a database); run `studio recover`',
  dataDir: '/home/ana/.local/share/search-studio',
};

const REPORT: RecoverReport = {
  movedAside: ['/home/ana/.local/share/search-studio/studio.db.damaged-20261123T221500Z'],
  configurations: 3, drafts: 1, versions: 2, history: 9, fromBackup: 3, documents: 0, textRebuilt: true,
  lostDocuments: [{
    searchSpace: 'demo', kept: 0, lost: null, getBack: 'studio demo-data',
    message: 'search space demo: 0 documents kept, the others lost (the damaged file cannot tell how many); to get them back, run `studio demo-data`',
  }],
};

const FULL = 'the disk holding /data/studio.db is full: free some space and try again';
const fullDisk = () => new BackendError('insufficient_storage' as ErrorCode, FULL);

describe('the recovery screen', () => {
  test('says which file is damaged and how, in plain words, and offers the data folder', async () => {
    const { desktop } = fakeDesktop();
    render(RecoveryScreen, { props: { desktop, status: DAMAGED as Exclude<StoreStatus, { state: 'ready' }>, onReady: () => {} } });
    expect(screen.getByTestId('damaged-file').textContent).toBe(DAMAGED.file);
    expect(screen.getByTestId('damaged-problem').textContent).toBe(plainProblem('file is not a database'));
    expect(plainProblem('database disk image is malformed')).toMatch(/damaged and cannot be read/);
    await fireEvent.click(screen.getByRole('button', { name: 'Open the data folder' }));
    expect(desktop.openFolder).toHaveBeenCalledWith('data');
  });

  test('Recover shows progress, then what was saved, and opens the editor only when asked', async () => {
    const { desktop } = fakeDesktop();
    let finish: (r: RecoverReport) => void = () => {};
    desktop.recoverStore.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    let ready = 0;
    render(RecoveryScreen, { props: { desktop, status: DAMAGED as Exclude<StoreStatus, { state: 'ready' }>, onReady: () => ready++ } });
    await fireEvent.click(screen.getByRole('button', { name: 'Recover' }));
    expect(screen.getByRole('progressbar', { name: 'Recovering the store' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Recover' }) as HTMLButtonElement).disabled).toBe(true);
    finish(REPORT);
    const report = await screen.findByTestId('recovery-report');
    expect(report.textContent).toContain('3 configurations, 1 draft, 2 published versions and 9 history entries saved.');
    expect(report.textContent).toContain('3 configurations were taken from the newest backup.');
    expect(report.textContent).toContain('studio.db.damaged-20261123T221500Z');
    // The shell's words, shown as they are.
    expect(screen.getByTestId('lost-documents').textContent).toBe(REPORT.lostDocuments[0].message);
    expect(ready).toBe(0);
    await fireEvent.click(screen.getByRole('button', { name: 'Open the editor' }));
    expect(ready).toBe(1);
  });

  test('a failed recovery says why and can be tried again', async () => {
    const { desktop } = fakeDesktop();
    desktop.recoverStore.mockRejectedValueOnce(new BackendError('storage', 'cannot move studio.db aside: permission denied'));
    render(RecoveryScreen, { props: { desktop, status: DAMAGED as Exclude<StoreStatus, { state: 'ready' }>, onReady: () => {} } });
    await fireEvent.click(screen.getByRole('button', { name: 'Recover' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not recover: cannot move studio.db aside: permission denied');
    desktop.recoverStore.mockResolvedValueOnce(REPORT);
    await fireEvent.click(screen.getByRole('button', { name: 'Recover' }));
    expect(await screen.findByTestId('recovery-report')).toBeTruthy();
  });

  test('the app opens on the recovery screen, not the editor, and starts the editor after Recover', async () => {
    const shell = fakeDesktop();
    shell.desktop.storeStatus.mockResolvedValue(DAMAGED);
    shell.desktop.recoverStore.mockResolvedValue(REPORT);
    const backend = shell.over(new FakeBackend([{ title: 'Harbour Search', searchSpace: 'demo' }]));
    render(App, { props: { backend } });
    expect(await screen.findByTestId('recovery-screen')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'General' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Recover' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Open the editor' }));
    expect(await screen.findByRole('tab', { name: 'General' })).toBeTruthy();
    expect(screen.queryByTestId('recovery-screen')).toBeNull();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Harbour Search');
    cleanup();
  });

  test('a store behind its backup can be recovered or used as it is', async () => {
    const shell = fakeDesktop();
    shell.desktop.storeStatus.mockResolvedValue({ state: 'behindBackup', configurations: ['Harbour Search (configuration 1)'], dataDir: '/d' });
    render(App, { props: { backend: shell.over(new FakeBackend([{ title: 'Harbour Search', searchSpace: 'demo' }])) } });
    expect((await screen.findByTestId('recovery-screen')).textContent).toContain('Harbour Search (configuration 1)');
    await fireEvent.click(screen.getByRole('button', { name: 'Go on without recovering' }));
    expect(shell.desktop.openStoreAsIs).toHaveBeenCalled();
    expect(await screen.findByRole('tab', { name: 'General' })).toBeTruthy();
    cleanup();
  });
});

describe('a full disk', () => {
  /** The editor over a backend whose disk is full until `free()`: saves and drafts both fail. */
  async function startFull() {
    localStorage.clear();
    const shell = fakeDesktop();
    const b = new FakeBackend([{ title: 'Harbour Search', searchSpace: 'demo' }]);
    let full = true;
    const update = b.updateConfiguration.bind(b);
    b.updateConfiguration = async (id, body) => {
      if (full) throw fullDisk();
      return update(id, body);
    };
    shell.workspace.saveDraft.mockImplementation(async () => {
      if (full) throw fullDisk();
    });
    shell.workspace.publish.mockImplementation(async (id: number, mine: unknown) => ({ status: 'published' as const, outcome: await b.updateConfiguration(id, mine) }));
    render(App, { props: { backend: shell.over(b) } });
    await screen.findByRole('tab', { name: 'General' });
    return { b, shell, free: () => (full = false) };
  }

  test('Save shows the message, keeps the edit, and a notice stays while even the draft cannot be written', async () => {
    const { b, shell, free } = await startFull();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Harbour Search, edited' } });
    const notice = await screen.findByTestId('unwritten-notice', {}, { timeout: 3000 });
    expect(notice.textContent).toBe(`Your changes are not saved to disk: ${FULL}; they are kept while the app is open.`);
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByText(`Not published; your changes are kept: ${FULL}`)).toBeTruthy());
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Harbour Search, edited');
    expect(screen.getByTestId('save-state').textContent).toContain('Unsaved changes');
    expect(screen.getByTestId('unwritten-notice')).toBeTruthy();

    free();
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toContain('Saved'));
    expect(b.configs.get(1)!.config.title).toBe('Harbour Search, edited');
    await waitFor(() => expect(screen.queryByTestId('unwritten-notice')).toBeNull());
    expect(shell.workspace.saveDraft).toHaveBeenCalled();
    cleanup();
  });

  test('once space is freed, the next draft write ends the notice without a save', async () => {
    const { shell, free } = await startFull();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Kept in memory' } });
    await screen.findByTestId('unwritten-notice', {}, { timeout: 3000 });
    free();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Kept in memory, then on disk' } });
    await waitFor(() => expect(screen.queryByTestId('unwritten-notice')).toBeNull(), { timeout: 3000 });
    expect(shell.workspace.saveDraft).toHaveBeenLastCalledWith(1, expect.objectContaining({ config: expect.objectContaining({ title: 'Kept in memory, then on disk' }) }), expect.anything());
    cleanup();
  });
});

describe('backups in Settings', () => {
  test('show their folder (which opens), the policy and when the newest was taken', async () => {
    const { desktop } = fakeDesktop();
    const taken = '2026-11-23T22:15:00.042Z';
    desktop.backupSettings.mockResolvedValue({ folder: '/home/ana/.local/share/search-studio/backups', count: 3, newest: taken });
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged: () => {} } });
    expect((await screen.findByTestId('backups-folder')).textContent).toBe('/home/ana/.local/share/search-studio/backups');
    expect(screen.getByTestId('backups-newest').textContent).toContain(`Newest backup: ${new Date(taken).toLocaleString()} (3 kept)`);
    expect(screen.getByTestId('backups').textContent).toContain(
      `Kept: the last ${BACKUP_POLICY.keepLast}, and the newest of each day for ${BACKUP_POLICY.dailyDays} days.`,
    );
    await fireEvent.click(screen.getByRole('button', { name: 'Open the folder' }));
    expect(desktop.openFolder).toHaveBeenCalledWith('backups');
    cleanup();
  });

  test('say so when there is no backup yet', async () => {
    const { desktop } = fakeDesktop();
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged: () => {} } });
    expect((await screen.findByTestId('backups-newest')).textContent).toBe('No backup yet.');
    cleanup();
  });
});
