// End to end on the real desktop binary: the preview's zoom and full window in the real WebKit window, driven by
// the real pointer and keyboard. "100%" draws the preview's text at its own size (WebKit scales with a transform,
// as Chromium does), Ctrl+- steps down, Ctrl+0 returns to actual size, and Full window covers the window until
// Esc. In a narrower window the toolbar keeps one row, and Full window is reached through its "More" menu.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntil } from './webdriver.mjs';
import { cli, openApp, openDriver, saveShot, stopAll, tempDir, test } from './support.mjs';

after(stopAll);

const CTRL = '\uE009';
const ESCAPE = '\uE00C';

/** Presses `key` with Ctrl held, as one chord of real key presses. */
function chord(session, key) {
  const actions = [
    { type: 'keyDown', value: CTRL },
    { type: 'keyDown', value: key },
    { type: 'keyUp', value: key },
    { type: 'keyUp', value: CTRL },
  ];
  return session.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
}

const zoomValue = (session) => session.execute(`return document.querySelector('select[aria-label="Zoom"]').value;`);
/** A result summary's font size as drawn: its computed size through the preview's scale, and its own. */
const textSize = (session) =>
  session.execute(`
    const host = document.querySelector('#preview [data-testid=preview-host]');
    const p = host.shadowRoot.querySelector('.sa-summary, [data-part="summary"], .sa-result p');
    const own = parseFloat(getComputedStyle(p).fontSize);
    return { own, drawn: own * host.getBoundingClientRect().width / host.offsetWidth };`);
const MORE = "//div[contains(@class,'preview-bar')]//button[@aria-expanded and starts-with(normalize-space(.),'More')]";
/** Whether the toolbar's button `name` is on the toolbar's row (not folded into its menu). */
const onRow = (session, name) =>
  session.execute(
    `return [...document.querySelectorAll('.preview-bar > [data-group] button')].some((b) => b.textContent.trim() === arguments[0]);`,
    [name],
  );
const frameWidth = (session) =>
  session.execute(`return document.querySelector('#preview [data-testid=preview-frame]').getBoundingClientRect().width;`);

test('zoom and full window in the real window', async () => {
  const dir = tempDir('studio-canvas-');
  cli(dir, 'demo-data');
  const driver = await openDriver(dir);
  const session = await openApp(driver);
  await session.setWindowRect({ width: 1280, height: 800 });
  await waitUntil(
    () => session.execute(`return document.querySelector('[data-testid=preview-host]')?.shadowRoot?.querySelectorAll('[data-testid=result]').length ?? 0;`),
    'the preview to show results',
  );
  // WebKit keeps the page's storage beside the app's identifier, not in the data directory, so an earlier run's
  // zoom may be remembered: the test starts from Fit, chosen as a person would.
  await session.execute(`
    const zoom = document.querySelector('select[aria-label="Zoom"]');
    zoom.value = 'fit';
    zoom.dispatchEvent(new Event('change', { bubbles: true }));
    return true;`);
  await waitUntil(async () => (await zoomValue(session)) === 'fit', 'the zoom at Fit');
  const fit = await textSize(session);
  assert.ok(fit.drawn < fit.own - 2, `at Fit the text is drawn smaller (${fit.drawn} px)`);

  // Keys while the preview has the focus: Ctrl+0 is actual size, Ctrl+- one step down.
  await session.execute(`document.querySelector('#preview [data-testid=preview-frame]').focus(); return true;`);
  await chord(session, '0');
  await waitUntil(async () => (await zoomValue(session)) === '1', 'Ctrl+0 to choose 100%');
  const actual = await textSize(session);
  assert.ok(Math.abs(actual.drawn - actual.own) < 0.01, `at 100% the text is drawn at its own size (${actual.drawn} of ${actual.own} px)`);
  await chord(session, '-');
  await waitUntil(async () => (await zoomValue(session)) === '0.9', 'Ctrl+- to step down');

  const inPane = await frameWidth(session);
  await session.click(await session.waitFor("//button[normalize-space(.)='Full window']"));
  await waitUntil(async () => (await frameWidth(session)) > inPane + 400, 'the preview to cover the window');
  await saveShot(session, 'desktop-full-window');
  await session.keys(ESCAPE);
  await waitUntil(async () => Math.abs((await frameWidth(session)) - inPane) < 2, 'Esc to put the preview back in its pane');

  // At 1024 px the toolbar folds what does not fit into "More": Full window from the menu, clicked by the pointer.
  await session.setWindowRect({ width: 1024, height: 768 });
  await waitUntil(async () => !(await onRow(session, 'Full window')), 'Full window to fold into the menu');
  const narrowPane = await frameWidth(session);
  await session.click(await session.waitFor(MORE, 'the toolbar’s “More” button'));
  await session.click(await session.waitFor("//*[@role='group'][@aria-label='More preview controls']//button[normalize-space(.)='Full window']"));
  await waitUntil(async () => (await session.execute(`return !!document.querySelector('#preview.full-window');`)), 'Full window from the menu');
  await session.keys(ESCAPE);
  await waitUntil(async () => Math.abs((await frameWidth(session)) - narrowPane) < 2, 'Esc to put the preview back in its pane');
  // The zoom chosen here would otherwise open the next test's preview at 90 % (when WebKit writes its storage to
  // disk before the app is ended: hence the reset at the start too).
  await session.execute(`localStorage.removeItem('search-studio.preview-layout'); return true;`);
});
