// The editor as a whole, over an in-memory backend: the list, editing with undo, the preview following every
// edit, and a refused save shown at its field.
import { describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import App from './App.svelte';
import { FakeBackend } from './test/fakeBackend';
import { newFacet } from './lib/panes/items';

function backend() {
  const b = new FakeBackend([
    {
      title: 'News', searchSpace: 'demo',
      filter: { facetsToShow: [newFacet('dyn_lit_author', 'Author'), newFacet('dyn_uri_topic', 'Topic')], hideEmptyFacets: true, componentOrder: [] },
    },
    { title: 'Archive', searchSpace: 'old', visible: false },
  ]);
  return b;
}

async function start(b = backend()) {
  localStorage.clear();
  render(App, { props: { backend: b } });
  await screen.findByRole('tab', { name: 'General' });
  await waitFor(() => expect(preview().querySelectorAll('[data-testid="result"]').length).toBeGreaterThan(0));
  return b;
}

function preview(): ShadowRoot {
  const host = document.querySelector('[data-testid="preview-host"]') as HTMLElement;
  return host.shadowRoot!;
}
const resultCount = () => preview().querySelectorAll('[data-testid="result"]').length;
const key = (k: string, opts: KeyboardEventInit = {}) => fireEvent.keyDown(window, { key: k, ctrlKey: true, ...opts });

describe('the editor', () => {
  test('lists the configurations with their badges and opens the active one', async () => {
    await start();
    const items = screen.getAllByRole('button', { name: /#\d/ });
    expect(items.map((i) => i.textContent?.replace(/\s+/g, ' ').trim())).toEqual(['News #1 · demo Active', 'Archive #2 · old Hidden']);
    expect(items[0].getAttribute('aria-current')).toBe('true');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('News');
    expect(preview().querySelector('.sa-title')!.textContent).toBe('News');
  });

  test('an edit reaches the preview without saving, marks the configuration unsaved, and undo/redo follow', async () => {
    const b = await start();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Fresh news' } });
    expect(preview().querySelector('.sa-title')!.textContent).toBe('Fresh news');
    expect(screen.getByText('(unsaved changes)')).toBeTruthy();
    expect(screen.getByTestId('save-state').textContent).toContain('Unsaved changes');

    await fireEvent.click(screen.getByRole('tab', { name: 'Result list' }));
    const perPage = screen.getByLabelText('Results per page') as HTMLInputElement;
    await fireEvent.input(perPage, { target: { value: '3' } });
    await waitFor(() => expect(resultCount()).toBe(3));
    await waitFor(() => expect((b.calls.filter((c) => c.op === 'search').at(-1)!.arg as any).config.result.itemsPerPage).toBe(3));

    await key('z');
    await waitFor(() => expect(resultCount()).toBe(10));
    expect(perPage.value).toBe('10');
    await key('z', { shiftKey: true });
    await waitFor(() => expect(resultCount()).toBe(3));
    expect(perPage.value).toBe('3');
  });

  test('a bound is checked as you type', async () => {
    await start();
    await fireEvent.click(screen.getByRole('tab', { name: 'Result list' }));
    const perPage = screen.getByLabelText('Results per page');
    await fireEvent.input(perPage, { target: { value: '500' } });
    expect(perPage.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must be a whole number from 1 to 100')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Result list/ }).textContent).toContain('1');
  });

  test('Ctrl+S saves; a refused key is shown at its field and what was typed is kept', async () => {
    const b = await start();
    await fireEvent.click(screen.getByRole('tab', { name: 'Facets' }));
    await fireEvent.click(screen.getByRole('button', { name: /^Author dyn_lit_author/ }));
    const max = screen.getByLabelText('Maximum terms') as HTMLInputElement;
    await fireEvent.input(max, { target: { value: '7' } });
    await fireEvent.click(screen.getByRole('tab', { name: 'General' }));
    b.refuse = [{ key: 'config.filter.facetsToShow.0.maximumTerms', message: 'is more than this server allows' }];
    await key('s');
    const alert = await screen.findByText(/is more than this server allows/);
    expect(alert.closest('[data-error-key]')!.getAttribute('data-error-key')).toBe('config.filter.facetsToShow.0.maximumTerms');
    expect(screen.getByRole('tab', { name: /Facets/ }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('Maximum terms') as HTMLInputElement).value).toBe('7');
    expect(screen.getByTestId('save-state').textContent).toContain('Unsaved changes');
    expect(b.calls.find((c) => c.op === 'update')).toBeTruthy();
  });

  test('a save sends the whole envelope and clears the unsaved state', async () => {
    const b = await start();
    await fireEvent.click(screen.getByRole('tab', { name: 'Layout' }));
    await fireEvent.input(screen.getByLabelText('Background', { selector: '#f-config-layout-navbar-backgroundColor' }), { target: { value: '#102030' } });
    expect((preview().querySelector('.sa-navbar') as HTMLElement).style.backgroundColor).toBe('rgb(16, 32, 48)');
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toContain('Saved'));
    const sent = b.calls.find((c) => c.op === 'update')!.arg as any;
    expect(sent.config.layout.navbar.backgroundColor).toBe('#102030');
    expect(sent.config.filter.facetsToShow).toHaveLength(2);
    expect(b.configs.get(1)!.config.layout.navbar.backgroundColor).toBe('#102030');
  });

  test('the contrast of a colour pair is rated and low contrast is warned about', async () => {
    await start();
    await fireEvent.click(screen.getByRole('tab', { name: 'Layout' }));
    const navbar = screen.getByRole('group', { name: 'Navbar' });
    await fireEvent.input(within(navbar).getByLabelText('Background'), { target: { value: '#000000' } });
    expect(within(navbar).getByText('21.00:1')).toBeTruthy();
    expect(within(navbar).getByText('WCAG AAA')).toBeTruthy();
    await fireEvent.input(within(navbar).getByLabelText('Background'), { target: { value: '#eeeeee' } });
    await fireEvent.input(within(navbar).getByLabelText('Text'), { target: { value: '#ffffff' } });
    expect(within(navbar).getByText('Below AA')).toBeTruthy();
    expect(within(navbar).getByText(/below 4.5:1/)).toBeTruthy();
  });

  test('facets are added from the search space, reordered by keyboard and removed, and the preview follows', async () => {
    await start();
    await fireEvent.click(screen.getByRole('tab', { name: 'Facets' }));
    await fireEvent.change(screen.getByLabelText(/Add a field of/), { target: { value: 'dyn_flt_sentiment' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add facet' }));
    const titles = () => [...document.querySelectorAll('.item-title')].map((e) => e.textContent);
    expect(titles()).toEqual(['Author', 'Topic', 'Sentiment']);
    await fireEvent.keyDown(screen.getByRole('button', { name: /Reorder Author/ }), { key: 'ArrowDown' });
    expect(titles()).toEqual(['Topic', 'Author', 'Sentiment']);
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/Reorder Author: position 2/);
    await waitFor(() =>
      expect([...preview().querySelectorAll('.sa-facet-title')].map((e) => e.textContent)).toEqual(['Topic', 'Author', 'Sentiment']),
    );
    await fireEvent.click(screen.getByRole('button', { name: 'Remove Topic' }));
    expect(titles()).toEqual(['Author', 'Sentiment']);
    await waitFor(() => expect([...preview().querySelectorAll('.sa-facet-title')].map((e) => e.textContent)).toEqual(['Author', 'Sentiment']));
  });

  test('a new configuration is created from the default template and opened', async () => {
    const b = await start();
    await fireEvent.click(screen.getByRole('button', { name: '+ New' }));
    await fireEvent.input(screen.getByLabelText('Title', { selector: '#new-title' }), { target: { value: 'Shop' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Shop #3/ }).getAttribute('aria-current')).toBe('true'));
    const body = b.calls.find((c) => c.op === 'create')!.arg as any;
    expect(body.config.title).toBe('Shop');
    expect(body.config.searchSpace).toBe('demo');
    expect(body.config.result.itemsPerPage).toBe(10);
  });

  test('the last edited configuration is opened on start', async () => {
    localStorage.setItem('search-studio.prefs', JSON.stringify({ lastConfigId: 2 }));
    render(App, { props: { backend: backend() } });
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Archive'));
  });

  test('the first search is sent before the editor and the preview are built, once, and its answer is shown', async () => {
    const b = backend();
    const builtWhenAsked: boolean[] = [];
    const search = b.search.bind(b);
    b.search = (id, request) => {
      builtWhenAsked.push(!!document.querySelector('.editor, [data-testid="preview-host"]'));
      return search(id, request);
    };
    await start(b);
    expect(builtWhenAsked).toEqual([false]);
    expect(resultCount()).toBe(10);
    // The searches after it are the preview's own.
    await fireEvent.click(screen.getByRole('tab', { name: 'Result list' }));
    await fireEvent.input(screen.getByLabelText('Results per page'), { target: { value: '3' } });
    await waitFor(() => expect(resultCount()).toBe(3));
    expect(builtWhenAsked).toEqual([false, true]);
  });
});

describe('drafts', () => {
  test('unsaved edits are kept locally and offered back on the next start', async () => {
    const b = await start();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Half done' } });
    await waitFor(() => expect(Object.keys(localStorage).some((k) => k.startsWith('search-studio.draft.'))).toBe(true), { timeout: 2000 });
    cleanup();
    render(App, { props: { backend: b } });
    const offer = await screen.findByTestId('draft-offer');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('News');
    await fireEvent.click(within(offer).getByRole('button', { name: 'Restore draft' }));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Half done');
    expect(screen.getByText(/restored/)).toBeTruthy();
    expect(screen.getByTestId('save-state').textContent).toContain('Unsaved changes');
    await key('z');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('News');
  });

  test('a discarded draft is forgotten and the published version stays', async () => {
    const b = await start();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Throw away' } });
    await waitFor(() => expect(Object.keys(localStorage).some((k) => k.startsWith('search-studio.draft.'))).toBe(true), { timeout: 2000 });
    cleanup();
    render(App, { props: { backend: b } });
    await fireEvent.click(within(await screen.findByTestId('draft-offer')).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('draft-offer')).toBeNull();
    expect(Object.keys(localStorage).some((k) => k.startsWith('search-studio.draft.'))).toBe(false);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('News');
  });
});

describe('publishing', () => {
  test('a change made elsewhere is never overwritten: the conflict view lets me choose per field', async () => {
    const b = await start();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Mine' } });
    // Someone else changes the title and the page size behind the editor's back.
    await b.updateConfiguration(1, { config: { title: 'Theirs', result: { itemsPerPage: 20 } } });
    await key('s');
    const view = await screen.findByTestId('conflict-view');
    expect((await b.getConfiguration(1)).config.title).toBe('Theirs');
    const row = view.querySelector('tr[data-path="config.title"]')!;
    expect(row.textContent).toContain('News');
    expect(row.textContent).toContain('Mine');
    expect(row.textContent).toContain('Theirs');
    expect(view.querySelector('tr[data-path="config.result.itemsPerPage"]')!.classList.contains('conflicting')).toBe(false);
    const publish = within(view).getByRole('button', { name: 'Publish merged' }) as HTMLButtonElement;
    expect(publish.disabled).toBe(true);
    await fireEvent.click(within(row as HTMLElement).getByLabelText('Keep mine'));
    await fireEvent.click(publish);
    await waitFor(() => expect(screen.queryByTestId('conflict-view')).toBeNull());
    await waitFor(async () => expect((await b.getConfiguration(1)).config.title).toBe('Mine'));
    expect((await b.getConfiguration(1)).config.result.itemsPerPage).toBe(20);
    expect(screen.getByTestId('save-state').textContent).not.toContain('Unsaved');
  });

  test('taking theirs for all keeps the server’s values', async () => {
    const b = await start();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Mine' } });
    await b.updateConfiguration(1, { config: { title: 'Theirs' } });
    await key('s');
    const view = await screen.findByTestId('conflict-view');
    await fireEvent.click(within(view).getByRole('button', { name: 'Take all theirs' }));
    await fireEvent.click(within(view).getByRole('button', { name: 'Publish merged' }));
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Theirs'));
    expect((await b.getConfiguration(1)).config.title).toBe('Theirs');
  });

  test('offline, publishing says so and the draft stays', async () => {
    const b = await start();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'On the train' } });
    b.getConfiguration = async () => {
      throw new TypeError('Failed to fetch');
    };
    await key('s');
    expect((await screen.findByRole('alert')).textContent).toMatch(/cannot be reached \(offline\).*draft is kept/);
    expect(screen.getByTestId('connection').textContent).toContain('offline');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('On the train');
  });
});

describe('preferences and keyboard', () => {
  test('the theme is applied and remembered', async () => {
    await start();
    await fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'dark' } });
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(JSON.parse(localStorage.getItem('search-studio.prefs')!).theme).toBe('dark');
    await fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'light' } });
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  test('the panes are tabs reachable with the arrow keys', async () => {
    await start();
    const general = screen.getByRole('tab', { name: 'General' });
    expect(general.getAttribute('tabindex')).toBe('0');
    await fireEvent.keyDown(general, { key: 'ArrowRight' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Result list' })));
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-result');
    await fireEvent.keyDown(document.activeElement!, { key: 'End' });
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Detail view' }).getAttribute('aria-selected')).toBe('true'));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('true'));
  });

  test('the colour-vision filters are on the page only while the preview is shown through one', async () => {
    await start();
    const host = document.querySelector('[data-testid="preview-host"]') as HTMLElement;
    expect(document.querySelector('svg.vision-filters')).toBeNull();
    expect(host.style.filter).toBe('');
    await fireEvent.click(screen.getByTestId('a11y-badge'));
    await fireEvent.change(await screen.findByLabelText('Show the preview with'), { target: { value: 'deuteranopia' } });
    await waitFor(() => expect(host.style.filter).toContain('#sim-deuteranopia'));
    expect(document.querySelector('svg.vision-filters filter#sim-deuteranopia')).not.toBeNull();
    await fireEvent.change(screen.getByLabelText('Show the preview with'), { target: { value: 'normal' } });
    await waitFor(() => expect(document.querySelector('svg.vision-filters')).toBeNull());
    expect(host.style.filter).toBe('');
  });
});
