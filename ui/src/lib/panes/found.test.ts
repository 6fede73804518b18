import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { FoundFields } from './found.svelte';
import FacetsPane from './FacetsPane.svelte';
import { Draft } from '../editor/draft.svelte';
import { FakeBackend, template } from '../../test/fakeBackend';
import type { SearchResponse } from '../types/generated';

const group = (field: string, label: string) => ({ field, label, facets: [] });
const answer = (facets: ReturnType<typeof group>[], facetLists: ReturnType<typeof group>[][]): SearchResponse =>
  ({ concepts: [], facets, message: '', total: 0n, result: facetLists.map((facetList) => ({ facetList })) }) as unknown as SearchResponse;

describe('fields found in search answers', () => {
  test('come from the answer’s facets and its documents’ facetLists, per search space, by label', () => {
    const found = new FoundFields(async () => answer([], []));
    found.note('news', answer([group('dyn_lit_author', 'Writers')], [[group('dyn_uri_topic', 'Topic'), group('dyn_lit_author', 'Author')]]));
    found.note('news', answer([], [[group('dyn_flt_sentiment', ''), group('dyn_uri_topic', 'Subject')]]));
    found.note('other', answer([group('dyn_lit_place', 'Place')], []));
    expect(found.of('news')).toEqual([
      { field: 'dyn_flt_sentiment', label: 'dyn_flt_sentiment' },
      { field: 'dyn_uri_topic', label: 'Topic' },
      { field: 'dyn_lit_author', label: 'Writers' },
    ]);
    found.note('news', answer([group('dyn_flt_sentiment', 'Sentiment')], []));
    expect(found.of('news').map((f) => f.label)).toEqual(['Sentiment', 'Topic', 'Writers']);
    expect(found.of('other')).toEqual([{ field: 'dyn_lit_place', label: 'Place' }]);
    expect(found.of('unknown')).toEqual([]);
  });

  test('an answer of another server without facets or documents is tolerated', () => {
    const found = new FoundFields(async () => answer([], []));
    found.note('news', {} as SearchResponse);
    found.note('news', { result: [{}] } as unknown as SearchResponse);
    expect(found.of('news')).toEqual([]);
  });

  test('with none known, one search of the first page with empty input finds them; a failure may be retried', async () => {
    const search = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(answer([], [[group('dyn_lit_author', 'Author')]]));
    const found = new FoundFields(search);
    await found.discover(4, 'news');
    expect(found.of('news')).toEqual([]);
    await found.discover(4, 'news');
    await found.discover(4, 'news');
    expect(search).toHaveBeenCalledTimes(2);
    expect(search).toHaveBeenLastCalledWith(4, { input: '', selectedFacets: [], start: 0 });
    expect(found.of('news')).toEqual([{ field: 'dyn_lit_author', label: 'Author' }]);
  });
});

describe('Facets pane on a server that lists no search spaces', () => {
  test('opening it searches once for fields, which are then offered as found in results', async () => {
    const b = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const search = vi.fn((id: number, request: Parameters<FakeBackend['search']>[1]) => b.search(id, request));
    const found = new FoundFields(search);
    const t = template();
    const draft = new Draft({ ...t, id: 1, config: { ...t.config, title: 'News', searchSpace: 'demo' } });
    render(FacetsPane, { props: { draft, spaces: [], found } });
    const select = (await screen.findByLabelText(/Add a field found in results of “demo”/)) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(5));
    expect(search).toHaveBeenCalledTimes(1);
    expect([...select.options].map((o) => o.value)).toEqual(['', 'dyn_uri_all_concepts', 'dyn_lit_author', 'dyn_flt_sentiment', 'dyn_uri_topic']);
    await fireEvent.change(select, { target: { value: 'dyn_lit_author' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add facet' }));
    expect(draft.get('config.filter.facetsToShow')).toEqual([
      expect.objectContaining({ uri: 'dyn_lit_author', refId: 'dyn_lit_author', title: 'Author', show: true, facetMode: 'flat' }),
    ]);
    expect([...select.options].map((o) => o.value)).not.toContain('dyn_lit_author');
  });

  test('a listed search space’s fields are used as before, without searching', async () => {
    const b = new FakeBackend();
    const search = vi.fn(async () => answer([], []));
    const t = template();
    const draft = new Draft({ ...t, id: 1, config: { ...t.config, title: 'News', searchSpace: 'demo' } });
    render(FacetsPane, { props: { draft, spaces: await b.searchSpaces(), found: new FoundFields(search) } });
    const select = screen.getByLabelText('Add a field of “demo”') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent!.trim()).slice(1)).toEqual([
      'Author (dyn_lit_author, literal)', 'Topic (dyn_uri_topic, concept)', 'Sentiment (dyn_flt_sentiment, numeric)',
    ]);
    expect(search).not.toHaveBeenCalled();
  });
});
