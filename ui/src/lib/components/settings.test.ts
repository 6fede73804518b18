import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import SettingsDialog from './SettingsDialog.svelte';
import TokenDialog from './TokenDialog.svelte';
import { LOCAL, fakeDesktop, remote } from '../../test/fakeDesktop';

describe('desktop settings', () => {
  test('lists the connections in place of the old local/remote switch', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote()], 'c-staging');
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged: () => {} } });
    expect(await screen.findByText('Staging')).toBeTruthy();
    expect(screen.queryByLabelText('Remote server')).toBeNull();
    expect(screen.queryByLabelText('Access token')).toBeNull();
  });

  test('says what went wrong with the connections or their secrets since the start', async () => {
    const shell = fakeDesktop([LOCAL, remote()], 'local');
    const damaged = 'The secrets file /home/ana/desktop-secrets.json was damaged (at line 3, column 9), so Search Studio started without the secrets in it.';
    shell.state.notices = [damaged];
    render(SettingsDialog, { props: { desktop: shell.desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged: () => {} } });
    expect((await screen.findByTestId('connections-notice')).textContent).toBe(damaged);
  });

  test('imports a chosen file with a progress bar that can be cancelled', async () => {
    const { desktop, emit } = fakeDesktop();
    const onDataChanged = vi.fn();
    render(SettingsDialog, { props: { desktop, onClose: () => {}, onBackendChanged: () => {}, onDataChanged } });
    await waitFor(() => expect(desktop.onTaskProgress).toHaveBeenCalled());
    expect(screen.queryByText(/no system keyring/)).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Choose a file…' }));
    expect(await screen.findByText('/data/news.jsonl')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('Search space name'), { target: { value: 'news' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(desktop.startImport).toHaveBeenCalledWith('/data/news.jsonl', 'news'));
    emit({ taskId: 7, label: 'Importing news', done: 50, total: 200, finished: false, error: null, cancelled: false, message: null });
    const bar = (await screen.findByRole('progressbar', { name: 'Importing news' })) as HTMLProgressElement;
    expect(bar.value).toBe(50);
    expect(screen.getByText('25%')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(desktop.cancelTask).toHaveBeenCalledWith(7);
    const said = 'imported 199 documents into news; 1 line skipped (line 12: not a document: expected value)';
    emit({ taskId: 7, label: 'Importing news', done: 200, total: 200, finished: true, error: null, cancelled: false, message: said });
    await waitFor(() => expect(screen.getByText('Done')).toBeTruthy());
    expect(screen.getByText(said)).toBeTruthy();
    expect(onDataChanged).toHaveBeenCalled();
  });

  test('a failing task is reported', async () => {
    const { desktop } = fakeDesktop();
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
