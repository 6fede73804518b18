import { expect, test } from 'vitest';
import { foldCount } from './fold';

// A title of 100 px, groups of 200, 150, 80 and 90 px with 12 px between, a menu button of 70 px.
const widths = [200, 150, 80, 90];
const whole = 100 + widths.reduce((s, w) => s + 12 + w, 0);

test('nothing folds while the whole row fits, not even by the menu button', () => {
  expect(foldCount(100, widths, 12, 70, whole)).toBe(0);
  expect(foldCount(100, widths, 12, 70, 5000)).toBe(0);
});

test('the last groups fold first, as few as leave room for the rest and the menu button', () => {
  // One pixel short: the last group (90) folds, and the menu button takes its place.
  expect(foldCount(100, widths, 12, 70, whole - 1)).toBe(1);
  // Without the 90 and the 80, with the button: 100 + 212 + 162 + 82 = 556.
  expect(foldCount(100, widths, 12, 70, 556)).toBe(2);
  expect(foldCount(100, widths, 12, 70, 555)).toBe(3);
});

test('in a room too small for anything every group folds', () => {
  expect(foldCount(100, widths, 12, 70, 150)).toBe(widths.length);
  expect(foldCount(100, widths, 12, 70, 0)).toBe(widths.length);
});
