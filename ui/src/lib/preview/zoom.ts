// How far the preview is scaled: "fit" (scaled down so that its whole width shows, never up) or a fixed factor,
// 1 being actual size, where the preview scrolls inside its pane. The steps are those of the zoom menu and of
// Ctrl+= / Ctrl+-.
export type Zoom = 'fit' | number;

export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.25, 1.5, 2] as const;

/** The scale that shows `width` CSS pixels whole in `room` pixels, never above actual size. */
export function fitScale(room: number, width: number): number {
  return Math.min(1, Math.max(0.05, room) / width);
}

/** The scale a zoom stands for, given the fit scale. */
export const scaleOf = (zoom: Zoom, fit: number): number => (zoom === 'fit' ? fit : zoom);

/** The next step up (`dir` 1) or down (-1) from the current scale. */
export function stepZoom(zoom: Zoom, fit: number, dir: 1 | -1): number {
  const now = scaleOf(zoom, fit);
  const next = dir > 0 ? ZOOM_STEPS.find((s) => s > now + 0.001) : [...ZOOM_STEPS].reverse().find((s) => s < now - 0.001);
  return next ?? (dir > 0 ? ZOOM_STEPS[ZOOM_STEPS.length - 1] : ZOOM_STEPS[0]);
}

export const isZoom = (z: unknown): z is Zoom => z === 'fit' || (typeof z === 'number' && (ZOOM_STEPS as readonly number[]).includes(z));

export const percent = (scale: number): string => `${Math.round(scale * 100)}%`;
