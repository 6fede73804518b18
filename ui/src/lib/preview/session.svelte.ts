// What the user of the previewed search application has done (the query, the selected facet values, the page) and,
// per preview, the search answer for that and the open document. Two previews compared side by side share one
// `SearchState`, so a query typed or a refiner clicked in either is the other's too. A newer search always wins
// over an older one. The app's first search is sent ahead, as soon as the configuration is known, and taken by the
// preview when it asks for the same search.
import type { Backend, PreviewSearchRequest } from '../backend/Backend';
import { BackendError } from '../backend/Backend';
import type { Config, Document, SearchResponse, SelectedFacet } from '../types/generated';

/** A search sent before any preview asked for it, and exactly what it asked. */
interface SentAhead {
  backend: Backend;
  key: string;
  answer: Promise<SearchResponse>;
}

const requestKey = (id: number, request: PreviewSearchRequest) => JSON.stringify([id, request]);

/** The searcher's side: what is asked, whichever previews show it. */
export class SearchState {
  query = $state('');
  selected: SelectedFacet[] = $state([]);
  start = $state(0);
  /** A preview has shown an answer to a search of this state: its results, or why there are none. */
  answered = $state(false);

  isSelected(field: string, label: string, value: string | null): boolean {
    return this.selected.some((s) => s.field === field && (value !== null ? s.value === value : s.label === label));
  }

  toggle(field: string, label: string, value: string | null): void {
    const at = this.selected.findIndex((s) => s.field === field && (value !== null ? s.value === value : s.label === label));
    this.selected = at >= 0 ? this.selected.filter((_, i) => i !== at) : [...this.selected, { field, label, value }];
    this.start = 0;
  }

  setQuery(q: string): void {
    this.query = q;
    this.start = 0;
  }

  /** Puts the state to a stored search (a scenario): query and selections, first page. */
  apply(query: string, selected: SelectedFacet[]): void {
    this.query = query;
    this.selected = selected.map((s) => ({ ...s }));
    this.start = 0;
  }

  reset(): void {
    this.apply('', []);
  }

  /**
   * Starts over whenever the search space of `space` changes (another configuration's may lack the selected
   * values), for as long as the component that calls this (while it is set up) lives.
   */
  followSpace(space: () => string): void {
    let last = '';
    $effect(() => {
      const now = space();
      if (now !== last) this.reset();
      last = now;
    });
  }

  /** The search a preview of `config` sends for what is asked now. */
  request(config: Config): PreviewSearchRequest {
    return { input: this.query.trim() || null, selectedFacets: $state.snapshot(this.selected), start: this.start, config };
  }

  #ahead: SentAhead | null = null;

  /**
   * Sends now the search a preview of configuration `id` showing `config` will ask for, so that its answer is on
   * its way while the preview is being built (the app's first results wait for nothing else). The first preview
   * that asks for exactly this search takes the answer instead of sending it again.
   */
  sendAhead(backend: Backend, id: number, config: Config): void {
    const request = this.request(config);
    const answer = backend.search(id, request);
    // Its failure is reported to the preview that takes it; one never taken is of no interest.
    answer.catch(() => undefined);
    this.#ahead = { backend, key: requestKey(id, request), answer };
  }

  /** The answer of the search sent ahead when it is this one; any search asked after it makes it stale. */
  takeAhead(backend: Backend, id: number, request: PreviewSearchRequest): Promise<SearchResponse> | null {
    const ahead = this.#ahead;
    this.#ahead = null;
    return ahead && ahead.backend === backend && ahead.key === requestKey(id, request) ? ahead.answer : null;
  }
}

/** One preview: the shared search state and this preview's answer to it. */
export class PreviewSession {
  readonly state: SearchState;
  response: SearchResponse | null = $state.raw(null);
  loading = $state(false);
  error: string | null = $state(null);
  detail: Document | null = $state.raw(null);
  #seq = 0;

  constructor(state: SearchState = new SearchState()) {
    this.state = state;
  }

  get query(): string {
    return this.state.query;
  }
  get selected(): SelectedFacet[] {
    return this.state.selected;
  }
  get start(): number {
    return this.state.start;
  }
  set start(value: number) {
    this.state.start = value;
  }
  isSelected(field: string, label: string, value: string | null): boolean {
    return this.state.isSelected(field, label, value);
  }
  toggle(field: string, label: string, value: string | null): void {
    this.state.toggle(field, label, value);
  }
  setQuery(q: string): void {
    this.state.setQuery(q);
  }
  reset(): void {
    this.state.reset();
  }

  async run(backend: Backend, id: number, config: Config): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const request = this.state.request(config);
      const response = await (this.state.takeAhead(backend, id, request) ?? backend.search(id, request));
      if (seq !== this.#seq) return;
      this.response = response;
      this.error = null;
    } catch (e) {
      if (seq !== this.#seq) return;
      this.error = BackendError.from(e).message;
    } finally {
      if (seq === this.#seq) {
        this.loading = false;
        this.state.answered = true;
      }
    }
  }
}
