// The rows of the detail view, drawn as the production server shapes documents (docs/api.md, Documents): one row per
// detail setting with `show: true` of the configuration being edited (saved or not), titled by it, with the
// document's values of that field from its `documentDetails` group, or from its `facetList` group where the
// server sent no documentDetails group for that field (older servers send none at all).
import type { DetailSetting, Document, FacetField, FacetGroup, Refiner } from '../types/generated';
import { fieldOf } from './effective';
import { namesOf } from './format';

export interface DetailRow {
  /** The setting's position in `detailsToShow`. */
  index: number;
  title: string;
  values: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refiners as a server sent them, leaving out anything that is not shaped like one. */
function asRefiners(v: unknown): Refiner[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).filter((r) => typeof r.label === 'string').map((r) => ({
    count: (r.count ?? 0) as Refiner['count'],
    label: r.label as string,
    value: typeof r.value === 'string' ? r.value : null,
    children: Array.isArray(r.children) ? asRefiners(r.children) : null,
  }));
}

/** The documentDetails entries shaped like facet groups; other servers may send other shapes, left out here. */
export function detailGroupsOf(doc: Document): FacetGroup[] {
  const details: unknown[] = Array.isArray(doc.documentDetails) ? doc.documentDetails : [];
  return details
    .filter(isObj)
    .filter((g) => typeof g.field === 'string')
    .map((g) => ({ field: g.field as string, label: typeof g.label === 'string' ? g.label : '', facets: asRefiners(g.facets) }));
}

/** The detail view's rows for `doc` under the detail settings `settings`. */
export function detailRows(doc: Document, settings: DetailSetting[], fields: FacetField[]): DetailRow[] {
  const details = detailGroupsOf(doc);
  const facetList = doc.facetList ?? [];
  return settings
    .map((d, index) => ({ d, index }))
    .filter(({ d }) => d.show)
    .map(({ d, index }) => {
      const field = fieldOf(d.uri, fields);
      const named = (g: FacetGroup) => g.field === field || g.field === d.uri;
      const group = details.find(named) ?? facetList.find(named);
      return { index, title: d.title || d.uri, values: group ? namesOf(group) : [] };
    });
}
