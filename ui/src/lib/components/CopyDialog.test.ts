// Copying a configuration to another connection: the plan's field diff (or "new there") first, then the copy
// with the plan's base; a conflict overwrites nothing and says so.
import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import CopyDialog from './CopyDialog.svelte';
import App from '../../App.svelte';
import { FakeBackend, template } from '../../test/fakeBackend';
import { LOCAL, fakeDesktop, remote } from '../../test/fakeDesktop';
import type { Configuration } from '../types/generated';
import type { CopyPlan } from '../types/desktop';

function config(id: number, title: string, colour = '#00adee'): Configuration {
  const c = template();
  c.id = id;
  c.config.title = title;
  c.config.searchSpace = 'demo';
  c.config.layout.navbar.backgroundColor = colour;
  return c;
}

const source = config(4, 'Harbour Search', '#123456');
const theirs = config(9, 'Harbour Search', '#00adee');
const other = config(12, 'Museum Catalogue');

function setUp() {
  const shell = fakeDesktop([LOCAL, remote({ id: 'c-prod', name: 'Production' })], 'local');
  const plans: Record<string, CopyPlan> = {
    proposed: {
      target: 'c-prod', sourceId: 4, targetId: 9, base: theirs, candidates: [theirs, other],
      diff: [
        { path: 'config.layout.navbar.backgroundColor', before: '#00adee', after: '#123456' },
        { path: 'config.result.itemsPerPage', before: 10, after: null },
      ],
    },
    museum: {
      target: 'c-prod', sourceId: 4, targetId: 12, base: other, candidates: [theirs, other],
      diff: [{ path: 'config.title', before: 'Museum Catalogue', after: 'Harbour Search' }],
    },
  };
  shell.desktop.copyPlan.mockImplementation(async (_t: string, _id: number, targetId: number | null) =>
    structuredClone(targetId === 12 ? plans.museum : plans.proposed),
  );
  const onCopied = vi.fn();
  const onClose = vi.fn();
  render(CopyDialog, { props: { desktop: shell.desktop, source, onClose, onCopied } });
  return { desktop: shell.desktop, onCopied, onClose };
}

const diffRows = () =>
  [...screen.getByTestId('copy-diff').querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));

describe('copy to another connection', () => {
  test('shows what changes on the configuration the plan proposes, and copies with its base', async () => {
    const { desktop, onCopied, onClose } = setUp();
    desktop.copyConfiguration.mockResolvedValue({ status: 'published', outcome: { config: { ...source, id: 9 }, errors: [] } });
    await waitFor(() => expect(desktop.copyPlan).toHaveBeenCalledWith('c-prod', 4, null));
    expect((screen.getByLabelText('Copy to') as HTMLSelectElement).value).toBe('c-prod');
    expect((await screen.findByLabelText('Configuration there') as HTMLSelectElement).value).toBe('9');
    expect(diffRows()).toEqual([
      ['config.layout.navbar.backgroundColor', '#00adee', '#123456'],
      ['config.result.itemsPerPage', '10', '—'],
    ]);
    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(onCopied).toHaveBeenCalledWith('Copied “Harbour Search” to Production (#9).'));
    expect(desktop.copyConfiguration).toHaveBeenCalledWith('c-prod', 4, 9, theirs);
    expect(onClose).toHaveBeenCalled();
  });

  test('another configuration there is compared afresh; "New there" creates one with no base', async () => {
    const { desktop } = setUp();
    desktop.copyConfiguration.mockResolvedValue({ status: 'published', outcome: { config: { ...source, id: 31 }, errors: [] } });
    const into = (await screen.findByLabelText('Configuration there')) as HTMLSelectElement;
    expect([...into.options].map((o) => o.textContent)).toEqual([
      'Update Harbour Search (#9 · demo)', 'Update Museum Catalogue (#12 · demo)', 'New there',
    ]);
    await fireEvent.change(into, { target: { value: '12' } });
    await waitFor(() => expect(desktop.copyPlan).toHaveBeenLastCalledWith('c-prod', 4, 12));
    await waitFor(() => expect(diffRows()).toEqual([['config.title', 'Museum Catalogue', 'Harbour Search']]));

    await fireEvent.change(into, { target: { value: 'new' } });
    expect(screen.getByTestId('copy-new').textContent).toBe('New there: Production gets a new configuration “Harbour Search”.');
    expect(screen.queryByTestId('copy-diff')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(desktop.copyConfiguration).toHaveBeenCalledWith('c-prod', 4, null, null));
  });

  test('a plan that finds nothing to update proposes "new there"', async () => {
    const shell = fakeDesktop([LOCAL, remote({ id: 'c-prod', name: 'Production' })], 'local');
    render(CopyDialog, { props: { desktop: shell.desktop, source, onClose: () => {} } });
    expect((await screen.findByTestId('copy-new')).textContent).toMatch(/New there/);
    expect((screen.getByLabelText('Configuration there') as HTMLSelectElement).value).toBe('new');
  });

  test('a conflict overwrites nothing and shows what changed there', async () => {
    const { desktop, onCopied, onClose } = setUp();
    const now = config(9, 'Harbour Search', '#ff0000');
    desktop.copyConfiguration.mockResolvedValue({
      status: 'conflict',
      conflict: {
        base: theirs, mine: source, theirs: now,
        fields: [{ path: 'config.layout.navbar.backgroundColor', base: '#00adee', mine: '#123456', theirs: '#ff0000', conflicting: true }],
      },
    });
    await screen.findByTestId('copy-diff');
    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    const alert = await screen.findByTestId('copy-conflict');
    expect(alert.textContent).toMatch(/Not copied: .* changed on Production since the comparison. Nothing was overwritten./);
    const row = screen.getByTestId('copy-conflict-fields').querySelector('tbody tr')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'config.layout.navbar.backgroundColor', '#00adee', '#ff0000', '#123456',
    ]);
    expect(onCopied).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByRole('button', { name: 'Compare again' }));
    await waitFor(() => expect(desktop.copyPlan).toHaveBeenLastCalledWith('c-prod', 4, 9));
    expect(screen.queryByTestId('copy-conflict')).toBeNull();
  });

  test('warns that unsaved changes are not copied', async () => {
    const shell = fakeDesktop([LOCAL, remote()], 'local');
    render(CopyDialog, { props: { desktop: shell.desktop, source, unsaved: true, onClose: () => {} } });
    expect(screen.getByRole('note').textContent).toMatch(/your unsaved changes are not/);
  });
});

describe('in the app', () => {
  test('"Copy to…" on the open configuration opens the copy dialog for it', async () => {
    localStorage.clear();
    const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const shell = fakeDesktop([LOCAL, remote({ id: 'c-prod', name: 'Production' })], 'local', store);
    render(App, { props: { backend: shell.over(store) } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Copy to…' }));
    expect((await screen.findByTestId('copy-dialog')).textContent).toMatch(/Copy “News” to another connection/);
    await waitFor(() => expect(shell.desktop.copyPlan).toHaveBeenCalledWith('c-prod', 1, null));
  });

  test('the browser build offers no copy', async () => {
    localStorage.clear();
    render(App, { props: { backend: new FakeBackend([{ title: 'News', searchSpace: 'demo' }]) } });
    await screen.findByRole('button', { name: 'Duplicate' });
    expect(screen.queryByRole('button', { name: 'Copy to…' })).toBeNull();
  });
});
