import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import LayoutPane from './LayoutPane.svelte';
import DetailsPane from './DetailsPane.svelte';
import FacetsPane from './FacetsPane.svelte';
import { Draft } from '../editor/draft.svelte';
import { FakeBackend, template } from '../../test/fakeBackend';
import { checkLogo } from '../editor/rules';

function draft() {
  const t = template();
  return new Draft({ ...t, id: 1, config: { ...t.config, title: 'News', searchSpace: 'demo' } });
}

describe('Layout pane: logo', () => {
  test('an image file becomes a data URI shown as an image; a file over 512 KiB is refused', async () => {
    const d = draft();
    render(LayoutPane, { props: { draft: d } });
    const input = screen.getByLabelText(/Image file/) as HTMLInputElement;
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' });
    await fireEvent.change(input, { target: { files: [svg] } });
    await waitFor(() => expect(String(d.get('config.layout.logo'))).toMatch(/^data:image\/svg\+xml;base64,/));
    expect(screen.getByAltText('Current logo').getAttribute('src')).toBe(d.get('config.layout.logo'));

    const big = new File([new Uint8Array(600 * 1024)], 'big.png', { type: 'image/png' });
    await fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText(/big.png makes a data URI of \d+ KiB; at most 512 KiB/)).toBeTruthy();
    expect(String(d.get('config.layout.logo'))).toMatch(/^data:image\/svg/);

    const text = new File(['hi'], 'notes.txt', { type: 'text/plain' });
    await fireEvent.change(input, { target: { files: [text] } });
    expect(await screen.findByText('notes.txt is not a PNG, JPEG, GIF, WebP or SVG image.')).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: 'Remove logo' }));
    expect(d.get('config.layout.logo')).toBe('');
    await fireEvent.input(screen.getByLabelText('Or an image URL'), { target: { value: 'javascript:alert(1)' } });
    expect(screen.getByText('must be empty, an http(s) URL or a data:image URI')).toBeTruthy();
  });

  test('the picker offers and takes exactly the image types the server accepts as a logo', async () => {
    const d = draft();
    render(LayoutPane, { props: { draft: d } });
    const input = screen.getByLabelText('Image file (PNG, JPEG, GIF, WebP or SVG, up to 512 KiB)') as HTMLInputElement;
    const offered = input.accept.split(',');
    const types = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'image/bmp', 'image/tiff', 'image/x-icon', 'text/html'];
    for (const type of types) {
      const accepted = checkLogo(`data:${type};base64,AAAA`) === null;
      expect(offered.includes(type), type).toBe(accepted);
      d.set('config.layout.logo', '');
      await fireEvent.change(input, { target: { files: [new File(['AAAA'], 'logo.img', { type })] } });
      if (accepted) await waitFor(() => expect(String(d.get('config.layout.logo')), type).toMatch(new RegExp(`^data:${type.replace('+', '\\+')};base64,`)));
      else expect(await screen.findByText(/^logo.img is not a /), type).toBeTruthy();
    }
  });
});

describe('Detail view pane', () => {
  test('details are chosen from the search space’s fields, and the recommender from the plugins', async () => {
    const d = draft();
    const spaces = await new FakeBackend().searchSpaces();
    render(DetailsPane, { props: { draft: d, spaces } });
    await fireEvent.click(screen.getByRole('checkbox', { name: /Author/ }));
    await fireEvent.click(screen.getByRole('checkbox', { name: /Topic/ }));
    expect(d.get('config.details.detailsToShow')).toEqual([
      { uri: 'dyn_lit_author', title: 'Author', show: true, refId: 'dyn_lit_author' },
      { uri: 'dyn_uri_topic', title: 'Topic', show: true, refId: 'dyn_uri_topic' },
    ]);
    await fireEvent.click(screen.getByRole('button', { name: 'Move Topic up' }));
    expect((d.get('config.details.detailsToShow') as { uri: string }[]).map((x) => x.uri)).toEqual(['dyn_uri_topic', 'dyn_lit_author']);
    const recommender = screen.getByLabelText('Recommender') as HTMLSelectElement;
    expect([...recommender.options].map((o) => o.value)).toEqual(['', 'related-concepts', 'same-author']);
    await fireEvent.change(recommender, { target: { value: 'same-author' } });
    expect(d.get('config.details.recommender')).toBe('same-author');
    await fireEvent.click(screen.getByLabelText(/Highlight the document’s concepts/));
    expect(d.get('config.details.showConceptHighlighting')).toBe(true);
  });
});

describe('Facets pane', () => {
  test('a field not loaded here can be added by name, and the filter panel order edited', async () => {
    const d = draft();
    render(FacetsPane, { props: { draft: d, spaces: [] } });
    await fireEvent.input(screen.getByLabelText(/Or a field by id or URI/), { target: { value: 'https://example.org/vocab/sector' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(d.get('config.filter.facetsToShow.0.uri')).toBe('https://example.org/vocab/sector');
    expect(d.get('config.filter.facetsToShow.0.refId')).toBe('https://example.org/vocab/sector');
    expect(screen.getByText(/not loaded here/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Move Reset button up' }));
    expect(d.get('config.filter.componentOrder')).toEqual(['search', 'reset', 'facets']);
    await fireEvent.click(screen.getByRole('button', { name: 'Remove Search box from the panel' }));
    expect(d.get('config.filter.componentOrder')).toEqual(['reset', 'facets']);
    await fireEvent.click(screen.getByRole('button', { name: 'Add search box' }));
    expect(d.get('config.filter.componentOrder')).toEqual(['reset', 'facets', 'search']);
    // Editing a facet's field keeps refId following it.
    await fireEvent.input(screen.getByLabelText('Field (id or URI)'), { target: { value: 'dyn_lit_sector' } });
    expect(d.get('config.filter.facetsToShow.0.refId')).toBe('dyn_lit_sector');
    expect(screen.getByLabelText('Field (id or URI)')).toBeTruthy();
  });
});
