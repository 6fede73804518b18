// A part loaded when first shown: shown once its chunk is there, and a clear alert (never a blank place) when the
// chunk cannot be loaded, with a way to try again and to close the dialog it would have been.
import { expect, test } from 'vitest';
import type { ComponentProps } from 'svelte';
import { fireEvent, render, screen } from '@testing-library/svelte';
import Lazy from './Lazy.svelte';
import { part } from './part.svelte';
import type FindingsPanel from '../designer/FindingsPanel.svelte';

const FETCH_FAILED = 'Failed to fetch dynamically imported module: tauri://localhost/assets/FindingsPanel-x.js';

test('a part whose chunk cannot be loaded says which part and offers to try again', async () => {
  let attempts = 0;
  const panel = part('accessibility panel', (): Promise<{ default: typeof FindingsPanel }> => {
    attempts++;
    return attempts === 1 ? Promise.reject(new TypeError(FETCH_FAILED)) : import('../designer/FindingsPanel.svelte');
  });
  let closed = 0;
  render(Lazy<ComponentProps<typeof FindingsPanel>>, {
    props: { part: panel, props: { findings: [], onReveal: () => undefined, onClose: () => undefined }, onDismiss: () => closed++ },
  });

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('The accessibility panel could not be loaded');
  expect(alert.textContent).toContain(FETCH_FAILED);
  await fireEvent.click(screen.getByRole('button', { name: 'Close' }));
  expect(closed).toBe(1);

  await fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByLabelText('Show the preview with')).toBeTruthy();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(attempts).toBe(2);
});
