// How the designer has arranged the room around the preview: its zoom (per configuration), the full-window view,
// and which of the configuration list and the editor are folded away. Kept in this browser's local storage (the
// desktop window's too), so that a reload or the next start shows the same arrangement; where storage cannot be
// used, it lasts for this session.
import { isZoom, type Zoom } from './zoom';

const KEY = 'search-studio.preview-layout';

interface Stored {
  fullWindow: boolean;
  listFolded: boolean;
  editorFolded: boolean;
  /** The zoom of each configuration by id (`new` for one not yet created). */
  zoom: Record<string, Zoom>;
}

function read(): Stored {
  const empty: Stored = { fullWindow: false, listFolded: false, editorFolded: false, zoom: {} };
  try {
    const raw = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null');
    if (!raw || typeof raw !== 'object') return empty;
    const zoom: Record<string, Zoom> = {};
    for (const [id, z] of Object.entries(raw.zoom ?? {})) if (isZoom(z)) zoom[id] = z;
    return { fullWindow: raw.fullWindow === true, listFolded: raw.listFolded === true, editorFolded: raw.editorFolded === true, zoom };
  } catch {
    return empty;
  }
}

export class PreviewLayout {
  fullWindow = $state(false);
  listFolded = $state(false);
  editorFolded = $state(false);
  #zoom: Record<string, Zoom> = $state({});

  constructor() {
    const s = read();
    this.fullWindow = s.fullWindow;
    this.listFolded = s.listFolded;
    this.editorFolded = s.editorFolded;
    this.#zoom = s.zoom;
  }

  zoomOf(configId: number | null): Zoom {
    return this.#zoom[configId ?? 'new'] ?? 'fit';
  }

  setZoom(configId: number | null, zoom: Zoom) {
    this.#zoom = { ...this.#zoom, [configId ?? 'new']: zoom };
    this.save();
  }

  set(change: Partial<Pick<PreviewLayout, 'fullWindow' | 'listFolded' | 'editorFolded'>>) {
    Object.assign(this, change);
    this.save();
  }

  private save() {
    const s: Stored = { fullWindow: this.fullWindow, listFolded: this.listFolded, editorFolded: this.editorFolded, zoom: this.#zoom };
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(s));
    } catch {
      // Not kept: the arrangement lasts for this session.
    }
  }
}

/** The one arrangement of this window. */
export const layout = new PreviewLayout();
