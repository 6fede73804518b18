// Security (docs/security.md): whatever a configuration or a search result holds, the preview shows it as
// text. Markup in a title, logo, facet or detail title, document title, description or refiner label never
// becomes elements, and no `javascript:` URL becomes a link or an image source, so no script of theirs runs.
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import SearchApp from './SearchApp.svelte';
import { FakeBackend, template } from '../../test/fakeBackend';
import { newFacet } from '../panes/items';
import type { Config } from '../types/generated';

const attack = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const fields = [{ field: 'dyn_lit_author', label: 'Author', uri: 'urn:field:dyn_lit_author', kind: 'literal' as const }];

declare global {
  interface Window { __pwned?: number }
}

afterEach(() => {
  cleanup();
  delete window.__pwned;
});

function hostile(logo: string): Config {
  const c = template().config;
  c.title = attack;
  c.searchSpace = 'demo';
  c.layout.logo = logo;
  c.filter.facetsToShow = [{ ...newFacet('dyn_lit_author', attack) }];
  c.details.detailsToShow = [{ uri: 'urn:field:dyn_lit_author', title: attack, show: true, refId: 'urn:field:dyn_lit_author' }];
  return c;
}

function hostileBackend(): FakeBackend {
  const backend = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  for (const doc of backend.docs) {
    doc.title = attack;
    doc.description = `${attack} javascript:alert(1)`;
    doc.link = 'javascript:window.__pwned=3';
    doc.image = 'javascript:window.__pwned=4';
    doc.facetList[0].facets[0].label = attack;
  }
  return backend;
}

/** No element that the hostile strings could have made exists, and no script set the flag. */
function expectInert(root: ParentNode) {
  expect(root.querySelector('script')).toBeNull();
  expect(root.querySelector('img[src="x"]')).toBeNull();
  expect(root.querySelector('[onerror]')).toBeNull();
  expect(root.querySelector('[href^="javascript:" i], [src^="javascript:" i]')).toBeNull();
  expect(window.__pwned).toBeUndefined();
}

async function show(config: Config, backend: FakeBackend) {
  const view = render(SearchApp, { props: { backend, configId: 1, config, fields } });
  await waitFor(() => expect(screen.queryAllByTestId('result').length).toBeGreaterThan(0));
  return view;
}

describe('the preview never renders configuration or result content as markup', () => {
  for (const logo of ['javascript:window.__pwned=5', attack, 'data:text/html,<script>window.__pwned=6</script>']) {
    test(`title, facet titles, results and the logo ${JSON.stringify(logo.slice(0, 16))} stay text`, async () => {
      const { container } = await show(hostile(logo), hostileBackend());
      expect(container.querySelector('.sa-title')!.textContent).toBe(attack);
      expect(container.querySelector('.sa-logo')).toBeNull();
      expect(screen.getAllByText(attack).length).toBeGreaterThan(1);
      const first = screen.getAllByTestId('result')[0];
      expect(within(first).getAllByRole('button', { name: attack }).length).toBeGreaterThan(0);
      expect(within(first).queryByRole('link')).toBeNull();
      expectInert(container);
    });
  }

  test('a title action "link" with a javascript: URL is not a link', async () => {
    const config = hostile('');
    config.result.titleAction = 'link';
    const { container } = await show(config, hostileBackend());
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expectInert(container);
  });

  test('the detail view shows hostile text, field titles and links inertly', async () => {
    const { container } = await show(hostile(''), hostileBackend());
    await fireEvent.click(within(screen.getAllByTestId('result')[0]).getAllByRole('button', { name: attack })[0]);
    const detail = await screen.findByTestId('detail-view');
    expect(within(detail).getByRole('heading', { name: attack })).toBeTruthy();
    expect(within(detail).getByText(attack, { selector: 'dt' })).toBeTruthy();
    expect(screen.getByTestId('detail-text').textContent).toContain(attack);
    expectInert(container);
  });

  test('a safe logo is still shown, as an image only', async () => {
    const { container } = await show(hostile('https://example.org/logo.png'), hostileBackend());
    const logo = container.querySelector('.sa-logo') as HTMLImageElement;
    expect(logo.tagName).toBe('IMG');
    expect(logo.getAttribute('src')).toBe('https://example.org/logo.png');
    expectInert(container);
  });
});
