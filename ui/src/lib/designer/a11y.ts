// The accessibility check of the designed search application: every colour pair checked where the preview
// actually uses it (action colours as state marks on the panels they sit on, the focus ring on the backgrounds it
// is drawn over; text pairs only where the preview does not draw that text now: a drawn text is measured as drawn,
// a11y-text.ts), and the size of every control the preview shows (WCAG 2.2, 2.5.8: 24×24 CSS px, or room for a
// 24 px circle). Each finding names the setting that fixes it.
import type { Config } from '../types/generated';
import { contrastRatio, parseHex, toPickerValue } from '../editor/contrast';
import { partOf, describePart } from './parts';

export interface Finding {
  /** Stable across runs, so that a list keeps its place while the designer edits. */
  id: string;
  /** What is wrong, in a sentence a designer can act on. */
  text: string;
  /** The setting whose field fixes it. */
  key: string;
  /** The part of the preview it was measured in (its `data-part`), for a finding measured there. */
  part?: string;
  /** How many elements of the preview it stands for, for a finding measured there. */
  count?: number;
}

type Pair = 'navbar' | 'facets' | 'documents' | 'basicActionColor' | 'focusActionColor' | 'criticalActionColor';
type Side = { pair: Pair; part: 'backgroundColor' | 'fontColor' };

interface Use {
  id: string;
  /** Where the colours meet, as the designer would say it. */
  where: string;
  fg: Side;
  bg: Side;
  /** The opacity the preview draws the foreground with. */
  alpha?: number;
  /** 4.5 for text (WCAG 1.4.3), 3 for marks of state and the focus ring (1.4.11). */
  min: 4.5 | 3;
  /** Whether the configuration shows the part at all. */
  shown?: (c: Config) => boolean;
  /** For text: where the preview draws it. While a preview draws it, the text is measured there instead. */
  drawn?: string;
}

const fg = (pair: Pair): Side => ({ pair, part: 'fontColor' });
const bg = (pair: Pair): Side => ({ pair, part: 'backgroundColor' });

/** Where the preview (preview.css, SearchApp) uses each colour; this list and that style sheet change together. */
const USES: Use[] = [
  { id: 'navbar-text', where: 'the navbar’s title', fg: fg('navbar'), bg: bg('navbar'), min: 4.5, drawn: '.sa-title' },
  { id: 'facets-text', where: 'facet values in the filter panel', fg: fg('facets'), bg: bg('facets'), min: 4.5, drawn: '.sa-refiner-label' },
  { id: 'facet-titles', where: 'facet titles (drawn at 75 % opacity)', fg: fg('facets'), bg: bg('facets'), alpha: 0.75, min: 4.5, drawn: '.sa-facet-title' },
  { id: 'documents-text', where: 'the result list’s text', fg: fg('documents'), bg: bg('documents'), min: 4.5, drawn: '.sa-result' },
  { id: 'result-titles', where: 'result titles and links (the basic action colour as text)', fg: bg('basicActionColor'), bg: bg('documents'), min: 4.5, drawn: '.sa-title-link' },
  { id: 'facet-links', where: '“Show all” in the filter panel (the basic action colour as text)', fg: bg('basicActionColor'), bg: bg('facets'), min: 4.5, drawn: '.sa-filters .sa-link-btn' },
  { id: 'basic-buttons', where: 'the search button, selected filters and the current page', fg: fg('basicActionColor'), bg: bg('basicActionColor'), min: 4.5, drawn: '.sa-search .sa-basic' },
  { id: 'critical-buttons', where: 'the reset button', fg: fg('criticalActionColor'), bg: bg('criticalActionColor'), min: 4.5, drawn: '.sa-reset' },
  {
    id: 'concept-marks',
    where: 'highlighted concepts in the detail view',
    fg: fg('focusActionColor'),
    bg: bg('focusActionColor'),
    min: 4.5,
    shown: (c) => c.details.showConceptHighlighting,
    drawn: '.sa-concept',
  },
  { id: 'selected-mark', where: 'the check mark of a selected facet value against the filter panel', fg: bg('basicActionColor'), bg: bg('facets'), min: 3 },
  { id: 'focus-documents', where: 'the focus ring over the result list', fg: bg('focusActionColor'), bg: bg('documents'), min: 3 },
  { id: 'focus-facets', where: 'the focus ring over the filter panel', fg: bg('focusActionColor'), bg: bg('facets'), min: 3 },
];

const NAMES: Record<Pair, string> = {
  navbar: 'Navbar',
  facets: 'Facets',
  documents: 'Documents',
  basicActionColor: 'Basic action',
  focusActionColor: 'Focus action',
  criticalActionColor: 'Critical action',
};

const colourOf = (c: Config, s: Side) => c.layout[s.pair][s.part];
const keyOf = (s: Side) => `config.layout.${s.pair}.${s.part}`;
const alphaHex = (alpha: number) => Math.round(alpha * 255).toString(16).padStart(2, '0');

/** Lays a colour at `alpha` times its own opacity (any hex form; a colour that is not one is left as it is). */
function faded(hex: string, alpha: number | undefined): string {
  const colour = alpha === undefined ? null : parseHex(hex);
  const opaque = toPickerValue(hex);
  if (alpha === undefined || !colour || !opaque) return hex;
  return opaque + alphaHex(colour.a * alpha);
}

/** The texts of the colour list that `root` draws now (by their ids): those are measured where they are drawn. */
export function drawnUses(root: ParentNode): string[] {
  // Under an open modal dialog only the dialog is measured (the rest lies under its backdrop).
  const scope = root.querySelector('[aria-modal="true"]') ?? root;
  return USES.filter((u) => u.drawn && scope.querySelector(u.drawn)).map((u) => u.id);
}

/**
 * The colour pairs that do not reach their contrast where the preview uses them; the texts in `drawn` (ids from
 * `drawnUses`) are left to the measurement of the drawn preview.
 */
export function colourFindings(config: Config, drawn: ReadonlySet<string> = new Set()): Finding[] {
  return USES.filter((u) => (u.shown?.(config) ?? true) && !drawn.has(u.id)).flatMap((u) => {
    const [front, back] = [colourOf(config, u.fg), colourOf(config, u.bg)];
    const ratio = contrastRatio(back, faded(front, u.alpha));
    if (ratio === null || ratio >= u.min) return [];
    const name = (s: Side) => `“${NAMES[s.pair]} ${s.part === 'fontColor' ? 'text' : 'background'}”`;
    return [{
      id: `contrast-${u.id}`,
      text: `Too little contrast in ${u.where}: ${front} on ${back} is ${ratio.toFixed(2)}:1, needs ${u.min}:1. Change ${name(u.fg)} or ${name(u.bg)}.`,
      key: keyOf(u.fg),
    }];
  });
}

/** The smallest target WCAG 2.2 (2.5.8, AA) allows, in CSS pixels. */
export const MIN_TARGET = 24;
const CONTROLS = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], summary';

interface Box { x: number; y: number; w: number; h: number }

const centre = (b: Box) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
/** Distance from a point to a box (0 inside it). */
function distance(p: { x: number; y: number }, b: Box): number {
  const dx = Math.max(b.x - p.x, 0, p.x - (b.x + b.w));
  const dy = Math.max(b.y - p.y, 0, p.y - (b.y + b.h));
  return Math.hypot(dx, dy);
}

/**
 * The controls under `root` smaller than 24×24 px without the spacing exception (a 24 px circle on each small
 * target's centre meets no other target nor another small target's circle), grouped by the part of the preview
 * they belong to. `zoom` is how far the preview is scaled: sizes are measured in the application's own pixels.
 */
export function targetFindings(root: ParentNode, zoom: number, config: Config): Finding[] {
  const controls = [...root.querySelectorAll<HTMLElement>(CONTROLS)]
    .map((el) => {
      const r = el.getBoundingClientRect();
      return { el, box: { x: r.x / zoom, y: r.y / zoom, w: r.width / zoom, h: r.height / zoom } };
    })
    .filter((c) => c.box.w > 0 && c.box.h > 0 && !c.el.closest('.sa-sr'));
  const small = controls.filter((c) => c.box.w < MIN_TARGET - 0.5 || c.box.h < MIN_TARGET - 0.5);
  // Measured every second while the preview shows (findings.svelte.ts): a set, not a scan of `small` per pair.
  const smallSet = new Set(small);
  const crowded = small.filter((a) =>
    controls.some((b) => {
      if (b === a) return false;
      const isSmall = smallSet.has(b);
      return isSmall ? Math.hypot(centre(a.box).x - centre(b.box).x, centre(a.box).y - centre(b.box).y) < MIN_TARGET : distance(centre(a.box), b.box) < MIN_TARGET / 2;
    }),
  );
  const groups = new Map<string, { count: number; name: string; key: string; w: number; h: number }>();
  for (const c of crowded) {
    const found = partOf(ancestors(c.el));
    const info = found && describePart(found.ref, config);
    const name = info?.name ?? 'The preview';
    const key = info?.settings[0].key ?? 'config.layout';
    const label = c.el.getAttribute('aria-label') ?? c.el.textContent?.trim().slice(0, 30) ?? '';
    const id = `target-${found?.ref.part ?? 'other'}-${found?.ref.index ?? ''}-${c.el.className}`;
    const g = groups.get(id) ?? { count: 0, name: `${name}: “${label}”`, key, w: c.box.w, h: c.box.h };
    g.count++;
    g.w = Math.min(g.w, c.box.w);
    g.h = Math.min(g.h, c.box.h);
    groups.set(id, g);
  }
  return [...groups].map(([id, g]) => ({
    id,
    text: `${g.name}${g.count > 1 ? ` and ${g.count - 1} more like it` : ''}: ${Math.round(g.w)}×${Math.round(g.h)} px, smaller than 24×24 px and too close to other controls.`,
    key: g.key,
  }));
}

/** The element and its ancestors across shadow roots, nearest first. */
export function ancestors(el: Element): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = el; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (n instanceof Element) out.push(n);
  }
  return out;
}

/** The colour-vision types the preview can be seen with. */
export const VISIONS = [
  { id: 'normal', label: 'Normal colour vision' },
  { id: 'protanopia', label: 'Protanopia (no red cones)' },
  { id: 'deuteranopia', label: 'Deuteranopia (no green cones)' },
  { id: 'tritanopia', label: 'Tritanopia (no blue cones)' },
  { id: 'achromatopsia', label: 'Achromatopsia (no colour)' },
] as const;
export type Vision = (typeof VISIONS)[number]['id'];

/**
 * The colour matrices of the simulation, in linear RGB: Machado, Oliveira and Fernandes (2009) at full severity for
 * the three dichromacies, and luminance alone for achromatopsia.
 */
export const VISION_MATRICES: Record<Exclude<Vision, 'normal'>, number[]> = {
  protanopia: [0.152286, 1.052583, -0.204868, -0.114503, 0.786281, 0.329366, -0.003882, -0.048116, 1.051998],
  deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
  tritanopia: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039],
  achromatopsia: [0.2126, 0.7152, 0.0722, 0.2126, 0.7152, 0.0722, 0.2126, 0.7152, 0.0722],
};

/** An SVG `feColorMatrix` value (4×5) for a 3×3 matrix. */
export function feMatrix(m: number[]): string {
  return [0, 1, 2].map((r) => `${m[r * 3]} ${m[r * 3 + 1]} ${m[r * 3 + 2]} 0 0`).join(' ') + ' 0 0 0 1 0';
}
