// The widths the preview lays the search application out at. The three kinds of screen (desktop, tablet, phone)
// are what a scenario keeps; any width from MIN_WIDTH to MAX_WIDTH can be typed, and the presets name the
// common breakpoints. A tablet or phone is drawn as a screen of a given height that scrolls inside.
export const WIDTHS = { desktop: 1280, tablet: 768, phone: 390 } as const;
export type Width = keyof typeof WIDTHS;
export const isWidth = (w: unknown): w is Width => typeof w === 'string' && Object.hasOwn(WIDTHS, w);

export const MIN_WIDTH = 320;
export const MAX_WIDTH = 2560;
/** The screen heights of a tablet and a phone (portrait), until one is typed. */
export const HEIGHTS = { tablet: 1024, phone: 844 } as const;

/** The breakpoints offered in the presets menu, widest first, each with the kind of screen it stands for. */
export const PRESETS: readonly { px: number; device: Width; name: string }[] = [
  { px: 1440, device: 'desktop', name: 'Large desktop' },
  { px: 1280, device: 'desktop', name: 'Desktop' },
  { px: 1024, device: 'desktop', name: 'Small laptop' },
  { px: 768, device: 'tablet', name: 'Tablet' },
  { px: 390, device: 'phone', name: 'Phone' },
];

/** Why a typed width or height is refused, or null when it can be used. */
export function checkSize(value: number, what: 'Width' | 'Height'): string | null {
  return Number.isInteger(value) && value >= MIN_WIDTH && value <= MAX_WIDTH
    ? null
    : `${what} must be a whole number of pixels from ${MIN_WIDTH} to ${MAX_WIDTH}.`;
}
