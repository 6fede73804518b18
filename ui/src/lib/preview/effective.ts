// The configuration as the preview shows it: every value the rules refuse (a half-typed number, a colour
// being typed) is replaced by the base's, so the preview always renders something sensible while the editor
// marks the field. The editor passes the configuration it showed last as the base (the template's for the
// first), so that a refused value keeps the last valid one instead of flickering to the template's. The merge is the editor's own (mergeConfig of ../editor/rules), so the preview
// shows what the server would store. The same cleaned settings are sent along with the preview's searches.
import type { Config, FacetField, FacetGroup, FacetSetting, Refiner } from '../types/generated';
import { mergeConfig } from '../editor/rules';

/** The edited settings merged over `base` as the server would merge them, refused keys keeping the base's value. */
export function effectiveConfig(config: unknown, base: Config): Config {
  return mergeConfig(base, config).value;
}

/** The field id a facet or detail setting names: its `uri` is the field id or the field's listed URI. */
export function fieldOf(uri: string, fields: FacetField[]): string {
  return fields.find((f) => f.uri === uri)?.field ?? uri;
}

export interface ShownFacet {
  setting: FacetSetting;
  group: FacetGroup;
}

function flatten(refiners: Refiner[]): Refiner[] {
  return refiners.flatMap((r) => [{ ...r, children: null }, ...flatten(r.children ?? [])]);
}

function sortRefiners(refiners: Refiner[], s: FacetSetting): Refiner[] {
  const dir = s.sortingOrder === 'asc' ? 1 : -1;
  const sorted = [...refiners].sort((a, b) =>
    s.sorting === 'alphabetical'
      ? dir * a.label.localeCompare(b.label, undefined, { sensitivity: 'base' })
      : dir * (Number(a.count) - Number(b.count)),
  );
  return sorted.map((r) => (r.children ? { ...r, children: sortRefiners(r.children, s) } : r));
}

/**
 * Pairs each shown facet setting with its group of the search answer. A backend that honoured the preview's
 * settings answered one group per shown facet, in order; another server answered for the stored settings, and
 * then the groups are matched by field and sorted, cut and titled here as the edited settings say.
 */
export function shapeFacets(groups: FacetGroup[], config: Config, fields: FacetField[]): ShownFacet[] {
  const shown = config.filter.facetsToShow.filter((f) => f.show);
  const honoured = groups.length === shown.length && groups.every((g, i) => g.label === shown[i].title);
  if (honoured) return shown.map((setting, i) => ({ setting, group: groups[i] }));
  return shown.map((setting) => {
    const field = fieldOf(setting.uri, fields);
    const found = groups.find((g) => g.field === field || g.field === setting.uri);
    let refiners = found?.facets ?? [];
    if (setting.facetMode === 'flat') refiners = flatten(refiners);
    refiners = sortRefiners(refiners, setting).slice(0, setting.maximumTerms);
    return { setting, group: { field: found?.field ?? field, label: setting.title, facets: refiners } };
  });
}
