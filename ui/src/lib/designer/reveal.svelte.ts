// A request to show one setting's field in the editor, from Inspect, the comparison's list of differences or the
// accessibility findings. The editor switches to the field's pane; a pane that folds its items away (the facet
// list) watches the request and unfolds the item the key names.
export const revealing = $state({ key: '', seq: 0 });

export function requestReveal(key: string): void {
  revealing.key = key;
  revealing.seq++;
}

/** The index of the facet item a key is under (`config.filter.facetsToShow.2.title` → 2), else null. */
export function facetIndexOf(key: string): number | null {
  const m = /^config\.filter\.facetsToShow\.(\d+)(\.|$)/.exec(key);
  return m ? Number(m[1]) : null;
}

/** The key and its ancestors, nearest first: where to put the focus when the field itself is not on screen. */
export function keyAndAncestors(key: string): string[] {
  const parts = key.split('.');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('.')).filter((k) => k.includes('.'));
}
