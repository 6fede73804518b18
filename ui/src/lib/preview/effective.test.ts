import { expect, test } from 'vitest';
import { effectiveConfig } from './effective';
import { validateConfig } from '../editor/rules';
import { template } from '../../test/fakeBackend';
import { DETAIL_DEFAULTS, FACET_DEFAULTS, type Config, type DetailSetting, type FacetSetting } from '../types/generated';

const facet = (uri: string, more: Partial<FacetSetting> = {}): FacetSetting => ({ ...FACET_DEFAULTS, uri, refId: uri, title: uri, ...more });
const detail = (uri: string, more: Partial<DetailSetting> = {}): DetailSetting => ({ ...DETAIL_DEFAULTS, uri, refId: uri, ...more });
const withItems = (facets: FacetSetting[], details: DetailSetting[] = []): Config => {
  const c = template().config;
  return { ...c, title: 'News', searchSpace: 'demo', filter: { ...c.filter, facetsToShow: facets }, details: { ...c.details, detailsToShow: details } };
};
/** What the editor holds: JSON, where a field may carry what its rule refuses. */
const edited = (config: Config, change: (c: any) => void): unknown => {
  const copy = JSON.parse(JSON.stringify(config));
  change(copy);
  return copy;
};

test('a refused top-level value keeps the one shown last, not the template’s', () => {
  const shown = withItems([]);
  shown.layout.navbar.backgroundColor = '#7b1fa2';
  const typing = edited(shown, (c) => (c.layout.navbar.backgroundColor = '#2e7d3'));
  expect(validateConfig(typing).map((e) => e.key)).toEqual(['config.layout.navbar.backgroundColor']);
  expect(effectiveConfig(typing, shown).layout.navbar.backgroundColor).toBe('#7b1fa2');
});

test('a refused value in one facet keeps that facet’s last valid value, not the item default; the rest follows the edit', () => {
  const shown = withItems([facet('topic', { maximumTerms: 3 }), facet('region', { maximumTerms: 4 })]);
  const typing = edited(shown, (c) => {
    c.filter.facetsToShow[0].maximumTerms = null; // the box emptied to type another number
    c.filter.facetsToShow[0].title = 'Topics';
    c.filter.facetsToShow[1].hierarchicalDepth = 0;
  });
  expect(validateConfig(typing).map((e) => e.key)).toEqual([
    'config.filter.facetsToShow.0.maximumTerms',
    'config.filter.facetsToShow.1.hierarchicalDepth',
  ]);
  const [topic, region] = effectiveConfig(typing, shown).filter.facetsToShow;
  expect([topic.maximumTerms, topic.title]).toEqual([3, 'Topics']);
  expect([region.maximumTerms, region.hierarchicalDepth]).toEqual([4, FACET_DEFAULTS.hierarchicalDepth]);
});

test('a facet keeps its own last value after a reorder: items are matched by their field', () => {
  const shown = withItems([facet('topic', { maximumTerms: 3 }), facet('region', { maximumTerms: 7 })]);
  const typing = edited(shown, (c) => {
    c.filter.facetsToShow.reverse();
    c.filter.facetsToShow[0].maximumTerms = 5000;
  });
  const [region, topic] = effectiveConfig(typing, shown).filter.facetsToShow;
  expect([region.uri, region.maximumTerms, topic.uri, topic.maximumTerms]).toEqual(['region', 7, 'topic', 3]);
});

test('an emptied field of a facet or detail keeps the item shown with its last field, instead of leaving it out', () => {
  const shown = withItems([facet('topic'), facet('region')], [detail('dyn_lit_author', { title: 'Author' })]);
  const typing = edited(shown, (c) => {
    c.filter.facetsToShow[1].uri = '';
    c.filter.facetsToShow[1].refId = '';
    c.details.detailsToShow[0].uri = ' ';
  });
  const preview = effectiveConfig(typing, shown);
  expect(preview.filter.facetsToShow.map((f) => [f.uri, f.refId])).toEqual([['topic', 'topic'], ['region', 'region']]);
  expect(preview.details.detailsToShow.map((d) => [d.uri, d.title])).toEqual([['dyn_lit_author', 'Author']]);
});

test('an item with nothing shown before (just added) falls back to the item defaults, as the server’s merge does', () => {
  const shown = withItems([facet('topic')]);
  const typing = edited(shown, (c) => c.filter.facetsToShow.push({ ...facet('author'), maximumTerms: 0 }));
  const added = effectiveConfig(typing, shown).filter.facetsToShow[1];
  expect([added.uri, added.maximumTerms]).toEqual(['author', FACET_DEFAULTS.maximumTerms]);
});
