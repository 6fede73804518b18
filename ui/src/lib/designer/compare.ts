// What the edited configuration can be compared with, side by side: its published version, another
// configuration, or a version from its history; and the settings in which two versions differ, named as the
// editor's fields are labelled (../editor/labels), with what moved, came or went in a list of facets or details.
import type { Config, FacetField } from '../types/generated';
import { diffFields } from '../editor/conflict';
import { fieldLabel } from '../editor/labels';
import { describePart, type PartRef } from './parts';

export interface CompareSource {
  /** Stable within one list: `published`, `config-4`, `history-2`. */
  id: string;
  /** What the designer reads in the chooser and above the preview. */
  label: string;
  /** The configuration searched for this side (its stored settings are replaced by `config` in the search). */
  configId: number | null;
  config: Config;
  fields: FacetField[];
}

export interface Difference {
  /** The key of the field that shows it in the editor (`config.layout.navbar.backgroundColor`). */
  key: string;
  /** The field's label, or the list item's name: the start of `text`, which opens the field. */
  label: string;
  /** The whole line: "Navbar background: #0d47a1 → #7b1fa2", "Topic moved from 1st to 3rd". */
  text: string;
}

const shown = (v: unknown): string => {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map((x) => shown(x)).join(', ');
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 40 ? text.slice(0, 39) + '…' : text || '“”';
};

/** 1st, 2nd, 3rd, 4th, 11th, 21st… */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

type Item = Record<string, unknown> & { uri?: unknown; title?: unknown };
const LISTS = ['config.filter.facetsToShow', 'config.details.detailsToShow'];
const itemsOf = (v: unknown): Item[] => (Array.isArray(v) ? v.filter((x): x is Item => !!x && typeof x === 'object') : []);
const uriOf = (item: Item) => String(item.uri ?? '');
const nameOf = (item: Item) => String(item.title || item.uri || '');

/** The positions (in `order`) of a longest increasing run: the items that kept their order; the others moved. */
function keptInOrder(order: number[]): Set<number> {
  const best: number[][] = [];
  for (let i = 0; i < order.length; i++) {
    let run: number[] = [i];
    for (let j = 0; j < i; j++) if (order[j] < order[i] && best[j].length + 1 > run.length) run = [...best[j], i];
    best.push(run);
  }
  return new Set(best.reduce((a, b) => (b.length > a.length ? b : a), [] as number[]));
}

/** A list of facets or details, item by item: which came, went or moved, and what changed in each. */
function listDifferences(path: string, before: unknown, after: unknown): Difference[] {
  const [theirs, mine] = [itemsOf(before), itemsOf(after)];
  const out: Difference[] = [];
  const at = (i: number, field: string) => `${path}.${i}.${field}`;
  const line = (key: string, label: string, rest: string) => out.push({ key, label, text: label + rest });
  const common = mine.map((item, i) => ({ item, i, was: theirs.findIndex((t) => uriOf(t) === uriOf(item)) })).filter((c) => c.was >= 0);
  const kept = keptInOrder(common.map((c) => c.was));
  common.forEach((c, k) => {
    if (!kept.has(k)) line(at(c.i, 'title'), nameOf(c.item), ` moved from ${ordinal(c.was + 1)} to ${ordinal(c.i + 1)}`);
    const old = theirs[c.was];
    for (const field of [...new Set([...Object.keys(old), ...Object.keys(c.item)])]) {
      if (field === 'refId' || JSON.stringify(old[field]) === JSON.stringify(c.item[field])) continue;
      line(at(c.i, field), `${fieldLabel(at(c.i, field))} of “${nameOf(c.item)}”`, `: ${shown(old[field])} → ${shown(c.item[field])}`);
    }
  });
  mine.forEach((item, i) => {
    if (!theirs.some((t) => uriOf(t) === uriOf(item))) line(at(i, 'title'), nameOf(item), ` added as the ${ordinal(i + 1)}`);
  });
  for (const t of theirs) if (!mine.some((m) => uriOf(m) === uriOf(t))) line(path, nameOf(t), ` removed from ${fieldLabel(path)}`);
  return out;
}

/** The settings in which `mine` differs from `theirs`, in the editor's words; a list setting item by item. */
export function differences(theirs: Config, mine: Config): Difference[] {
  return diffFields({ config: theirs }, { config: mine }).flatMap((d) => {
    if (LISTS.includes(d.path)) return listDifferences(d.path, d.before, d.after);
    const label = fieldLabel(d.path);
    return [{ key: d.path, label, text: `${label}: ${shown(d.before)} → ${shown(d.after)}` }];
  });
}

/** Whether the settings behind a part of `mine`'s preview differ from `theirs`: what "show differences" outlines. */
export function differsAt(theirs: Config, mine: Config): (ref: PartRef) => boolean {
  const keys = differences(theirs, mine).map((d) => d.key);
  const related = (a: string, b: string) => a === b || a.startsWith(b + '.') || b.startsWith(a + '.');
  return (ref) => !!describePart(ref, mine)?.settings.some((s) => keys.some((k) => related(s.key, k)));
}
