// What a facet or detail added in the editor starts as (the server's item defaults, named).
import type { DetailSetting, FacetSetting } from '../types/generated';

export function newFacet(uri: string, title: string): FacetSetting {
  return {
    uri, title, show: true, facetMode: uri.startsWith('dyn_uri_') ? 'hierarchical' : 'flat', hierarchicalDepth: 3,
    maximumTerms: 10, sorting: 'count', sortingOrder: 'desc', showAllButton: false, searchable: false, refId: uri,
  };
}

export function newDetail(uri: string, title: string): DetailSetting {
  return { uri, title, show: true, refId: uri };
}
