// The detail view shows the rows of the configuration being edited, with the values the server put in the
// document's documentDetails, and the document's facetList where the server sent no group for a field.
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import SearchApp from './SearchApp.svelte';
import { detailRows } from './details';
import { FakeBackend, template } from '../../test/fakeBackend';
import type { Config, DetailSetting, Document, FacetGroup, JsonValue } from '../types/generated';

const fields = [
  { field: 'dyn_lit_author', label: 'Author', uri: 'urn:field:dyn_lit_author', kind: 'literal' as const },
  { field: 'dyn_uri_topic', label: 'Topic', uri: 'urn:field:dyn_uri_topic', kind: 'concept' as const },
];

const detail = (uri: string, title: string, show = true): DetailSetting => ({ uri, title, show, refId: uri });
const value = (label: string, value: string | null = null) => ({ count: 1, label, value, children: null });
const group = (field: string, label: string, facets: ReturnType<typeof value>[]) => ({ field, label, facets });

afterEach(cleanup);

/** Opens the detail view of the first document, with `details` as the edited (unsaved) detail settings. */
async function openDetail(details: DetailSetting[], documentDetails: JsonValue[]) {
  const backend = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  backend.docs[0].documentDetails = documentDetails;
  const config: Config = { ...template().config, title: 'News', searchSpace: 'demo' };
  config.details.detailsToShow = details;
  render(SearchApp, { props: { backend, configId: 1, config, fields } });
  const first = await screen.findByRole('button', { name: 'Document 0' });
  await fireEvent.click(first);
  const view = await screen.findByTestId('detail-view');
  return [...view.querySelectorAll('.sa-detail-fields > div')].map((row) => [
    row.querySelector('dt')!.textContent,
    row.querySelector('dd')!.textContent,
  ]);
}

describe('detail view rows', () => {
  test('values come from documentDetails, matched by field id whether the setting names the field by id or uri', async () => {
    const rows = await openDetail(
      [detail('urn:field:dyn_lit_author', 'By'), detail('dyn_uri_all_concepts', 'Concepts')],
      [
        group('dyn_lit_author', 'By', [value('Zoe'), value('Yann')]),
        group('dyn_uri_all_concepts', 'Concepts', [value('urn:wind', 'Wind')]),
      ],
    );
    // The document's facetList says Ana, Energy and Solar: the server's details win.
    expect(rows).toEqual([['By', 'Zoe, Yann'], ['Concepts', 'Wind']]);
  });

  test('a field without a documentDetails group falls back to the facetList group of that field', async () => {
    const rows = await openDetail([detail('dyn_lit_author', 'By'), detail('urn:field:dyn_uri_topic', 'About')], [
      group('dyn_lit_author', 'By', [value('Zoe')]),
    ]);
    expect(rows).toEqual([['By', 'Zoe'], ['About', 'Energy, Solar']]);
    cleanup();
    const older = await openDetail([detail('dyn_lit_author', 'By'), detail('dyn_uri_all_concepts', 'Concepts')], []);
    expect(older).toEqual([['By', 'Ana'], ['Concepts', 'Energy, Solar']]);
  });

  test('rows follow the edited settings: their titles, their order, and only the shown ones', async () => {
    const rows = await openDetail(
      [detail('dyn_uri_topic', 'Subjects'), detail('dyn_lit_author', 'Hidden', false), detail('dyn_lit_author', 'Written by')],
      // As shaped by the stored settings, titled differently.
      [group('dyn_lit_author', 'Author', [value('Zoe')]), group('dyn_uri_topic', 'Topic', [value('Wind', 'urn:wind')])],
    );
    expect(rows).toEqual([['Subjects', 'Wind'], ['Written by', 'Zoe']]);
  });
});

test('documentDetails entries of other shapes are left out, and the facetList is used instead', () => {
  const doc = {
    documentDetails: ['text', 7, null, { label: 'no field' }, { field: 'dyn_lit_author', facets: 'not a list' }],
    facetList: [group('dyn_uri_topic', 'Topic', [value('Energy', 'urn:energy')])] as unknown as FacetGroup[],
  } as unknown as Document;
  const rows = detailRows(doc, [detail('dyn_lit_author', 'By'), detail('dyn_uri_topic', 'About'), detail('dyn_lit_x', '')], fields);
  expect(rows).toEqual([
    { index: 0, title: 'By', values: [] },
    { index: 1, title: 'About', values: ['Energy'] },
    { index: 2, title: 'dyn_lit_x', values: [] },
  ]);
});
