import { afterEach, expect, test } from 'vitest';
import { watchPreviews } from './watch';

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

function addPreview(): ShadowRoot {
  const host = document.createElement('div');
  host.dataset.testid = 'preview-host';
  document.body.appendChild(host);
  return host.attachShadow({ mode: 'open' });
}

afterEach(() => document.body.replaceChildren());

test('a reading follows each burst of changes in a preview, and none once stopped or while nothing changes', async () => {
  const root = addPreview();
  let reads = 0;
  const stop = watchPreviews(() => reads++);
  expect(reads, 'not read while the page is being rendered').toBe(0);
  await settle();
  expect(reads, 'read once the page settled').toBe(1);
  const settled = reads;
  await settle();
  expect(reads, 'nothing changed: no reading').toBe(settled);

  for (let i = 0; i < 5; i++) root.appendChild(document.createElement('p'));
  await settle();
  expect(reads, 'five changes in a row: one reading').toBe(settled + 1);

  stop();
  root.appendChild(document.createElement('p'));
  await settle();
  expect(reads, 'stopped').toBe(settled + 1);
});

test('a preview that comes later is followed too, and read with the others', async () => {
  let reads = 0;
  let seen: ShadowRoot[] = [];
  const stop = watchPreviews((previews) => {
    reads++;
    seen = previews.map((p) => p.root);
  });
  expect(seen).toEqual([]);
  const root = addPreview();
  await settle();
  const afterArrival = reads;
  expect(afterArrival).toBeGreaterThan(0);
  expect(seen, 'the reading gets the new preview').toEqual([root]);
  root.appendChild(document.createElement('p'));
  await settle();
  expect(reads, 'a change inside the new preview').toBe(afterArrival + 1);
  stop();
});

test('a preview that gets its shadow root just before the stop is not followed after it', async () => {
  let reads = 0;
  const stop = watchPreviews(() => reads++);
  const host = document.createElement('div');
  host.dataset.testid = 'preview-host';
  document.body.appendChild(host);
  // The page's observer sees the new host before it has a shadow root, and looks again once the task is done.
  await Promise.resolve();
  const root = host.attachShadow({ mode: 'open' });
  stop();
  const stopped = reads;
  await settle();
  root.appendChild(document.createElement('p'));
  await settle();
  expect(reads, 'stopped').toBe(stopped);
});
