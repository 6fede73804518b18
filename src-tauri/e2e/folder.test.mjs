// End to end on the real desktop binary: a folder of configuration files as the workspace, remembered in the
// preferences file as the app remembers it. The file is the configuration in the editor, with the preview's results
// from the local store's demo data; a save writes the file in the stable layout, byte for byte; a change made on disk
// shows in the editor; and a change on disk that meets an unsaved edit shows both, the designer's choice wins and
// the other side's changes are kept. Then "Plan and apply…" to the local store shows a create, Apply writes it there,
// and a second plan has nothing to do.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './webdriver.mjs';
import { inputValue, openApp, openDriver, stopAll, stored, tempDir, test } from './support.mjs';

after(stopAll);

/** A configuration file's text in the stable layout: what the app renders, keys in the order they stand. */
const stable = (body) => `${JSON.stringify(body, null, 2)}\n`;
const TITLE = "//input[@id='f-config-title']";
const SAVE = "//button[normalize-space(.)='Save'][@title='Save (Ctrl+S)']";

test('a folder is the workspace: saved as its files, changes on disk shown, an unsaved edit never lost, applied to the local store', async () => {
  const data = tempDir('studio-folder-data-');
  const folder = tempDir('studio-folder-');
  const news = join(folder, 'news.json');
  writeFileSync(news, stable({ active: true, config: { title: 'Harbour News', searchSpace: 'demo' } }));
  // The preferences as the app leaves them once a folder was opened (Settings → Connections → Open a folder…).
  const prefs = { connections: [], currentConnection: 'folder', folder: { path: folder, search: 'local' } };
  writeFileSync(join(data, 'desktop-settings.json'), JSON.stringify(prefs));
  const onDisk = () => readFileSync(news, 'utf8');

  const driver = await openDriver(data);
  const session = await openApp(driver);
  try {
    await session.waitFor("//*[@data-testid='folder-bar'][contains(., 'Preview searches')]", 'the folder workspace');
    await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Harbour News')]", 'the file in the list');
    await waitUntil(async () => (await inputValue(session, 'f-config-title')) === 'Harbour News', 'the file in the editor');
    await waitUntil(
      () => session.execute(`return document.querySelector('[data-testid=preview-host]')?.shadowRoot?.querySelectorAll('[data-testid=result]').length ?? 0;`),
      'the preview to show the local store’s results',
    );

    // Saved: the file holds the stable layout of the configuration. A second save changes exactly the title.
    await session.type(await session.waitFor(TITLE), 'Harbour News, edited');
    await session.click(await session.waitFor(SAVE));
    await waitUntil(() => JSON.parse(onDisk()).config.title === 'Harbour News, edited', 'the save to reach the file');
    const first = JSON.parse(onDisk());
    assert.deepEqual(Object.keys(first), ['$schema', 'active', 'config']);
    assert.equal(onDisk(), stable(first), 'two spaces, a final newline');
    await session.type(await session.waitFor(TITLE), 'Harbour News, saved twice');
    await session.click(await session.waitFor(SAVE));
    const expected = stable({ ...first, config: { ...first.config, title: 'Harbour News, saved twice' } });
    await waitUntil(() => onDisk() === expected, 'the second save, byte for byte');

    // A change on disk (a pull, a text editor) shows in the editor. The watcher reports it within half a second
    // (src-tauri/folder/watch.rs: 100 ms of quiet, 500 ms at most); the deadline leaves room for a busy machine, and
    // without the watcher nothing would ever show.
    writeFileSync(news, stable({ ...first, config: { ...first.config, title: 'Harbour News, pulled' } }));
    await waitUntil(async () => (await inputValue(session, 'f-config-title')) === 'Harbour News, pulled', 'the change on disk in the editor', 3000);

    // An unsaved edit meets a change on disk: both are shown; the designer keeps theirs, the file's other change stays.
    await session.type(await session.waitFor(TITLE), 'Harbour News, mine');
    await session.waitFor("//*[contains(normalize-space(.), 'Unsaved changes')]", 'the edit to be marked unsaved');
    const theirs = { ...first, config: { ...first.config, title: 'Harbour News, theirs', result: { ...first.config.result, itemsPerPage: 30 } } };
    writeFileSync(news, stable(theirs));
    const row = "//*[@data-testid='conflict-view']//tr[@data-path='config.title']";
    const shown = await session.text(await session.waitFor(row, 'both versions of the title'));
    assert.match(shown, /Harbour News, mine/);
    assert.match(shown, /Harbour News, theirs/);
    assert.equal(await inputValue(session, 'f-config-title'), 'Harbour News, mine', 'the edit is still in the editor');
    assert.equal(onDisk(), stable(theirs), 'nothing was written yet');
    await session.click(await session.waitFor(`${row}//label[contains(., 'Keep mine')]/input`));
    await session.click(await session.waitFor("//*[@data-testid='conflict-view']//button[normalize-space(.)='Save merged']"));
    const merged = stable({ ...theirs, config: { ...theirs.config, title: 'Harbour News, mine' } });
    await waitUntil(() => onDisk() === merged, 'the merged configuration in the file: my title, the file’s page size');
    assert.equal(await inputValue(session, 'f-config-title'), 'Harbour News, mine');

    // Plan and apply the folder to the local store: news.json is a create; Apply stores it; the next plan is empty.
    await session.click(await session.waitFor("//*[@data-testid='folder-plan']"));
    await session.waitFor("//*[@data-testid='plan-target']/option[@value='local']", 'the local store as a target');
    await session.execute(`const s = document.querySelector('[data-testid=plan-target]'); s.value = 'local'; s.dispatchEvent(new Event('change', { bubbles: true }));`);
    await session.waitFor("//*[@data-testid='plan-items']/li[@data-action='create'][@data-key='news']", 'the plan to create news');
    await session.click(await session.waitFor("//button[@data-testid='plan-apply'][not(@disabled)]", 'Apply'));
    const created = await session.text(await session.waitFor("//*[@data-testid='plan-done']//li[starts-with(., 'created news')]", 'what Apply did'));
    const id = Number(/as id (\d+)/.exec(created)[1]);
    assert.equal(stored(data, id).config.title, 'Harbour News, mine', 'the local store has the configuration');
    await session.waitFor("//*[@data-testid='plan-summary'][starts-with(normalize-space(.), 'Nothing to do')]", 'a second plan with nothing to do');
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});
