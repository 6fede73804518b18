// Facet health: how well a field serves as a facet, while the designer chooses it. The local engine counts it
// exactly (the facet-health operation); against a server without that operation it is estimated from one search
// answer (its facet groups and the fields its documents carry) and said to be an estimate.
import type { FacetGroup, FieldHealth as CountedField, Refiner, SearchResponse } from '../types/generated';

/** One field's numbers, as the facet-health operation answers them (an estimate knows no field kinds). */
export type FieldHealth = Omit<CountedField, 'kind'>;

export interface SpaceHealth {
  searchSpace: string;
  /** Documents in the search space. */
  documents: number;
  fields: FieldHealth[];
  /** Set when the numbers are estimated from a sample: how many documents it held. */
  estimatedFrom: number | null;
}

/** What the numbers mean for one facet's settings. */
export interface HealthNote {
  /** E.g. "412 values; 10 shown; 980 documents (98 %)". */
  summary: string;
  /** What would make the facet show nothing or almost nothing, or hide most of it. */
  warnings: string[];
}

/** Below this share of documents a facet shows almost nothing for most searches. */
export const RARE_SHARE = 0.05;

const percent = (part: number, whole: number) => {
  if (whole <= 0) return '0 %';
  const p = (100 * part) / whole;
  return `${p > 0 && p < 1 ? '<1' : Math.round(p)} %`;
};
const plural = (n: number, one: string, many = one + 's') => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The summary and warnings for `h` under a facet's `maximumTerms`, `hierarchicalDepth` and mode. */
export function healthNote(
  h: FieldHealth,
  total: number,
  setting: { maximumTerms: number; hierarchicalDepth: number; facetMode: string } | null,
  estimated: boolean,
): HealthNote {
  const about = estimated ? 'about ' : '';
  const top = h.valuesByDepth[0] ?? h.values;
  const parts = [plural(h.values, 'value')];
  const warnings: string[] = [];
  if (setting) {
    const hierarchical = setting.facetMode === 'hierarchical';
    // A flat facet lists every value of every level, cut at maximumTerms.
    const listed = hierarchical ? top : h.values;
    const shown = Math.min(listed, Math.max(setting.maximumTerms, 0));
    parts.push(`${shown.toLocaleString()} shown`);
    if (shown < listed) warnings.push(`Only ${shown.toLocaleString()} of ${listed.toLocaleString()} ${hierarchical ? 'top-level ' : ''}values are shown (Maximum terms).`);
    if (hierarchical && h.depth > 1) {
      const levels = Math.min(h.depth, setting.hierarchicalDepth);
      parts.push(`${levels} of ${plural(h.depth, 'level')}`);
      if (levels < h.depth) warnings.push(`Levels below ${levels} are not shown (Hierarchy depth).`);
    }
  } else if (h.depth > 1) {
    parts.push(plural(h.depth, 'level'));
  }
  parts.push(`${about}${plural(h.documents, 'document')} (${percent(h.documents, total)})`);
  if (h.documents === 0) warnings.push('No document has this field: the facet would show nothing.');
  else if (total > 0 && h.documents / total < RARE_SHARE) warnings.push(`Only ${about}${percent(h.documents, total)} of documents have this field: the facet shows almost nothing for most searches.`);
  if (h.documents > 0 && h.values === 1) warnings.push('It has one value only: it cannot narrow a search.');
  else if (h.documents > 0 && top === 1) warnings.push('It has one top-level value only: every document sits under it.');
  return { summary: parts.join('; '), warnings };
}

/** Values per level of a refiner tree. */
function levels(refiners: Refiner[], into: Set<string>[], depth = 0): void {
  for (const r of refiners) {
    (into[depth] ??= new Set()).add(r.value ?? r.label);
    if (r.children?.length) levels(r.children, into, depth + 1);
  }
}

/**
 * An estimate from one search answer with no query: its facet groups count over the whole search space (but only
 * the values they list), its documents carry every field (but are a sample). Each field takes the larger of the two.
 */
export function estimateHealth(searchSpace: string, answer: SearchResponse): SpaceHealth {
  const total = Number(answer.total ?? 0);
  const docs = answer.result ?? [];
  const byField = new Map<string, { label: string; carrying: number; sets: Set<string>[]; largest: number }>();
  const entry = (g: FacetGroup) => {
    let e = byField.get(g.field);
    if (!e) byField.set(g.field, (e = { label: g.label, carrying: 0, sets: [], largest: 0 }));
    if (!e.label) e.label = g.label;
    return e;
  };
  for (const doc of docs) {
    for (const g of doc.facetList ?? []) {
      if (typeof g?.field !== 'string') continue;
      const e = entry(g);
      if (g.facets?.length) e.carrying++;
      levels(g.facets ?? [], e.sets);
    }
  }
  const sampled = Math.max(docs.length, 1);
  const fields: FieldHealth[] = [...byField].map(([field, e]) => {
    const group = (answer.facets ?? []).find((g) => g.field === field);
    const fromGroup: Set<string>[] = [];
    levels(group?.facets ?? [], fromGroup);
    const depth = Math.max(e.sets.length, fromGroup.length);
    const valuesByDepth = Array.from({ length: depth }, (_, i) => Math.max(e.sets[i]?.size ?? 0, fromGroup[i]?.size ?? 0));
    const largest = Math.max(0, ...(group?.facets ?? []).map((r) => Number(r.count)));
    return {
      field,
      label: e.label,
      documents: Math.round((e.carrying / sampled) * total),
      values: valuesByDepth.reduce((a, b) => a + b, 0),
      depth,
      valuesByDepth,
      largestValueDocuments: largest,
    };
  });
  fields.sort((a, b) => a.field.localeCompare(b.field));
  return { searchSpace, documents: total, fields, estimatedFrom: docs.length };
}
