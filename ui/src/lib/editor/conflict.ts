// Field-by-field comparison and the three-way merge behind the conflict view, and when a publish stops at a
// conflict; the same rules as crates/sync/src/diff.rs and publish.rs, held to one behaviour by the cases of
// crates/sync/cases/conflict.json and publish.json. A field is a leaf of the JSON: a scalar, an array (updates
// replace arrays whole, so an array is one field) or an empty object. `id`, `user` and `created` are the server's
// and never compared. Two values are the same when they hold the same things, whatever the order of their keys.
import type { Conflict, FieldChange, FieldDiff, Side } from '../types/sync';

type Json = unknown;
const SERVER_OWNED = ['id', 'user', 'created'];

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Leaves by dotted path, with their path segments. */
function leaves(value: Json): Map<string, { segs: string[]; value: Json }> {
  const out = new Map<string, { segs: string[]; value: Json }>();
  const walk = (v: Json, segs: string[]) => {
    if (isObject(v) && Object.keys(v).length > 0) {
      for (const [k, child] of Object.entries(v)) {
        if (segs.length === 0 && SERVER_OWNED.includes(k)) continue;
        walk(child, [...segs, k]);
      }
    } else if (segs.length > 0) {
      out.set(segs.join('.'), { segs, value: v });
    }
  };
  walk(value, []);
  return out;
}

/** Whether two JSON values are equal: arrays item by item, objects key by key in any order. */
function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}
const at = (m: Map<string, { value: Json }>, p: string) => (m.has(p) ? m.get(p)!.value : undefined);
const orNull = (v: Json) => (v === undefined ? null : (v as FieldDiff['before']));

/** Whether two envelopes hold the same settings (the `config` object). */
export function sameSettings(a: Json, b: Json): boolean {
  return same((a as { config?: Json })?.config, (b as { config?: Json })?.config);
}

/**
 * The conflict that stops a publish of `mine`, drafted from `base`, when the server now holds `theirs`: null while
 * the server's settings are still those of `base`, else every field where the three differ.
 */
export function publishConflict(base: Json, mine: Json, theirs: Json): Conflict | null {
  if (sameSettings(theirs, base)) return null;
  return { base: base as Conflict['base'], mine: mine as Conflict['mine'], theirs: theirs as Conflict['theirs'], fields: threeWay(base, mine, theirs) };
}

/** The fields where `after` differs from `before`, sorted by path. */
export function diffFields(before: Json, after: Json): FieldDiff[] {
  const [a, b] = [leaves(before), leaves(after)];
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths
    .filter((p) => !same(at(a, p), at(b, p)))
    .map((p) => ({ path: p, before: orNull(at(a, p)), after: orNull(at(b, p)) }));
}

/** Every field where base, mine and theirs do not all agree; `conflicting` when both sides changed it. */
export function threeWay(base: Json, mine: Json, theirs: Json): FieldChange[] {
  const [b, m, t] = [leaves(base), leaves(mine), leaves(theirs)];
  const paths = [...new Set([...b.keys(), ...m.keys(), ...t.keys()])].sort();
  const out: FieldChange[] = [];
  for (const p of paths) {
    const [bv, mv, tv] = [at(b, p), at(m, p), at(t, p)];
    if (same(bv, mv) && same(mv, tv)) continue;
    const conflicting = !same(mv, bv) && !same(tv, bv) && !same(mv, tv);
    out.push({ path: p, base: orNull(bv), mine: orNull(mv), theirs: orNull(tv), conflicting });
  }
  return out;
}

function put(root: Record<string, Json>, segs: string[], value: Json) {
  let node = root;
  for (const s of segs.slice(0, -1)) {
    if (!isObject(node[s])) node[s] = {};
    node = node[s] as Record<string, Json>;
  }
  const last = segs[segs.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = structuredClone(value);
}

/**
 * Theirs, with every field only I changed kept as mine and every field both changed taken from the side
 * `choices` names (else `fallback`). The server-owned keys are theirs.
 */
export function resolve<T>(base: Json, mine: Json, theirs: T, choices: Record<string, Side>, fallback: Side): T {
  const [b, m, t] = [leaves(base), leaves(mine), leaves(theirs)];
  const merged = structuredClone(theirs) as Record<string, Json>;
  const all = new Map([...b, ...m, ...t]);
  for (const [p, { segs }] of all) {
    const [bv, mv, tv] = [at(b, p), at(m, p), at(t, p)];
    let takeMine = false;
    if (same(mv, tv) || same(mv, bv)) takeMine = false;
    else if (same(tv, bv)) takeMine = true;
    else takeMine = (choices[p] ?? fallback) === 'mine';
    if (takeMine) put(merged, segs, mv);
  }
  return merged as T;
}
