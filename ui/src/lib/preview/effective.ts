// The configuration as the preview shows it: every value the rules refuse (a half-typed number, a colour
// being typed) is replaced by the base's, so the preview always renders something sensible while the editor
// marks the field. The editor passes the configuration it showed last as the base (the template's for the
// first), so that a refused value keeps the last valid one instead of flickering to the template's. The merge is
// the editor's own (mergeConfig of ../editor/rules), so the preview shows what the server would store; only where
// the server would fall back to an item's default (a facet or detail item is taken whole, over the item defaults)
// the preview keeps that item's last valid value instead. The same cleaned settings are sent along with the
// preview's searches.
import type { Config, FacetField, FacetGroup, FacetSetting, FieldError, Refiner } from '../types/generated';
import { mergeConfig } from '../editor/rules';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The edited settings merged over `base` as the server would merge them, refused keys keeping the base's value. */
export function effectiveConfig(config: unknown, base: Config): Config {
  const merged = mergeConfig(base, config);
  const kept = withItemsKept(config, base, merged.errors);
  return kept === config ? merged.value : mergeConfig(base, kept).value;
}

/** A refused key of a facet or detail item: `config.filter.facetsToShow.2.maximumTerms`. */
const ITEM_KEY = /^config\.(filter\.facetsToShow|details\.detailsToShow)\.(\d+)\.(\w+)$/;

/**
 * `config` with each refused key of a list item replaced by the value the same item has in `base`: the item of the
 * same field (`uri`), or, when its field is what was refused, the item at the same place. An item `base` does not
 * have (one just added) is left as it is. `config` itself is never changed; it is returned when nothing is kept.
 */
function withItemsKept(config: unknown, base: Config, errors: FieldError[]): unknown {
  let out = config;
  for (const { key } of errors) {
    const m = ITEM_KEY.exec(key);
    if (!m || m[3] === 'refId') continue;
    const [group, list] = m[1].split('.');
    const index = Number(m[2]);
    const field = m[3];
    const items = ((out as Obj)[group] as Obj)[list] as unknown[];
    const item = items[index];
    if (!isObject(item)) continue;
    const shown = (base as unknown as Record<string, Record<string, Obj[]>>)[group][list];
    const same =
      field !== 'uri' && typeof item.uri === 'string' && item.uri.trim() !== ''
        ? shown.find((s) => s.uri === item.uri)
        : shown[index];
    if (!same || !(field in same)) continue;
    const keptItem: Obj = { ...item, [field]: same[field] };
    if (field === 'uri') keptItem.refId = same.refId;
    const keptItems = [...items];
    keptItems[index] = keptItem;
    out = { ...(out as Obj), [group]: { ...((out as Obj)[group] as Obj), [list]: keptItems } };
  }
  return out;
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
