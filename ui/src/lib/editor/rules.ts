// Applies the configuration rules of crates/model/src/rules.rs, which reach the UI as generated data
// (CONFIG_RULES, RULE_MESSAGES, the lists and item defaults in ../types/generated). This file holds only the
// walk: `mergeConfig` is the server's merge (crates/model/src/merge.rs) step for step, so the editor marks
// exactly the keys the server refuses, with the same dotted paths and messages, and the preview shows what
// the server would store. The cases of crates/model/cases/validation.json hold both to one behaviour.
import {
  CONFIG_RULES,
  LOGO_TYPES,
  MAX_LOGO_BYTES,
  RULE_MESSAGES,
  type ConfigFields,
  type ConfigRule,
  type FieldError,
} from '../types/generated';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message template with each `{name}` replaced by its value, as `fill` of rules.rs does. */
export function fill(template: string, values: Record<string, string | number>): string {
  return Object.entries(values).reduce((text, [name, value]) => text.replaceAll(`{${name}}`, String(value)), template);
}

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, any case. */
export function isHexColour(s: string): boolean {
  return /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(s);
}

/** Byte length of a string as the server counts it (UTF-8). */
function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** Why a logo is refused, or null when it is accepted. */
export function checkLogo(s: string): string | null {
  if (s === '') return null;
  if (s.startsWith('data:image/')) {
    const bytes = utf8Length(s);
    if (bytes > MAX_LOGO_BYTES) {
      return fill(RULE_MESSAGES.logoSize, { size: Math.ceil(bytes / 1024), limit: MAX_LOGO_BYTES / 1024 });
    }
    const rest = s.slice('data:image/'.length);
    const media = rest.split(/[;,]/)[0];
    if ((LOGO_TYPES as readonly string[]).includes(media) && rest.includes(',')) return null;
    return RULE_MESSAGES.logoMedia;
  }
  const lower = s.toLowerCase();
  const rest = lower.startsWith('https://') ? lower.slice(8) : lower.startsWith('http://') ? lower.slice(7) : null;
  // eslint-disable-next-line no-control-regex
  if (rest !== null && rest !== '' && !rest.startsWith('/') && !/[\s\u0000-\u001f\u007f"<>]/.test(s)) return null;
  return RULE_MESSAGES.logo;
}

/** Checks one value against one rule alone (not an object's own keys); the message is shown next to the field. */
function checkValue(rule: ConfigRule, value: unknown): string | null {
  switch (rule.kind) {
    case 'bool':
      return typeof value === 'boolean' ? null : RULE_MESSAGES.bool;
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= rule.min && value <= rule.max
        ? null
        : fill(RULE_MESSAGES.int, { min: rule.min, max: rule.max });
    case 'oneOf':
      return typeof value === 'string' && rule.allowed.includes(value)
        ? null
        : fill(RULE_MESSAGES.oneOf, { allowed: rule.allowed.join(', ') });
    case 'text':
      return typeof value === 'string' ? null : RULE_MESSAGES.text;
    case 'nonEmpty':
      if (typeof value !== 'string') return RULE_MESSAGES.nonEmpty;
      return value.trim() === '' ? RULE_MESSAGES.blank : null;
    case 'colour':
      return typeof value === 'string' && isHexColour(value) ? null : RULE_MESSAGES.colour;
    case 'logo':
      return typeof value === 'string' ? checkLogo(value) : RULE_MESSAGES.logoNotText;
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : RULE_MESSAGES.strings;
    case 'object':
      return isObject(value) ? null : RULE_MESSAGES.object;
    case 'items':
      return Array.isArray(value) ? null : RULE_MESSAGES.items;
  }
}

/**
 * Merges `body` into `target` (changed in place) key by key; see crates/model/src/merge.rs. Nothing else is
 * changed: nested objects are copied before they are merged into, and values are shared, never cloned (the
 * editor's values are reactive proxies, which cannot be cloned).
 */
function mergeObject(target: Obj, body: Obj, fields: ConfigFields, path: string, errors: FieldError[]) {
  for (const [key, value] of Object.entries(body)) {
    const rule = fields[key];
    if (!rule) {
      target[key] = value; // an unknown key is kept as it came
      continue;
    }
    const keyPath = `${path}.${key}`;
    const message = checkValue(rule, value);
    if (message !== null) {
      errors.push({ key: keyPath, message });
      continue;
    }
    if (rule.kind === 'object') {
      const slot = isObject(target[key]) ? { ...(target[key] as Obj) } : {};
      mergeObject(slot, value as Obj, rule.fields, keyPath, errors);
      target[key] = slot;
    } else if (rule.kind === 'items') {
      target[key] = (value as unknown[]).flatMap((item, i) => {
        const merged = mergeItem(item, rule.fields, rule.defaults as Obj, `${keyPath}.${i}`, errors);
        return merged ? [merged] : [];
      });
    } else {
      target[key] = value;
    }
  }
}

/** One element of `facetsToShow` or `detailsToShow` over the item defaults; null when it is left out. */
function mergeItem(item: unknown, fields: ConfigFields, defaults: Obj, path: string, errors: FieldError[]): Obj | null {
  if (!isObject(item)) {
    errors.push({ key: path, message: RULE_MESSAGES.itemNotObject });
    return null;
  }
  const target = { ...defaults };
  const before = errors.length;
  mergeObject(target, item, fields, path, errors);
  const uri = typeof target.uri === 'string' ? target.uri : '';
  if (uri.trim() === '') {
    const existing = errors.slice(before).find((e) => e.key === `${path}.uri`);
    if (existing) existing.message += RULE_MESSAGES.itemLeftOut;
    else errors.push({ key: `${path}.uri`, message: RULE_MESSAGES.itemWithoutUri });
    return null;
  }
  if (typeof item.refId === 'string' && item.refId !== uri) {
    errors.push({ key: `${path}.refId`, message: RULE_MESSAGES.refId });
  }
  target.refId = uri;
  return target;
}

export interface Merged<T> {
  /** `base` with every valid key of the body over it; invalid keys keep the base's value. */
  value: T;
  /** Every key of the body the rules refuse, with its dotted path (`config.result.itemsPerPage`). */
  errors: FieldError[];
}

/**
 * A `config` body merged over `base` (a `config` object) as the server merges an update, or a create when
 * `base` is the template. Neither argument is changed.
 */
export function mergeConfig<T>(base: T, config: unknown): Merged<T> {
  const value: Obj = isObject(base) ? { ...base } : {};
  if (!isObject(config)) return { value: value as T, errors: [{ key: 'config', message: RULE_MESSAGES.object }] };
  const errors: FieldError[] = [];
  mergeObject(value, config, CONFIG_RULES, 'config', errors);
  return { value: value as T, errors };
}

/** Every key of `config` the server would refuse, with its dotted path and message. */
export function validateConfig(config: unknown): FieldError[] {
  return mergeConfig({}, config).errors;
}

/** The rule of one dotted path (`config.filter.facetsToShow.2.maximumTerms`), if the table knows it. */
export function ruleAt(path: string): ConfigRule | undefined {
  const parts = path.split('.');
  if (parts[0] !== 'config') return undefined;
  let fields: ConfigFields = CONFIG_RULES;
  let rule: ConfigRule | undefined;
  for (let i = 1; i < parts.length; i++) {
    rule = fields[parts[i]];
    if (!rule) return undefined;
    if (rule.kind === 'object') fields = rule.fields;
    else if (rule.kind === 'items') {
      i++; // skip the index
      fields = rule.fields;
    }
  }
  return rule;
}
