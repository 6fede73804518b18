// Each setting of the configuration changes what the preview renders.
import { describe, expect, test } from 'vitest';
import { tick } from 'svelte';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import SearchApp from './SearchApp.svelte';
import { FakeBackend, template } from '../../test/fakeBackend';
import { newFacet } from '../panes/items';
import { formatDate } from './format';
import type { Config } from '../types/generated';

const fields = [
  { field: 'dyn_lit_author', label: 'Author', uri: 'urn:field:dyn_lit_author', kind: 'literal' as const },
  { field: 'dyn_uri_topic', label: 'Topic', uri: 'urn:field:dyn_uri_topic', kind: 'concept' as const },
];

function config(change: (c: Config) => void = () => {}): Config {
  const c = template().config;
  c.title = 'News';
  c.searchSpace = 'demo';
  c.filter.facetsToShow = [newFacet('dyn_lit_author', 'Author'), newFacet('dyn_uri_topic', 'Topic')];
  c.result.showSimilarDocuments = false;
  change(c);
  return c;
}

async function show(change: (c: Config) => void = () => {}, backend = new FakeBackend([{ title: 'News', searchSpace: 'demo' }])) {
  const view = render(SearchApp, { props: { backend, configId: 1, config: config(change), fields } });
  await waitFor(() => expect(backend.calls.some((c) => c.op === 'search')).toBe(true));
  await waitFor(() => expect(view.container.querySelector('.sa-status, .sa-note')).not.toBeNull());
  await waitFor(() => expect(screen.queryByText('Searching…')).toBeNull());
  return { ...view, backend };
}
const results = () => screen.queryAllByTestId('result');
const lastSearch = (b: FakeBackend) => b.calls.filter((c) => c.op === 'search').at(-1)!.arg as any;

describe('preview renders the configuration', () => {
  test('itemsPerPage sets the page size, sent to the backend with the edited settings', async () => {
    const { backend } = await show((c) => (c.result.itemsPerPage = 3));
    expect(results()).toHaveLength(3);
    expect(lastSearch(backend).config.result.itemsPerPage).toBe(3);
  });

  test('showResultCount shows or hides the count', async () => {
    await show();
    expect(screen.getByTestId('result-count').textContent).toBe('12 results');
    cleanup();
    await show((c) => (c.result.showResultCount = false));
    expect(screen.queryByTestId('result-count')).toBeNull();
  });

  test('summaryLength cuts the summary; 0 hides it', async () => {
    await show((c) => (c.result.summaryLength = 30));
    const summary = screen.getAllByTestId('summary')[0].textContent!;
    expect(summary.length).toBeLessThanOrEqual(31);
    expect(summary.endsWith('…')).toBe(true);
    cleanup();
    await show((c) => (c.result.summaryLength = 0));
    expect(screen.queryAllByTestId('summary')).toHaveLength(0);
  });

  test('numberOfTags limits the tags; showTags hides them', async () => {
    await show((c) => (c.result.numberOfTags = 1));
    const first = results()[0];
    expect(within(first).getAllByRole('listitem').filter((li) => li.classList.contains('sa-tag'))).toHaveLength(1);
    expect(within(first).getByText('Energy')).toBeTruthy();
    cleanup();
    await show((c) => (c.result.showTags = false));
    expect(document.querySelectorAll('.sa-tag')).toHaveLength(0);
  });

  test('dateFormat renders dates in the named format', async () => {
    await show((c) => (c.result.dateFormat = 'fullDate'));
    const date = Date.UTC(2024, 0, 31, 12);
    expect(screen.getAllByTestId('result-date')[0].textContent).toBe(formatDate(date, 'fullDate'));
    expect(formatDate(date, 'fullDate')).not.toBe(formatDate(date, 'shortDate'));
  });

  test('colours reach the navbar, panels and action colours', async () => {
    const { container } = await show((c) => {
      c.layout.navbar = { backgroundColor: '#123456', fontColor: '#fedcba' };
      c.layout.facets = { backgroundColor: '#eeeeee', fontColor: '#111111' };
      c.layout.criticalActionColor = { backgroundColor: '#aa0000', fontColor: '#ffffff' };
    });
    const navbar = container.querySelector('.sa-navbar') as HTMLElement;
    expect(navbar.style.backgroundColor).toBe('rgb(18, 52, 86)');
    expect(navbar.style.color).toBe('rgb(254, 220, 186)');
    expect((container.querySelector('.sa-filters') as HTMLElement).style.backgroundColor).toBe('rgb(238, 238, 238)');
    expect((container.querySelector('.sa') as HTMLElement).style.getPropertyValue('--critical-bg')).toBe('#aa0000');
  });

  test('the logo is an image, shown only when set', async () => {
    await show((c) => (c.layout.logo = 'https://example.org/logo.png'));
    expect(screen.getByAltText('News logo').getAttribute('src')).toBe('https://example.org/logo.png');
    cleanup();
    await show();
    expect(screen.queryByAltText('News logo')).toBeNull();
  });

  test('maximumTerms cuts a facet; hierarchical facets expand', async () => {
    await show((c) => (c.filter.facetsToShow[0].maximumTerms = 1));
    const author = document.querySelector('[data-facet="Author"]') as HTMLElement;
    expect(within(author).getAllByRole('button', { pressed: false })).toHaveLength(1);
    const topic = document.querySelector('[data-facet="Topic"]') as HTMLElement;
    expect(within(topic).queryByText('Solar')).toBeNull();
    await fireEvent.click(within(topic).getByRole('button', { name: 'Expand Energy' }));
    expect(within(topic).getByText('Solar')).toBeTruthy();
  });

  test('flat facets have no expanders', async () => {
    await show((c) => (c.filter.facetsToShow[1].facetMode = 'flat'));
    expect(screen.queryByRole('button', { name: /Expand/ })).toBeNull();
  });

  test('hideEmptyFacets hides a facet without values', async () => {
    const add = (c: Config) => c.filter.facetsToShow.push(newFacet('dyn_lit_nothing', 'Nothing'));
    await show(add);
    expect(document.querySelector('[data-facet="Nothing"]')).toBeNull();
    cleanup();
    await show((c) => {
      add(c);
      c.filter.hideEmptyFacets = false;
    });
    expect(within(document.querySelector('[data-facet="Nothing"]') as HTMLElement).getByText('No values')).toBeTruthy();
  });

  test('componentOrder orders the filter panel', async () => {
    await show((c) => (c.filter.componentOrder = ['reset', 'facets', 'search']));
    const parts = [...document.querySelectorAll('.sa-filters > [data-part]')].map((e) => e.getAttribute('data-part'));
    expect(parts).toEqual(['reset', 'facets', 'search']);
    cleanup();
    await show((c) => (c.filter.componentOrder = ['facets', 'unknown-part']));
    expect([...document.querySelectorAll('.sa-filters > [data-part]')].map((e) => e.getAttribute('data-part'))).toEqual(['facets']);
  });

  test('showDynamicSentiment shows each document’s sentiment', async () => {
    await show();
    expect(screen.queryAllByTestId('sentiment')).toHaveLength(0);
    cleanup();
    await show((c) => (c.result.showDynamicSentiment = true));
    expect(screen.getAllByTestId('sentiment')[0].textContent).toContain('positive');
    expect(screen.getAllByTestId('sentiment')[1].textContent).toContain('negative');
  });

  test('showResultAsImage shows a gallery with an image per result', async () => {
    await show((c) => (c.result.showResultAsImage = true));
    expect(document.querySelector('.sa-results')!.classList.contains('sa-gallery')).toBe(true);
    expect(document.querySelectorAll('.sa-result .sa-image')).toHaveLength(10);
  });

  test('showSimilarDocuments lists similar documents under each result', async () => {
    const { backend } = await show((c) => {
      c.result.itemsPerPage = 2;
      c.result.showSimilarDocuments = true;
      c.result.numberOfSimilarDocuments = 3;
    });
    await waitFor(() => expect(screen.getAllByTestId('similar')).toHaveLength(2));
    expect(within(screen.getAllByTestId('similar')[0]).getAllByRole('button')).toHaveLength(3);
    expect(backend.calls.find((c) => c.op === 'similar')!.arg).toMatchObject({ number: 3 });
  });

  test('titleAction link opens the document in a new window', async () => {
    await show((c) => (c.result.titleAction = 'link'));
    const link = within(results()[0]).getByRole('link');
    expect(link.getAttribute('href')).toBe('https://example.org/doc/0');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  test('titleAction detail_view opens the detail view with details, similar, recommended and highlighting', async () => {
    const { backend } = await show((c) => {
      c.details.detailsToShow = [{ uri: 'urn:field:dyn_lit_author', title: 'Written by', show: true, refId: 'urn:field:dyn_lit_author' }];
      c.details.showSimilar = true;
      c.details.numberOfSimilar = 2;
      c.details.showRecommendations = true;
      c.details.recommender = 'same-author';
      c.details.numberOfRecommendations = 1;
      c.details.showConceptHighlighting = true;
    });
    await fireEvent.click(within(results()[0]).getByRole('button', { name: 'Document 0' }));
    const detail = await screen.findByTestId('detail-view');
    expect(within(detail).getByText('Written by')).toBeTruthy();
    expect(within(detail).getByText('Ana')).toBeTruthy();
    const marks = [...screen.getByTestId('detail-text').querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(expect.arrayContaining(['Solar', 'Energy']));
    await waitFor(() => expect(within(screen.getByTestId('detail-similar')).getAllByRole('button')).toHaveLength(2));
    await waitFor(() => expect(within(screen.getByTestId('detail-recommended')).getAllByRole('button')).toHaveLength(1));
    expect(backend.calls.find((c) => c.op === 'recommend')!.arg).toMatchObject({ recommender: 'same-author' });
    await fireEvent.click(screen.getByRole('button', { name: 'Close the detail view' }));
    expect(screen.queryByTestId('detail-view')).toBeNull();
  });

  test('clicking a facet value searches with it; reset clears it', async () => {
    const { backend } = await show();
    const author = document.querySelector('[data-facet="Author"]') as HTMLElement;
    await fireEvent.click(within(author).getByRole('button', { name: /Ben/ }));
    await waitFor(() => expect(screen.getByTestId('result-count').textContent).toBe('4 results'));
    expect(lastSearch(backend).selectedFacets).toEqual([{ field: 'dyn_lit_author', label: 'Ben', value: null }]);
    await fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(screen.getByTestId('result-count').textContent).toBe('12 results'));
  });

  test('pagination asks for the next page by offset', async () => {
    const { backend } = await show((c) => (c.result.itemsPerPage = 5));
    await fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastSearch(backend).start).toBe(5));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page'));
  });

  test('a searchable facet filters its values; a show-all button opens a shortened list', async () => {
    const backend = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    backend.docs.forEach((d, i) => (d.facetList[0].facets[0].label = `Author ${i}`));
    await show((c) => {
      c.filter.facetsToShow[0].searchable = true;
      c.filter.facetsToShow[0].showAllButton = true;
    }, backend);
    const author = document.querySelector('[data-facet="Author"]') as HTMLElement;
    expect(within(author).getAllByRole('button', { pressed: false })).toHaveLength(5);
    await fireEvent.click(within(author).getByRole('button', { name: 'Show all (10)' }));
    expect(within(author).getAllByRole('button', { pressed: false })).toHaveLength(10);
    await fireEvent.input(within(author).getByRole('searchbox', { name: 'Filter Author' }), { target: { value: 'author 1' } });
    expect(within(author).getAllByRole('button', { pressed: false }).map((b) => b.textContent)).toEqual([expect.stringContaining('Author 1')]);
  });

  test('typing a query searches with it', async () => {
    const { backend } = await show();
    const box = screen.getByRole('searchbox', { name: 'Search documents' });
    await fireEvent.input(box, { target: { value: 'Document 11' } });
    await fireEvent.submit(box.closest('form')!);
    await waitFor(() => expect(screen.getByTestId('result-count').textContent).toBe('1 result'));
    expect(lastSearch(backend).input).toBe('Document 11');
  });

  test('a settings edit that changes the answer searches at once, asking only new results for similar documents; a colour change does not search', async () => {
    const base = config((c) => Object.assign(c.result, { showSimilarDocuments: true, itemsPerPage: 3 }));
    const edited = (change: (c: Config) => void) => {
      const c = structuredClone(base);
      change(c);
      return c;
    };
    const view = await show((c) => Object.assign(c, structuredClone(base)));
    const searches = () => view.backend.calls.filter((c) => c.op === 'search').length;
    const before = searches();
    await view.rerender({ config: edited((c) => (c.layout.navbar.backgroundColor = '#010203')) });
    await tick();
    expect(searches()).toBe(before);
    await view.rerender({ config: edited((c) => (c.result.itemsPerPage = 4)) });
    await tick();
    expect(searches()).toBe(before + 1);
    expect(lastSearch(view.backend).config.result.itemsPerPage).toBe(4);
    await waitFor(() => expect(results()).toHaveLength(4));
    // The documents that stay are not asked for their similar documents again: only the new fourth one is.
    const similar = view.backend.calls.filter((c) => c.op === 'similar').map((c) => (c.arg as any).uri);
    expect(similar).toHaveLength(new Set(similar).size);
    expect(similar).toHaveLength(4);
  });
});

describe('preview robustness', () => {
  test('a document with an unusable date or text still renders, as text', async () => {
    const backend = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    backend.docs[0].date = 1e20;
    backend.docs[0].title = '<img src=x onerror=alert(1)>';
    await show(() => {}, backend);
    expect(screen.getAllByTestId('result-date')[0].textContent).toBe('');
    expect(within(results()[0]).getByRole('button', { name: '<img src=x onerror=alert(1)>' })).toBeTruthy();
    expect(document.querySelector('.sa-results img')).toBeNull();
  });
});
