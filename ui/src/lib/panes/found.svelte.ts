// Facet fields found in search answers, per search space: the Facets pane's candidates on a server that does
// not list its search spaces' fields (docs/choices.md, Real servers). A search answer names fields twice: in its
// `facets` (one group per facet the configuration shows) and in the `facetList` of each document (every field the
// document carries). Every search the editor runs feeds this; when none is known for a search space, one search of the
// first page with empty input finds the first ones.
import type { PreviewSearchRequest } from '../backend/Backend';
import type { SearchResponse } from '../types/generated';

export type FoundField = { field: string; label: string };

export class FoundFields {
  #bySpace: Record<string, FoundField[]> = $state.raw({});
  #asked = new Set<string>();
  #search: (id: number, request: PreviewSearchRequest) => Promise<SearchResponse>;

  /** `search` runs the discovering search; its answer is noted here, not through the caller. */
  constructor(search: (id: number, request: PreviewSearchRequest) => Promise<SearchResponse>) {
    this.#search = search;
  }

  /**
   * The fields found for `space`, by label (the field id where no label was given). Sorted here, when the Facets
   * pane asks, and not at every answer: the locale's collation is then loaded only by a designer who lists them
   * (half a megabyte of the page's memory; docs/performance-journal.md, "What the first screen held unused").
   */
  of(space: string): FoundField[] {
    const fields = (this.#bySpace[space] ?? []).map((f) => ({ field: f.field, label: f.label || f.field }));
    return fields.sort((a, b) => a.label.localeCompare(b.label) || a.field.localeCompare(b.field));
  }

  /** Notes the fields an answer of a search over `space` names; the first non-empty label seen stays. */
  note(space: string | null | undefined, answer: Partial<SearchResponse>): void {
    if (!space) return;
    const known = new Map((this.#bySpace[space] ?? []).map((f) => [f.field, f.label]));
    let changed = false;
    const groups = [...(answer.facets ?? []), ...(answer.result ?? []).flatMap((doc) => doc?.facetList ?? [])];
    for (const group of groups) {
      const field = typeof group?.field === 'string' ? group.field.trim() : '';
      const label = typeof group?.label === 'string' ? group.label.trim() : '';
      if (!field || (known.has(field) && (known.get(field) || !label))) continue;
      known.set(field, label);
      changed = true;
    }
    if (!changed) return;
    this.#bySpace = { ...this.#bySpace, [space]: [...known].map(([field, label]) => ({ field, label })) };
  }

  /**
   * When no field of `space` is known yet, searches the first page with empty input through configuration `id`
   * (once per search space; again only after a failure).
   */
  async discover(id: number, space: string): Promise<void> {
    if (!space || this.#bySpace[space]?.length || this.#asked.has(space)) return;
    this.#asked.add(space);
    try {
      this.note(space, await this.#search(id, { input: '', selectedFacets: [], start: 0 }));
    } catch {
      this.#asked.delete(space);
    }
  }
}
