// End-to-end: the designer's accessibility check and axe-core (WCAG 2.2 AA rules, run over the preview's shadow
// root) find the same texts short of contrast, in headless Chromium against a real `studio serve` with the demo
// data: none on the demo configuration, and the same ones, part by part, on a configuration whose grey text passes
// at full strength but not where the preview fades it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assertEqual, runAlone, runWithServer, suite, until } from './harness.mjs';

const { test, run } = suite();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const host = '[data-testid="preview-host"]';
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const badge = (page) => page.getByTestId('a11y-badge').locator('.count').textContent();

/** axe-core's `color-contrast` violations in the preview, as a count per part of the preview (its `data-part`). */
async function axeFindings(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  return page.evaluate(
    async ({ tags, host }) => {
      const result = await window.axe.run({ include: [[host]] }, { runOnly: { type: 'tag', values: tags }, elementRef: true });
      const byPart = {};
      for (const v of result.violations.filter((v) => v.id === 'color-contrast')) {
        for (const n of v.nodes) {
          const part = n.element.closest('[data-part]')?.getAttribute('data-part') ?? '';
          byPart[part] = (byPart[part] ?? 0) + 1;
        }
      }
      return byPart;
    },
    { tags: TAGS, host },
  );
}

/** The check's findings measured in the preview's texts, as a count per part, read from the findings panel. */
function checkFindings(page) {
  return page.getByTestId('a11y-findings').or(page.getByTestId('a11y-none')).first().evaluate((list) => {
    const byPart = {};
    for (const li of list.querySelectorAll('li[data-count]')) {
      const part = li.dataset.previewPart ?? '';
      byPart[part] = (byPart[part] ?? 0) + Number(li.dataset.count);
    }
    return byPart;
  });
}

const sorted = (byPart) => Object.fromEntries(Object.entries(byPart).sort(([a], [b]) => a.localeCompare(b)));
const total = (byPart) => Object.values(byPart).reduce((s, n) => s + n, 0);

/** Waits until the preview has settled and the check agrees with axe-core; returns what both found. axe-core leaves
 * a text it cannot see on the screen undecided (the preview scrolls in its pane), so the window is made as tall as
 * the preview first, as a person would scroll through all of it. */
async function agree(page, what) {
  const height = await page.locator(host).evaluate((e) => Math.ceil(e.getBoundingClientRect().bottom + e.scrollHeight));
  await page.setViewportSize({ width: 1600, height: Math.max(1000, Math.min(height, 8000)) });
  let last = null;
  await until(`the check and axe-core to find the same texts ${what}`, async () => {
    const [axe, check] = [sorted(await axeFindings(page)), sorted(await checkFindings(page))];
    last = { axe, check };
    return JSON.stringify(axe) === JSON.stringify(check);
  }).catch((e) => {
    throw new Error(`${e.message}; axe-core: ${JSON.stringify(last?.axe)}, the check: ${JSON.stringify(last?.check)}`);
  });
  return last.axe;
}

test('opens the demo configuration with real results and the accessibility panel', async ({ page, server }) => {
  await page.goto(server.url + '/');
  await page.locator('#token-input').fill(server.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await until('ten results in the preview', async () => (await page.locator(`${host} [data-testid="result"]`).count()) === 10);
  await page.getByTestId('a11y-badge').click();
});

test('the demo configuration: neither the check nor axe-core finds a text short of contrast', async ({ page }) => {
  // Sentiment chips, dates, counts and facet titles drawn: the faded texts are all there to be measured.
  await until('sentiment chips in the results', async () => (await page.locator(`${host} [data-testid="sentiment"]`).count()) > 0);
  const found = await agree(page, 'on the demo configuration');
  assertEqual(found, {}, 'color-contrast violations on the demo configuration');
  assertEqual(await badge(page), '0', 'the header’s badge');
});

test('grey text that passes at full strength but not where it is faded: the same findings, part by part', async ({ page }) => {
  await tab(page, 'Layout');
  // #6b6b6b on white is 5.3:1 and #707070 on the panel's #f5f7fa 4.6:1, both enough as set; the result count, the
  // dates, the facet titles and the value counts are drawn fainter than that.
  await page.locator('#f-config-layout-documents-fontColor').fill('#6b6b6b');
  await page.locator('#f-config-layout-facets-fontColor').fill('#707070');
  await until('the colours in the preview', () =>
    page.locator(`${host} .sa-count`).evaluate((e) => getComputedStyle(e).color === 'rgb(107, 107, 107)'));
  const found = await agree(page, 'on faded grey text');
  assertEqual(total(found) > 0, true, `violations found (${JSON.stringify(found)})`);
  for (const part of ['result-count', 'facet']) assertEqual(part in found, true, `a finding in the part “${part}” (${JSON.stringify(found)})`);
  const count = Number(await badge(page));
  assertEqual(count >= Object.keys(found).length, true, `the badge (${count}) counts them`);
  const text = await page.getByTestId('a11y-findings').locator('li[data-preview-part="result-count"]').first().textContent();
  assertEqual(/at 80 % opacity\): [0-9.]+:1, needs 4\.5:1\. Change “Documents text” or “Documents background”/.test(text), true, `the finding says how the count is drawn and what fixes it (${text})`);
  await page.getByRole('button', { name: 'Discard' }).click();
  await until('the demo colours back', async () => (await badge(page)) === '0');
});

/** Runs this part: its own `studio serve` with the demo data and one page, where axe may be injected (the
 * server's policy allows no inline script: it is set aside for this page). */
export const runContrast = (browser) => runWithServer(run, browser, { page: { bypassCSP: true } });

await runAlone(import.meta, 'contrast', runContrast);
