// The OpenAPI 2.0 (Swagger) document the production server publishes at /api-docs, written the way a
// Spring application's generated document reads: "swagger": "2.0", basePath "/", paths with
// {configId}, operation ids ending in Using<METHOD>, default responses 200/401/403/404 (and 201 for a
// POST). It lists only what the double offers, which is what a client learns the server's extensions from.

const ref = (name) => ({ $ref: `#/definitions/${name}` });
const string = { type: 'string' };
const boolean = { type: 'boolean' };
const int32 = { type: 'integer', format: 'int32' };
const array = (items) => ({ type: 'array', items });
const object = (properties) => ({ type: 'object', properties });

const configId = (description) => ({
  name: 'configId', in: 'path', description, required: true, type: 'integer', format: 'int32',
});

function operation(method, { tag, summary, operationId, parameters = [], schema }) {
  const responses = {
    200: { description: 'OK', schema },
    ...(method === 'post' ? { 201: { description: 'Created' } } : {}),
    401: { description: 'Unauthorized' },
    403: { description: 'Forbidden' },
    404: { description: 'Not Found' },
  };
  return {
    tags: [tag],
    summary,
    operationId: `${operationId}Using${method.toUpperCase()}`,
    ...(method === 'post' || method === 'put' ? { consumes: ['application/json'] } : {}),
    produces: ['*/*'],
    parameters,
    responses,
    security: [{ Bearer: [] }],
    deprecated: false,
  };
}

const CONFIGURATIONS = 'configuration-controller';
const SEARCH = 'search-controller';
const configurationBody = {
  in: 'body', name: 'configuration', description: 'configuration', required: false, schema: ref('Configuration'),
};

/** The nine operations of the API, as path -> method -> operation. */
const CORE = {
  '/api/configurations': {
    get: operation('get', { tag: CONFIGURATIONS, summary: 'List all configurations', operationId: 'getConfigurations', schema: ref('ConfigurationsResponse') }),
    post: operation('post', { tag: CONFIGURATIONS, summary: 'Create a configuration', operationId: 'createConfiguration', parameters: [configurationBody], schema: ref('SaveResponse') }),
  },
  '/api/configurations/active': {
    get: operation('get', { tag: CONFIGURATIONS, summary: 'Get the active (default) configuration', operationId: 'getActiveConfiguration', schema: ref('ConfigurationResponse') }),
  },
  '/api/configurations/default': {
    get: operation('get', { tag: CONFIGURATIONS, summary: 'Get the default settings', operationId: 'getDefaultConfiguration', schema: ref('ConfigurationResponse') }),
  },
  '/api/configurations/{configId}': {
    get: operation('get', { tag: CONFIGURATIONS, summary: 'Get one configuration', operationId: 'getConfiguration', parameters: [configId('The ID of the configuration')], schema: ref('ConfigurationResponse') }),
    put: operation('put', { tag: CONFIGURATIONS, summary: 'Update a configuration', operationId: 'updateConfiguration', parameters: [configId('The ID of the configuration'), configurationBody], schema: ref('SaveResponse') }),
  },
  '/api/configurations/{configId}/getRecommendations': {
    get: operation('get', {
      tag: SEARCH,
      summary: 'Get recommendations for a document',
      operationId: 'getRecommendations',
      parameters: [
        configId('The ID of the configuration to use for recommending documents'),
        { name: 'recommender', in: 'query', description: 'The recommender plugin', required: true, type: 'string' },
        { name: 'uri', in: 'query', description: 'The URI of the document', required: true, type: 'string' },
      ],
      schema: ref('RecommendationResponse'),
    }),
  },
  '/api/configurations/{configId}/getSimilar': {
    get: operation('get', {
      tag: SEARCH,
      summary: 'Get documents similar to a document',
      operationId: 'getSimilar',
      parameters: [
        configId('The ID of the configuration to use for the suggestion'),
        { name: 'number', in: 'query', description: 'The maximum number of similar documents', required: false, type: 'integer', format: 'int32' },
        { name: 'similarity', in: 'query', description: 'The similarity plugin', required: false, type: 'string' },
        { name: 'uri', in: 'query', description: 'The URI of the document', required: true, type: 'string' },
      ],
      schema: ref('SimilarResponse'),
    }),
  },
  '/api/configurations/{configId}/search': {
    post: operation('post', {
      tag: SEARCH,
      summary: 'Search through a configuration',
      operationId: 'search',
      parameters: [
        configId('The ID of the configuration to use for the search'),
        { in: 'body', name: 'searchRequest', description: 'searchRequest', required: false, schema: ref('SearchRequest') },
      ],
      schema: ref('SearchResponse'),
    }),
  },
};

/** The extensions the double can offer, by their --offer name. */
const EXTENSIONS = {
  set: ['/api/configurations/{configId}/set', 'post', operation('post', { tag: CONFIGURATIONS, summary: 'Set a configuration as the active (default) one', operationId: 'setActiveConfiguration', parameters: [configId('The ID of the configuration')], schema: ref('ConfigurationResponse') })],
  visible: ['/api/configurations/visible', 'get', operation('get', { tag: CONFIGURATIONS, summary: 'List the configurations available on the main user interface', operationId: 'getVisibleConfigurations', schema: ref('ConfigurationsResponse') })],
  logs: ['/api/configurations/{configId}/logs', 'get', operation('get', { tag: CONFIGURATIONS, summary: 'List the change history of a configuration', operationId: 'getConfigurationLogs', parameters: [configId('The ID of the configuration to load logs for')], schema: ref('LogsResponse') })],
};

export const OFFERABLE = Object.keys(EXTENSIONS);

const colorPair = object({ backgroundColor: string, fontColor: string });

const DEFINITIONS = {
  Configuration: object({ config: ref('ConfigProperties'), created: { type: 'string', format: 'date-time' }, id: int32, user: string }),
  ConfigProperties: object({
    title: string, searchSpace: string, visible: boolean,
    result: object({
      itemsPerPage: int32, showResultCount: boolean, summaryLength: int32, showTags: boolean, numberOfTags: int32,
      titleAction: string, dateFormat: string, showSimilarDocuments: boolean, numberOfSimilarDocuments: int32,
      showDynamicSentiment: boolean, showResultAsImage: boolean,
    }),
    filter: object({ facetsToShow: array(ref('FacetSettings')), hideEmptyFacets: boolean, componentOrder: array({ type: 'object' }) }),
    layout: object({
      basicActionColor: colorPair, focusActionColor: colorPair, criticalActionColor: colorPair,
      navbar: colorPair, facets: colorPair, documents: colorPair, logo: string,
    }),
    details: object({
      detailsToShow: array(object({ uri: string, title: string, show: boolean, refId: string })),
      showSimilar: boolean, showSimilarAsImage: boolean, showRecommendations: boolean, recommender: string,
      numberOfRecommendations: int32, numberOfSimilar: int32, showRecommendedAsImage: boolean, showConceptHighlighting: boolean,
    }),
  }),
  FacetSettings: object({
    uri: string, title: string, show: boolean, facetMode: string, hierarchicalDepth: int32, maximumTerms: int32,
    sorting: string, sortingOrder: string, showAllButton: boolean, searchable: boolean, refId: string,
  }),
  ConfigurationResponse: object({ configuration: ref('Configuration'), message: string }),
  ConfigurationsResponse: object({ configurations: array(ref('Configuration')), activeId: int32, message: string }),
  SaveResponse: object({ config: ref('Configuration'), errors: array(object({ key: string, message: string })), message: string }),
  SearchRequest: object({ input: string, selectedFacets: array(object({ field: string, label: string, value: string })), start: int32 }),
  Refiner: object({ count: int32, label: string, value: string, children: array(ref('Refiner')) }),
  Facet: object({ field: string, label: string, facets: array(ref('Refiner')) }),
  Document: object({
    id: string, link: string, title: string, description: string, date: { type: 'number', format: 'double' }, empty: boolean,
    image: string, searchSpaceId: string, type: string, documentDetails: array(ref('Facet')), facetList: array(ref('Facet')),
  }),
  SearchResponse: object({ concepts: array({ type: 'object' }), facets: array(ref('Facet')), result: array(ref('Document')), message: string, total: int32 }),
  SimilarResponse: object({ message: string, result: array(ref('Document')) }),
  RecommendationResponse: object({ message: string, result: array(ref('Document')), resultType: string, status: int32, success: boolean, total: int32 }),
  LogsResponse: object({ logs: array(object({ at: string, user: string, action: string, config: ref('ConfigProperties') })), message: string }),
};

// Titles as Spring's generator writes them (the definition's name).
for (const [name, schema] of Object.entries(DEFINITIONS)) schema.title = name;

/** The document for a server offering the extensions named in `offer`, seen at `host`. */
export function apiDocs({ offer, host }) {
  const paths = structuredClone(CORE);
  for (const name of offer) {
    const [path, method, op] = EXTENSIONS[name];
    paths[path] = { ...paths[path], [method]: op };
  }
  const sorted = Object.fromEntries(Object.keys(paths).sort().map((path) => [path, paths[path]]));
  return {
    swagger: '2.0',
    info: {
      description: 'Configurations of the search application, and search, similar documents and recommendations through them',
      version: '1.0',
      title: 'Search Application API',
    },
    host,
    basePath: '/',
    tags: [
      { name: CONFIGURATIONS, description: 'Configuration Controller' },
      { name: SEARCH, description: 'Search Controller' },
    ],
    paths: sorted,
    securityDefinitions: { Bearer: { type: 'apiKey', name: 'Authorization', in: 'header' } },
    definitions: structuredClone(DEFINITIONS),
  };
}
