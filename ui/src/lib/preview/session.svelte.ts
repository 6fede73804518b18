// What the user of the previewed search application has done: the query, the selected facet values, the page
// and the open document; and the search answer for that state. A newer search always wins over an older one.
import type { Backend } from '../backend/Backend';
import { BackendError } from '../backend/Backend';
import type { Config, Document, SearchResponse, SelectedFacet } from '../types/generated';

export class PreviewSession {
  query = $state('');
  selected: SelectedFacet[] = $state([]);
  start = $state(0);
  response: SearchResponse | null = $state.raw(null);
  loading = $state(false);
  error: string | null = $state(null);
  detail: Document | null = $state.raw(null);
  #seq = 0;

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

  reset(): void {
    this.query = '';
    this.selected = [];
    this.start = 0;
  }

  async run(backend: Backend, id: number, config: Config): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const response = await backend.search(id, {
        input: this.query.trim() || null,
        selectedFacets: $state.snapshot(this.selected),
        start: this.start,
        config,
      });
      if (seq !== this.#seq) return;
      this.response = response;
      this.error = null;
    } catch (e) {
      if (seq !== this.#seq) return;
      this.error = BackendError.from(e).message;
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }
}
