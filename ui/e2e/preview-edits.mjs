// The preview's answer to a settings edit, timed as a designer sees it (`studio-bench --preview`,
// docs/performance.md): the built web UI in headless Chromium against a server that the benchmark started, with
// the configuration to edit already active, showing PER_PAGE results. Each timed edit raises "Results per page"
// by one (to PER_PAGE + 1) and ends when the frame showing that many results is painted; an untimed edit sets it
// back. Lowering the number would not do: the preview cuts the results it has at once, before any answer.
// Usage: node e2e/preview-edits.mjs --url URL --token TOKEN --per-page PER_PAGE [--edits N] [--query WORDS]
// With PREVIEW_EDITS_TRACE=1 every request the page makes is printed to standard error with its time.
// Prints one JSON line: {"opened_ms": [...], "opened_engine_ms": [...], "query_ms": [...], "query_engine_ms": [...]},
// the edits of the preview as opened (no query) and, with --query, after that query was searched in the preview;
// the *_engine_ms are the engine's own time of each edit's search, from the message of its answer.
import { parseArgs } from 'node:util';
import { launch, until } from './harness.mjs';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    token: { type: 'string' },
    'per-page': { type: 'string' },
    edits: { type: 'string', default: '40' },
    query: { type: 'string' },
  },
});
const perPage = Number.parseInt(values['per-page'] ?? '', 10);
if (!values.url || !values.token || !(perPage >= 1)) {
  console.error('usage: node e2e/preview-edits.mjs --url URL --token TOKEN --per-page PER_PAGE [--edits N] [--query WORDS]');
  process.exit(2);
}
const edits = Math.max(1, Number.parseInt(values.edits, 10) || 40);
const FIELD = '#f-config-result-itemsPerPage';
const host = '[data-testid="preview-host"]';

/** Sets "Results per page" to `perPage` as typing does and resolves, in ms, once the preview shows that many. */
function edit(page, perPage) {
  return page.evaluate(
    async ({ field, host, perPage }) => {
      const input = document.querySelector(field);
      const root = document.querySelector(host).shadowRoot;
      const shown = () => root.querySelectorAll('[data-testid="result"]').length === perPage && !root.querySelector('.sa-loading');
      const started = performance.now();
      input.value = String(perPage);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve, reject) => {
        const observer = new MutationObserver(() => shown() && done());
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the preview did not show ${perPage} results within 60 s`));
        }, 60000);
        const done = () => {
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        };
        observer.observe(root, { childList: true, subtree: true, characterData: true });
        if (shown()) done();
      });
      // The frame that paints it: a task queued from its animation-frame callback runs once that frame is painted.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - started;
    },
    { field: FIELD, host, perPage },
  );
}

const isSearch = (r) => r.request().method() === 'POST' && r.url().endsWith('/search');

/** The engine's own time of the last search answered ("took N ms", the answer's message). */
let engineMs = null;

/**
 * `edits` timed edits (and as many untimed ones back), after one of each untimed to warm up: the times from edit
 * to shown, and the engine's part of each.
 */
async function timedEdits(page) {
  const times = [];
  const engine = [];
  for (let i = 0; i <= edits; i++) {
    engineMs = null;
    const ms = await edit(page, perPage + 1);
    if (i > 0) {
      times.push(ms);
      // The answer's body is read after the page has used it: wait for it (null if it never comes).
      await until('the engine’s time of the answer', () => engineMs !== null, 5000).catch(() => {});
      engine.push(engineMs);
    }
    // Back to PER_PAGE, shown at once by cutting; its answer must be in before the next edit, or that edit would
    // be shown from the results still held.
    const answered = page.waitForResponse(isSearch, { timeout: 60000 });
    await edit(page, perPage);
    await answered;
    await until('the answer shown', async () => (await page.locator(`${host} .sa-loading`).count()) === 0, 60000);
  }
  return [times, engine];
}

const { browser, close } = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(60000);
  await page.goto(values.url + '/');
  await page.locator('#token-input').fill(values.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  const results = page.locator(`${host} [data-testid="result"]`);
  await until('the preview’s first results', async () => (await results.count()) > 0, 120000);
  await page.getByRole('tab', { name: /^Result list/ }).click();
  await until(`“Results per page” at ${perPage}`, async () => (await page.locator(FIELD).inputValue()) === String(perPage), 10000);
  if (process.env.PREVIEW_EDITS_TRACE) {
    page.on('requestfinished', async (r) => {
      const t = r.timing();
      console.error(`${r.method()} ${r.url()} ${Math.round(t.responseEnd)} ms`);
    });
  }
  page.on('response', async (r) => {
    if (!isSearch(r)) return;
    const took = /took (\d+) ms/.exec((await r.json().catch(() => ({}))).message ?? '');
    if (took) engineMs = Number(took[1]);
  });
  const out = {};
  [out.opened_ms, out.opened_engine_ms] = await timedEdits(page);
  if (values.query) {
    const answered = page.waitForResponse(isSearch, { timeout: 120000 });
    await page.locator(`${host} #sa-query`).fill(values.query);
    await page.locator(`${host} #sa-query`).press('Enter');
    await answered;
    await until('the query’s results', async () => (await page.locator(`${host} .sa-loading`).count()) === 0, 120000);
    [out.query_ms, out.query_engine_ms] = await timedEdits(page);
  }
  console.log(JSON.stringify(out));
} finally {
  await close();
}
