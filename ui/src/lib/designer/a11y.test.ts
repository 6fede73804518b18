import { describe, expect, test } from 'vitest';
import { colourFindings, feMatrix, VISION_MATRICES } from './a11y';
import type { Config } from '../types/generated';

const pair = (backgroundColor: string, fontColor: string) => ({ backgroundColor, fontColor });
/** A configuration whose colours all pass, as the demo configuration's do. */
function config(layout: Partial<Config['layout']> = {}, highlight = true): Config {
  return {
    details: { showConceptHighlighting: highlight },
    layout: {
      basicActionColor: pair('#1565c0', '#ffffff'),
      focusActionColor: pair('#c75000', '#ffffff'),
      criticalActionColor: pair('#c62828', '#ffffff'),
      navbar: pair('#0d47a1', '#ffffff'),
      facets: pair('#f5f7fa', '#212121'),
      documents: pair('#ffffff', '#212121'),
      logo: '',
      ...layout,
    },
  } as unknown as Config;
}

describe('colour pairs where the preview uses them', () => {
  test('readable colours give no finding', () => {
    expect(colourFindings(config())).toEqual([]);
  });

  test('navbar text on its background: #767676 on white passes 4.5:1 and #777777 does not', () => {
    expect(colourFindings(config({ navbar: pair('#ffffff', '#767676') }))).toEqual([]);
    const [finding] = colourFindings(config({ navbar: pair('#ffffff', '#777777') }));
    expect(finding.key).toBe('config.layout.navbar.fontColor');
    expect(finding.text).toContain('4.48:1, needs 4.5:1');
  });

  test('the basic action colour is checked as text on the documents and on the facet panel', () => {
    const found = colourFindings(config({ basicActionColor: pair('#90caf9', '#000000') }));
    expect(found.map((f) => f.id).sort()).toEqual(['contrast-facet-links', 'contrast-result-titles', 'contrast-selected-mark']);
    expect(new Set(found.map((f) => f.key))).toEqual(new Set(['config.layout.basicActionColor.backgroundColor']));
  });

  test('the focus ring needs 3:1 over both panels; highlighted concepts count only when shown', () => {
    const pale = { focusActionColor: pair('#f07d2e', '#ffffff') };
    expect(colourFindings(config(pale)).map((f) => f.id)).toEqual(['contrast-concept-marks', 'contrast-focus-documents', 'contrast-focus-facets']);
    expect(colourFindings(config(pale, false)).map((f) => f.id)).toEqual(['contrast-focus-documents', 'contrast-focus-facets']);
  });

  test('facet titles are drawn faded: a pair that passes at full opacity can fail there', () => {
    const found = colourFindings(config({ facets: pair('#ffffff', '#6b6b6b') }));
    expect(found.map((f) => f.id)).toEqual(['contrast-facet-titles']);
  });

  test('a colour is faded in whatever hex form it is written', () => {
    // #666 on white passes at full opacity (5.7:1) and fails at the titles' 75 %.
    const titles = (grey: string) =>
      colourFindings(config({ facets: pair('#ffffff', grey) })).find((f) => f.id === 'contrast-facet-titles');
    for (const grey of ['#666', '#666f', '#666666', '#666666ff']) expect(titles(grey), grey).toBeDefined();
    // Already half transparent, then faded: fainter still.
    const ratio = (grey: string) => Number(/is ([0-9.]+):1/.exec(titles(grey)?.text ?? '')?.[1]);
    expect(ratio('#66666680')).toBeLessThan(ratio('#666666'));
  });
});

test('the simulation matrices keep white white, and achromatopsia has no colour left', () => {
  for (const m of Object.values(VISION_MATRICES)) {
    for (let row = 0; row < 3; row++) expect(m[row * 3] + m[row * 3 + 1] + m[row * 3 + 2]).toBeCloseTo(1, 2);
  }
  const gray = VISION_MATRICES.achromatopsia;
  expect(gray.slice(0, 3)).toEqual(gray.slice(3, 6));
  expect(feMatrix(gray).split(' ')).toHaveLength(20);
});
