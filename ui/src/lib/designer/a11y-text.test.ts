import { afterEach, describe, expect, test } from 'vitest';
import { measureText, minimumContrast, settingsOf } from './a11y-text';
import type { Config } from '../types/generated';

afterEach(() => document.body.replaceChildren());

/** Elements nested as given, each with its inline style; returns the innermost. */
function nest(...styles: string[]): HTMLElement {
  let parent: HTMLElement = document.body;
  for (const style of styles) {
    const el = document.createElement('div');
    el.setAttribute('style', style);
    parent.append(el);
    parent = el;
  }
  parent.textContent = 'Sentiment: negative';
  return parent;
}

describe('the contrast of a text read from the rendered styles', () => {
  test('opacity on an ancestor and on the element multiply', () => {
    const alone = measureText(nest('background-color: #ffffff', 'color: #595959'));
    document.body.replaceChildren();
    const nested = measureText(nest('background-color: #ffffff', 'opacity: 0.8', 'opacity: 0.8; color: #595959'));
    expect(alone?.ratio).toBeGreaterThan(7);
    expect(nested?.opacity).toBeCloseTo(0.64);
    expect(nested?.ratio).toBeLessThan(4.5);
  });

  test('the sentiment chip in a line faded to 75 % is measured as drawn', () => {
    const m = measureText(nest('background-color: #ffffff', 'opacity: 0.75', 'background-color: #fde7e7; color: #a61b1b'));
    expect(m?.ratio).toBeGreaterThan(4);
    expect(m?.ratio).toBeLessThan(4.5);
    expect(m?.min).toBe(4.5);
  });

  test('text on a background image is not guessed at', () => {
    expect(measureText(nest('background-color: #ffffff', 'background-image: linear-gradient(red, blue); color: #fff'))).toBeNull();
  });

  test('large text: 24 px, or 18.66 px bold, needs 3:1', () => {
    expect(minimumContrast(24, '400')).toBe(3);
    expect(minimumContrast(23, '400')).toBe(4.5);
    expect(minimumContrast(18.67, '700')).toBe(3);
    expect(minimumContrast(20, '600')).toBe(4.5);
  });
});

test('a finding names the pair that gave the text its colours, or the action colour drawn as text', () => {
  const pair = (backgroundColor: string, fontColor: string) => ({ backgroundColor, fontColor });
  const config = {
    layout: {
      basicActionColor: pair('#1565c0', '#ffffff'),
      focusActionColor: pair('#c75000', '#ffffff'),
      criticalActionColor: pair('#c62828', '#ffffff'),
      navbar: pair('#0d47a1', '#ffffff'),
      facets: pair('#f5f7fa', '#212121'),
      documents: pair('#ffffff', '#212121'),
    },
  } as unknown as Config;
  const c = (r: number, g: number, b: number, a = 1) => ({ r, g, b, a });
  const white = c(255, 255, 255);
  expect(settingsOf(config, { colour: white, backgrounds: [c(13, 71, 161)] })).toEqual({
    text: { key: 'config.layout.navbar.fontColor', name: '“Navbar text”' },
    background: { key: 'config.layout.navbar.backgroundColor', name: '“Navbar background”' },
  });
  // A title link on the documents, over a translucent tag background that is no setting.
  const link = settingsOf(config, { colour: c(21, 101, 192), backgrounds: [c(0, 0, 0, 0.06), white] });
  expect(link.text?.key).toBe('config.layout.basicActionColor.backgroundColor');
  expect(link.background?.key).toBe('config.layout.documents.backgroundColor');
  // The preview's own colours (a sentiment chip): no setting.
  expect(settingsOf(config, { colour: c(166, 27, 27), backgrounds: [c(253, 231, 231)] })).toEqual({ text: null, background: null });
});
