// A small in-memory Backend for component tests: a handful of documents, configurations kept in memory, and a
// search that honours the preview's `config` override as the real backends do. Writes are validated with the
// client rules (the same rules as the server), so refused keys come back in `errors`. Preferences, drafts,
// publishing and history are the browser's own (webworkspace.ts) over these operations, as in the web build.
import type { Backend, PreviewSearchRequest, Workspace } from '../lib/backend/Backend';
import { API_OPERATIONS } from '../lib/types/commands';
import { BackendError } from '../lib/backend/Backend';
import type { Config, Configuration, Document, Extension, FacetGroup, FacetHealth, Offers, Refiner, SearchSpace } from '../lib/types/generated';
import { allOffered, notOfferedMessage } from '../lib/backend/offers';
import { webWorkspace } from '../lib/backend/webworkspace';
import { validateConfig } from '../lib/editor/rules';
import { getPath, setPath } from '../lib/editor/paths';

export function template(): Configuration {
  return {
    id: null, user: 'anonymous', created: null,
    config: {
      title: '', searchSpace: '', visible: true,
      result: {
        itemsPerPage: 10, showResultCount: true, summaryLength: 200, showTags: true, numberOfTags: 10, titleAction: 'detail_view',
        dateFormat: 'medium', showSimilarDocuments: true, numberOfSimilarDocuments: 5, showDynamicSentiment: false, showResultAsImage: false,
      },
      filter: { facetsToShow: [], hideEmptyFacets: true, componentOrder: [] },
      layout: {
        basicActionColor: { backgroundColor: '#1565c0', fontColor: '#ffffff' },
        focusActionColor: { backgroundColor: '#f07d2e', fontColor: '#ffffff' },
        criticalActionColor: { backgroundColor: '#ff0000', fontColor: '#ffffff' },
        navbar: { backgroundColor: '#00adee', fontColor: '#ffffff' },
        facets: { backgroundColor: '#fff', fontColor: '#212121' },
        documents: { backgroundColor: '#fff', fontColor: '#212121' },
        logo: '',
      },
      details: {
        detailsToShow: [], showSimilar: false, showSimilarAsImage: false, showRecommendations: false, recommender: '',
        numberOfRecommendations: 4, numberOfSimilar: 4, showRecommendedAsImage: false, showConceptHighlighting: false,
      },
    },
  };
}

const r = (label: string, value: string | null = null, children: Refiner[] | null = null): Refiner =>
  ({ count: 1 as unknown as bigint, label, value, children });

/** Twelve documents: authors Ana (8) and Ben (4), topic Energy > Solar for even ones, sentiment ±0.5. */
export function documents(n = 12): Document[] {
  return Array.from({ length: n }, (_, i) => {
    const topic: FacetGroup = {
      field: 'dyn_uri_topic', label: 'Topic',
      facets: i % 2 === 0 ? [r('Energy', 'urn:energy', [r('Solar', 'urn:solar')])] : [r('Health', 'urn:health')],
    };
    const concepts = i % 2 === 0 ? [r('urn:energy', 'Energy'), r('urn:solar', 'Solar')] : [r('urn:health', 'Health')];
    return {
      id: `urn:doc:${i}`, link: `https://example.org/doc/${i}`, title: `Document ${i}`,
      description: `Solar power and Energy news number ${i}. ` + 'More words follow here. '.repeat(20),
      date: Date.UTC(2024, 0, 31 - i, 12), empty: false, image: null, searchSpaceId: 'demo', type: 'User', documentDetails: [],
      facetList: [
        { field: 'dyn_lit_author', label: 'Author', facets: [r(i < 8 ? 'Ana' : 'Ben')] },
        topic,
        { field: 'dyn_uri_all_concepts', label: 'All concepts', facets: concepts },
        { field: 'dyn_flt_sentiment', label: 'Sentiment', facets: [r(i % 2 === 0 ? '0.5' : '-0.5')] },
      ],
    };
  });
}

function count(docs: Document[], field: string): Refiner[] {
  const counts = new Map<string, Refiner & { n: number }>();
  const walk = (rs: Refiner[] | null) => {
    for (const x of rs ?? []) {
      const key = x.value ?? x.label;
      const e = counts.get(key) ?? { ...x, n: 0 };
      e.n++;
      counts.set(key, e);
    }
  };
  for (const d of docs) walk(d.facetList.find((g) => g.field === field)?.facets ?? null);
  return [...counts.values()].map(({ n, ...x }) => ({ ...x, count: n as unknown as bigint })).sort((a, b) => Number(b.count) - Number(a.count));
}

/**
 * The browser's Workspace, which the constructor puts on every FakeBackend, and every operation of the Api: one this
 * fake does not answer (an operation added to the Backend trait) fails with `not_offered` naming it, so that a new
 * operation needs no code here until a test uses it.
 */
export interface FakeBackend extends Backend, Workspace {}

export class FakeBackend {
  configs = new Map<number, Configuration>();
  activeId: number | null = null;
  docs = documents();
  nextId = 1;
  calls: { op: string; arg?: unknown }[] = [];
  /** Keys to refuse on the next update, as a server with stricter rules would. */
  refuse: { key: string; message: string }[] = [];
  /** Extensions this server lacks: calling one fails with `not_offered`, as an API-only server's answer reads. */
  lacks = new Set<Extension>();
  /** Whether `offers()` knows what it lacks up front (an OpenAPI document), or only once a call was refused. */
  documented = true;
  #refused = new Set<Extension>();

  constructor(configs: Partial<Config>[] = []) {
    for (const c of configs) this.#store({ ...template().config, ...c } as Config);
    if (this.configs.size) this.activeId = 1;
    for (const name of API_OPERATIONS) {
      if (!(name in this)) Object.assign(this, { [name]: async () => { throw new BackendError('not_offered', `the fake backend does not answer ${name}`); } });
    }
    Object.assign(this, webWorkspace(this, 'fake'));
  }

  #store(config: Config): Configuration {
    const id = this.nextId++;
    const env = { id, user: 'tester', created: '2024-01-01T00:00:00.000Z', config };
    this.configs.set(id, structuredClone(env));
    return env;
  }

  #offered(extension: Extension) {
    if (!this.lacks.has(extension)) return;
    this.#refused.add(extension);
    throw new BackendError('not_offered', notOfferedMessage(extension));
  }

  #get(id: number): Configuration {
    const c = this.configs.get(id);
    if (!c) throw new BackendError('not_found', `configuration ${id} does not exist`);
    return structuredClone(c);
  }

  async defaultConfiguration() { return template(); }
  async listConfigurations() { return { configurations: [...this.configs.values()].map((c) => structuredClone(c)), activeId: this.activeId }; }
  async activeConfiguration() { if (this.activeId === null) throw new BackendError('not_found', 'none'); return this.#get(this.activeId); }
  async getConfiguration(id: number) { return this.#get(id); }
  async createConfiguration(body: unknown) {
    this.calls.push({ op: 'create', arg: body });
    const env = this.#store((body as Configuration).config);
    if (this.activeId === null) this.activeId = env.id;
    return { config: structuredClone(env), errors: [] };
  }
  async updateConfiguration(id: number, body: unknown) {
    this.calls.push({ op: 'update', arg: structuredClone(body) });
    const stored = this.#get(id);
    const sent = (body as Configuration).config;
    const errors = [...validateConfig(sent), ...this.refuse];
    this.refuse = [];
    const next = structuredClone(sent);
    for (const e of errors) setPath({ config: next }, e.key, getPath(stored, e.key));
    const env = { ...stored, config: next };
    this.configs.set(id, structuredClone(env));
    return { config: env, errors };
  }
  async similarDocuments(_id: number, q: { uri: string; number: number | null }) {
    this.calls.push({ op: 'similar', arg: q });
    return this.docs.filter((d) => d.id !== q.uri).slice(0, q.number ?? 5);
  }
  async recommendations(_id: number, q: { uri: string; recommender: string }) {
    this.calls.push({ op: 'recommend', arg: q });
    const result = this.docs.filter((d) => d.id !== q.uri).slice(-3);
    return { message: 'took 0 ms', result, resultType: null, status: 200, success: true, total: result.length };
  }
  async search(id: number, request: PreviewSearchRequest) {
    this.calls.push({ op: 'search', arg: structuredClone(request) });
    const config = request.config ?? this.#get(id).config;
    const q = (request.input ?? '').toLowerCase();
    let hits = this.docs.filter((d) => !q || d.title.toLowerCase().includes(q));
    for (const s of request.selectedFacets) {
      hits = hits.filter((d) => JSON.stringify(d.facetList.find((g) => g.field === s.field)?.facets ?? []).includes(JSON.stringify(s.value ?? s.label)));
    }
    const facets = config.filter.facetsToShow
      .filter((f) => f.show)
      .map((f) => ({ field: f.uri, label: f.title, facets: count(hits, f.uri).slice(0, f.maximumTerms) }));
    const start = request.start ?? 0;
    return {
      concepts: [], facets, message: 'took 0 ms', total: hits.length as unknown as bigint,
      result: hits.slice(start, start + config.result.itemsPerPage),
    };
  }
  async setActive(id: number) { this.#offered('setActive'); this.activeId = id; return this.#get(id); }
  async configurationLogs() { this.#offered('logs'); return []; }
  async deleteConfiguration(id: number) {
    this.#offered('delete');
    if (id === this.activeId) throw new BackendError('conflict', 'the active configuration cannot be deleted');
    this.configs.delete(id);
  }
  async offers(): Promise<Offers> {
    this.calls.push({ op: 'offers' });
    const offers = allOffered();
    for (const extension of this.documented ? this.lacks : this.#refused) offers[extension] = false;
    return offers;
  }
  async facetHealth(): Promise<FacetHealth> {
    this.#offered('facetHealth');
    throw new BackendError('not_offered', 'this server does not count facet health');
  }
  async searchSpaces(): Promise<SearchSpace[]> {
    this.#offered('searchSpaces');
    return [{
      id: 'demo', documents: 12 as unknown as bigint,
      fields: [
        { field: 'dyn_lit_author', label: 'Author', uri: 'urn:field:dyn_lit_author', kind: 'literal' },
        { field: 'dyn_uri_topic', label: 'Topic', uri: 'urn:field:dyn_uri_topic', kind: 'concept' },
        { field: 'dyn_flt_sentiment', label: 'Sentiment', uri: 'urn:field:dyn_flt_sentiment', kind: 'numeric' },
      ],
    }];
  }
}
