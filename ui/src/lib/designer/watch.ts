// Following what the previews on the page show, for the designer tools that read them (the accessibility
// findings, the parts list): instead of reading every preview on a timer, which laid out the page every few
// hundred milliseconds whether anything changed or not, observers say when a preview changed (its content inside
// its shadow root, its size or zoom, or a preview came or went), and the reader runs once after a burst of
// changes, when the page has painted them.

/** The element each preview renders into (its shadow root holds the designed application). */
const PREVIEW_HOST = '[data-testid="preview-host"]';

/** How long after the last change a reading waits: a search answer re-renders in several steps. */
const SETTLE_MS = 150;

/** A preview on the page: its host element and the shadow root that holds the designed application. */
export interface PreviewOnPage {
  host: HTMLElement;
  root: ShadowRoot;
}

/** The previews on the page now. */
function previewsOnPage(): PreviewOnPage[] {
  return [...document.querySelectorAll<HTMLElement>(PREVIEW_HOST)].flatMap((host) => (host.shadowRoot ? [{ host, root: host.shadowRoot }] : []));
}

/**
 * Calls `read` with the previews on the page once the page has settled, and again after they change, until the
 * returned function is called. `read` is called at most once per burst of changes, never during this call (so
 * that what it reads is not tracked by an effect that starts the watch).
 */
export function watchPreviews(read: (previews: PreviewOnPage[]) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Once stopped, nothing runs again: a second look queued before the stop would otherwise observe the previews
  // anew and read them after the page is gone.
  let stopped = false;
  const schedule = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!stopped) read(previewsOnPage());
    }, SETTLE_MS);
  };
  const contents = new MutationObserver(schedule);
  const sizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
  const watched = new WeakSet<Element>();
  /** Observes every preview host not observed yet (a host stays observed until it leaves the page). */
  const follow = () => {
    if (stopped) return;
    for (const host of document.querySelectorAll<HTMLElement>(PREVIEW_HOST)) {
      if (watched.has(host) || !host.shadowRoot) continue;
      watched.add(host);
      contents.observe(host.shadowRoot, { childList: true, subtree: true, characterData: true, attributes: true });
      contents.observe(host, { attributes: true });
      sizes?.observe(host);
    }
  };
  // Previews come and go with the editor's panes and dialogs; a new one gets its shadow root just after it is on
  // the page, hence a second look once the current task is done.
  const followSoon = () => {
    follow();
    setTimeout(follow, 0);
  };
  const page = new MutationObserver(() => {
    followSoon();
    schedule();
  });
  page.observe(document.body, { childList: true, subtree: true });
  followSoon();
  // The first reading waits too: called while the page renders (the editor starting, a configuration opened), a
  // reading would lay the half-built page out in the middle of it, before its first frame.
  schedule();
  return () => {
    stopped = true;
    page.disconnect();
    contents.disconnect();
    sizes?.disconnect();
    if (timer !== null) clearTimeout(timer);
  };
}
