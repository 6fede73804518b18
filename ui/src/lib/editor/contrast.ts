// WCAG 2 contrast of a colour pair, for the Layout pane's badges, and of text as a browser draws it: its colour
// and the backgrounds behind it composited through every opacity on the way (the accessibility check).
import { isHexColour } from './rules';

export interface Rgba { r: number; g: number; b: number; a: number }

export function parseHex(hex: string): Rgba | null {
  if (!isHexColour(hex)) return null;
  let h = hex.slice(1);
  if (h.length <= 4) h = [...h].map((c) => c + c).join('');
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
}

/** `#rrggbb` for a colour input, which takes no other form; null for an invalid colour. */
export function toPickerValue(hex: string): string | null {
  const c = parseHex(hex);
  if (!c) return null;
  return '#' + [c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('');
}

/** `top` laid over `bottom` (source-over); opaque when `bottom` is. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a;
  return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: 1 };
}

export function luminance(c: Rgba): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** The contrast ratio (1–21) of text over a background; translucent colours are laid over white. */
export function contrastRatio(background: string, font: string): number | null {
  const bg = parseHex(background);
  const fg = parseHex(font);
  if (!bg || !fg) return null;
  const b = over(bg, WHITE);
  return ratioOf(b, over(fg, b));
}

/** The contrast ratio (1–21) of two opaque colours. */
export function ratioOf(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `#rrggbb` of an opaque colour (channels rounded). */
export function toHex(c: Rgba): string {
  return '#' + [c.r, c.g, c.b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('');
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };

/**
 * A colour as `getComputedStyle` gives it (`rgb(…)`, `rgba(…)`, `rgb(r g b / a)`, `color(srgb r g b / a)`,
 * `transparent`) or as a hex value; null for any other form.
 */
export function parseCssColour(value: string): Rgba | null {
  const v = value.trim().toLowerCase();
  if (v === 'transparent') return TRANSPARENT;
  if (v.startsWith('#')) return parseHex(v);
  const numbers = (body: string) => body.split(/[\s,/]+/).filter(Boolean).map((n) => (n.endsWith('%') ? parseFloat(n) / 100 : parseFloat(n)));
  let m = /^rgba?\(([^)]*)\)$/.exec(v);
  if (m) {
    const [r, g, b, a = 1] = numbers(m[1]);
    return [r, g, b, a].every(Number.isFinite) ? { r, g, b, a } : null;
  }
  m = /^color\(srgb\s+([^)]*)\)$/.exec(v);
  if (m) {
    const [r, g, b, a = 1] = numbers(m[1]);
    return [r, g, b, a].every(Number.isFinite) ? { r: r * 255, g: g * 255, b: b * 255, a } : null;
  }
  return null;
}

/** One element on the way from the page down to a text: its own background colour and its opacity. */
export interface Layer {
  background: Rgba;
  opacity: number;
}

/**
 * The colours a browser draws for a text and for the background right behind it. `layers` are the text's element
 * and its ancestors, the outermost first (the page's canvas, white, lies under them all); an element's opacity
 * fades everything inside it, its own background and its descendants' text alike, as one group laid over what is
 * behind that element. Both colours come out opaque.
 */
export function drawnColours(layers: Layer[], text: Rgba): { fg: Rgba; bg: Rgba } {
  const paint = (i: number, behind: Rgba, withText: boolean): Rgba => {
    if (i === layers.length) return withText ? over(text, behind) : behind;
    const { background, opacity } = layers[i];
    const inside = paint(i + 1, over(background, behind), withText);
    const o = Math.min(1, Math.max(0, opacity));
    return { r: inside.r * o + behind.r * (1 - o), g: inside.g * o + behind.g * (1 - o), b: inside.b * o + behind.b * (1 - o), a: 1 };
  };
  return { fg: paint(0, WHITE, true), bg: paint(0, WHITE, false) };
}

/** The WCAG level that normal text reaches at this ratio. */
export function wcagLevel(ratio: number): 'AAA' | 'AA' | 'fail' {
  if (ratio >= 7) return 'AAA';
  if (ratio >= 4.5) return 'AA';
  return 'fail';
}
