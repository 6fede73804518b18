import { describe, expect, test } from 'vitest';
import { Draft } from './draft.svelte';
import { template } from '../../test/fakeBackend';
import type { Configuration } from '../types/generated';

function stored(): Configuration {
  const t = template();
  return { ...t, id: 7, user: 'ana', created: '2024-01-01T00:00:00.000Z', config: { ...t.config, title: 'Shop', searchSpace: 'demo' } };
}

describe('Draft', () => {
  test('an edit makes it dirty and undo/redo walk the history', () => {
    const d = new Draft(stored());
    expect(d.dirty).toBe(false);
    d.set('config.result.itemsPerPage', 20);
    d.seal();
    d.set('config.layout.navbar.backgroundColor', '#123456');
    expect(d.dirty).toBe(true);
    expect(d.undoCount).toBe(2);
    expect(d.undo()).toBe(true);
    expect(d.get('config.layout.navbar.backgroundColor')).toBe('#00adee');
    expect(d.get('config.result.itemsPerPage')).toBe(20);
    d.undo();
    expect(d.get('config.result.itemsPerPage')).toBe(10);
    expect(d.dirty).toBe(false);
    expect(d.undo()).toBe(false);
    d.redo();
    d.redo();
    expect(d.get('config.result.itemsPerPage')).toBe(20);
    expect(d.get('config.layout.navbar.backgroundColor')).toBe('#123456');
    expect(d.redoCount).toBe(0);
  });

  test('typing into one field is one undo step until the field is left', () => {
    const d = new Draft(stored());
    for (const v of ['S', 'Sh', 'Sho', 'Shop 2']) d.set('config.title', v);
    expect(d.undoCount).toBe(1);
    d.seal();
    d.set('config.title', 'Shop 3');
    expect(d.undoCount).toBe(2);
    d.undo();
    expect(d.get('config.title')).toBe('Shop 2');
    d.undo();
    expect(d.get('config.title')).toBe('Shop');
  });

  test('a new edit after undo drops the redo history', () => {
    const d = new Draft(stored());
    d.set('config.title', 'A');
    d.undo();
    expect(d.redoCount).toBe(1);
    d.set('config.visible', false);
    expect(d.redoCount).toBe(0);
  });

  test('array edits through update are single steps', () => {
    const d = new Draft(stored());
    d.update<unknown[]>('config.filter.facetsToShow', (items) => [...items, { uri: 'a', refId: 'a' }]);
    d.update<unknown[]>('config.filter.facetsToShow', (items) => [...items, { uri: 'b', refId: 'b' }]);
    expect((d.get('config.filter.facetsToShow') as unknown[]).length).toBe(2);
    d.undo();
    expect((d.get('config.filter.facetsToShow') as unknown[]).length).toBe(1);
  });

  test('revert goes back to the stored configuration and can itself be undone', () => {
    const d = new Draft(stored());
    d.set('config.title', 'Changed');
    d.revert();
    expect(d.get('config.title')).toBe('Shop');
    expect(d.dirty).toBe(false);
    d.undo();
    expect(d.get('config.title')).toBe('Changed');
  });

  test('client rules mark invalid values as they are typed, at the server’s keys', () => {
    const d = new Draft(stored());
    d.set('config.result.itemsPerPage', 500);
    d.set('config.layout.navbar.fontColor', '#12');
    expect(d.errorFor('config.result.itemsPerPage')).toBe('must be a whole number from 1 to 100');
    expect(d.errorFor('config.layout.navbar.fontColor')).toMatch(/hexadecimal/);
    expect(d.errorsUnder('config.layout')).toEqual(['config.layout.navbar.fontColor']);
  });

  test('unknown fields are kept and sent back whole', () => {
    const s = stored() as Configuration & Record<string, unknown>;
    (s.config as unknown as Record<string, unknown>).futureSetting = { x: [1, 2] };
    (s.config.result as unknown as Record<string, unknown>).newKey = 'kept';
    s.envelopeExtra = true;
    const d = new Draft(s);
    d.set('config.title', 'Other');
    const body = d.body() as unknown as Record<string, any>;
    expect(body.config.futureSetting).toEqual({ x: [1, 2] });
    expect(body.config.result.newKey).toBe('kept');
    expect(body.envelopeExtra).toBe(true);
    expect(body.config.title).toBe('Other');
  });

  test('a save without refusals makes the draft the stored configuration', () => {
    const d = new Draft(stored());
    d.set('config.title', 'Saved');
    const sent = JSON.stringify(d.body());
    const back = { ...stored(), config: { ...stored().config, title: 'Saved' } };
    d.markSaved(sent, back, []);
    expect(d.dirty).toBe(false);
  });

  test('a refused key stays as typed, is marked with the server’s message, and the draft stays unsaved', () => {
    const d = new Draft(stored());
    d.set('config.result.itemsPerPage', 500);
    d.seal();
    d.set('config.title', 'New title');
    const sent = JSON.stringify(d.body());
    const back = { ...stored(), config: { ...stored().config, title: 'New title' } };
    d.markSaved(sent, back, [{ key: 'config.result.itemsPerPage', message: 'must be a whole number from 1 to 100' }]);
    expect(d.get('config.result.itemsPerPage')).toBe(500);
    expect(d.get('config.title')).toBe('New title');
    expect(d.serverErrors['config.result.itemsPerPage']).toMatch(/1 to 100/);
    expect(d.dirty).toBe(true);
    // Fixing the field clears the server's mark; the draft then equals what is stored except for that key.
    d.set('config.result.itemsPerPage', 10);
    expect(d.serverErrors['config.result.itemsPerPage']).toBeUndefined();
    expect(d.dirty).toBe(false);
  });

  test('edits made while a save was under way are kept', () => {
    const d = new Draft(stored());
    d.set('config.title', 'First');
    const sent = JSON.stringify(d.body());
    d.set('config.title', 'First and more');
    d.markSaved(sent, { ...stored(), config: { ...stored().config, title: 'First' } }, []);
    expect(d.get('config.title')).toBe('First and more');
    expect(d.dirty).toBe(true);
  });
});
