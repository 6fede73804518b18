import { describe, expect, it } from 'vitest';
import { formatCount, formatDate } from './format';

describe('formatting for the preview', () => {
  const date = Date.UTC(2024, 2, 9, 14, 30);

  it('writes each named date format as the platform locale does, whichever was written before', () => {
    for (const [format, options] of [
      ['shortDate', { dateStyle: 'short' }],
      ['fullDate', { dateStyle: 'full' }],
      ['long', { dateStyle: 'long', timeStyle: 'long' }],
      ['shortDate', { dateStyle: 'short' }],
    ] as const) {
      expect(formatDate(date, format)).toBe(new Intl.DateTimeFormat(undefined, options).format(date));
    }
    expect(formatDate(date, 'shortDate', 'de-DE')).toBe('09.03.24');
    expect(formatDate(date, 'shortDate', 'en-US')).toBe('3/9/24');
  });

  it('takes an unknown format as medium, and an unrepresentable date as no text', () => {
    expect(formatDate(date, 'sometime')).toBe(formatDate(date, 'medium'));
    expect(formatDate(date, 'toString')).toBe(formatDate(date, 'medium'));
    expect(formatDate(8.64e15 + 1, 'medium')).toBe('');
    expect(formatDate(date, 'medium', 'not a locale!')).toBe('');
  });

  it('groups the digits of counts as toLocaleString does', () => {
    for (const n of [0, 7, 1234, 1234567]) expect(formatCount(n)).toBe(n.toLocaleString());
    expect(formatCount('98765')).toBe((98765).toLocaleString());
    expect(formatCount(1234567, 'de-DE')).toBe('1.234.567');
  });
});
