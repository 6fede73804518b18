// What each setting is called in the editor: the label of its field. The panes label their fields from this table
// and everything else that names a setting to the designer (the comparison's list of differences, Inspect's parts,
// the accessibility check's advice) reads it here, so a setting has one name wherever it appears. Paths are the
// editor's dotted keys; an item of a list setting is written with `*` for its index.

/** The colour pairs of the Layout pane, in its order, with what each one colours. */
export const COLOUR_PAIRS = [
  { key: 'navbar', label: 'Navbar', usage: 'The top bar with the logo and title.' },
  { key: 'facets', label: 'Facets', usage: 'The filter panel.' },
  { key: 'documents', label: 'Documents', usage: 'The result list and detail view.' },
  { key: 'basicActionColor', label: 'Basic action', usage: 'Search button, pagination, “show all”, selected values.' },
  { key: 'focusActionColor', label: 'Focus action', usage: 'Focus rings and the hovered or current item.' },
  { key: 'criticalActionColor', label: 'Critical action', usage: 'Reset and clear buttons.' },
] as const;

/** The two colours of a pair, as the pair's rows name them. */
export const COLOUR_PARTS = [
  { prop: 'backgroundColor', name: 'Background' },
  { prop: 'fontColor', name: 'Text' },
] as const;

const LABELS: Record<string, string> = {
  'config.title': 'Title',
  'config.searchSpace': 'Search space',
  'config.visible': 'Visible to users of the search application',
  'config.layout.logo': 'Logo',
  'config.filter.hideEmptyFacets': 'Hide facets that have no values',
  'config.filter.componentOrder': 'Order of the filter panel',
  'config.filter.facetsToShow': 'Facets shown',
  'config.filter.facetsToShow.*.title': 'Title',
  'config.filter.facetsToShow.*.uri': 'Field (id or URI)',
  'config.filter.facetsToShow.*.show': 'Show this facet',
  'config.filter.facetsToShow.*.facetMode': 'Mode',
  'config.filter.facetsToShow.*.hierarchicalDepth': 'Hierarchy depth',
  'config.filter.facetsToShow.*.maximumTerms': 'Maximum terms',
  'config.filter.facetsToShow.*.sorting': 'Sort by',
  'config.filter.facetsToShow.*.sortingOrder': 'Order',
  'config.filter.facetsToShow.*.showAllButton': 'Show a “show all” button',
  'config.filter.facetsToShow.*.searchable': 'Searchable (a filter box over the values)',
  'config.result.itemsPerPage': 'Results per page',
  'config.result.summaryLength': 'Summary length',
  'config.result.showResultCount': 'Show the number of results',
  'config.result.showTags': 'Show the document’s concepts as tags',
  'config.result.numberOfTags': 'Number of tags',
  'config.result.titleAction': 'Clicking a title',
  'config.result.dateFormat': 'Date format',
  'config.result.showSimilarDocuments': 'Show similar documents',
  'config.result.numberOfSimilarDocuments': 'Number of similar documents',
  'config.result.showDynamicSentiment': 'Show each document’s sentiment',
  'config.result.showResultAsImage': 'Show results as images (a gallery)',
  'config.details.showSimilar': 'Show similar documents',
  'config.details.numberOfSimilar': 'Number of similar documents',
  'config.details.showSimilarAsImage': 'Show them as images',
  'config.details.showRecommendations': 'Show recommended documents',
  'config.details.recommender': 'Recommender',
  'config.details.numberOfRecommendations': 'Number of recommendations',
  'config.details.showRecommendedAsImage': 'Show them as images',
  'config.details.showConceptHighlighting': 'Highlight the document’s concepts in its text',
  'config.details.detailsToShow': 'Details to show',
  'config.details.detailsToShow.*.title': 'Title',
  'config.details.detailsToShow.*.uri': 'Field (id or URI)',
  'config.details.detailsToShow.*.show': 'Show',
};

for (const pair of COLOUR_PAIRS) {
  for (const part of COLOUR_PARTS) LABELS[`config.layout.${pair.key}.${part.prop}`] = `${pair.label} ${part.name.toLowerCase()}`;
}

/** A path with each index of a list item written as `*`, as the table is keyed. */
const pattern = (path: string) => path.replace(/\.\d+(?=\.|$)/g, '.*');

/**
 * The label of the field at a dotted path (`config.layout.navbar.backgroundColor` → "Navbar background"); for a key
 * no field edits, its path without the leading `config.`.
 */
export function fieldLabel(path: string): string {
  return LABELS[pattern(path)] ?? path.replace(/^config\./, '');
}

/** Whether a field of the editor, and so a label, stands for the setting at a dotted path. */
export function hasField(path: string): boolean {
  return Object.hasOwn(LABELS, pattern(path));
}
