// WCAG 2 contrast of a colour pair, for the Layout pane's badges.
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

function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top.a;
  return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: 1 };
}

function luminance(c: Rgba): number {
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
  const white = { r: 255, g: 255, b: 255, a: 1 };
  const b = over(bg, white);
  const f = over(fg, b);
  const [hi, lo] = [luminance(b), luminance(f)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The WCAG level that normal text reaches at this ratio. */
export function wcagLevel(ratio: number): 'AAA' | 'AA' | 'fail' {
  if (ratio >= 7) return 'AAA';
  if (ratio >= 4.5) return 'AA';
  return 'fail';
}
