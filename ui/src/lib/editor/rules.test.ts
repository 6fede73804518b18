// The editor applies the rule table generated from crates/model. The cases both languages must satisfy are in
// crates/model/cases/validation.json, read here and by crates/model/tests/merge.rs; what follows them is the
// client's own helpers.
import { describe, expect, test } from 'vitest';
import { checkLogo, isHexColour, ruleAt, validateConfig } from './rules';
import { MAX_LOGO_BYTES } from '../types/generated';
import validationFile from '../../../../crates/model/cases/validation.json';

const keys = (config: unknown) => validateConfig(config).map((e) => e.key).sort();

interface ValidationCase {
  name: string;
  config: unknown;
  refused: string[];
  messages?: Record<string, string>;
}

describe('the shared validation cases (crates/model/cases/validation.json)', () => {
  for (const c of validationFile.cases as ValidationCase[]) {
    test(c.name, () => {
      expect(keys(c.config)).toEqual(c.refused);
      const errors = validateConfig(c.config);
      expect(errors.every((e) => e.message.length > 0)).toBe(true);
      for (const [key, message] of Object.entries(c.messages ?? {})) {
        expect(errors.find((e) => e.key === key)?.message).toBe(message);
      }
    });
  }
});

describe('the client rules', () => {
  test('colours of every written form are accepted and others refused', () => {
    for (const ok of ['#fff', '#FFFA', '#1565c0', '#1565C0ff']) expect(isHexColour(ok)).toBe(true);
    for (const bad of ['fff', '#ff', '#fffff', '#ggg', '#1565c0f', '', 'red', '# fff']) expect(isHexColour(bad)).toBe(false);
  });

  test('logos are URLs or small image data URIs', () => {
    expect(checkLogo('')).toBeNull();
    expect(checkLogo('https://example.org/logo.png')).toBeNull();
    expect(checkLogo('data:image/svg+xml;base64,PHN2Zz4=')).toBeNull();
    expect(checkLogo('javascript:alert(1)')).not.toBeNull();
    expect(checkLogo('data:text/html,<b>x</b>')).not.toBeNull();
    expect(checkLogo('https://')).not.toBeNull();
    expect(checkLogo('https://a b')).not.toBeNull();
    const huge = 'data:image/png;base64,' + 'A'.repeat(MAX_LOGO_BYTES);
    expect(checkLogo(huge)).toContain('512 KiB');
    const large = 'data:image/png;base64,' + 'A'.repeat(600 * 1024);
    expect(keys({ layout: { logo: large } })).toEqual(['config.layout.logo']);
  });

  test('rules are found by dotted path, through array items', () => {
    expect(ruleAt('config.filter.facetsToShow.2.maximumTerms')).toEqual({ kind: 'int', min: 1, max: 1000 });
    expect(ruleAt('config.layout.navbar.fontColor')).toEqual({ kind: 'colour' });
    expect(ruleAt('config.unknown')).toBeUndefined();
  });
});
