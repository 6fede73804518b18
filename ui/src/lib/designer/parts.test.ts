import { expect, test } from 'vitest';
import { describePart, PART_NAMES } from './parts';
import { differences } from './compare';
import { fieldLabel, hasField } from '../editor/labels';
import { template } from '../../test/fakeBackend';
import { DETAIL_DEFAULTS, FACET_DEFAULTS, type Config } from '../types/generated';

const config: Config = (() => {
  const c = template().config;
  return {
    ...c,
    filter: { ...c.filter, facetsToShow: [{ ...FACET_DEFAULTS, uri: 'dyn_uri_topic', refId: 'dyn_uri_topic', title: 'Topic' }] },
    details: { ...c.details, detailsToShow: [{ ...DETAIL_DEFAULTS, uri: 'dyn_lit_author', refId: 'dyn_lit_author', title: '' }] },
  };
})();

test('every setting Inspect names is a field of the editor, named by that field’s label', () => {
  for (const part of PART_NAMES) {
    const info = describePart({ part, index: 0 }, config);
    expect(info, part).not.toBeNull();
    for (const s of info!.settings) {
      expect(hasField(s.key), `${part}: ${s.key}`).toBe(true);
      expect(s.label, `${part}: ${s.key}`).toBe(fieldLabel(s.key));
    }
  }
});

test('Inspect names a part, an item by its title or field, and the setting a click opens', () => {
  const navbar = describePart({ part: 'navbar', index: null }, config)!;
  expect(navbar.name).toBe('Navbar');
  expect(navbar.settings.map((s) => [s.key, s.label])).toEqual([
    ['config.layout.navbar.backgroundColor', 'Navbar background'],
    ['config.layout.navbar.fontColor', 'Navbar text'],
  ]);
  const facet = describePart({ part: 'facet', index: 0 }, config)!;
  expect(facet.name).toBe('Facet group “Topic”');
  expect(facet.settings[0]).toEqual({ key: 'config.filter.facetsToShow.0.title', label: 'Title' });
  expect(describePart({ part: 'detail-field', index: 0 }, config)!.name).toBe('Detail “dyn_lit_author”');
  expect(describePart({ part: 'no-such-part', index: null }, config)).toBeNull();
});

test('Inspect and the comparison call a setting the same', () => {
  const mine = { ...config, filter: { ...config.filter, hideEmptyFacets: !config.filter.hideEmptyFacets } };
  const [difference] = differences(config, mine);
  const inspected = describePart({ part: 'facets', index: null }, config)!.settings.find((s) => s.key === 'config.filter.hideEmptyFacets');
  expect(inspected?.label).toBe(difference.label);
});
