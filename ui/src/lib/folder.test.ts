// What the editor does with a folder workspace's changes on disk: the configurations here stand for the folder's
// files (the FakeBackend's store is "the disk"), and each test tells the editor of a change as the shell does.
import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { FakeBackend } from '../test/fakeBackend';
import { LOCAL, fakeDesktop, folder, remote } from '../test/fakeDesktop';
import FolderBar from './components/FolderBar.svelte';
import { Studio } from './studio.svelte';
import { applyFolderChange, describeProblem } from './folder';
import type { FolderChange } from './types/desktop';
import type { Config } from './types/generated';

const change = (fields: Partial<FolderChange>): FolderChange => ({ path: '/home/ana/configs', changed: [], removed: [], problems: [], ...fields });
const NEWS = { id: 1, key: 'news' };

async function opened() {
  const disk = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  const studio = new Studio(disk);
  await studio.init(null);
  const write = (edit: (c: Config) => void) => edit(disk.configs.get(1)!.config);
  return { disk, studio, write, draft: () => studio.current! };
}

describe('a folder changed on disk', () => {
  test('a configuration without unsaved edits shows the file’s new content', async () => {
    const { studio, write, draft } = await opened();
    write((c) => (c.title = 'News, pulled'));
    await applyFolderChange(studio, change({ changed: [NEWS] }));
    expect(draft().envelope.config.title).toBe('News, pulled');
    expect(draft().dirty).toBe(false);
    expect(studio.configurations[0].config.title).toBe('News, pulled');
    expect(studio.notice?.text).toContain('news.json changed on disk');
  });

  test('an unsaved edit meeting a change shows both; nothing is written until the designer chooses, and the choice wins', async () => {
    const { disk, studio, write, draft } = await opened();
    draft().set('config.title', 'News, mine');
    write((c) => {
      c.title = 'News, theirs';
      c.result.itemsPerPage = 30;
    });
    await applyFolderChange(studio, change({ changed: [NEWS] }));
    expect(studio.conflict?.onDisk).toBe(true);
    const title = studio.conflict!.fields.find((f) => f.path === 'config.title')!;
    expect([title.mine, title.theirs, title.conflicting]).toEqual(['News, mine', 'News, theirs', true]);
    expect(draft().envelope.config.title).toBe('News, mine');
    expect(disk.configs.get(1)!.config.title).toBe('News, theirs');

    await studio.resolveConflict({ 'config.title': 'mine' }, 'theirs');
    expect(disk.configs.get(1)!.config).toMatchObject({ title: 'News, mine', result: { itemsPerPage: 30 } });
    expect(draft().dirty).toBe(false);
  });

  test('a change that leaves the settings as the edit started from changes nothing', async () => {
    const { studio, draft } = await opened();
    draft().set('config.title', 'News, mine');
    await applyFolderChange(studio, change({ changed: [NEWS] }));
    expect(studio.conflict).toBeNull();
    expect(draft().envelope.config.title).toBe('News, mine');
  });

  test('a file deleted while open keeps what the editor shows, and Save writes the file again', async () => {
    const { disk, studio, draft } = await opened();
    draft().set('config.title', 'News, kept');
    await applyFolderChange(studio, change({ removed: [NEWS] }));
    expect(studio.gone[1]).toBe('news.json');
    expect(studio.notice?.text).toContain('news.json was deleted on disk');
    expect(draft().envelope.config.title).toBe('News, kept');

    const rewrite = vi.spyOn(disk, 'updateConfiguration');
    const publish = vi.spyOn(disk, 'publish');
    await studio.save();
    expect(rewrite).toHaveBeenCalledWith(1, expect.objectContaining({ config: expect.objectContaining({ title: 'News, kept' }) }));
    expect(publish).not.toHaveBeenCalled();
    expect(studio.gone[1]).toBeUndefined();
    expect(draft().dirty).toBe(false);
  });

  test('a file that cannot be read is named with its line and column', () => {
    expect(describeProblem({ file: 'news.json', id: 1, line: 3, column: 14, message: 'invalid type: integer `5`, expected a string' }))
      .toBe('news.json, line 3, column 14: invalid type: integer `5`, expected a string');
  });
});

describe('the folder’s bar', () => {
  test('names the folder, lists the files that cannot be read, and sends the preview to the connection chosen', async () => {
    const { studio } = await opened();
    const { desktop, state } = fakeDesktop([LOCAL, folder(), remote()], 'folder');
    const onSearchChanged = vi.fn();
    const problems = [{ file: 'sport.json', id: 2, line: 4, column: 14, message: 'invalid type: integer `5`, expected a string' }];
    render(FolderBar, { props: { studio, desktop, folder: state.connections[1], connections: state, problems, onConnections: () => {}, onSearchChanged } });
    expect(screen.getByText('/home/ana/search-configs')).toBeTruthy();
    expect(screen.getByTestId('folder-problems').textContent).toContain('sport.json, line 4, column 14: invalid type');
    const search = screen.getByLabelText('Preview searches') as HTMLSelectElement;
    expect([...search.options].map((o) => o.textContent)).toEqual(['Local store', 'Staging']);
    await fireEvent.change(search, { target: { value: 'c-staging' } });
    await waitFor(() => expect(onSearchChanged).toHaveBeenCalledOnce());
    expect(desktop.setFolderSearch).toHaveBeenCalledWith('c-staging');
  });

  test('offers to save again an open configuration whose file was deleted', async () => {
    const { studio } = await opened();
    const { desktop, state } = fakeDesktop([LOCAL, folder()], 'folder');
    studio.gone[1] = 'news.json';
    render(FolderBar, { props: { studio, desktop, folder: state.connections[1], connections: state, problems: [], onConnections: () => {}, onSearchChanged: () => {} } });
    expect(screen.getByTestId('folder-gone').textContent).toContain('news.json was deleted on disk; your edit is kept here.');
    expect(screen.getByRole('button', { name: 'Save it again' })).toBeTruthy();
  });
});
