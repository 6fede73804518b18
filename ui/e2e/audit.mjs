// End-to-end: the editor itself passes an automated accessibility audit (axe-core, WCAG 2.2 AA rules) on every
// pane and dialog in light and dark themes, in headless Chromium against a real `studio serve` with the demo data;
// every control of the editor is at least 24×24 px or has room around it; the keyboard focus is visible.
// The designed application inside the preview is audited for its structure only: its colours are the designer's
// to choose, and the accessibility check of the designer's tools reports them (designer.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assertEqual, runAlone, runWithServer, suite, until } from './harness.mjs';

const { test, run } = suite();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();

/** The serious and critical violations on the page now, as "rule (impact): target" lines. */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async (tags) => {
    const host = '[data-testid="preview-host"]';
    const serious = (result) =>
      result.violations.flatMap((v) =>
        ['serious', 'critical'].includes(v.impact)
          ? v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' >>> ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
          : [],
      );
    const runOnly = { type: 'tag', values: tags };
    // The editor, every rule.
    const editor = await window.axe.run({ exclude: [[host]] }, { runOnly });
    // The previewed application, for its structure: its colours are the configuration's, and it is drawn scaled
    // down, so its colour contrast and target sizes are the designer's check's (designer.mjs), in its own pixels.
    const preview = document.querySelector(host)
      ? await window.axe.run({ include: [[host]] }, { runOnly, rules: { 'color-contrast': { enabled: false }, 'target-size': { enabled: false } } })
      : { violations: [] };
    return [...serious(editor), ...serious(preview)];
  }, TAGS);
  return found;
}

/**
 * Controls of the editor (outside the preview; within `scope`, a CSS selector) below 24×24 px without room for a
 * 24 px circle around them.
 */
function smallTargets(page, scope = 'body') {
  return page.evaluate((scope) => {
    const els = [...document.querySelectorAll(`:is(${scope}) :is(button, a[href], input:not([type=hidden]), select, textarea, [role=tab], summary)`)]
      .filter((e) => !e.closest('[data-testid="preview-host"]'))
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r, e }) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.visually-hidden'));
    const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const dist = (p, r) => Math.hypot(Math.max(r.left - p.x, 0, p.x - r.right), Math.max(r.top - p.y, 0, p.y - r.bottom));
    const small = els.filter(({ r }) => r.width < 23.5 || r.height < 23.5);
    return small
      .filter((a) => els.some((b) => b !== a && (small.includes(b) ? Math.hypot(centre(a.r).x - centre(b.r).x, centre(a.r).y - centre(b.r).y) < 24 : dist(centre(a.r), b.r) < 12)))
      .map(({ e, r }) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} “${(e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 30)}” ${Math.round(r.width)}×${Math.round(r.height)}`);
  }, scope);
}

/** axe-core's audit of the whole page, and the size of the controls within `scope`. */
async function audit(page, where, scope = 'body') {
  const found = await violations(page);
  assertEqual(found, [], `serious or critical violations ${where}`);
  const small = await smallTargets(page, scope);
  assertEqual(small, [], `controls smaller than 24×24 px without room ${where}`);
}

test('opens the demo configuration', async ({ page, server }) => {
  await page.goto(server.url + '/');
  await page.locator('#token-input').fill(server.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await until('results', async () => (await page.locator('[data-testid="preview-host"]').first().evaluate((h) => h.shadowRoot?.querySelectorAll('[data-testid=result]').length ?? 0)) === 10);
});

for (const theme of ['light', 'dark']) {
  test(`every pane passes the audit in the ${theme} theme`, async ({ page }) => {
    await page.locator('.theme-select select').selectOption(theme);
    for (const pane of ['General', 'Result list', 'Facets', 'Layout', 'Detail view']) {
      await tab(page, pane);
      if (pane === 'Facets') await page.locator('.item-toggle').first().click();
      await audit(page, `in the ${pane} pane (${theme})`);
      if (pane === 'Facets') await page.locator('.item-toggle').first().click();
    }
    await page.getByRole('button', { name: '+ New' }).click();
    await audit(page, `with the new-configuration dialog open (${theme})`);
    await page.keyboard.press('Escape');
    // Settings exist in the desktop build only; the web build served here has none to audit.
    const settings = page.getByRole('button', { name: 'Settings', exact: true });
    if (await settings.count()) {
      await settings.click();
      // The dialogs and panels below are parts loaded when first opened: audited once they are there.
      await until('the settings dialog open', () => page.getByRole('dialog').isVisible());
      await audit(page, `with the settings dialog open (${theme})`);
      await page.keyboard.press('Escape');
    }
    await page.getByTestId('a11y-badge').click();
    await page.getByRole('button', { name: 'Inspect' }).click();
    await until('the accessibility panel and the list of parts shown', async () =>
      (await page.locator('#a11y-panel').isVisible()) && (await page.locator('.parts-list').isVisible()));
    await audit(page, `with the accessibility panel and Inspect open (${theme})`);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await page.getByRole('button', { name: 'Compare' }).click();
    await until('the comparison shown', () => page.getByTestId('compare').isVisible());
    await audit(page, `while comparing (${theme})`);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('a11y-badge').click();
    // In a narrow window the preview's toolbar folds controls into its menu: the menu open (its controls' size: the
    // editor's are checked above, at the width the editor is laid out for).
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await until('the toolbar’s menu', () => page.getByRole('group', { name: 'More preview controls' }).isVisible());
    await audit(page, `at 800×600 with the toolbar’s menu open (${theme})`, '.preview-bar');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1600, height: 1000 });
  });
}

/** The focused element's indicator: its outline's contrast with what lies behind it, or that it has a ring; inside
 * the preview's shadow root, the element focused there. */
function focusIndicator(page) {
  return page.evaluate(() => {
    let e = document.activeElement;
    while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
    if (!e || e === document.body) return { ok: true };
    // Inside the preview the indicator's colour is the configuration's (its focus colour): it must be there.
    const configured = e.getRootNode() !== document;
    const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]) =>
      [r, g, b].map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    // The outline is drawn outside the element: behind it is the first opaque background among its ancestors.
    let behind = e.parentElement ?? e.getRootNode().host;
    while (behind && (rgb(getComputedStyle(behind).backgroundColor)[3] ?? 1) < 1) behind = behind.parentElement;
    const back = rgb(getComputedStyle(behind ?? document.body).backgroundColor);
    const s = getComputedStyle(e);
    const name = `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} “${(e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 40)}”`;
    if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) {
      const [a, b] = [lum(rgb(s.outlineColor)), lum(back)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      return { ok: configured || ratio >= 3, name, ratio: Math.round(ratio * 10) / 10 };
    }
    return { ok: s.boxShadow !== 'none', name, ratio: null };
  });
}

test('the page has one main landmark and one level-one heading', async ({ page }) => {
  assertEqual(await page.locator('main').count(), 1, 'main landmarks');
  assertEqual(await page.locator('h1').count(), 1, 'level-one headings');
});

for (const theme of ['light', 'dark']) {
  test(`the keyboard focus is visible, with 3:1 contrast, in the ${theme} theme`, async ({ page }) => {
    await page.locator('.theme-select select').selectOption(theme);
    await tab(page, 'General');
    // Tabbing from the top of the page: the header, the configurations, the pane's fields, then into the preview.
    await page.locator('h1').click();
    const seen = new Set();
    for (let i = 0; i < 45; i++) {
      await page.keyboard.press('Tab');
      const focus = await focusIndicator(page);
      assertEqual(focus.ok, true, `a visible focus (contrast ${focus.ratio}) on ${focus.name}`);
      if (focus.name) seen.add(focus.name);
    }
    assertEqual(seen.size > 30, true, `distinct controls reached by Tab (${seen.size})`);
  });
}

test('small faults: even number boxes, refiner labels not cut, no empty “Searching…” between configurations', async ({ page }) => {
  await tab(page, 'Result list');
  const height = (id) => page.locator(`#${id}`).evaluate((e) => e.getBoundingClientRect().height);
  assertEqual(await height('f-config-result-itemsPerPage'), await height('f-config-result-summaryLength'), 'the heights of the two number boxes side by side');

  const cut = await page.locator('[data-testid="preview-host"]').evaluate((h) =>
    [...h.shadowRoot.querySelectorAll('.sa-refiner-label, .sa-search input')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent || e.placeholder));
  assertEqual(cut, [], 'refiner labels and the search box cut off at desktop width');

  // Watch the preview for its "Searching…" note with nothing else while switching configurations.
  await page.getByRole('button', { name: '+ New' }).click();
  await page.locator('#new-title').fill('Second');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await until('the second configuration open', async () =>
    (await page.locator('.config-item[aria-current="true"]').textContent()).includes('Second'));
  // Looked at every frame, the preview found anew each time (a preview built again would be a new element).
  await page.evaluate(() => {
    window.__emptySearching = 0;
    const look = () => {
      const root = document.querySelector('[data-testid="preview-host"]')?.shadowRoot;
      const notes = root ? [...root.querySelectorAll('.sa-note')].map((n) => n.textContent.trim()) : [];
      if (!root?.querySelector('[data-testid=result]') || notes.includes('Searching…')) window.__emptySearching++;
      requestAnimationFrame(look);
    };
    look();
  });
  for (const title of ['Industry news (demo)', 'Second', 'Industry news (demo)']) {
    await page.locator('.config-item', { hasText: title }).click();
    await until(`${title} shown`, async () => (await page.locator('[data-testid="preview-host"]').evaluate((h) => h.shadowRoot.querySelector('.sa-title')?.textContent)) === title);
    await until('its results', async () => (await page.locator('[data-testid="preview-host"]').evaluate((h) => h.shadowRoot.querySelectorAll('[data-testid=result]').length)) > 0);
  }
  assertEqual(await page.evaluate(() => window.__emptySearching), 0, 'frames in which the preview showed no results');
});

/** Runs this part: its own `studio serve` with the demo data and one page, where axe may be injected (the
 * server's policy allows no inline script: it is set aside for this page). */
export const runAudit = (browser) => runWithServer(run, browser, { page: { bypassCSP: true } });

await runAlone(import.meta, 'audit', runAudit);
