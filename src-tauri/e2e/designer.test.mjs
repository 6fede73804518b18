// End to end on the real desktop binary: the designer's tools in the real WebKit window, driven by the real pointer
// and keyboard. Inspect opens the field behind a part of the preview; Compare shows the draft next to the published
// version and keeps both in step over a query typed into one of them.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntil } from './webdriver.mjs';
import { cli, openApp, openDriver, saveShot, stopAll, tempDir, test } from './support.mjs';

after(stopAll);

/** The centre of the first element matching `css` in the preview host `hostCss`, in viewport coordinates. */
function centreOf(session, css, hostCss = '[data-testid=preview-host]') {
  return session.execute(`
    const host = document.querySelector(arguments[1]);
    const el = host && host.shadowRoot && host.shadowRoot.querySelector(arguments[0]);
    if (!el) return null;
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    return { x: r.left + Math.min(r.width / 2, 40), y: r.top + r.height / 2 };`, [css, hostCss]);
}

const focusedId = (session) => session.execute('return document.activeElement ? document.activeElement.id : "";');
const selectedTab = (session) => session.execute(`return document.querySelector('[role=tab][aria-selected=true]').textContent.trim();`);
const inHost = (session, hostCss, script) =>
  session.execute(`const root = document.querySelector(arguments[0]).shadowRoot; ${script}`, [hostCss]);

test('inspect and compare in the real window', async () => {
  const dir = tempDir('studio-designer-');
  cli(dir, 'demo-data');
  const driver = await openDriver(dir);
  const session = await openApp(driver);
  try {
    await session.setWindowRect({ width: 1600, height: 1000 });
    await waitUntil(
      () => session.execute(`return document.querySelector('[data-testid=preview-host]')?.shadowRoot?.querySelectorAll('[data-testid=result]').length ?? 0;`),
      'the preview to show results',
    );

    // Inspect: the pointer over the navbar names its settings; a click opens the navbar colour.
    await session.click(await session.waitFor("//button[normalize-space(.)='Inspect']"));
    let navbar = null;
    const named = await waitUntil(async () => {
      // Pointed at again each time, in case the layout moved under the pointer.
      navbar = await centreOf(session, '.sa-title');
      await session.pointAt(navbar.x, navbar.y);
      const text = await session.execute(`return document.querySelector('[data-testid=inspect-box]')?.textContent ?? '';`);
      return text.includes('Title') ? text : null;
    }, 'the title to be highlighted with its settings');
    assert.match(named, /Navbar background/);
    await saveShot(session, 'designer-inspect');
    await session.pointAt(navbar.x, navbar.y, true);
    await waitUntil(async () => (await focusedId(session)) === 'f-config-title', 'the title field to have the focus');
    assert.match(await selectedTab(session), /^General/);

    // A facet group opens its own item in the Facets pane.
    const topic = await centreOf(session, '[data-facet="Topic"] .sa-facet-title');
    const index = await session.execute(`return document.querySelector('[data-testid=preview-host]').shadowRoot.querySelector('[data-facet="Topic"]').getAttribute('data-index');`);
    await session.pointAt(topic.x, topic.y, true);
    await waitUntil(async () => (await focusedId(session)) === `f-config-filter-facetsToShow-${index}-title`, 'Topic’s title field to have the focus');
    assert.match(await selectedTab(session), /^Facets/);
    await session.click(await session.waitFor("//button[normalize-space(.)='Inspect']"));

    // Compare: an unsaved navbar colour next to the published one; a query typed on one side reaches the other.
    await session.click(await session.waitFor("//button[@role='tab'][starts-with(normalize-space(.), 'Layout')]"));
    await session.type(await session.waitFor("//input[@id='f-config-layout-navbar-backgroundColor']"), '#aa3300');
    await session.click(await session.waitFor("//button[normalize-space(.)='Compare']"));
    const theirs = '[data-testid=compare-theirs] [data-testid=preview-host]';
    const mine = '[data-testid=compare-mine] [data-testid=preview-host]';
    const navbars = () =>
      session.execute(`return [arguments[0], arguments[1]].map((h) => {
        const bar = document.querySelector(h)?.shadowRoot?.querySelector('.sa-navbar');
        return bar ? getComputedStyle(bar).backgroundColor : null; });`, [theirs, mine]);
    const [published, edited] = await waitUntil(async () => {
      const both = await navbars();
      return both[0] && both[1] ? both : null;
    }, 'both previews to render');
    assert.equal(edited, 'rgb(170, 51, 0)');
    assert.notEqual(published, edited);
    // The pointer goes to the search box once the layout has settled: clicked until the box has the focus.
    await waitUntil(async () => {
      const query = await centreOf(session, '#sa-query', theirs);
      await session.pointAt(query.x, query.y, true);
      return inHost(session, theirs, `return root.activeElement?.id === 'sa-query';`);
    }, 'the search box of the published side to take the focus');
    await session.keys('energy');
    const count = (host) => inHost(session, host, `return root.querySelector('[data-testid=result-count]')?.textContent ?? '';`);
    await waitUntil(async () => {
      const value = await inHost(session, mine, `return root.querySelector('#sa-query').value;`);
      const [a, b] = [await count(theirs), await count(mine)];
      return value === 'energy' && a === b && a !== '' && a !== '2,400 results';
    }, 'the query to reach the other side with the same results');
    await saveShot(session, 'designer-compare');
  } finally {
    await session.end().catch(() => {});
  }
});
