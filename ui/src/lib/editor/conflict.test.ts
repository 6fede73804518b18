// The conflict view's rules are crates/sync's (diff.rs); the cases both must satisfy are in
// crates/sync/cases/conflict.json, read here and by crates/sync/tests/diff.rs.
import { describe, expect, test } from 'vitest';
import { diffFields, publishConflict, resolve, sameSettings, threeWay } from './conflict';
import type { Side } from '../types/sync';
import conflictFile from '../../../../crates/sync/cases/conflict.json';
import publishFile from '../../../../crates/sync/cases/publish.json';
import { webWorkspace } from '../backend/webworkspace';
import type { Api } from '../backend/Backend';
import type { Configuration, WriteOutcome } from '../types/generated';

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

describe('the shared publish cases (crates/sync/cases/publish.json)', () => {
  for (const c of publishFile.cases) {
    test(c.name, () => {
      const conflict = publishConflict(c.base, c.mine, c.theirs);
      expect(conflict && conflict.fields.map((f) => [f.path, f.conflicting])).toEqual(c.conflict);
      if (conflict) expect([conflict.base, conflict.mine, conflict.theirs]).toEqual([c.base, c.mine, c.theirs]);
    });

    test(`the browser build publishes by them: ${c.name}`, async () => {
      const written: unknown[] = [];
      const api = {
        getConfiguration: async () => structuredClone(c.theirs) as unknown as Configuration,
        updateConfiguration: async (_id: number, body: unknown): Promise<WriteOutcome> => {
          written.push(body);
          return { config: body as Configuration, errors: [] };
        },
      } as Partial<Api> as Api;
      const answer = await webWorkspace(api, 'https://a.example').publish(4, c.mine as unknown as Configuration, c.base as unknown as Configuration);
      if (c.conflict === null) {
        expect(answer.status).toBe('published');
        expect(written).toEqual([c.mine]);
      } else {
        expect(answer.status === 'conflict' && answer.conflict.fields.map((f) => [f.path, f.conflicting])).toEqual(c.conflict);
        expect(written).toEqual([]);
      }
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
