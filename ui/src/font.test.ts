// The desktop page's own font (app.css, docs/choices.md "Fonts") holds every character the UI's code writes: a
// character it lacks is drawn in the system's sans-serif instead, in another shape, at the cost of the font
// matching the font is there to spare.
import { expect, test } from 'vitest';
import font from './assets/fonts/studio-sans.json';

/** The UI's code as scripts/ui-font.sh reads it (CODE, TESTS): components, scripts and styles, tests left out. */
const code = import.meta.glob<string>(['./**/*.{svelte,ts,css}', '!./**/*.test.ts', '!./**/test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const held = (c: number) => font.codepoints.some(([lo, hi]) => lo <= c && c <= hi);

test('the desktop font holds every character the UI writes', () => {
  const missing = new Set<string>();
  expect(Object.keys(code)).toContain('./App.svelte');
  for (const [path, text] of Object.entries(code)) {
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c > 0x7e && !held(c)) missing.add(`U+${c.toString(16).toUpperCase().padStart(4, '0')} ${ch} in ${path}`);
    }
  }
  expect([...missing], 'make the font again: bash scripts/ui-font.sh').toEqual([]);
});

test('the desktop font holds the Latin letters a designer types', () => {
  for (const ch of 'AZaz09éÉßøŁœ€…—“”') expect(held(ch.codePointAt(0)!), ch).toBe(true);
});
