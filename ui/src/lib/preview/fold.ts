// Which of the preview toolbar's controls fold into its "More" menu in a window narrower than FOLD_BELOW: as few as
// leave the rest on one row, the last of the list first. In a wider window nothing folds (the row wraps instead),
// so that every control is in sight where designers usually work.

/** Below this window width (CSS px) the toolbar keeps one row and folds what does not fit into its menu. */
export const FOLD_BELOW = 1280;

/**
 * How many of the controls' groups, counted from the end, go into the menu so that the rest fit in `room`: the row
 * holds `fixed` (the title), each group kept with a `gap` before it, and the menu's button (`more` wide, after a gap)
 * once anything is folded.
 */
export function foldCount(fixed: number, widths: readonly number[], gap: number, more: number, room: number): number {
  // Half a pixel of slack: widths are measured in fractions and summed.
  const fits = (used: number) => used <= room + 0.5;
  let used = widths.reduce((sum, w) => sum + gap + w, fixed);
  if (fits(used)) return 0;
  for (let k = 1; k <= widths.length; k++) {
    used -= gap + widths[widths.length - k];
    if (fits(used + gap + more)) return k;
  }
  return widths.length;
}
