// End to end on the real desktop binary: an edit is autosaved as a draft in the local store, the app process
// is killed (SIGKILL, no chance to save anything), and the relaunched app offers the draft back.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntil } from './webdriver.mjs';
import { inputValue, openApp, openDriver, seed, stopAll, stored, tempDir, test } from './support.mjs';
import { appPids } from './windows.mjs';

after(stopAll);

test('an edit survives a kill of the app: the relaunched app offers the draft back', async () => {
  const dir = tempDir('studio-drafts-');
  seed(dir, 'Harbour Search');

  const first = await openDriver(dir);
  const session = await openApp(first);
  await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Harbour Search')]", 'the stored configuration');
  await session.type(await session.waitFor("//input[@id='f-config-title']"), 'Harbour Search, edited on the train');
  await session.waitFor("//*[contains(normalize-space(.), 'Unsaved changes')]", 'the edit to be marked unsaved');
  // Autosave runs 400 ms after the last edit; the issue allows losing at most about a second.
  await new Promise((r) => setTimeout(r, 1000));
  const pids = appPids(first);
  assert.ok(pids.length > 0, 'the app process was found');
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await session.end().catch(() => {});
  first.kill();

  const second = await openDriver(dir);
  const again = await openApp(second);
  try {
    await again.waitFor("//*[@data-testid='draft-offer']", 'the draft to be offered back');
    await again.waitFor("//input[@id='f-config-title']", 'the title field');
    assert.equal(await inputValue(again, 'f-config-title'), 'Harbour Search');
    await again.click(await again.waitFor("//*[@data-testid='draft-offer']//button[normalize-space(.)='Restore draft']"));
    await waitUntil(
      async () => (await inputValue(again, 'f-config-title')) === 'Harbour Search, edited on the train',
      'the restored draft in the title field',
    );
    assert.equal(stored(dir, 1).config.title, 'Harbour Search', 'the draft was never published by itself');
  } finally {
    await again.end().catch(() => {});
    second.kill();
  }
});
