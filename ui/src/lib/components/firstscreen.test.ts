// The desktop's window is shown when the first screen is complete (App.svelte, `firstScreenReady`): once, and
// only when what the screen shows is on the page: the preview's first results or why there are none, the editor
// with nothing to preview, or the recovery screen.
import { describe, expect, test } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/svelte';
import App from '../../App.svelte';
import { BackendError } from '../backend/Backend';
import type { PreviewSearchRequest } from '../backend/Backend';
import { FakeBackend } from '../../test/fakeBackend';
import { fakeDesktop } from '../../test/fakeDesktop';

/** The preview's shadow root, when the preview is on the page. */
const preview = () => (document.querySelector('[data-testid="preview-host"]') as HTMLElement | null)?.shadowRoot ?? null;

/** The desktop app over `store`, recording what the page showed each time the window was asked to show. */
function launch(store: FakeBackend, shell = fakeDesktop()) {
  localStorage.clear();
  const seen: string[] = [];
  shell.desktop.firstScreenReady.mockImplementation(async () => {
    const results = preview()?.querySelectorAll('[data-testid="result"]').length ?? 0;
    const error = preview()?.querySelector('[role="alert"]')?.textContent ?? '';
    const page = document.body.textContent ?? '';
    seen.push(
      results > 0 ? `${results} results` : error ? error
        : page.includes('No configuration open') ? 'no configuration'
        : document.querySelector('[data-testid="recovery-screen"]') ? 'recovery screen' : 'incomplete',
    );
  });
  render(App, { props: { backend: shell.over(store) } });
  return { shell, seen };
}

describe('the window shown with the first screen', () => {
  test('waits for the preview\'s first results, then is asked once', async () => {
    const store = new FakeBackend([{ title: 'Harbour Search', searchSpace: 'demo' }]);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const search = store.search.bind(store);
    store.search = async (id: number, request: PreviewSearchRequest) => {
      await held;
      return search(id, request);
    };
    const { shell, seen } = launch(store);
    expect(await screen.findByRole('tab', { name: 'General' })).toBeTruthy();
    // The editor and the preview are built, the search is on its way: not complete yet.
    await new Promise((r) => setTimeout(r, 50));
    expect(shell.desktop.firstScreenReady).not.toHaveBeenCalled();
    release();
    await waitFor(() => expect(seen).toEqual([expect.stringMatching(/^\d+ results$/)]));
    await new Promise((r) => setTimeout(r, 50));
    expect(shell.desktop.firstScreenReady).toHaveBeenCalledTimes(1);
    cleanup();
  });

  test('a failed first search is a complete screen: it says why', async () => {
    const store = new FakeBackend([{ title: 'Harbour Search', searchSpace: 'demo' }]);
    store.search = async () => {
      throw new BackendError('network', 'the server at https://search.example.org does not answer');
    };
    const { seen } = launch(store);
    await waitFor(() => expect(seen).toEqual([expect.stringContaining('does not answer')]));
    cleanup();
  });

  test('an empty store shows the editor with nothing to preview', async () => {
    const { seen } = launch(new FakeBackend([]));
    await waitFor(() => expect(seen).toEqual(['no configuration']));
    cleanup();
  });

  test('a damaged store shows the recovery screen', async () => {
    const shell = fakeDesktop();
    shell.desktop.storeStatus.mockResolvedValue({
      state: 'damaged', file: '/d/studio.db', problem: 'file is not a database', message: 'damaged', dataDir: '/d',
    });
    const { seen } = launch(new FakeBackend([{ title: 'Harbour Search', searchSpace: 'demo' }]), shell);
    await waitFor(() => expect(seen).toEqual(['recovery screen']));
    cleanup();
  });
});
