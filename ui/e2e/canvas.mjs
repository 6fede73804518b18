// End-to-end: the room the preview gets, at the window sizes designers use (800×600 to 1920×1080), in headless
// Chromium against a real `studio serve` with the demo data: a toolbar whose every control is where a click lands
// (below 1280 px on one row, with a menu for what does not fit, usable by keyboard), a preview never cut off at any
// width or zoom, actual size, full window and folded columns kept over a reload, and a comparison read at actual
// size with its differences in the editor's words.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assertEqual, runAlone, runWithServer, suite, until } from './harness.mjs';

const { test, run } = suite();

const frame = '#preview [data-testid="preview-frame"]';
const host = '[data-testid="preview-host"]';
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const zoomSelect = (page) => page.getByRole('combobox', { name: 'Zoom' });

/** Writes docs/NAME.png (or into SCREENSHOT_DIR): the README shows them. */
async function shot(page, name) {
  const dir = process.env.SCREENSHOT_DIR ?? join(ROOT, 'docs');
  mkdirSync(dir, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/**
 * Every control of the preview's toolbar that is not the element hit at its own centre, or that sticks out of
 * the window: what a designer would find covered or cut off.
 */
function hiddenControls(page) {
  return page.evaluate(() => {
    const bar = document.querySelector('.preview-bar');
    const out = [];
    for (const el of bar.querySelectorAll('button, select, input:not([type="radio"]), .segmented label, h2')) {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('aria-label') || el.textContent.trim() || el.tagName;
      if (r.width === 0) continue;
      if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) {
        out.push(`${name} is cut off (${Math.round(r.left)}–${Math.round(r.right)})`);
        continue;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(el === hit || el.contains(hit))) out.push(`${name} is covered by ${hit?.textContent?.trim().slice(0, 30) || hit?.tagName}`);
      if (el.tagName === 'H2' && r.height > 40) out.push(`${name} wraps onto two lines`);
    }
    return out;
  });
}

/** How far the scaled preview's right edge lies past its frame's content box (≤ 0: inside), and the frame's scroll room. */
function overhang(page, frameCss = frame) {
  return page.locator(frameCss).first().evaluate((f) => {
    const scaler = f.querySelector('.preview-scaler');
    const style = getComputedStyle(f);
    const right = f.getBoundingClientRect().left + f.clientWidth - parseFloat(style.paddingRight);
    const drawn = scaler.getBoundingClientRect().right;
    return { past: drawn - right, scrolls: f.scrollWidth > f.clientWidth };
  });
}

test('opens the demo configuration with real results', async ({ page, server }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '/');
  await page.locator('#token-input').fill(server.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await until('ten results in the preview', async () => (await page.locator(`${host} [data-testid="result"]`).count()) === 10);
});

// 1180×760: the preview in its own column beside the list and the editor, narrower than at 1024.
const SIZES = [[1920, 1080], [1440, 900], [1280, 800], [1180, 760], [1024, 768], [800, 600]];
const more = (page) => page.getByRole('button', { name: 'More', exact: true });
const menu = (page) => page.getByRole('group', { name: 'More preview controls' });
const scalerTop = (page) => page.locator(frame).evaluate((f) => f.querySelector('.preview-scaler').getBoundingClientRect().top);

/** Waits until the toolbar has fitted itself to the window: the same groups on its row over a few frames. */
async function toolbarSettled(page) {
  const row = () => page.locator('.preview-bar > [data-group]').evaluateAll((els) => els.map((e) => e.dataset.group).join());
  let last = await row();
  await until('the toolbar fitted to the window', async () => {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const now = await row();
    const same = now === last;
    last = now;
    return same;
  });
}

/** Clicks the toolbar's button `name` where it is: on the toolbar's row, or in its "More" menu. */
async function useToolbarButton(page, name) {
  await toolbarSettled(page);
  const onRow = page.locator('.preview-bar > [data-group]').getByRole('button', { name, exact: true });
  if (await onRow.count()) return onRow.click();
  if ((await more(page).getAttribute('aria-expanded')) !== 'true') await more(page).click();
  await menu(page).getByRole('button', { name, exact: true }).click();
}

test('at every window size every toolbar control is visible and is what a click at its centre hits, the menu’s too', async ({ page }) => {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const kind of ['Desktop', 'Phone']) {
      await page.getByText(kind, { exact: true }).click();
      await until(`every control clear at ${width}×${height} (${kind})`, async () => (await hiddenControls(page)).length === 0);
      assertEqual(await hiddenControls(page), [], `toolbar at ${width}×${height} (${kind})`);
      if (width >= 1280) {
        assertEqual(await more(page).count(), 0, `at ${width} px nothing is folded into a menu`);
        continue;
      }
      // On one row, every part of the toolbar shares a horizontal band with every other.
      const oneRow = await page.locator('.preview-bar > *').evaluateAll((els) => {
        const boxes = els.map((e) => e.getBoundingClientRect());
        return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
      });
      assertEqual(oneRow, true, `at ${width}×${height} (${kind}) the toolbar keeps one row`);
      await more(page).click();
      await until('the menu open', () => menu(page).isVisible());
      assertEqual(await hiddenControls(page), [], `the menu at ${width}×${height} (${kind})`);
      await more(page).click();
      await until('the menu closed', async () => (await menu(page).count()) === 0);
    }
    await page.getByText('Desktop', { exact: true }).click();
  }
});

test('below 1280 px the menu opens by keyboard, Tab moves in it, Esc closes it and gives the focus back', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const focusedIn = (css) => page.evaluate((c) => !!document.activeElement?.closest(c), css);
  await more(page).focus();
  await page.keyboard.press('Enter');
  await until('the menu open', () => menu(page).isVisible());
  assertEqual(await more(page).getAttribute('aria-expanded'), 'true', 'the button says the menu is open');
  assertEqual(await focusedIn('.toolbar-menu'), true, 'Enter moves the focus into the menu');
  const first = await page.evaluate(() => document.activeElement?.outerHTML);
  await page.keyboard.press('Tab');
  assertEqual(await focusedIn('.toolbar-menu'), true, 'Tab moves within the menu');
  assertEqual((await page.evaluate(() => document.activeElement?.outerHTML)) !== first, true, 'Tab moved to another control');
  await page.keyboard.press('Escape');
  await until('the menu closed', async () => (await menu(page).count()) === 0);
  assertEqual(await focusedIn('.toolbar-more > button'), true, 'Esc gives the focus back to “More”');
  await page.keyboard.press(' ');
  await until('Space opens it', () => menu(page).isVisible());
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowDown');
  await until('↓ opens it', () => menu(page).isVisible());
  await page.locator('.toolbar-menu button').first().focus();
  await page.keyboard.press('ArrowDown');
  assertEqual(await page.evaluate(() => document.activeElement?.textContent), 'Compare', '↓ moves from one button of the menu to the next');
  await page.keyboard.press('Escape');
  await until('the menu closed', async () => (await menu(page).count()) === 0);
});

test('through the menu a width preset applies and Inspect switches; Inspect never moves the preview, at any size', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await more(page).click();
  await until('the menu open', () => menu(page).isVisible());
  await shot(page, 'preview-narrow');
  await menu(page).getByRole('combobox', { name: 'Width presets' }).selectOption('768');
  await until('768 px chosen in the menu', async () => (await page.locator(`${frame} ${host}`).evaluate((e) => e.style.width)) === '768px');
  assertEqual(await page.getByRole('radio', { name: 'Tablet' }).isChecked(), true, 'the preset’s kind of screen');
  const before = await scalerTop(page);
  await menu(page).getByRole('button', { name: 'Inspect', exact: true }).click();
  await until('Inspect on', () => page.getByText('Inspecting: point at a part').isVisible());
  assertEqual(await menu(page).count(), 0, 'a toggle closes the menu');
  assertEqual(await scalerTop(page), before, 'Inspect from the menu does not move the preview');
  await more(page).click();
  assertEqual(await menu(page).getByRole('button', { name: 'Inspect', exact: true }).getAttribute('aria-pressed'), 'true', 'the menu shows Inspect on');
  await menu(page).getByRole('button', { name: 'Inspect', exact: true }).click();
  await until('Inspect off', async () => (await page.getByText('Inspecting: point at a part').count()) === 0);
  await page.getByText('Desktop', { exact: true }).click();

  // Esc in the menu closes only the menu, also over the full window.
  await useToolbarButton(page, 'Full window');
  await until('the full window', async () => (await page.locator('#preview.full-window').count()) === 1);
  await more(page).click();
  await page.keyboard.press('Escape');
  await until('the menu closed', async () => (await menu(page).count()) === 0);
  assertEqual(await page.locator('#preview.full-window').count(), 1, 'still the full window after the menu’s Esc');
  await page.keyboard.press('Escape');
  await until('back in its pane', async () => (await page.locator('#preview.full-window').count()) === 0);

  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await toolbarSettled(page);
    const top = await scalerTop(page);
    await useToolbarButton(page, 'Inspect');
    await until(`Inspect on at ${width}×${height}`, () => page.getByText('Inspecting: point at a part').isVisible());
    assertEqual(await scalerTop(page), top, `Inspect does not move the preview at ${width}×${height}`);
    await useToolbarButton(page, 'Inspect');
    await until('Inspect off', async () => (await page.getByText('Inspecting: point at a part').count()) === 0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the scaled preview’s right edge stays inside its pane at every preset and zoom, or the pane scrolls', async ({ page }) => {
  for (const [width, height] of [[1280, 800], [1440, 900], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    for (const preset of ['1440', '1280', '1024', '768', '390']) {
      await page.getByRole('combobox', { name: 'Width presets' }).selectOption(preset);
      for (const zoom of ['fit', '0.5', '1']) {
        await zoomSelect(page).selectOption(zoom);
        await until(`${preset} px at ${zoom} drawn`, async () =>
          (await page.locator(`${frame} ${host}`).evaluate((e) => e.style.width)) === `${preset}px`);
        const o = await overhang(page);
        assertEqual(o.past <= 0.5 || o.scrolls, true, `${preset} px at ${zoom} in ${width}×${height}: ${o.past} px past the pane, scrolls ${o.scrolls}`);
        if (zoom === 'fit') assertEqual(o.past <= 0.5 && !o.scrolls, true, `${preset} px fits whole at Fit in ${width}×${height} (${o.past} px past)`);
      }
    }
  }
  await page.getByRole('combobox', { name: 'Width presets' }).selectOption('1280');
  await zoomSelect(page).selectOption('fit');
});

test('100% draws the body text at its own size; Ctrl+- and Ctrl+0 zoom; the zoom is kept over a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  /** The summary's font size as drawn on the screen: its computed size through the preview's scale. */
  const drawnText = () => page.locator(`${frame} ${host}`).evaluate((h) => {
    const p = h.shadowRoot.querySelector('.sa-summary, [data-part="summary"], .sa-result p');
    const scale = h.getBoundingClientRect().width / h.offsetWidth;
    return parseFloat(getComputedStyle(p).fontSize) * scale;
  });
  const own = await page.locator(`${frame} ${host}`).evaluate((h) => parseFloat(getComputedStyle(h.shadowRoot.querySelector('.sa-summary, [data-part="summary"], .sa-result p')).fontSize));
  assertEqual((await drawnText()) < own - 2, true, `at Fit in 1280×800 the text is drawn smaller (${await drawnText()} px)`);
  await zoomSelect(page).selectOption('1');
  await until('text at its own size', async () => Math.abs((await drawnText()) - own) < 0.01);
  const o = await overhang(page);
  assertEqual(o.scrolls, true, 'at 100% the preview scrolls sideways in its pane');

  await page.locator(frame).focus();
  await page.keyboard.press('Control+-');
  await until('one step smaller', async () => (await zoomSelect(page).inputValue()) === '0.9');
  await page.keyboard.press('Control+0');
  await until('back to actual size', async () => (await zoomSelect(page).inputValue()) === '1');
  await page.reload();
  await until('the preview again', async () => (await page.locator(`${frame} ${host} [data-testid="result"]`).count()) === 10);
  assertEqual(await zoomSelect(page).inputValue(), '1', 'zoom kept for this configuration');
  await page.evaluate(() => document.fonts.ready);
  await until('text at its own size after the reload', async () => Math.abs((await drawnText()) - own) < 0.01);
  await shot(page, 'preview-100');
  await zoomSelect(page).selectOption('fit');
});

test('any width from 320 to 2560 px; a refused one is said and the preview keeps the last', async ({ page }) => {
  const widthField = page.getByRole('spinbutton', { name: 'Width' });
  await widthField.fill('1100');
  await until('1100 px', async () => (await page.locator(`${frame} ${host}`).evaluate((e) => e.style.width)) === '1100px');
  await widthField.fill('90');
  await until('the refusal said', () => page.getByText('Width must be a whole number of pixels from 320 to 2560.').isVisible());
  assertEqual(await page.locator(`${frame} ${host}`).evaluate((e) => e.style.width), '1100px', 'the last valid width kept');
  await page.getByText('Tablet', { exact: true }).click();
  await until('a tablet screen with its height', async () =>
    (await page.locator(`${frame} ${host}`).evaluate((e) => [e.style.width, e.style.height].join())) === '768px,1024px');
  await page.getByRole('spinbutton', { name: 'Height' }).fill('600');
  await until('the height typed', async () => (await page.locator(`${frame} ${host}`).evaluate((e) => e.style.height)) === '600px');
  await page.getByText('Desktop', { exact: true }).click();
});

test('full window and folded columns are kept over a reload; Esc leaves the full window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const frameWidth = () => page.locator(frame).evaluate((f) => f.getBoundingClientRect().width);
  const inPane = await frameWidth();
  await page.getByRole('button', { name: 'Fold the configuration list' }).click();
  await page.getByRole('button', { name: 'Fold the editor' }).click();
  const folded = await frameWidth();
  assertEqual(folded > inPane + 500, true, `folding gives the preview the room (${inPane} → ${folded} px)`);
  await page.reload();
  await until('the preview again', async () => (await page.locator(`${frame} ${host} [data-testid="result"]`).count()) === 10);
  assertEqual(await page.getByRole('button', { name: 'Unfold the editor' }).isVisible(), true, 'the editor stays folded');
  assertEqual(await page.getByRole('button', { name: 'Unfold the configuration list' }).isVisible(), true, 'the list stays folded');
  await page.getByRole('button', { name: 'Unfold the configuration list' }).click();
  await page.getByRole('button', { name: 'Unfold the editor' }).click();
  await until('unfolded', async () => Math.abs((await frameWidth()) - inPane) < 2);

  await page.getByRole('button', { name: 'Full window' }).click();
  await until('the preview over the whole window', async () => Math.abs((await frameWidth()) - 1280) < 20);
  await page.reload();
  await until('the preview again', async () => (await page.locator(`${frame} ${host} [data-testid="result"]`).count()) === 10);
  assertEqual(Math.abs((await frameWidth()) - 1280) < 20, true, 'still full window after the reload');
  await page.getByRole('button', { name: 'Full window' }).focus();
  await page.keyboard.press('Escape');
  await until('back in its pane', async () => Math.abs((await frameWidth()) - inPane) < 2);
});

test('the skip link is the first Tab stop and puts the preview one Tab away', async ({ page }) => {
  await page.reload();
  await until('the preview again', async () => (await page.locator(`${frame} ${host} [data-testid="result"]`).count()) === 10);
  await page.keyboard.press('Tab');
  assertEqual(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the preview', 'first Tab stop');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const inside = await page.evaluate(() => !!document.activeElement?.closest('[data-testid="preview-host"]'));
  assertEqual(inside, true, 'one Tab after the skip link is inside the preview');
});

test('while a colour is half typed the preview keeps the last valid one, and the field says what is wrong', async ({ page }) => {
  await tab(page, 'Layout');
  const field = page.locator('#f-config-layout-navbar-backgroundColor');
  const navbar = () => page.locator(`${frame} ${host} .sa-navbar`).evaluate((e) => getComputedStyle(e).backgroundColor);
  await field.fill('#7b1fa2');
  await until('the typed colour', async () => (await navbar()) === 'rgb(123, 31, 162)');
  await field.fill('#2e7d3');
  await until('the field says what is wrong', () => page.locator('[data-error-key="config.layout.navbar.backgroundColor"]').isVisible());
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  assertEqual(await navbar(), 'rgb(123, 31, 162)', 'the navbar keeps the last valid colour');
  await field.fill('#2e7d32');
  await until('the next valid colour', async () => (await navbar()) === 'rgb(46, 125, 50)');
  await page.getByRole('button', { name: 'Discard' }).click();
});

test('a refused value in one facet’s settings keeps that facet’s last valid value in the preview', async ({ page }) => {
  await tab(page, 'Facets');
  const index = await page.locator(`${frame} ${host} [data-facet="Author"]`).getAttribute('data-index');
  const terms = () => page.locator(`${frame} ${host} [data-facet="Author"] .sa-refiner-btn`).count();
  const field = page.locator(`#f-config-filter-facetsToShow-${index}-maximumTerms`);
  if (!(await field.isVisible())) await page.getByRole('button', { name: /^Author / }).click();
  await field.fill('3');
  await until('three authors', async () => (await terms()) === 3);
  for (const half of ['', '5000', '0']) {
    await field.fill(half);
    await until(`the field says “${half}” is refused`, () => page.locator(`[data-error-key="config.filter.facetsToShow.${index}.maximumTerms"]`).isVisible());
    // A search the edit started (the facet's settings shape the answer) shows “Searching…” until its answer is drawn.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    await until('no search under way', async () => (await page.locator(`${frame} ${host} .sa-loading`).count()) === 0);
    assertEqual(await terms(), 3, `with “${half}” typed the facet keeps its last valid maximum`);
  }
  await field.fill('4');
  await until('the next valid maximum', async () => (await terms()) === 4);
  await page.getByRole('button', { name: 'Discard' }).click();
});

test('compare at 100%: the sides scroll together; differences read in the editor’s labels, a reorder names what moved', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await tab(page, 'Layout');
  await page.locator('#f-config-layout-navbar-backgroundColor').fill('#7b1fa2');
  await tab(page, 'Facets');
  const handles = page.getByRole('button', { name: /^Reorder / });
  assertEqual((await handles.count()) >= 3, true, 'the demo has three facets or more');
  const first = /^Reorder (.+): position 1 of/.exec(await handles.first().getAttribute('aria-label'))[1];
  const handle = page.getByRole('button', { name: `Reorder ${first}:`, exact: false });
  await handle.focus();
  await page.keyboard.press('ArrowDown');
  await handle.focus();
  await page.keyboard.press('ArrowDown');
  await until(`${first} third`, async () => (await handle.getAttribute('aria-label')).includes('position 3 of'));
  await page.getByRole('button', { name: 'Compare' }).click();
  const list = page.getByTestId('compare-diff-list');
  await until('the differences listed', async () => (await list.locator('li').count()) >= 2);
  const lines = await list.locator('li').allTextContents();
  assertEqual(lines.some((l) => /^Navbar background: #[0-9a-f]{6} → #7b1fa2$/.test(l)), true, `the colour in the field’s label (${JSON.stringify(lines)})`);
  assertEqual(lines.includes(`${first} moved from 1st to 3rd`), true, `the reorder names what moved (${JSON.stringify(lines)})`);
  assertEqual(await page.getByTestId('compare-diff-count').textContent(), `${lines.length} settings differ`, 'counted');

  await page.getByRole('button', { name: 'Full window' }).click();
  await zoomSelect(page).selectOption('1');
  const theirs = page.locator(`[data-testid="compare-theirs"] [data-testid="preview-frame"]`);
  const mine = page.locator(`[data-testid="compare-mine"] [data-testid="preview-frame"]`);
  await until('both sides with results', async () =>
    (await theirs.locator('[data-testid="result"]').count()) === 10 && (await mine.locator('[data-testid="result"]').count()) === 10);
  await mine.evaluate((f) => f.scrollTo(300, 400));
  await until('the other side scrolled with it', async () =>
    JSON.stringify(await theirs.evaluate((f) => [f.scrollLeft, f.scrollTop])) === JSON.stringify(await mine.evaluate((f) => [f.scrollLeft, f.scrollTop])) &&
    (await theirs.evaluate((f) => f.scrollTop)) > 0);
  await page.getByLabel('Show differences').check();
  await until('the navbar outlined on both sides', async () =>
    (await theirs.locator('[data-part="navbar"][data-differs]').count()) === 1 && (await mine.locator('[data-part="navbar"][data-differs]').count()) === 1);
  assertEqual(await mine.locator('[data-part="results"][data-differs]').count(), 0, 'an unchanged part is not outlined');
  await mine.evaluate((f) => f.scrollTo(0, 0));
  await shot(page, 'compare-full-window');
  await page.keyboard.press('Escape');
  await zoomSelect(page).selectOption('fit');
  await page.getByRole('button', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
});

/** Runs this part: its own `studio serve` with the demo data, and one page. */
export async function runCanvas(browser) {
  return runWithServer(run, browser, { page: { viewport: { width: 1280, height: 800 } } });
}

await runAlone(import.meta, 'canvas', runCanvas);
