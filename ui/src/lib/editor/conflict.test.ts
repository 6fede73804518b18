// The conflict view's rules are crates/sync's (diff.rs); the cases both must satisfy are in
// crates/sync/cases/conflict.json, read here and by crates/sync/tests/diff.rs.
import { describe, expect, test } from 'vitest';
import { diffFields, resolve, sameSettings, threeWay } from './conflict';
import type { Side } from '../types/sync';
import conflictFile from '../../../../crates/sync/cases/conflict.json';

type Json = Parameters<typeof diffFields>[0];

/** The value at a dotted path (object keys only). */
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

describe('the shared conflict cases (crates/sync/cases/conflict.json)', () => {
  for (const c of conflictFile.diff) {
    test(`diff: ${c.name}`, () => {
      expect(diffFields(c.before as Json, c.after as Json).map((d) => d.path)).toEqual(c.paths);
    });
  }
  for (const c of conflictFile.threeWay) {
    test(`three-way: ${c.name}`, () => {
      const fields = threeWay(c.base as Json, c.mine as Json, c.theirs as Json);
      expect(fields.map((f) => [f.path, f.conflicting])).toEqual(c.fields);
      for (const [path, values] of Object.entries(c.values)) {
        const field = fields.find((f) => f.path === path)!;
        expect([field.base, field.mine, field.theirs]).toEqual(values);
      }
    });
  }
  for (const c of conflictFile.resolve) {
    test(`resolve: ${c.name}`, () => {
      const theirs = structuredClone(c.theirs);
      const merged = resolve(c.base as Json, c.mine as Json, theirs, c.choices as Record<string, Side>, c.rest as Side);
      if ('equals' in c) expect(merged).toEqual(c.equals);
      for (const [path, value] of Object.entries(('at' in c ? c.at : {}) as Record<string, unknown>)) {
        expect(at(merged, path)).toEqual(value);
      }
      expect(theirs).toEqual(c.theirs);
    });
  }
});

describe('the editor’s own helpers', () => {
  test('the same settings, whatever the server-owned keys', () => {
    const [c] = conflictFile.diff;
    expect(sameSettings(c.before as Json, { ...(c.before as object), id: 5 } as Json)).toBe(true);
    expect(sameSettings(c.before as Json, c.after as Json)).toBe(false);
  });
});
