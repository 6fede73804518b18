// The client rules mirror crates/model/src/rules.rs: these are the cases of crates/model/tests/merge.rs and
// of rules.rs's own tests, checked against the client's validation.
import { describe, expect, test } from 'vitest';
import { checkLogo, isHexColour, ruleAt, validateConfig } from './rules';
import { MAX_LOGO_BYTES } from '../types/generated';

const keys = (config: unknown) => validateConfig(config).map((e) => e.key).sort();

describe('validateConfig mirrors the server', () => {
  test('each kind of bad value is reported at its key', () => {
    const config = {
      title: 'Shop',
      searchSpace: 'demo',
      visible: 'yes',
      result: { itemsPerPage: 101, summaryLength: -1, numberOfTags: 2.5, titleAction: 'open', dateFormat: 'iso', showTags: false },
      filter: {
        hideEmptyFacets: 1,
        componentOrder: ['search', 3],
        facetsToShow: [
          { uri: 'dyn_lit_author', maximumTerms: 0, sorting: 'random', sortingOrder: 'up', facetMode: 'tree', hierarchicalDepth: 11, title: 'Author' },
          'not an object',
          { title: 'no uri' },
        ],
      },
      layout: { navbar: { backgroundColor: 'blue', fontColor: '#000' }, facets: '#fff', logo: 'javascript:alert(1)' },
      details: { numberOfRecommendations: 51, numberOfSimilar: '4', recommender: 3, detailsToShow: [{ uri: '', title: 'Empty' }] },
    };
    expect(keys(config)).toEqual(
      [
        'config.visible',
        'config.result.itemsPerPage',
        'config.result.summaryLength',
        'config.result.numberOfTags',
        'config.result.titleAction',
        'config.result.dateFormat',
        'config.filter.hideEmptyFacets',
        'config.filter.componentOrder',
        'config.filter.facetsToShow.0.maximumTerms',
        'config.filter.facetsToShow.0.sorting',
        'config.filter.facetsToShow.0.sortingOrder',
        'config.filter.facetsToShow.0.facetMode',
        'config.filter.facetsToShow.0.hierarchicalDepth',
        'config.filter.facetsToShow.1',
        'config.filter.facetsToShow.2.uri',
        'config.layout.navbar.backgroundColor',
        'config.layout.facets',
        'config.layout.logo',
        'config.details.numberOfRecommendations',
        'config.details.numberOfSimilar',
        'config.details.recommender',
        'config.details.detailsToShow.0.uri',
      ].sort(),
    );
    expect(validateConfig(config).every((e) => e.message.length > 0)).toBe(true);
  });

  test('messages are the server’s', () => {
    const [e] = validateConfig({ result: { itemsPerPage: 500 } });
    expect(e).toEqual({ key: 'config.result.itemsPerPage', message: 'must be a whole number from 1 to 100' });
    expect(validateConfig({ title: '' })[0].message).toBe('must not be empty');
  });

  test('bounds are inclusive', () => {
    expect(
      keys({
        title: 'A', searchSpace: 's',
        result: { itemsPerPage: 100, summaryLength: 0, numberOfTags: 100, numberOfSimilarDocuments: 50 },
        details: { numberOfRecommendations: 0, numberOfSimilar: 50 },
        filter: { facetsToShow: [{ uri: 'u', refId: 'u', hierarchicalDepth: 10, maximumTerms: 1000 }] },
      }),
    ).toEqual([]);
    expect(keys({ result: { itemsPerPage: 0 } })).toEqual(['config.result.itemsPerPage']);
    expect(keys({ filter: { facetsToShow: [{ uri: 'u', maximumTerms: 1001 }] } })).toEqual(['config.filter.facetsToShow.0.maximumTerms']);
  });

  test('a mismatched refId is reported', () => {
    expect(keys({ filter: { facetsToShow: [{ uri: 'dyn_uri_topic', refId: 'other' }] } })).toEqual(['config.filter.facetsToShow.0.refId']);
  });

  test('unknown keys are not judged', () => {
    expect(keys({ title: 'A', searchSpace: 's', futureSetting: { anything: 1 }, result: { newKey: 'x' } })).toEqual([]);
  });

  test('colours of every written form are accepted and others refused', () => {
    for (const ok of ['#fff', '#FFFA', '#1565c0', '#1565C0ff']) expect(isHexColour(ok)).toBe(true);
    for (const bad of ['fff', '#ff', '#fffff', '#ggg', '#1565c0f', '', 'red', '# fff']) expect(isHexColour(bad)).toBe(false);
  });

  test('logos are URLs or small image data URIs', () => {
    expect(checkLogo('')).toBeNull();
    expect(checkLogo('https://example.org/logo.png')).toBeNull();
    expect(checkLogo('data:image/svg+xml;base64,PHN2Zz4=')).toBeNull();
    expect(checkLogo('javascript:alert(1)')).not.toBeNull();
    expect(checkLogo('data:text/html,<b>x</b>')).not.toBeNull();
    expect(checkLogo('https://')).not.toBeNull();
    expect(checkLogo('https://a b')).not.toBeNull();
    const huge = 'data:image/png;base64,' + 'A'.repeat(MAX_LOGO_BYTES);
    expect(checkLogo(huge)).toContain('512 KiB');
    const large = 'data:image/png;base64,' + 'A'.repeat(600 * 1024);
    expect(keys({ layout: { logo: large } })).toEqual(['config.layout.logo']);
  });

  test('rules are found by dotted path, through array items', () => {
    expect(ruleAt('config.filter.facetsToShow.2.maximumTerms')).toEqual({ kind: 'int', min: 1, max: 1000 });
    expect(ruleAt('config.layout.navbar.fontColor')).toEqual({ kind: 'colour' });
    expect(ruleAt('config.unknown')).toBeUndefined();
  });
});
