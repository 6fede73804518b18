// The contrast of every text the preview draws, measured as the browser draws it: the text's colour and the
// backgrounds behind it read from the rendered preview (getComputedStyle), composited through the opacity of the
// element and of each ancestor, whether the colours come from the configuration or from the preview's own style
// sheet. Which texts count and which contrast each needs follow WCAG 2.2, 1.4.3, as axe-core's `color-contrast`
// rule reads it (the end-to-end suite holds the two to the same findings: ui/e2e/contrast.mjs). It never guesses
// what it cannot read: text on a background image is left out, as axe-core leaves it to a person.
import type { Config } from '../types/generated';
import { drawnColours, parseCssColour, parseHex, ratioOf, toHex, type Layer, type Rgba } from '../editor/contrast';
import { ancestors, type Finding } from './a11y';
import { describePart, partOf } from './parts';
import { fieldLabel } from '../editor/labels';

/** What one text looks like on the screen. */
export interface TextContrast {
  /** The text and the background behind it as drawn (opaque). */
  fg: Rgba;
  bg: Rgba;
  ratio: number;
  /** 4.5 for normal text, 3 for large text (24 px, or 18.66 px bold). */
  min: 4.5 | 3;
  /** The element's own text colour, before any opacity. */
  colour: Rgba;
  /** The backgrounds that are not transparent on the way up from the element, nearest first, as set. */
  backgrounds: Rgba[];
  /** The product of the opacities of the element and its ancestors. */
  opacity: number;
}

/** The contrast a text of this size and weight needs: large text (18 pt, or 14 pt bold) 3:1, other text 4.5:1. */
export function minimumContrast(fontSizePx: number, fontWeight: string): 4.5 | 3 {
  const bold = parseFloat(fontWeight) >= 700 || fontWeight === 'bold';
  // In points, rounded up as axe-core does, so that 24 px and 18.66 px bold are large.
  const pt = Math.ceil(fontSizePx * 72) / 96;
  return (bold ? pt >= 14 : pt >= 18) ? 3 : 4.5;
}

type Styles = (el: Element) => CSSStyleDeclaration;

/** getComputedStyle, once per element for one reading (texts share most of their ancestors). */
function styleReader(): Styles {
  const seen = new Map<Element, CSSStyleDeclaration>();
  return (el) => {
    let s = seen.get(el);
    if (!s) seen.set(el, (s = getComputedStyle(el)));
    return s;
  };
}

/**
 * The drawn contrast of `el`'s text; null where it cannot be read from colours (a background image behind the
 * text, a colour in a form this does not read).
 */
export function measureText(el: Element, styles: Styles = styleReader()): TextContrast | null {
  const chain = ancestors(el).reverse();
  const layers: Layer[] = [];
  for (const e of chain) {
    const s = styles(e);
    const background = parseCssColour(s.backgroundColor || 'transparent');
    if (!background) return null;
    const opacity = s.opacity === '' ? 1 : parseFloat(s.opacity);
    layers.push({ background, opacity: Number.isFinite(opacity) ? opacity : 1 });
  }
  // Up to the nearest opaque background, an image would be drawn behind the text: its colours are not known.
  for (let i = chain.length - 1; i >= 0; i--) {
    const image = styles(chain[i]).backgroundImage;
    if (image && image !== 'none') return null;
    if (layers[i].background.a >= 1) break;
  }
  const style = styles(el);
  const colour = parseCssColour(style.color);
  if (!colour) return null;
  const { fg, bg } = drawnColours(layers, colour);
  return {
    fg,
    bg,
    ratio: ratioOf(fg, bg),
    min: minimumContrast(parseFloat(style.fontSize), style.fontWeight),
    colour,
    backgrounds: layers.map((l) => l.background).filter((b) => b.a > 0).reverse(),
    opacity: layers.reduce((o, l) => o * l.opacity, 1),
  };
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const TEXT_FIELD = 'input:not([type="hidden"],[type="range"],[type="color"],[type="checkbox"],[type="radio"],[type="image"]), textarea';

/** The text of the element's own text nodes (not its descendants'). */
function ownText(el: Element): string {
  let text = '';
  for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE) text += n.textContent ?? '';
  return text.trim();
}

/** Whether the element is drawn where a reader sees it: not hidden, not clipped away as screen-reader-only text. */
function onScreen(el: Element, styles: Styles): boolean {
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) return false;
  return ancestors(el).every((a) => styles(a).clip === 'auto' || styles(a).clip === '' || styles(a).position !== 'absolute');
}

/**
 * The elements under `root` that draw text a reader must read: text of letters or digits of their own (a lone
 * symbol or punctuation mark is not text to read), and text fields; not disabled, not hidden. While a modal dialog
 * is open, only its content (the rest lies under its backdrop).
 */
export function drawnTexts(root: ParentNode, styles: Styles = styleReader()): Element[] {
  const scope = root.querySelector('[aria-modal="true"]') ?? root;
  return [...scope.querySelectorAll('*')].filter(
    (el) =>
      (el.matches(TEXT_FIELD) || LETTER_OR_DIGIT.test(ownText(el))) &&
      !el.closest(':disabled, [aria-disabled="true"], [inert]') &&
      onScreen(el, styles),
  );
}

type Pair = 'documents' | 'facets' | 'navbar' | 'basicActionColor' | 'criticalActionColor' | 'focusActionColor';
type Part = 'fontColor' | 'backgroundColor';
const PAIRS: Pair[] = ['documents', 'facets', 'navbar', 'basicActionColor', 'criticalActionColor', 'focusActionColor'];
interface Setting { key: string; name: string }
const setting = (pair: Pair, part: Part): Setting => {
  const key = `config.layout.${pair}.${part}`;
  return { key, name: `“${fieldLabel(key)}”` };
};

function sameColour(hex: string, c: Rgba | undefined): boolean {
  const p = parseHex(hex);
  return !!p && !!c && Math.abs(p.r - c.r) <= 1 && Math.abs(p.g - c.g) <= 1 && Math.abs(p.b - c.b) <= 1 && Math.abs(p.a - c.a) <= 0.01;
}

/**
 * The settings that gave a text its colour and its background: a pair whose text and background are both the
 * ones drawn; otherwise the text's colour as any configured colour (an action colour drawn as link text) and the
 * nearest background that is a configured background.
 */
export function settingsOf(config: Config, m: Pick<TextContrast, 'colour' | 'backgrounds'>): { text: Setting | null; background: Setting | null } {
  const pairs = PAIRS;
  const colourOf = (pair: Pair, part: Part) => config.layout[pair][part];
  const nearest = m.backgrounds.find((b) => pairs.some((p) => sameColour(colourOf(p, 'backgroundColor'), b)));
  const both = pairs.find((p) => sameColour(colourOf(p, 'fontColor'), m.colour) && sameColour(colourOf(p, 'backgroundColor'), nearest));
  if (both) return { text: setting(both, 'fontColor'), background: setting(both, 'backgroundColor') };
  const parts: [Pair, Part][] = [...pairs.map((p): [Pair, Part] => [p, 'fontColor']), ...pairs.map((p): [Pair, Part] => [p, 'backgroundColor'])];
  const text = parts.find(([p, part]) => sameColour(colourOf(p, part), m.colour));
  const background = pairs.find((p) => sameColour(colourOf(p, 'backgroundColor'), nearest));
  return { text: text ? setting(...text) : null, background: background ? setting(background, 'backgroundColor') : null };
}

/**
 * The texts under `root` below their contrast as drawn, grouped by the part of the preview they belong to and
 * their colours; each finding names the settings that fix it and `count` says how many texts it stands for.
 */
export function textFindings(root: ParentNode, config: Config): Finding[] {
  const styles = styleReader();
  const groups = new Map<string, Finding & { count: number; head: string; tail: string }>();
  for (const el of drawnTexts(root, styles)) {
    const m = measureText(el, styles);
    if (!m || m.ratio >= m.min) continue;
    const found = partOf(ancestors(el));
    const info = found && describePart(found.ref, config);
    const { text, background } = settingsOf(config, m);
    const fix = [text, background].filter((s): s is Setting => s !== null);
    const id = `text-${found?.ref.part ?? 'other'}-${found?.ref.index ?? ''}-${el.className}-${toHex(m.fg)}-${toHex(m.bg)}`;
    const sample = (el.matches(TEXT_FIELD) ? (el as HTMLInputElement).value || (el as HTMLInputElement).placeholder : ownText(el)).slice(0, 30);
    const fade = m.opacity < 0.995 ? ` (at ${Math.round(m.opacity * 100)} % opacity)` : '';
    const g = groups.get(id) ?? {
      id,
      key: fix[0]?.key ?? info?.settings[0].key ?? 'config.layout',
      part: found?.ref.part ?? '',
      count: 0,
      text: '',
      head: `${info?.name ?? 'The preview'}: “${sample}”`,
      tail:
        ` is drawn ${toHex(m.fg)} on ${toHex(m.bg)}${fade}: ${(Math.floor(m.ratio * 100) / 100).toFixed(2)}:1, needs ${m.min}:1. ` +
        (fix.length ? `Change ${fix.map((s) => s.name).join(' or ')}.` : 'Its colours are not the configuration’s but the preview’s own.'),
    };
    g.count++;
    groups.set(id, g);
  }
  return [...groups.values()].map(({ id, key, part, count, head, tail }) => ({
    id,
    key,
    part,
    count,
    text: `${head}${count > 1 ? ` and ${count - 1} more like it` : ''}${tail}`,
  }));
}
