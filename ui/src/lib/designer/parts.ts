// The parts of the previewed search application and the settings behind each: what Inspect names under the
// pointer and which field a click on a part opens. The preview marks each part with `data-part` (and, for an
// item of a list setting, `data-index`: its position in `facetsToShow` or `detailsToShow`); this table is the
// only place that knows which setting draws which part. A setting is named by its field's label
// (../editor/labels), so that Inspect, the comparison and the editor call it the same.
import type { Config } from '../types/generated';
import { fieldLabel } from '../editor/labels';

/** A part of the preview as marked in its markup. */
export interface PartRef {
  part: string;
  /** For a facet group, a refiner or a detail row: the item's index in its list setting. */
  index: number | null;
}

export interface Setting {
  /** The setting's dotted path, as the editor's fields are keyed (`config.layout.navbar.backgroundColor`). */
  key: string;
  /** Its field's label in the editor. */
  label: string;
}

export interface PartInfo {
  /** What the designer sees, e.g. "Facet group “Topic”". */
  name: string;
  /** The settings behind the part; the first is the one a click opens. */
  settings: Setting[];
}

type Describe = (index: number | null, itemName: (list: 'facetsToShow' | 'detailsToShow', i: number) => string) => PartInfo;

const s = (key: string): Setting => ({ key, label: fieldLabel(key) });
const colours = (pair: string): Setting[] => [s(`config.layout.${pair}.backgroundColor`), s(`config.layout.${pair}.fontColor`)];
const facet = (i: number | null, field: string) => `config.filter.facetsToShow.${i ?? 0}.${field}`;
const detail = (i: number | null, field: string) => `config.details.detailsToShow.${i ?? 0}.${field}`;

const PARTS: Record<string, Describe> = {
  navbar: () => ({ name: 'Navbar', settings: colours('navbar') }),
  logo: () => ({ name: 'Logo', settings: [s('config.layout.logo')] }),
  title: () => ({ name: 'Title', settings: [s('config.title'), ...colours('navbar')] }),
  filters: () => ({
    name: 'Filter panel',
    settings: [...colours('facets'), s('config.filter.hideEmptyFacets'), s('config.filter.componentOrder')],
  }),
  search: () => ({
    name: 'Search box',
    settings: [...colours('basicActionColor'), s('config.filter.componentOrder')],
  }),
  facets: () => ({ name: 'Facets', settings: [...colours('facets'), s('config.filter.hideEmptyFacets')] }),
  facet: (i, item) => ({
    name: `Facet group “${item('facetsToShow', i ?? 0)}”`,
    settings: [
      s(facet(i, 'title')),
      s(facet(i, 'maximumTerms')),
      s(facet(i, 'facetMode')),
      s(facet(i, 'hierarchicalDepth')),
      s(facet(i, 'searchable')),
    ],
  }),
  refiner: (i, item) => ({
    name: `A value of “${item('facetsToShow', i ?? 0)}”`,
    settings: [s(facet(i, 'sorting')), s(facet(i, 'sortingOrder')), s(facet(i, 'maximumTerms')), ...colours('basicActionColor')],
  }),
  reset: () => ({ name: 'Reset button', settings: [...colours('criticalActionColor'), s('config.filter.componentOrder')] }),
  results: () => ({ name: 'Result list', settings: [...colours('documents'), s('config.result.itemsPerPage'), s('config.result.showResultAsImage')] }),
  'result-count': () => ({ name: 'Result count', settings: [s('config.result.showResultCount')] }),
  'result-title': () => ({ name: 'Result title', settings: [s('config.result.titleAction')] }),
  summary: () => ({ name: 'Summary', settings: [s('config.result.summaryLength')] }),
  tags: () => ({ name: 'Tags', settings: [s('config.result.showTags'), s('config.result.numberOfTags')] }),
  date: () => ({ name: 'Date', settings: [s('config.result.dateFormat')] }),
  sentiment: () => ({ name: 'Sentiment', settings: [s('config.result.showDynamicSentiment')] }),
  similar: () => ({
    name: 'Similar documents',
    settings: [s('config.result.showSimilarDocuments'), s('config.result.numberOfSimilarDocuments')],
  }),
  pagination: () => ({ name: 'Pages', settings: [s('config.result.itemsPerPage'), ...colours('basicActionColor')] }),
  detail: () => ({ name: 'Detail view', settings: [...colours('documents'), s('config.details.showConceptHighlighting')] }),
  'detail-text': () => ({ name: 'Detail text', settings: [s('config.details.showConceptHighlighting')] }),
  'detail-field': (i, item) => ({
    name: `Detail “${item('detailsToShow', i ?? 0)}”`,
    settings: [s(detail(i, 'title')), s(detail(i, 'show'))],
  }),
  'detail-similar': () => ({
    name: 'Similar documents (detail view)',
    settings: [s('config.details.showSimilar'), s('config.details.numberOfSimilar'), s('config.details.showSimilarAsImage')],
  }),
  recommendations: () => ({
    name: 'Recommendations',
    settings: [
      s('config.details.showRecommendations'),
      s('config.details.recommender'),
      s('config.details.numberOfRecommendations'),
      s('config.details.showRecommendedAsImage'),
    ],
  }),
};

/** The part names the table knows, in the order the keyboard list shows them. */
export const PART_NAMES = Object.keys(PARTS);

/** What a marked part is and the settings behind it; null for a name the table does not know. */
export function describePart(ref: PartRef, config: Config): PartInfo | null {
  const describe = PARTS[ref.part];
  if (!describe) return null;
  const itemName = (list: 'facetsToShow' | 'detailsToShow', i: number) => {
    const item = list === 'facetsToShow' ? config.filter.facetsToShow[i] : config.details.detailsToShow[i];
    return item ? item.title || item.uri : `#${i + 1}`;
  };
  return describe(ref.index, itemName);
}

/** The marked part an element belongs to: the nearest element with `data-part` on its composed path. */
export function partOf(path: EventTarget[]): { ref: PartRef; element: Element } | null {
  for (const node of path) {
    if (!(node instanceof Element)) continue;
    const part = node.getAttribute('data-part');
    if (!part || !PARTS[part]) continue;
    const raw = node.getAttribute('data-index');
    return { ref: { part, index: raw === null ? null : Number(raw) }, element: node };
  }
  return null;
}

/** Every marked part present under `root`, once per part and index, in document order. */
export function partsIn(root: ParentNode): PartRef[] {
  const seen = new Set<string>();
  const refs: PartRef[] = [];
  for (const el of root.querySelectorAll('[data-part]')) {
    const part = el.getAttribute('data-part') ?? '';
    const raw = el.getAttribute('data-index');
    const key = `${part}#${raw ?? ''}`;
    if (!PARTS[part] || seen.has(key)) continue;
    seen.add(key);
    refs.push({ part, index: raw === null ? null : Number(raw) });
  }
  return refs;
}
