// The colour vision the preview is shown with: one choice for every preview on the page.
import type { Vision } from './a11y';

export const vision = $state({ current: 'normal' as Vision });

/** The CSS filter that simulates the chosen vision (an SVG filter of VisionFilters.svelte). */
export const visionFilter = (v: Vision) => (v === 'normal' ? undefined : `url(#sim-${v})`);
