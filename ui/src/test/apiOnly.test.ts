// The editor against a server that offers the API's nine operations only (a team's production server): what
// it lacks is disabled with the reason or explained, never reported as a bare "Not Found", and the Facets pane
// offers the fields found in search answers.
import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import App from '../App.svelte';
import { FakeBackend } from './fakeBackend';
import { newFacet } from '../lib/panes/items';
import type { Extension } from '../lib/types/generated';

const ALL_LACKED: Extension[] = ['setActive', 'visible', 'logs', 'delete', 'searchSpaces'];

function apiOnly({ documented = true } = {}) {
  const b = new FakeBackend([
    { title: 'News', searchSpace: 'demo', filter: { facetsToShow: [newFacet('dyn_lit_author', 'Author')], hideEmptyFacets: true, componentOrder: [] } },
    { title: 'Archive', searchSpace: 'demo' },
  ]);
  b.lacks = new Set(ALL_LACKED);
  b.documented = documented;
  return b;
}

function preview(): ShadowRoot {
  return (document.querySelector('[data-testid="preview-host"]') as HTMLElement).shadowRoot!;
}

async function start(b: FakeBackend) {
  localStorage.clear();
  render(App, { props: { backend: b } });
  await screen.findByRole('tab', { name: 'General' });
  await waitFor(() => expect(preview().querySelectorAll('[data-testid="result"]').length).toBeGreaterThan(0));
  return b;
}

const actions = () => screen.getByRole('group', { name: /^Actions for/ });

describe('on a server whose document lists no extension', () => {
  test('"Make active" and "Delete" are disabled with the reason, and search spaces are not asked for', async () => {
    const b = await start(apiOnly());
    await fireEvent.click(screen.getByRole('button', { name: /Archive #2/ }));
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Archive'));
    const makeActive = within(actions()).getByRole('button', { name: 'Make active' }) as HTMLButtonElement;
    const remove = within(actions()).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(makeActive.disabled).toBe(true);
    expect(makeActive.title).toBe('This server does not offer making a configuration active.');
    expect(remove.disabled).toBe(true);
    expect(remove.title).toBe('This server does not offer deleting a configuration.');
    // The General pane's own button says why, next to it.
    const general = screen.getByRole('tabpanel');
    expect((within(general).getByRole('button', { name: 'Make active' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(general).getByText('This server does not offer making a configuration active.')).toBeTruthy();
    expect(within(general).getByText('This server does not list its search spaces; any name is allowed.')).toBeTruthy();
    // The active marker still comes from the list.
    expect(screen.getByRole('button', { name: /News #1/ }).textContent).toContain('Active');
    expect(b.calls.some((c) => c.op === 'searchSpaces')).toBe(false);
  });

  test('History explains that the server keeps none and lists what was published from here', async () => {
    await start(apiOnly());
    await fireEvent.click(screen.getByText('History'));
    expect(await screen.findByTestId('no-server-history')).toBeTruthy();
    expect(screen.getByTestId('no-server-history').textContent).toBe(
      'This server keeps no history of configurations; versions you published from this app are listed.',
    );
    expect(screen.queryByRole('alert')).toBeNull();

    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'News, again' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toContain('Saved'));
    // Saving starts the history afresh (closed); opening it lists the version just published.
    await fireEvent.click(screen.getByText('History'));
    const list = await waitFor(() => {
      const ol = document.querySelector('.history-list');
      expect(ol).not.toBeNull();
      return ol as HTMLElement;
    });
    expect(list.textContent).toContain('Published from this app');
  });

  test('the Facets pane offers the fields found in results, marked so, and an added one reaches the preview', async () => {
    await start(apiOnly());
    await fireEvent.click(screen.getByRole('tab', { name: 'Facets' }));
    const select = screen.getByLabelText(/Add a field found in results of “demo”/) as HTMLSelectElement;
    const options = [...select.options].slice(1).map((o) => o.textContent!.trim());
    // Author is a facet already; the rest come from the search answers' facets and the documents' facetLists.
    expect(options).toEqual([
      'All concepts (dyn_uri_all_concepts) · found in results',
      'Sentiment (dyn_flt_sentiment) · found in results',
      'Topic (dyn_uri_topic) · found in results',
    ]);
    expect(screen.getByRole('button', { name: /^Author dyn_lit_author · found in results/ })).toBeTruthy();

    await fireEvent.change(select, { target: { value: 'dyn_uri_topic' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add facet' }));
    await waitFor(() =>
      expect([...preview().querySelectorAll('.sa-facet-title')].map((e) => e.textContent)).toEqual(['Author', 'Topic']),
    );
    const draftItem = screen.getByRole('button', { name: /^Topic dyn_uri_topic/ });
    expect(draftItem.getAttribute('aria-expanded')).toBe('true');
    expect((screen.getByLabelText('Field (id or URI)') as HTMLInputElement).value).toBe('dyn_uri_topic');
    expect((screen.getByLabelText('Title', { selector: '#f-config-filter-facetsToShow-1-title' }) as HTMLInputElement).value).toBe('Topic');
  });

  test('a field can still be added by its id', async () => {
    await start(apiOnly());
    await fireEvent.click(screen.getByRole('tab', { name: 'Facets' }));
    await fireEvent.input(screen.getByLabelText(/Or a field by id or URI/), { target: { value: 'dyn_lit_companyname' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    // The preview searches with it at once, and its answer names the field.
    expect(await screen.findByRole('button', { name: /^dyn_lit_companyname dyn_lit_companyname · found in results/ })).toBeTruthy();
  });

  test('a new configuration suggests the search spaces the configurations use', async () => {
    const b = await start(apiOnly());
    await fireEvent.click(screen.getByRole('button', { name: '+ New' }));
    expect((screen.getByLabelText('Search space', { selector: '#new-space' }) as HTMLInputElement).value).toBe('demo');
    await fireEvent.input(screen.getByLabelText('Title', { selector: '#new-title' }), { target: { value: 'Shop' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Shop #3/ }).getAttribute('aria-current')).toBe('true'));
    expect((b.calls.find((c) => c.op === 'create')!.arg as { config: { searchSpace: string } }).config.searchSpace).toBe('demo');
  });
});

describe('on a server without a readable document', () => {
  test('"Make active" fails with the operation named, then is disabled with the reason', async () => {
    const b = await start(apiOnly({ documented: false }));
    await fireEvent.click(screen.getByRole('button', { name: /Archive #2/ }));
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Archive'));
    const makeActive = within(actions()).getByRole('button', { name: 'Make active' }) as HTMLButtonElement;
    expect(makeActive.disabled).toBe(false);
    const offersRead = b.calls.filter((c) => c.op === 'offers').length;
    await fireEvent.click(makeActive);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not make it active: this server does not offer making a configuration active');
    expect(alert.textContent).not.toMatch(/Not Found/);
    await waitFor(() => expect(makeActive.disabled).toBe(true));
    expect(makeActive.title).toBe('This server does not offer making a configuration active.');
    expect(b.calls.filter((c) => c.op === 'offers').length).toBe(offersRead + 1);
  });
});
