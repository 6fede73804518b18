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
 * One of the named date formats of docs/api.md (`config.result`).
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
facetList: Array<FacetGroup>, 
/**
 * Why a similar or recommended document is there: only when the request asked for it (`explain=true`), and
 * only from an engine that explains (this project's own). Read leniently: an unusable value is none.
 */
explanation?: Explanation, };

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
similarity: string | null, 
/**
 * With `true`, each document carries an `explanation` (an extension; other servers ignore it).
 */
explain?: boolean, };

export type RecommendQuery = { 
/**
 * URI of the document to get recommendations for.
 */
uri: string, 
/**
 * Recommender plugin: `related-concepts` or `same-author`.
 */
recommender: string, 
/**
 * With `true`, each document carries an `explanation` (an extension; other servers ignore it).
 */
explain?: boolean, };

export type Recommendations = { message: string | null, result: Array<Document>, resultType: string | null, status: number | null, success: boolean | null, total: number | null, };

export type FacetKind = "concept" | "literal" | "numeric";

export type FacetField = { field: string, label: string, uri: string, kind: FacetKind, };

export type SearchSpace = { id: string, documents: bigint, fields: Array<FacetField>, };

export type FieldHealth = { field: string, label: string, kind: FacetKind, 
/**
 * Documents carrying at least one value of the field.
 */
documents: number, 
/**
 * Distinct values at any depth.
 */
values: number, 
/**
 * The deepest level of the field's hierarchy: 1 for a flat field, 0 for one without values.
 */
depth: number, 
/**
 * Distinct values at each level, from the top one.
 */
valuesByDepth: Array<number>, 
/**
 * Documents of the field's most common top-level value.
 */
largestValueDocuments: number, };

export type FacetHealth = { searchSpace: string, 
/**
 * Documents in the search space.
 */
documents: number, 
/**
 * In the order `GET /api/searchspaces` lists the fields.
 */
fields: Array<FieldHealth>, };

export type Explanation = { 
/**
 * The similarity plugin or recommender that found the document.
 */
plugin: string, 
/**
 * At most 10 (`MAX_REASONS`), largest contribution first, ties by value.
 */
reasons: Array<Reason>, };

export type Reason = { 
/**
 * `concept`, `broader-concept`, `narrower-concept`, `sibling-concept`, `term` or `author`.
 */
kind: string, 
/**
 * The concept URI, the word or the author.
 */
value: string, 
/**
 * The concept's label; the value itself for words and authors.
 */
label: string, };

export type ErrorCode = "bad_request" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "not_offered" | "bad_gateway" | "timeout" | "sign_in_needed" | "upstream" | "storage" | "insufficient_storage" | "store_damaged" | "internal" | "settings" | "task" | "network";

export type Extension = "setActive" | "visible" | "logs" | "delete" | "searchSpaces" | "facetHealth";

export type Offers = { setActive: boolean, visible: boolean, logs: boolean, delete: boolean, searchSpaces: boolean, facetHealth: boolean, };

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
  insufficient_storage: 507,
  store_damaged: 500,
  internal: 500,
  settings: null,
  task: null,
  network: null,
};

/** The codes that mean the server could not be reached at all (or not in time): only then is a connection offline. */
export const UNREACHABLE_CODES: readonly ErrorCode[] = ["bad_gateway","timeout","network"];

/** Each extension of the API: its method and path (as OpenAPI writes them), and the operation in words. */
export const EXTENSIONS: { readonly [e in Extension]: { method: string; path: string; operation: string } } = {
  setActive: { method: "post", path: "/api/configurations/{configId}/set", operation: "making a configuration active" },
  visible: { method: "get", path: "/api/configurations/visible", operation: "listing the visible configurations" },
  logs: { method: "get", path: "/api/configurations/{configId}/logs", operation: "the history of a configuration" },
  delete: { method: "delete", path: "/api/configurations/{configId}", operation: "deleting a configuration" },
  searchSpaces: { method: "get", path: "/api/searchspaces", operation: "listing search spaces and their facet fields" },
  facetHealth: { method: "get", path: "/api/searchspaces/{searchSpaceId}/facethealth", operation: "facet health of a search space's fields" },
};

/** What one configuration key accepts (the `Rule` of crates/model/src/rules.rs). */
export type ConfigRule =
  | { kind: "bool" }
  | { kind: "int"; min: number; max: number }
  | { kind: "oneOf"; allowed: readonly string[] }
  | { kind: "text" }
  | { kind: "nonEmpty" }
  | { kind: "colour" }
  | { kind: "logo" }
  | { kind: "object"; fields: ConfigFields }
  | { kind: "items"; fields: ConfigFields; defaults: { [key in string]?: JsonValue } }
  | { kind: "strings" };

/** The keys of one object and their rules; a key not listed is unknown and kept as it came. */
export type ConfigFields = { readonly [key in string]?: ConfigRule };

/** The keys of `config` and their rules. */
export const CONFIG_RULES: ConfigFields = {
  title: { kind: "nonEmpty" },
  searchSpace: { kind: "nonEmpty" },
  visible: { kind: "bool" },
  result: {
    kind: "object",
    fields: {
      itemsPerPage: { kind: "int", min: 1, max: 100 },
      showResultCount: { kind: "bool" },
      summaryLength: { kind: "int", min: 0, max: 10000 },
      showTags: { kind: "bool" },
      numberOfTags: { kind: "int", min: 0, max: 100 },
      titleAction: { kind: "oneOf", allowed: ["detail_view", "link"] },
      dateFormat: {
        kind: "oneOf",
        allowed: ["short", "medium", "long", "full", "shortDate", "mediumDate", "longDate", "fullDate"],
      },
      showSimilarDocuments: { kind: "bool" },
      numberOfSimilarDocuments: { kind: "int", min: 0, max: 50 },
      showDynamicSentiment: { kind: "bool" },
      showResultAsImage: { kind: "bool" },
    },
  },
  filter: {
    kind: "object",
    fields: {
      facetsToShow: {
        kind: "items",
        fields: {
          uri: { kind: "nonEmpty" },
          title: { kind: "text" },
          show: { kind: "bool" },
          facetMode: { kind: "oneOf", allowed: ["hierarchical", "flat"] },
          hierarchicalDepth: { kind: "int", min: 1, max: 10 },
          maximumTerms: { kind: "int", min: 1, max: 1000 },
          sorting: { kind: "oneOf", allowed: ["count", "alphabetical"] },
          sortingOrder: { kind: "oneOf", allowed: ["desc", "asc"] },
          showAllButton: { kind: "bool" },
          searchable: { kind: "bool" },
          refId: { kind: "text" },
        },
        defaults: {
          uri: "",
          title: "",
          show: true,
          facetMode: "flat",
          hierarchicalDepth: 3,
          maximumTerms: 10,
          sorting: "count",
          sortingOrder: "desc",
          showAllButton: false,
          searchable: false,
          refId: "",
        },
      },
      hideEmptyFacets: { kind: "bool" },
      componentOrder: { kind: "strings" },
    },
  },
  layout: {
    kind: "object",
    fields: {
      basicActionColor: {
        kind: "object",
        fields: {
          backgroundColor: { kind: "colour" },
          fontColor: { kind: "colour" },
        },
      },
      focusActionColor: {
        kind: "object",
        fields: {
          backgroundColor: { kind: "colour" },
          fontColor: { kind: "colour" },
        },
      },
      criticalActionColor: {
        kind: "object",
        fields: {
          backgroundColor: { kind: "colour" },
          fontColor: { kind: "colour" },
        },
      },
      navbar: {
        kind: "object",
        fields: {
          backgroundColor: { kind: "colour" },
          fontColor: { kind: "colour" },
        },
      },
      facets: {
        kind: "object",
        fields: {
          backgroundColor: { kind: "colour" },
          fontColor: { kind: "colour" },
        },
      },
      documents: {
        kind: "object",
        fields: {
          backgroundColor: { kind: "colour" },
          fontColor: { kind: "colour" },
        },
      },
      logo: { kind: "logo" },
    },
  },
  details: {
    kind: "object",
    fields: {
      detailsToShow: {
        kind: "items",
        fields: {
          uri: { kind: "nonEmpty" },
          title: { kind: "text" },
          show: { kind: "bool" },
          refId: { kind: "text" },
        },
        defaults: { uri: "", title: "", show: true, refId: "" },
      },
      showSimilar: { kind: "bool" },
      showSimilarAsImage: { kind: "bool" },
      showRecommendations: { kind: "bool" },
      recommender: { kind: "text" },
      numberOfRecommendations: { kind: "int", min: 0, max: 50 },
      numberOfSimilar: { kind: "int", min: 0, max: 50 },
      showRecommendedAsImage: { kind: "bool" },
      showConceptHighlighting: { kind: "bool" },
    },
  },
};

/** The message of each refusal; `{name}` is filled as `fill` of crates/model/src/rules.rs does. */
export const RULE_MESSAGES = {
  bool: "must be true or false",
  int: "must be a whole number from {min} to {max}",
  oneOf: "must be one of {allowed}",
  text: "must be a string",
  nonEmpty: "must be a non-empty string",
  blank: "must not be empty",
  colour: "must be a hexadecimal colour: #rgb, #rgba, #rrggbb or #rrggbbaa",
  logoNotText: "must be a string: empty, an http(s) URL or a data:image URI",
  logo: "must be empty, an http(s) URL or a data:image URI",
  logoMedia: "must be a data:image URI of type png, jpeg, gif, webp or svg+xml",
  logoSize: "is a data URI of {size} KiB; at most {limit} KiB is allowed",
  strings: "must be an array of strings",
  object: "must be an object",
  items: "must be an array of objects",
  itemNotObject: "must be an object; the item was left out",
  itemWithoutUri: "is required; the item was left out",
  itemLeftOut: "; the item was left out",
  refId: "must equal uri; it was set to uri",
} as const;

/** Largest `data:` URI accepted as a logo, in bytes (the whole URI as written). */
export const MAX_LOGO_BYTES = 524288;
export const LOGO_TYPES = ["png", "jpeg", "gif", "webp", "svg+xml"] as const;

/** The logo picker's words for an image file; `{name}` is filled as `fill` of crates/model/src/rules.rs does. */
export const LOGO_FILE_MESSAGES = {
  label: "Image file ({types}, up to {limit} KiB)",
  wrongType: "{file} is not a {types} image.",
  tooLarge: "{file} makes a data URI of {size} KiB; at most {limit} KiB is allowed.",
} as const;
export const LOGO_TYPE_NAMES = "PNG, JPEG, GIF, WebP or SVG";

/** What a facet or detail item starts from: each key a body leaves out or gets wrong. */
export const FACET_DEFAULTS: FacetSetting = {
  uri: "",
  title: "",
  show: true,
  facetMode: "flat",
  hierarchicalDepth: 3,
  maximumTerms: 10,
  sorting: "count",
  sortingOrder: "desc",
  showAllButton: false,
  searchable: false,
  refId: "",
};
export const DETAIL_DEFAULTS: DetailSetting = { uri: "", title: "", show: true, refId: "" };

export const TITLE_ACTIONS = ["detail_view", "link"] as const;
export const DATE_FORMATS = ["short", "medium", "long", "full", "shortDate", "mediumDate", "longDate", "fullDate"] as const;
export const FACET_MODES = ["hierarchical", "flat"] as const;
export const SORTINGS = ["count", "alphabetical"] as const;
export const SORTING_ORDERS = ["desc", "asc"] as const;
export const RECOMMENDERS = ["related-concepts", "same-author"] as const;
export const SIMILARITY_PLUGINS = ["concepts", "text"] as const;
export const COMPONENTS = ["search", "facets", "reset"] as const;
