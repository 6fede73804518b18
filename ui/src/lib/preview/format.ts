// How the preview turns documents into text: dates in the named formats, summaries, tags, sentiment and
// concept highlighting. Pure functions, so each setting's effect is easy to test.
import type { Document, FacetGroup, Refiner } from '../types/generated';

const DATE_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  short: { dateStyle: 'short', timeStyle: 'short' },
  medium: { dateStyle: 'medium', timeStyle: 'medium' },
  long: { dateStyle: 'long', timeStyle: 'long' },
  full: { dateStyle: 'full', timeStyle: 'long' },
  shortDate: { dateStyle: 'short' },
  mediumDate: { dateStyle: 'medium' },
  longDate: { dateStyle: 'long' },
  fullDate: { dateStyle: 'full' },
};

// Formatters are made once per locale and format: making one costs far more than formatting with it (a
// third of a millisecond each in Chromium, ten dates and dozens of counts per answer the preview shows).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A date (epoch milliseconds) in one of the named formats of `config.result.dateFormat`, in the platform's locale. */
export function formatDate(epochMs: number, format: string, locale?: string): string {
  const style = Object.hasOwn(DATE_STYLES, format) ? format : 'medium';
  const key = `${locale ?? ''}|${style}`;
  try {
    let formatter = dateFormats.get(key);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat(locale, DATE_STYLES[style]);
      dateFormats.set(key, formatter);
    }
    return formatter.format(new Date(epochMs));
  } catch {
    return ''; // not a representable date, or a locale Intl does not know
  }
}

/** A count with the platform locale's digit grouping, as `toLocaleString` writes it. */
export function formatCount(n: number | bigint | string, locale?: string): string {
  const key = locale ?? '';
  let formatter = numberFormats.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale);
    numberFormats.set(key, formatter);
  }
  return formatter.format(Number(n));
}

/** The ISO form for a <time datetime>, or undefined for a date that cannot be represented. */
export function isoDate(epochMs: number): string | undefined {
  const d = new Date(epochMs);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The summary cut at `length` characters, at a word boundary when one is near, with an ellipsis. */
export function cutSummary(text: string, length: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= length) return clean;
  if (length <= 0) return '';
  let cut = clean.slice(0, length);
  const space = cut.lastIndexOf(' ');
  if (space > length * 0.6) cut = cut.slice(0, space);
  return cut.replace(/[\s,.;:]+$/, '') + '…';
}

function flatten(refiners: Refiner[] | null | undefined, out: Refiner[] = []): Refiner[] {
  for (const r of refiners ?? []) {
    out.push(r);
    flatten(r.children, out);
  }
  return out;
}

export interface Tag {
  uri: string;
  name: string;
}

/**
 * The document's concepts as tags. In a document's `dyn_uri_all_concepts` group the label carries the URI and
 * the value the name (docs/api.md, Documents); when that group is absent the other `dyn_uri_*` groups (name in label)
 * are used.
 */
export function tagsOf(doc: Document, limit: number): Tag[] {
  if (limit <= 0) return [];
  const groups = doc.facetList ?? [];
  const all = groups.find((g) => g.field === 'dyn_uri_all_concepts');
  const tags: Tag[] = all
    ? flatten(all.facets).map((r) => ({ uri: r.label, name: r.value ?? r.label }))
    : groups
        .filter((g) => g.field.startsWith('dyn_uri_'))
        .flatMap((g) => flatten(g.facets))
        .map((r) => ({ uri: r.value ?? r.label, name: r.label }));
  const seen = new Set<string>();
  return tags.filter((t) => !seen.has(t.uri) && seen.add(t.uri)).slice(0, limit);
}

/** The document's sentiment (`dyn_flt_sentiment`, a number carried as text in the label), if it has one. */
export function sentimentOf(doc: Document): number | null {
  const group = doc.facetList?.find((g) => g.field === 'dyn_flt_sentiment');
  const label = group?.facets?.[0]?.label;
  if (label === undefined) return null;
  const n = Number(label);
  return Number.isFinite(n) ? n : null;
}

export function sentimentLabel(n: number): 'positive' | 'negative' | 'neutral' {
  return n > 0.1 ? 'positive' : n < -0.1 ? 'negative' : 'neutral';
}

/**
 * The values of a document's group (from its facetList or documentDetails) as display names, once each. In the
 * `dyn_uri_all_concepts` group the name is in `value` (docs/api.md, Documents), in every other group in `label`.
 */
export function namesOf(group: FacetGroup): string[] {
  const reversed = group.field === 'dyn_uri_all_concepts';
  const names = flatten(group.facets).map((r) => (reversed ? (r.value ?? r.label) : r.label));
  return [...new Set(names)];
}

export interface Segment {
  text: string;
  mark: boolean;
}

/** Splits text into plain and highlighted runs for every occurrence of the given terms (case-insensitive). */
export function highlight(text: string, terms: string[]): Segment[] {
  const usable = [...new Set(terms.map((t) => t.trim()).filter((t) => t.length > 1))].sort((a, b) => b.length - a.length);
  if (usable.length === 0) return [{ text, mark: false }];
  const escaped = usable.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(${escaped.join('|')})`, 'gi');
  return text
    .split(re)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, mark: usable.some((t) => t.toLowerCase() === part.toLowerCase()) }));
}
