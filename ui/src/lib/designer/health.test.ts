import { expect, test } from 'vitest';
import { estimateHealth, healthNote, type FieldHealth } from './health';
import type { SearchResponse } from '../types/generated';

const field = (over: Partial<FieldHealth>): FieldHealth => ({
  field: 'dyn_uri_topic', label: 'Topic', documents: 980, values: 412, depth: 3, valuesByDepth: [20, 120, 272], largestValueDocuments: 300, ...over,
});
const hierarchical = { maximumTerms: 10, hierarchicalDepth: 2, facetMode: 'hierarchical' };

test('the numbers read against the facet’s settings: values shown, levels shown, share of documents', () => {
  const note = healthNote(field({}), 1000, hierarchical, false);
  expect(note.summary).toBe('412 values; 10 shown; 2 of 3 levels; 980 documents (98 %)');
  expect(note.warnings).toEqual(['Only 10 of 20 top-level values are shown (Maximum terms).', 'Levels below 2 are not shown (Hierarchy depth).']);
});

test('a flat facet lists every value of every level', () => {
  const note = healthNote(field({}), 1000, { ...hierarchical, facetMode: 'flat', maximumTerms: 500 }, false);
  expect(note.summary).toBe('412 values; 412 shown; 980 documents (98 %)');
  expect(note.warnings).toEqual([]);
});

test('fields that would show nothing or almost nothing are warned about; estimates say so', () => {
  expect(healthNote(field({ documents: 0, values: 0, depth: 0, valuesByDepth: [] }), 1000, null, false).warnings).toEqual([
    'No document has this field: the facet would show nothing.',
  ]);
  const rare = healthNote(field({ documents: 12, depth: 1, valuesByDepth: [412] }), 1000, null, true);
  expect(rare.summary).toBe('412 values; about 12 documents (1 %)');
  expect(rare.warnings).toEqual(['Only about 1 % of documents have this field: the facet shows almost nothing for most searches.']);
  expect(healthNote(field({ values: 1, depth: 1, valuesByDepth: [1] }), 1000, null, false).warnings).toEqual(['It has one value only: it cannot narrow a search.']);
});

test('an estimate takes each field’s share from the sampled documents and its values from the larger source', () => {
  const refiner = (label: string, count: number, children: unknown[] | null = null) => ({ label, value: label, count, children });
  const answer = {
    total: 200,
    facets: [{ field: 'dyn_uri_topic', label: 'Topic', facets: [refiner('A', 120, [refiner('A1', 50)]), refiner('B', 80)] }],
    result: [
      { facetList: [{ field: 'dyn_uri_topic', label: 'Topic', facets: [refiner('C', 1)] }, { field: 'dyn_lit_author', label: 'Author', facets: [refiner('Ana', 1)] }] },
      { facetList: [{ field: 'dyn_lit_author', label: 'Author', facets: [refiner('Bo', 1)] }] },
    ],
  } as unknown as SearchResponse;
  const h = estimateHealth('demo', answer);
  expect(h.estimatedFrom).toBe(2);
  expect(h.fields.map((f) => [f.field, f.documents, f.valuesByDepth, f.largestValueDocuments])).toEqual([
    ['dyn_lit_author', 200, [2], 0],
    ['dyn_uri_topic', 100, [2, 1], 120],
  ]);
});
