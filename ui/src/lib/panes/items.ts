// What a facet or detail added in the editor starts as: the server's item defaults (generated from
// crates/model), named, and a hierarchical display for a concept facet (`dyn_uri_…`).
import { DETAIL_DEFAULTS, FACET_DEFAULTS, type DetailSetting, type FacetSetting } from '../types/generated';

export function newFacet(uri: string, title: string): FacetSetting {
  const facetMode = uri.startsWith('dyn_uri_') ? 'hierarchical' : FACET_DEFAULTS.facetMode;
  return { ...FACET_DEFAULTS, uri, title, facetMode, refId: uri };
}

export function newDetail(uri: string, title: string): DetailSetting {
  return { ...DETAIL_DEFAULTS, uri, title, refId: uri };
}
