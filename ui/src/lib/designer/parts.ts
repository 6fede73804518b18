// The parts of the previewed search application and the settings behind each: what Inspect names under the
// pointer and which field a click on a part opens. The preview marks each part with `data-part` (and, for an
// item of a list setting, `data-index`: its position in `facetsToShow` or `detailsToShow`); this table is the
// only place that knows which setting draws which part.
import type { Config } from '../types/generated';

/** A part of the preview as marked in its markup. */
export interface PartRef {
  part: string;
  /** For a facet group, a refiner or a detail row: the item's index in its list setting. */
  index: number | null;
}

export interface Setting {
  /** The setting's dotted path, as the editor's fields are keyed (`config.layout.navbar.backgroundColor`). */
  key: string;
  label: string;
}

export interface PartInfo {
  /** What the designer sees, e.g. "Facet group “Topic”". */
  name: string;
  /** The settings behind the part; the first is the one a click opens. */
  settings: Setting[];
}

type Describe = (index: number | null, itemName: (list: 'facetsToShow' | 'detailsToShow', i: number) => string) => PartInfo;

const s = (key: string, label: string): Setting => ({ key, label });
const colours = (pair: string, label: string): Setting[] => [
  s(`config.layout.${pair}.backgroundColor`, `${label} background`),
  s(`config.layout.${pair}.fontColor`, `${label} text`),
];
const facet = (i: number | null, field: string) => `config.filter.facetsToShow.${i ?? 0}.${field}`;
const detail = (i: number | null, field: string) => `config.details.detailsToShow.${i ?? 0}.${field}`;

const PARTS: Record<string, Describe> = {
  navbar: () => ({ name: 'Navbar', settings: colours('navbar', 'Navbar') }),
  logo: () => ({ name: 'Logo', settings: [s('config.layout.logo', 'Logo')] }),
  title: () => ({ name: 'Title', settings: [s('config.title', 'Title'), ...colours('navbar', 'Navbar')] }),
  filters: () => ({
    name: 'Filter panel',
    settings: [...colours('facets', 'Facets'), s('config.filter.hideEmptyFacets', 'Hide empty facets'), s('config.filter.componentOrder', 'Order of the panel’s parts')],
  }),
  search: () => ({
    name: 'Search box',
    settings: [...colours('basicActionColor', 'Basic action'), s('config.filter.componentOrder', 'Order of the panel’s parts')],
  }),
  facets: () => ({ name: 'Facets', settings: [...colours('facets', 'Facets'), s('config.filter.hideEmptyFacets', 'Hide empty facets')] }),
  facet: (i, item) => ({
    name: `Facet group “${item('facetsToShow', i ?? 0)}”`,
    settings: [
      s(facet(i, 'title'), 'Title'),
      s(facet(i, 'maximumTerms'), 'Maximum terms'),
      s(facet(i, 'facetMode'), 'Mode'),
      s(facet(i, 'hierarchicalDepth'), 'Hierarchy depth'),
      s(facet(i, 'searchable'), 'Searchable'),
    ],
  }),
  refiner: (i, item) => ({
    name: `A value of “${item('facetsToShow', i ?? 0)}”`,
    settings: [s(facet(i, 'sorting'), 'Sort by'), s(facet(i, 'sortingOrder'), 'Order'), s(facet(i, 'maximumTerms'), 'Maximum terms'), ...colours('basicActionColor', 'Basic action')],
  }),
  reset: () => ({ name: 'Reset button', settings: [...colours('criticalActionColor', 'Critical action'), s('config.filter.componentOrder', 'Order of the panel’s parts')] }),
  results: () => ({ name: 'Result list', settings: [...colours('documents', 'Documents'), s('config.result.itemsPerPage', 'Results per page'), s('config.result.showResultAsImage', 'Results as images')] }),
  'result-count': () => ({ name: 'Result count', settings: [s('config.result.showResultCount', 'Show the number of results')] }),
  'result-title': () => ({ name: 'Result title', settings: [s('config.result.titleAction', 'Clicking a title')] }),
  summary: () => ({ name: 'Summary', settings: [s('config.result.summaryLength', 'Summary length')] }),
  tags: () => ({ name: 'Tags', settings: [s('config.result.showTags', 'Show tags'), s('config.result.numberOfTags', 'Number of tags')] }),
  date: () => ({ name: 'Date', settings: [s('config.result.dateFormat', 'Date format')] }),
  sentiment: () => ({ name: 'Sentiment', settings: [s('config.result.showDynamicSentiment', 'Show sentiment')] }),
  similar: () => ({
    name: 'Similar documents',
    settings: [s('config.result.showSimilarDocuments', 'Show similar documents'), s('config.result.numberOfSimilarDocuments', 'Number of similar documents')],
  }),
  pagination: () => ({ name: 'Pages', settings: [s('config.result.itemsPerPage', 'Results per page'), ...colours('basicActionColor', 'Basic action')] }),
  detail: () => ({ name: 'Detail view', settings: [...colours('documents', 'Documents'), s('config.details.showConceptHighlighting', 'Highlight concepts')] }),
  'detail-text': () => ({ name: 'Detail text', settings: [s('config.details.showConceptHighlighting', 'Highlight concepts')] }),
  'detail-field': (i, item) => ({
    name: `Detail “${item('detailsToShow', i ?? 0)}”`,
    settings: [s(detail(i, 'title'), 'Title'), s(detail(i, 'show'), 'Show')],
  }),
  'detail-similar': () => ({
    name: 'Similar documents (detail view)',
    settings: [s('config.details.showSimilar', 'Show similar documents'), s('config.details.numberOfSimilar', 'Number'), s('config.details.showSimilarAsImage', 'As images')],
  }),
  recommendations: () => ({
    name: 'Recommendations',
    settings: [
      s('config.details.showRecommendations', 'Show recommendations'),
      s('config.details.recommender', 'Recommender'),
      s('config.details.numberOfRecommendations', 'Number'),
      s('config.details.showRecommendedAsImage', 'As images'),
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
