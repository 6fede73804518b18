// The accessibility findings of the designed application at every moment: the contrast of every text the preview
// draws and the control sizes, measured in the previews whenever they change (designer/watch.ts); the colour pairs
// the preview does not draw as text now (focus ring, marks of state, texts not shown) from the settings as they
// change; and the logo. For the header's badge and the findings panel.
import type { Config } from '../types/generated';
import { contrastRatio } from '../editor/contrast';
import { fieldLabel } from '../editor/labels';
import { colourFindings, drawnUses, targetFindings, type Finding } from './a11y';
import { textFindings } from './a11y-text';
import { watchPreviews } from './watch';

export class Findings {
  config: Config | null = $state.raw(null);
  #targets: Finding[] = $state.raw([]);
  #texts: Finding[] = $state.raw([]);
  /** The texts of the colour list that a preview draws now: measured there, not estimated from the settings. */
  #drawn: ReadonlySet<string> = $state.raw(new Set());
  #logo: Finding[] = $state.raw([]);
  colours = $derived(this.config ? colourFindings(this.config, this.#drawn) : []);
  all = $derived([...this.#texts, ...this.colours, ...this.#logo, ...this.#targets]);

  /** Measures the previews on the page whenever they change, until the returned function is called. */
  watch(): () => void {
    return watchPreviews((previews) => {
      const config = this.config;
      if (!config) return;
      const unique = (found: Finding[]) => found.filter((f, i) => found.findIndex((o) => o.id === f.id) === i);
      const targets = unique(previews.flatMap(({ host, root }) => targetFindings(root, Number(host.dataset.zoom) || 1, config)));
      if (JSON.stringify(targets) !== JSON.stringify(this.#targets)) this.#targets = targets;
      const texts = unique(previews.flatMap(({ root }) => textFindings(root, config)));
      if (JSON.stringify(texts) !== JSON.stringify(this.#texts)) this.#texts = texts;
      const drawn = new Set(previews.flatMap(({ root }) => drawnUses(root)));
      if ([...drawn].join() !== [...this.#drawn].join()) this.#drawn = drawn;
    });
  }

  /**
   * Follows the configuration the preview shows, `config`: the previews measured as they change and the logo checked,
   * for as long as the component that calls this (while it is set up) lives.
   */
  follow(config: () => Config | null): void {
    $effect(() => {
      this.config = config();
    });
    $effect(() => this.watch());
    $effect(() => {
      const c = config();
      if (c) void this.checkLogo(c.layout.logo, c.layout.navbar.backgroundColor);
    });
  }

  /** Checks the logo against the navbar it sits on, once per logo and navbar colour. */
  async checkLogo(logo: string, navbar: string): Promise<void> {
    const colour = logo ? await averageColour(logo).catch(() => null) : null;
    const ratio = colour ? contrastRatio(navbar, colour) : null;
    this.#logo =
      ratio !== null && ratio < 3
        ? [{
            id: 'contrast-logo',
            text: `The logo hardly stands out from the navbar: its colours (on average ${colour}) on ${navbar} are ${ratio.toFixed(2)}:1, a graphic needs 3:1. Change “${fieldLabel('config.layout.navbar.backgroundColor')}” or the logo.`,
            key: 'config.layout.navbar.backgroundColor',
          }]
        : [];
  }
}

/** The average colour of an image's opaque pixels, as `#rrggbb`; null for an image that cannot be read here. */
async function averageColour(src: string): Promise<string | null> {
  if (!/^data:image\//i.test(src) && !src.startsWith(location.origin)) return null;
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 32;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.drawImage(image, 0, 0, 32, 32);
  const { data } = ctx.getImageData(0, 0, 32, 32);
  let [r, g, b, n] = [0, 0, 0, 0];
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] < 128) continue;
    r += data[i];
    g += data[i + 1];
    b += data[i + 2];
    n++;
  }
  if (n === 0) return null;
  return '#' + [r, g, b].map((v) => Math.round(v / n).toString(16).padStart(2, '0')).join('');
}
