import { describe, expect, test } from 'vitest';
import { contrastRatio, drawnColours, parseCssColour, ratioOf, toHex, type Rgba } from './contrast';

const rgb = (hex: string): Rgba => parseCssColour(hex) as Rgba;
const CLEAR: Rgba = { r: 0, g: 0, b: 0, a: 0 };
/** An element with no background of its own, at `opacity`. */
const faded = (opacity: number) => ({ background: CLEAR, opacity });
const page = { background: rgb('#ffffff'), opacity: 1 };

describe('colours as getComputedStyle gives them', () => {
  test('rgb, rgba, space-separated with a slash, color(srgb), transparent and hex', () => {
    expect(parseCssColour('rgb(166, 27, 27)')).toEqual({ r: 166, g: 27, b: 27, a: 1 });
    expect(parseCssColour('rgba(0, 0, 0, 0.08)')).toEqual({ r: 0, g: 0, b: 0, a: 0.08 });
    expect(parseCssColour('rgb(33 33 33 / 75%)')).toEqual({ r: 33, g: 33, b: 33, a: 0.75 });
    expect(parseCssColour('color(srgb 1 0.5 0 / 0.5)')).toEqual({ r: 255, g: 127.5, b: 0, a: 0.5 });
    expect(parseCssColour('transparent')?.a).toBe(0);
    expect(parseCssColour('#a61b1b')).toEqual({ r: 166, g: 27, b: 27, a: 1 });
    expect(parseCssColour('oklch(0.5 0.1 20)')).toBeNull();
  });
});

describe('text as drawn', () => {
  test('opaque text on an opaque background is drawn as set', () => {
    const { fg, bg } = drawnColours([page], rgb('#212121'));
    expect([toHex(fg), toHex(bg)]).toEqual(['#212121', '#ffffff']);
  });

  test('translucent text is blended with what is behind it', () => {
    // Black at half its opacity over white: every channel half way, 127.5.
    const { fg } = drawnColours([page], { r: 0, g: 0, b: 0, a: 0.5 });
    expect(fg.r).toBeCloseTo(127.5);
    expect(ratioOf(fg, rgb('#ffffff'))).toBeCloseTo(contrastRatio('#ffffff', '#00000080') as number, 1);
  });

  test('a translucent background is laid over the backgrounds under it', () => {
    const tag = { background: { r: 0, g: 0, b: 0, a: 0.06 }, opacity: 1 };
    const { bg } = drawnColours([page, tag], rgb('#212121'));
    expect(bg.r).toBeCloseTo(255 * 0.94);
  });

  test('an opacity fades the text inside the element and inside every descendant', () => {
    const plain = drawnColours([page, faded(1)], rgb('#212121'));
    const once = drawnColours([page, faded(0.5)], rgb('#212121'));
    const nested = drawnColours([page, faded(0.5), faded(0.5)], rgb('#212121'));
    // 33 faded to half over white: 144; faded twice (a quarter of the colour left): 199.5.
    expect(once.fg.r).toBeCloseTo(33 * 0.5 + 255 * 0.5);
    expect(nested.fg.r).toBeCloseTo(33 * 0.25 + 255 * 0.75);
    expect(ratioOf(nested.fg, nested.bg)).toBeLessThan(ratioOf(once.fg, once.bg));
    expect(ratioOf(once.fg, once.bg)).toBeLessThan(ratioOf(plain.fg, plain.bg));
  });

  test('a chip with its own colours inside faded text is faded as a whole: 6.4:1 as set, 4.1:1 as drawn', () => {
    const chip = { background: rgb('#fde7e7'), opacity: 1 };
    const set = drawnColours([page, chip], rgb('#a61b1b'));
    expect(ratioOf(set.fg, set.bg)).toBeGreaterThan(6.3);
    const { fg, bg } = drawnColours([page, faded(0.75), chip], rgb('#a61b1b'));
    // The group (chip and text) at 75 % over white.
    expect(fg.r).toBeCloseTo(166 * 0.75 + 255 * 0.25);
    expect(bg.g).toBeCloseTo(0xe7 * 0.75 + 255 * 0.25);
    const ratio = ratioOf(fg, bg);
    expect(ratio).toBeGreaterThan(4);
    expect(ratio).toBeLessThan(4.5);
  });

  test('an opacity below an opaque background fades against that background, not the page', () => {
    const navbar = { background: rgb('#0d47a1'), opacity: 1 };
    const { fg, bg } = drawnColours([page, navbar, faded(0.5)], rgb('#ffffff'));
    expect(toHex(bg)).toBe('#0d47a1');
    expect(fg.b).toBeCloseTo((255 + 0xa1) / 2);
  });
});
