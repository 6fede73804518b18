// Generated from the Rust types of crates/model by its `bindings` test; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p studio-model --test bindings

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;

export type Configuration = { 
/**
 * Assigned by the server; null in the default template.
 */
id: number | null, 
/**
 * Owner of the configuration; `anonymous` in the default template.
 */
user: string, 
/**
 * Creation time, UTC, ISO 8601 with milliseconds; null in the default template.
 */
created: string | null, config: Config, };

export type Config = { title: string, searchSpace: string, visible: boolean, result: ResultSettings, filter: Filter, layout: Layout, details: Details, };

export type ResultSettings = { itemsPerPage: number, showResultCount: boolean, summaryLength: number, showTags: boolean, numberOfTags: number, 
/**
 * `detail_view` or `link`.
 */
titleAction: string, 
/**
 * One of the named date formats of decisions.md §2.
 */
dateFormat: string, showSimilarDocuments: boolean, numberOfSimilarDocuments: number, showDynamicSentiment: boolean, showResultAsImage: boolean, };

export type Filter = { facetsToShow: Array<FacetSetting>, hideEmptyFacets: boolean, 
/**
 * Names of the filter-panel parts in display order: `search`, `facets`, `reset`.
 */
componentOrder: Array<string>, };

export type FacetSetting = { 
/**
 * The facet field id (`dyn_lit_author`) or the field's URI as listed by `/api/searchspaces`.
 */
uri: string, title: string, show: boolean, 
/**
 * `hierarchical` or `flat`.
 */
facetMode: string, hierarchicalDepth: number, maximumTerms: number, 
/**
 * `count` or `alphabetical`.
 */
sorting: string, 
/**
 * `desc` or `asc`.
 */
sortingOrder: string, showAllButton: boolean, searchable: boolean, 
/**
 * Always equal to `uri`.
 */
refId: string, };

export type ColourPair = { backgroundColor: string, fontColor: string, };

export type Layout = { basicActionColor: ColourPair, focusActionColor: ColourPair, criticalActionColor: ColourPair, navbar: ColourPair, facets: ColourPair, documents: ColourPair, 
/**
 * Empty, an http(s) URL or a `data:image/...` URI.
 */
logo: string, };

export type Details = { detailsToShow: Array<DetailSetting>, showSimilar: boolean, showSimilarAsImage: boolean, showRecommendations: boolean, 
/**
 * Name of the recommender plugin.
 */
recommender: string, numberOfRecommendations: number, numberOfSimilar: number, showRecommendedAsImage: boolean, showConceptHighlighting: boolean, };

export type DetailSetting = { uri: string, title: string, show: boolean, 
/**
 * Always equal to `uri`.
 */
refId: string, };

export type FieldError = { 
/**
 * Dotted path of the key, e.g. `config.layout.navbar.backgroundColor`.
 */
key: string, message: string, };

export type ConfigurationList = { configurations: Array<Configuration>, activeId: number | null, };

export type WriteOutcome = { config: Configuration, errors: Array<FieldError>, };

export type LogAction = "create" | "update" | "delete" | "set-active" | "other";

export type LogEntry = { 
/**
 * UTC, ISO 8601 with milliseconds.
 */
at: string, user: string, action: LogAction, config: Configuration, };

export type Document = { 
/**
 * URI identifying the document.
 */
id: string, link: string, title: string, description: string, 
/**
 * Epoch milliseconds, written as a floating-point number.
 */
date: number, empty: boolean, image: string | null, searchSpaceId: string, type: string, 
/**
 * The document's values of the fields its configuration's detail view shows: one facet group per
 * `details.detailsToShow` item with `show: true`, in order (`field` the field id the item names, `label`
 * the item's `title`), holding the document's refiners of that field with `count` 1 and `children` null,
 * oriented as in `facetList`. Other servers may leave it empty or send other shapes.
 */
documentDetails: Array<JsonValue>, 
/**
 * The document's values per facet field. The local engine, as the production server does, labels a group
 * with the title of the configured facet of that field, else with the field's own label.
 */
facetList: Array<FacetGroup>, };

export type FacetGroup = { 
/**
 * Facet field id, e.g. `dyn_lit_author` or `dyn_uri_topic`.
 */
field: string, 
/**
 * Name of the facet.
 */
label: string, facets: Array<Refiner>, };

export type Refiner = { count: bigint, label: string, 
/**
 * Concept URI, or null for literal values.
 */
value: string | null, children: Array<Refiner> | null, };

export type SelectedFacet = { field: string, label: string | null, value: string | null, };

export type SearchRequest = { input: string | null, selectedFacets: Array<SelectedFacet>, 
/**
 * Number of results to skip; at least 0.
 */
start: number | null, 
/**
 * Search Studio extension: settings that stand in for the stored configuration's in this one search
 * (an editor's unsaved settings), merged over them by the update rules; invalid keys are ignored.
 * Servers that do not know it ignore it.
 */
config?: JsonValue, };

export type SearchResponse = { 
/**
 * Always empty.
 */
concepts: Array<JsonValue>, facets: Array<FacetGroup>, result: Array<Document>, 
/**
 * `took N ms`.
 */
message: string, total: bigint, };

export type SimilarQuery = { 
/**
 * URI of the document to find similar documents for.
 */
uri: string, 
/**
 * Maximum number of similar documents; defaults to the configuration's `numberOfSimilarDocuments`.
 */
number: number | null, 
/**
 * Similarity plugin: `concepts` (default) or `text`.
 */
similarity: string | null, };

export type RecommendQuery = { 
/**
 * URI of the document to get recommendations for.
 */
uri: string, 
/**
 * Recommender plugin: `related-concepts` or `same-author`.
 */
recommender: string, };

export type Recommendations = { message: string | null, result: Array<Document>, resultType: string | null, status: number | null, success: boolean | null, total: number | null, };

export type FacetKind = "concept" | "literal" | "numeric";

export type FacetField = { field: string, label: string, uri: string, kind: FacetKind, };

export type SearchSpace = { id: string, documents: bigint, fields: Array<FacetField>, };

export type ErrorCode = "bad_request" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "not_offered" | "bad_gateway" | "timeout" | "sign_in_needed" | "upstream" | "storage" | "internal" | "settings" | "task" | "network";

export type Extension = "setActive" | "visible" | "logs" | "delete" | "searchSpaces";

export type Offers = { setActive: boolean, visible: boolean, logs: boolean, delete: boolean, searchSpaces: boolean, };

/** The HTTP status each error code is answered with; null for codes that never cross HTTP as themselves. */
export const ERROR_STATUS: { readonly [code in ErrorCode]: number | null } = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  not_offered: 501,
  bad_gateway: 502,
  timeout: 504,
  sign_in_needed: 502,
  upstream: null,
  storage: 500,
  internal: 500,
  settings: null,
  task: null,
  network: null,
};

/** Each extension of the API: its method and path (as OpenAPI writes them), and the operation in words. */
export const EXTENSIONS: { readonly [e in Extension]: { method: string; path: string; operation: string } } = {
  setActive: { method: "post", path: "/api/configurations/{configId}/set", operation: "making a configuration active" },
  visible: { method: "get", path: "/api/configurations/visible", operation: "listing the visible configurations" },
  logs: { method: "get", path: "/api/configurations/{configId}/logs", operation: "the history of a configuration" },
  delete: { method: "delete", path: "/api/configurations/{configId}", operation: "deleting a configuration" },
  searchSpaces: { method: "get", path: "/api/searchspaces", operation: "listing search spaces and their facet fields" },
};
