import { expect, test } from 'vitest';
import { differences, differsAt, ordinal } from './compare';
import { fieldLabel } from '../editor/labels';
import { template } from '../../test/fakeBackend';
import { FACET_DEFAULTS, type Config, type FacetSetting } from '../types/generated';

const facet = (uri: string, title: string): FacetSetting => ({ ...FACET_DEFAULTS, uri, refId: uri, title });
const withFacets = (config: Config, facets: FacetSetting[]): Config => ({ ...config, filter: { ...config.filter, facetsToShow: facets } });

test('a changed colour reads with its field label, as the editor shows it', () => {
  const theirs = template().config;
  const mine = { ...theirs, layout: { ...theirs.layout, navbar: { ...theirs.layout.navbar, backgroundColor: '#7b1fa2' } } };
  const d = differences(theirs, mine);
  expect(d.map((x) => x.text)).toEqual([`Navbar background: ${theirs.layout.navbar.backgroundColor} → #7b1fa2`]);
  expect(d[0].label).toBe(fieldLabel('config.layout.navbar.backgroundColor'));
});

test('a reordered list names what moved, and a changed item names its field and item', () => {
  const base = template().config;
  const [a, b, c] = [facet('a', 'Topic'), facet('b', 'Region'), facet('c', 'Author')];
  const theirs = withFacets(base, [a, b, c]);
  expect(differences(theirs, withFacets(base, [b, c, a])).map((x) => x.text)).toEqual(['Topic moved from 1st to 3rd']);
  expect(differences(theirs, withFacets(base, [a, b, { ...c, maximumTerms: 3 }])).map((x) => x.text)).toEqual([
    `Maximum terms of “Author”: ${c.maximumTerms} → 3`,
  ]);
  expect(differences(theirs, withFacets(base, [a, c])).map((x) => x.text)).toEqual(['Region removed from Facets shown']);
});

test('ordinals', () => {
  expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 103].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']);
});

test('show differences marks the parts whose settings differ, each side at its own positions', () => {
  const base = template().config;
  const [a, b] = [facet('a', 'Topic'), facet('b', 'Region')];
  const theirs = withFacets(base, [a, b]);
  const mine = withFacets(base, [a, { ...b, title: 'Regions' }]);
  const marked = differsAt(theirs, mine);
  expect(marked({ part: 'facet', index: 1 })).toBe(true);
  expect(marked({ part: 'facet', index: 0 })).toBe(false);
  expect(marked({ part: 'navbar', index: null })).toBe(false);
});
