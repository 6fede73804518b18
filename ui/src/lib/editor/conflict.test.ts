import { describe, expect, test } from 'vitest';
import { diffFields, resolve, sameSettings, threeWay } from './conflict';

const env = (title: string, navbar: string, perPage: number, facets: unknown[] = []) => ({
  id: 4, user: 'ana', created: 't',
  config: { title, result: { itemsPerPage: perPage }, layout: { navbar: { backgroundColor: navbar, fontColor: '#fff' } }, filter: { facetsToShow: facets } },
});

describe('conflict logic (the same rules as crates/sync)', () => {
  test('diffs name dotted paths, treat arrays as one field and ignore server-owned keys', () => {
    const a = env('A', '#000', 10, [{ uri: 'x' }]);
    const b = { ...env('A', '#111', 10, [{ uri: 'x' }, { uri: 'y' }]), id: 99, created: 'other' };
    expect(diffFields(a, b).map((d) => d.path)).toEqual(['config.filter.facetsToShow', 'config.layout.navbar.backgroundColor']);
    expect(sameSettings(a, { ...a, id: 5 })).toBe(true);
    expect(sameSettings(a, b)).toBe(false);
  });

  test('only fields changed on both sides, differently, conflict', () => {
    const fields = threeWay(env('A', '#000', 10), env('Mine', '#111', 10), env('Theirs', '#000', 20));
    expect(fields.map((f) => [f.path, f.conflicting])).toEqual([
      ['config.layout.navbar.backgroundColor', false],
      ['config.result.itemsPerPage', false],
      ['config.title', true],
    ]);
    const title = fields.find((f) => f.path === 'config.title')!;
    expect([title.base, title.mine, title.theirs]).toEqual(['A', 'Mine', 'Theirs']);
  });

  test('resolving keeps each side’s own changes and applies the choices per field and for all', () => {
    const base = env('A', '#000', 10);
    const mine = env('Mine', '#111', 10, [{ uri: 'm' }]);
    const theirs = { ...env('Theirs', '#000', 20, [{ uri: 't' }]), extra: 1 };
    const allMine = resolve(base, mine, theirs, {}, 'mine');
    expect(allMine.config.title).toBe('Mine');
    expect(allMine.config.filter.facetsToShow).toEqual([{ uri: 'm' }]);
    expect(allMine.config.result.itemsPerPage).toBe(20);
    expect(allMine.extra).toBe(1);
    const mixed = resolve(base, mine, theirs, { 'config.title': 'mine' }, 'theirs');
    expect(mixed.config.title).toBe('Mine');
    expect(mixed.config.filter.facetsToShow).toEqual([{ uri: 't' }]);
    expect(mixed.config.layout.navbar.backgroundColor).toBe('#111');
    expect(theirs.config.title).toBe('Theirs');
  });

  test('a field removed on my side stays removed when I keep mine', () => {
    const base = { config: { a: 1, b: 2 } };
    const merged = resolve(base, { config: { b: 3 } }, { config: { a: 5, b: 2 } }, {}, 'mine');
    expect(merged).toEqual({ config: { b: 3 } });
  });
});
