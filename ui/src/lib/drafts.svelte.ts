// Unsaved drafts kept on disk while the designer edits: 400 ms after the last edit (so a crash loses under a
// second), and dropped once published; while they cannot be written (a full disk), tried again every few seconds,
// so that the notice goes once space is freed even without another edit. Called while a component is set up: the
// keeping lasts as long as the component.
import type { Studio } from './studio.svelte';

export function keepDrafts(current: () => Studio | null): void {
  $effect(() => {
    const s = current();
    if (!s) return;
    for (const d of Object.values(s.drafts)) void d.json, void d.savedJson;
    void s.offer;
    const timer = setTimeout(() => void s.autosave(), 400);
    return () => clearTimeout(timer);
  });
  $effect(() => {
    const s = current();
    if (!s?.unwrittenNotice) return;
    const timer = setInterval(() => void s.autosave(), 5000);
    return () => clearInterval(timer);
  });
}
