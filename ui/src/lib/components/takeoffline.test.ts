// "Take offline" in the desktop app's header starts a pull of the open configuration and, when the pull's task
// ends, says how it ended: what was copied (skipped documents included), or why it failed.
import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import App from '../../App.svelte';
import { FakeBackend } from '../../test/fakeBackend';
import { LOCAL, fakeDesktop, remote } from '../../test/fakeDesktop';
import type { TaskProgress } from '../backend/Backend';

function launch() {
  localStorage.clear();
  const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  const shell = fakeDesktop([LOCAL, remote()], 'c-staging', store);
  shell.desktop.startPull.mockResolvedValue(3);
  render(App, { props: { backend: shell.over(store) } });
  return shell;
}

/** Clicks "Take offline" once the open configuration and the server's state let it be clicked. */
async function takeOffline() {
  const button = (await screen.findByRole('button', { name: 'Take offline' })) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  await fireEvent.click(button);
}

const ended = (over: Partial<TaskProgress>): TaskProgress => ({
  taskId: 3, label: 'Taking configuration 1 of https://staging.example.org offline', done: 2400, total: null,
  finished: true, error: null, cancelled: false, message: null, ...over,
});

describe('take offline', () => {
  test('says what the pull copied once it has ended', async () => {
    const shell = launch();
    await takeOffline();
    await waitFor(() => expect(shell.desktop.startPull).toHaveBeenCalledWith(1));
    expect(await screen.findByText(/you will be told here when it is done/)).toBeTruthy();
    const message = 'pulled 2400 documents into demo as local configuration 2; 1 of them could not be stored here and were skipped (result 7: document has an empty id)';
    shell.emit(ended({ message }));
    expect(await screen.findByText(`Taken offline: ${message}. Switch to the local store to use the copy.`)).toBeTruthy();
  });

  test('says why the pull failed, also when it fails before its start has answered', async () => {
    const shell = launch();
    shell.desktop.startPull.mockImplementation(async () => {
      shell.emit(ended({ error: 'the server https://staging.example.org cannot be reached' }));
      return 3;
    });
    await takeOffline();
    expect(await screen.findByText('Not taken offline: the server https://staging.example.org cannot be reached')).toBeTruthy();
  });
});
