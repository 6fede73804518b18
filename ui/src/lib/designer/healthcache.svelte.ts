// Facet health per search space, loaded once when the Facets pane needs it and again on demand: exact from the
// facet-health operation where the backend offers it, else estimated from one search (health.ts).
import { BackendError } from '../backend/Backend';
import type { SearchResponse } from '../types/generated';
import { estimateHealth, type SpaceHealth } from './health';

export type HealthState = { state: 'loading' } | { state: 'ready'; health: SpaceHealth } | { state: 'failed'; message: string };

export class HealthCache {
  #bySpace: Record<string, HealthState> = $state({});
  #exact: (space: string) => Promise<SpaceHealth | null>;
  #sample: (configId: number) => Promise<SearchResponse>;

  /**
   * `exact` answers the operation's numbers, or null where the backend does not offer it; `sample` runs a search
   * with no query through a configuration of the search space.
   */
  constructor(exact: (space: string) => Promise<SpaceHealth | null>, sample: (configId: number) => Promise<SearchResponse>) {
    this.#exact = exact;
    this.#sample = sample;
  }

  of(space: string): HealthState | null {
    return this.#bySpace[space] ?? null;
  }

  /** Loads the numbers of `space` unless they are loaded or loading (`again` loads them anew). */
  async load(space: string, configId: number | null, again = false): Promise<void> {
    const known = this.#bySpace[space];
    if (!space || (!again && known && known.state !== 'failed')) return;
    this.#bySpace[space] = { state: 'loading' };
    try {
      let health = await this.#exact(space);
      if (!health) {
        if (configId === null) throw new BackendError('not_offered', 'save the configuration once to estimate its fields');
        health = estimateHealth(space, await this.#sample(configId));
      }
      this.#bySpace[space] = { state: 'ready', health };
    } catch (e) {
      this.#bySpace[space] = { state: 'failed', message: BackendError.from(e).message };
    }
  }
}
