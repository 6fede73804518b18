import { expect, test } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import Preview from './Preview.svelte';
import { FakeBackend, template } from '../../test/fakeBackend';

test('the preview lives in its own shadow root and switches widths', async () => {
  const backend = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  const config = { ...template().config, title: 'News', searchSpace: 'demo' };
  render(Preview, { props: { backend, configId: 1, config, fields: [] } });
  const host = screen.getByTestId('preview-host');
  expect(document.querySelector('.sa-navbar')).toBeNull();
  await waitFor(() => expect(host.shadowRoot!.querySelectorAll('[data-testid="result"]').length).toBe(10));
  expect(host.shadowRoot!.querySelector('.sa-title')!.textContent).toBe('News');
  expect(host.style.width).toBe('1280px');
  await fireEvent.click(screen.getByLabelText(/Phone/));
  expect(host.style.width).toBe('390px');
  await fireEvent.click(screen.getByLabelText(/Tablet/));
  expect(host.style.width).toBe('768px');
});
