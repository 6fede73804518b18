// The widths the preview lays the search application out at: a desktop, a tablet and a phone screen.
export const WIDTHS = { desktop: 1280, tablet: 768, phone: 390 } as const;
export type Width = keyof typeof WIDTHS;
export const isWidth = (w: unknown): w is Width => typeof w === 'string' && Object.hasOwn(WIDTHS, w);
