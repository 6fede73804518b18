// The editor's application state: the configuration list, the search spaces, one Draft per opened
// configuration (so switching keeps unsaved edits), and the operations on them.
import type { Backend } from './backend/Backend';
import { BackendError } from './backend/Backend';
import type { Configuration, SearchSpace } from './types/generated';
import { Draft } from './editor/draft.svelte';
import { savePrefs } from './prefs';

export type Notice = { kind: 'info' | 'success' | 'error'; text: string; fromSave?: boolean } | null;

export class Studio {
  backend: Backend;
  configurations: Configuration[] = $state.raw([]);
  activeId: number | null = $state(null);
  spaces: SearchSpace[] = $state.raw([]);
  template: Configuration | null = $state.raw(null);
  drafts: Record<number, Draft> = $state({});
  currentId: number | null = $state(null);
  notice: Notice = $state(null);
  saving = $state(false);
  loading = $state(true);

  current = $derived(this.currentId === null ? null : (this.drafts[this.currentId] ?? null));

  /** Names the store behind the backend, so that autosaved drafts of different stores never mix. */
  storeKey: string;

  constructor(backend: Backend, storeKey = 'default') {
    this.backend = backend;
    this.storeKey = storeKey;
  }

  #draftKey(id: number) {
    return `search-studio.draft.${this.storeKey}.${id}`;
  }

  /** Keeps each unsaved draft in localStorage (with the stored version it was based on); drops clean ones. */
  autosave(): void {
    try {
      for (const draft of Object.values(this.drafts)) {
        if (draft.id === null) continue;
        const key = this.#draftKey(draft.id);
        if (draft.dirty) localStorage.setItem(key, JSON.stringify({ base: draft.savedJson, draft: draft.json }));
        else localStorage.removeItem(key);
      }
    } catch {
      /* storage full or unavailable: drafts live in memory only */
    }
  }

  /** A draft autosaved in an earlier session, if it was based on exactly what is stored now. */
  #restore(draft: Draft): boolean {
    if (draft.id === null) return false;
    try {
      const saved = JSON.parse(localStorage.getItem(this.#draftKey(draft.id)) ?? 'null');
      if (!saved || saved.base !== draft.savedJson || saved.draft === draft.savedJson) return false;
      draft.restore(JSON.parse(saved.draft));
      return true;
    } catch {
      return false;
    }
  }

  #noticeTimer: ReturnType<typeof setTimeout> | undefined;

  /** Shows a notice; success notices go away by themselves. */
  say(notice: Notice) {
    clearTimeout(this.#noticeTimer);
    this.notice = notice;
    if (notice?.kind === 'success') this.#noticeTimer = setTimeout(() => (this.notice = null), 4000);
  }

  #fail(what: string, e: unknown) {
    const err = BackendError.from(e);
    this.say({ kind: 'error', text: `${what}: ${err.message}` });
    return err;
  }

  async init(lastConfigId: number | null): Promise<void> {
    this.loading = true;
    try {
      const [list, template] = await Promise.all([this.backend.listConfigurations(), this.backend.defaultConfiguration()]);
      this.template = template;
      this.#setList(list.configurations, list.activeId);
      this.spaces = await this.backend.searchSpaces().catch(() => []);
      const ids = list.configurations.map((c) => c.id);
      const first = [lastConfigId, list.activeId, ids[0] ?? null].find((id) => id !== null && ids.includes(id));
      if (first !== undefined && first !== null) await this.open(first);
    } catch (e) {
      this.#fail('Could not load the configurations', e);
    } finally {
      this.loading = false;
    }
  }

  #setList(configurations: Configuration[], activeId: number | null) {
    this.configurations = configurations;
    this.activeId = activeId;
  }

  async refreshList(): Promise<void> {
    const list = await this.backend.listConfigurations();
    this.#setList(list.configurations, list.activeId);
  }

  async refreshSpaces(): Promise<void> {
    this.spaces = await this.backend.searchSpaces().catch(() => this.spaces);
  }

  async open(id: number): Promise<void> {
    if (this.currentId !== id && this.notice?.kind !== 'error') this.say(null);
    if (!this.drafts[id]) {
      try {
        const draft = new Draft(await this.backend.getConfiguration(id));
        if (this.#restore(draft)) this.say({ kind: 'info', text: 'Unsaved changes from your last session were restored.' });
        this.drafts[id] = draft;
      } catch (e) {
        this.#fail(`Could not open configuration ${id}`, e);
        return;
      }
    }
    this.currentId = id;
    void savePrefs(this.backend, { lastConfigId: id });
  }

  /** Creates a configuration from the default template (or a copy of another) and opens it. */
  async create(title: string, searchSpace: string, from?: Configuration): Promise<boolean> {
    const base = structuredClone(from ?? this.template ?? (await this.backend.defaultConfiguration()));
    base.config.title = title;
    base.config.searchSpace = searchSpace;
    try {
      const outcome = await this.backend.createConfiguration({ ...base, id: null, created: null });
      await this.refreshList();
      const id = outcome.config.id;
      if (id !== null) {
        this.drafts[id] = new Draft(outcome.config);
        await this.open(id);
      }
      this.say(
        outcome.errors.length
          ? { kind: 'error', text: `Created, but ${outcome.errors.length} settings took their defaults: ${outcome.errors.map((e) => e.key).join(', ')}` }
          : { kind: 'success', text: `Created “${title}”.` },
      );
      return true;
    } catch (e) {
      this.#fail('Could not create the configuration', e);
      return false;
    }
  }

  async duplicate(id: number): Promise<boolean> {
    const source = this.drafts[id]?.body() ?? this.configurations.find((c) => c.id === id);
    if (!source) return false;
    return this.create(`Copy of ${source.config.title}`, source.config.searchSpace, source);
  }

  async remove(id: number): Promise<void> {
    try {
      await this.backend.deleteConfiguration(id);
      delete this.drafts[id];
      try {
        localStorage.removeItem(this.#draftKey(id));
      } catch {
        /* nothing kept */
      }
      await this.refreshList();
      if (this.currentId === id) {
        this.currentId = null;
        const next = this.activeId ?? this.configurations[0]?.id ?? null;
        if (next !== null) await this.open(next);
      }
      this.say({ kind: 'success', text: `Deleted configuration ${id}.` });
    } catch (e) {
      this.#fail('Could not delete the configuration', e);
    }
  }

  async makeActive(id: number): Promise<void> {
    try {
      await this.backend.setActive(id);
      await this.refreshList();
      this.say({ kind: 'success', text: 'This configuration is now the active one.' });
    } catch (e) {
      this.#fail('Could not make it active', e);
    }
  }

  /** Saves the current draft. Returns the keys the server refused. */
  async save(): Promise<string[]> {
    const draft = this.current;
    if (!draft || draft.id === null || this.saving) return [];
    const id = draft.id;
    const body = draft.body();
    const sentJson = JSON.stringify(body);
    this.saving = true;
    try {
      const outcome = await this.backend.updateConfiguration(id, body);
      draft.markSaved(sentJson, outcome.config, outcome.errors);
      this.configurations = this.configurations.map((c) => (c.id === id ? outcome.config : c));
      const n = outcome.errors.length;
      this.say(
        n
          ? { kind: 'error', text: `Saved, except ${n} ${n === 1 ? 'setting' : 'settings'} the server refused (marked at ${n === 1 ? 'its field' : 'their fields'}); what you typed is kept.`, fromSave: true }
          : { kind: 'success', text: 'Saved.' },
      );
      return outcome.errors.map((e) => e.key);
    } catch (e) {
      this.#fail('Not saved; your changes are kept', e);
      return [];
    } finally {
      this.saving = false;
    }
  }
}
