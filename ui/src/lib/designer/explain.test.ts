import { expect, test } from 'vitest';
import { explanationOf, explanationText } from './explain';

test('reasons are grouped by kind in the engine’s order, with their labels', () => {
  const e = explanationOf({
    explanation: {
      plugin: 'concepts',
      reasons: [
        { kind: 'concept', value: 'urn:games', label: 'Games' },
        { kind: 'broader-concept', value: 'urn:leisure', label: 'Leisure' },
        { kind: 'concept', value: 'urn:sports', label: 'Sports' },
      ],
    },
  });
  expect(e?.plugin).toBe('concepts');
  expect(explanationText(e!)).toBe('Shares the concepts “Games” and “Sports” and the broader concept “Leisure”.');
});

test('a value without a label is shown as it is; words and authors read as such', () => {
  const e = explanationOf({ explanation: { plugin: 'text', reasons: [{ kind: 'term', value: 'geothermal' }, { kind: 'author', value: 'Ana', label: '' }] } });
  expect(explanationText(e!)).toBe('Shares the word “geothermal” and the author “Ana”.');
});

test('a document without an explanation, or with a malformed one, shows none', () => {
  expect(explanationOf({ id: 'x' })).toBeNull();
  expect(explanationOf({ explanation: { plugin: 3, reasons: [] } })).toBeNull();
  expect(explanationOf({ explanation: { plugin: 'concepts', reasons: 'no' } })).toBeNull();
  expect(explanationOf(null)).toBeNull();
});
