// Client-side mirror of crates/model/src/rules.rs (decisions.md §2): the same table of keys and rules, so the
// editor marks exactly the keys the server would refuse, with the same dotted paths and messages.
import type { FieldError } from '../types/generated';

export const TITLE_ACTIONS = ['detail_view', 'link'] as const;
export const DATE_FORMATS = ['short', 'medium', 'long', 'full', 'shortDate', 'mediumDate', 'longDate', 'fullDate'] as const;
export const FACET_MODES = ['hierarchical', 'flat'] as const;
export const SORTINGS = ['count', 'alphabetical'] as const;
export const SORTING_ORDERS = ['desc', 'asc'] as const;
export const RECOMMENDERS = ['related-concepts', 'same-author'] as const;
export const COMPONENTS = ['search', 'facets', 'reset'] as const;
/** Largest data: URI accepted as a logo, in bytes (the whole URI). */
export const MAX_LOGO_BYTES = 512 * 1024;
const LOGO_TYPES = ['png', 'jpeg', 'gif', 'webp', 'svg+xml'];

export type Rule =
  | { kind: 'bool' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'oneOf'; allowed: readonly string[] }
  | { kind: 'text' }
  | { kind: 'nonEmpty' }
  | { kind: 'colour' }
  | { kind: 'logo' }
  | { kind: 'object'; fields: Fields }
  | { kind: 'items'; fields: Fields }
  | { kind: 'strings' };
export type Fields = Record<string, Rule>;

const bool: Rule = { kind: 'bool' };
const text: Rule = { kind: 'text' };
const nonEmpty: Rule = { kind: 'nonEmpty' };
const int = (min: number, max: number): Rule => ({ kind: 'int', min, max });
const oneOf = (allowed: readonly string[]): Rule => ({ kind: 'oneOf', allowed });
const colourPair: Rule = { kind: 'object', fields: { backgroundColor: { kind: 'colour' }, fontColor: { kind: 'colour' } } };

export const FACET_ITEM: Fields = {
  uri: nonEmpty, title: text, show: bool, facetMode: oneOf(FACET_MODES), hierarchicalDepth: int(1, 10),
  maximumTerms: int(1, 1000), sorting: oneOf(SORTINGS), sortingOrder: oneOf(SORTING_ORDERS),
  showAllButton: bool, searchable: bool, refId: text,
};
export const DETAIL_ITEM: Fields = { uri: nonEmpty, title: text, show: bool, refId: text };

/** The keys of `config`, as in rules.rs. */
export const CONFIG: Fields = {
  title: nonEmpty,
  searchSpace: nonEmpty,
  visible: bool,
  result: {
    kind: 'object',
    fields: {
      itemsPerPage: int(1, 100), showResultCount: bool, summaryLength: int(0, 10000), showTags: bool,
      numberOfTags: int(0, 100), titleAction: oneOf(TITLE_ACTIONS), dateFormat: oneOf(DATE_FORMATS),
      showSimilarDocuments: bool, numberOfSimilarDocuments: int(0, 50), showDynamicSentiment: bool,
      showResultAsImage: bool,
    },
  },
  filter: {
    kind: 'object',
    fields: { facetsToShow: { kind: 'items', fields: FACET_ITEM }, hideEmptyFacets: bool, componentOrder: { kind: 'strings' } },
  },
  layout: {
    kind: 'object',
    fields: {
      basicActionColor: colourPair, focusActionColor: colourPair, criticalActionColor: colourPair,
      navbar: colourPair, facets: colourPair, documents: colourPair, logo: { kind: 'logo' },
    },
  },
  details: {
    kind: 'object',
    fields: {
      detailsToShow: { kind: 'items', fields: DETAIL_ITEM }, showSimilar: bool, showSimilarAsImage: bool,
      showRecommendations: bool, recommender: text, numberOfRecommendations: int(0, 50), numberOfSimilar: int(0, 50),
      showRecommendedAsImage: bool, showConceptHighlighting: bool,
    },
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, any case. */
export function isHexColour(s: string): boolean {
  return /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(s);
}

/** Byte length of a string as the server counts it (UTF-8). */
function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

export function checkLogo(s: string): string | null {
  if (s === '') return null;
  if (s.startsWith('data:image/')) {
    const bytes = utf8Length(s);
    if (bytes > MAX_LOGO_BYTES) {
      return `is a data URI of ${Math.ceil(bytes / 1024)} KiB; at most ${MAX_LOGO_BYTES / 1024} KiB is allowed`;
    }
    const rest = s.slice('data:image/'.length);
    const media = rest.split(/[;,]/)[0];
    if (LOGO_TYPES.includes(media) && rest.includes(',')) return null;
    return 'must be a data:image URI of type png, jpeg, gif, webp or svg+xml';
  }
  const lower = s.toLowerCase();
  const rest = lower.startsWith('https://') ? lower.slice(8) : lower.startsWith('http://') ? lower.slice(7) : null;
  // eslint-disable-next-line no-control-regex
  if (rest !== null && rest !== '' && !rest.startsWith('/') && !/[\s\u0000-\u001f\u007f"<>]/.test(s)) return null;
  return 'must be empty, an http(s) URL or a data:image URI';
}

/** Checks one value against one rule; the message is the one shown next to the field. */
export function checkValue(rule: Rule, value: unknown): string | null {
  switch (rule.kind) {
    case 'bool':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= rule.min && value <= rule.max
        ? null
        : `must be a whole number from ${rule.min} to ${rule.max}`;
    case 'oneOf':
      return typeof value === 'string' && rule.allowed.includes(value) ? null : `must be one of ${rule.allowed.join(', ')}`;
    case 'text':
      return typeof value === 'string' ? null : 'must be a string';
    case 'nonEmpty':
      if (typeof value !== 'string') return 'must be a non-empty string';
      return value.trim() === '' ? 'must not be empty' : null;
    case 'colour':
      return typeof value === 'string' && isHexColour(value)
        ? null
        : 'must be a hexadecimal colour: #rgb, #rgba, #rrggbb or #rrggbbaa';
    case 'logo':
      return typeof value === 'string' ? checkLogo(value) : 'must be a string: empty, an http(s) URL or a data:image URI';
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : 'must be an array of strings';
    case 'object':
      return isObject(value) ? null : 'must be an object';
    case 'items':
      return Array.isArray(value) ? null : 'must be an array of objects';
  }
}

function validateObject(obj: Record<string, unknown>, fields: Fields, path: string, out: FieldError[]) {
  for (const [key, value] of Object.entries(obj)) {
    const rule = fields[key];
    if (!rule) continue; // an unknown key is kept as it came
    const keyPath = `${path}.${key}`;
    const message = checkValue(rule, value);
    if (message) {
      out.push({ key: keyPath, message });
      continue;
    }
    if (rule.kind === 'object') validateObject(value as Record<string, unknown>, rule.fields, keyPath, out);
    if (rule.kind === 'items') {
      (value as unknown[]).forEach((item, i) => validateItem(item, rule.fields, `${keyPath}.${i}`, out));
    }
  }
}

function validateItem(item: unknown, fields: Fields, path: string, out: FieldError[]) {
  if (!isObject(item)) {
    out.push({ key: path, message: 'must be an object; the item was left out' });
    return;
  }
  const before = out.length;
  validateObject(item, fields, path, out);
  const uri = typeof item.uri === 'string' ? item.uri : '';
  if (uri.trim() === '') {
    const existing = out.slice(before).find((e) => e.key === `${path}.uri`);
    if (existing) existing.message += '; the item was left out';
    else out.push({ key: `${path}.uri`, message: 'is required; the item was left out' });
  } else if (typeof item.refId === 'string' && item.refId !== uri) {
    out.push({ key: `${path}.refId`, message: 'must equal uri; it was set to uri' });
  }
}

/** Every key of `config` the server would refuse, with its dotted path (`config.result.itemsPerPage`). */
export function validateConfig(config: unknown): FieldError[] {
  const out: FieldError[] = [];
  if (!isObject(config)) return [{ key: 'config', message: 'must be an object' }];
  validateObject(config, CONFIG, 'config', out);
  return out;
}

/** The rule of one dotted path (`config.filter.facetsToShow.2.maximumTerms`), if the table knows it. */
export function ruleAt(path: string): Rule | undefined {
  const parts = path.split('.');
  if (parts[0] !== 'config') return undefined;
  let fields: Fields = CONFIG;
  let rule: Rule | undefined;
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
