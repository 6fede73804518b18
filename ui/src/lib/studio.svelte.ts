// The editor's application state: the configuration list, the search spaces, one Draft per opened
// configuration (so switching keeps unsaved edits), and the operations on them. It also knows what the server
// offers (read at start and again after every `not_offered` answer) and the facet fields found in the answers
// of every search run through its backend, for servers that do not list their search spaces.
import { HealthCache } from './designer/healthcache.svelte';
import type { Backend, KeptDraft } from './backend/Backend';
import { BackendError, isUnreachable } from './backend/Backend';
import { allOffered } from './backend/offers';
import { watchBackend } from './backend/watch';
import { FoundFields } from './panes/found.svelte';
import type { Configuration, Offers, SearchSpace } from './types/generated';
import type { Conflict, HistoryEntry, PublishOutcome, Side } from './types/sync';
import { Draft } from './editor/draft.svelte';
import { resolve, sameSettings } from './editor/conflict';
import { savePrefs } from './prefs';

/** A draft kept from an earlier session, offered back (restore or discard). */
export type DraftOffer = { id: number; kept: KeptDraft; changedSince: boolean };
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
  offer: DraftOffer | null = $state(null);
  /** A publish stopped at a change it did not know of: on the server, or (`onDisk`) in a folder workspace's file. */
  conflict: (Conflict & { id: number; onDisk?: boolean }) | null = $state.raw(null);
  /** In a folder workspace, the open configurations whose file was deleted on disk, by id: their file's name. */
  gone: Record<number, string> = $state({});
  /** Whether the backend is a folder workspace (its configurations are files on disk). */
  inFolder = false;
  /** Whether the backend answered the last time it was asked. */
  online = $state(true);
  /** The extensions the server offers, as far as is known (unknown counts as offered). */
  offers: Offers = $state(allOffered());
  /** Facet fields found in search answers, per search space. */
  found: FoundFields;
  /** How well each field serves as a facet, per search space. */
  health: HealthCache;
  #unwatched: Backend;
  /** The version a draft started from, where it is not the stored one (a restored draft, a resolved conflict). */
  #bases: Record<number, Configuration> = {};
  /** What was last written for each kept draft, so that unchanged drafts are not written again. */
  #kept = new Map<number, string>();
  /** Configurations whose edits could not be written as drafts (a full disk). */
  #unwritten = new Set<number>();
  /**
   * Said for as long as some edit is kept only in memory: its draft could not be written and it is not saved.
   * It goes once a save or a draft write of each such configuration succeeds.
   */
  unwrittenNotice: string | null = $state(null);

  #noteWritten(id: number) {
    this.#unwritten.delete(id);
    if (this.#unwritten.size === 0) this.unwrittenNotice = null;
  }

  #noteUnwritten(id: number, e: unknown) {
    this.#unwritten.add(id);
    this.unwrittenNotice = `Your changes are not saved to disk: ${BackendError.from(e).message}; they are kept while the app is open.`;
  }

  constructor(backend: Backend) {
    this.#unwatched = backend;
    this.found = new FoundFields((id, request) => backend.search(id, request));
    this.health = new HealthCache(
      async (space) => {
        if (!this.offers.facetHealth) return null;
        try {
          return { ...(await this.backend.facetHealth(space)), estimatedFrom: null };
        } catch (e) {
          if (BackendError.from(e).code === 'not_offered') return null;
          throw e;
        }
      },
      (id) => this.backend.search(id, { input: '', selectedFacets: [], start: 0 }),
    );
    this.backend = watchBackend(backend, {
      onSearch: (id, request, answer) => this.found.note(request.config?.searchSpace ?? this.#spaceOf(id), answer),
      onError: (e) => {
        if (e.code === 'not_offered') void this.readOffers();
      },
    });
  }

  /** The search space of a configuration as stored, which a search without settings of its own runs over. */
  #spaceOf(id: number): string | undefined {
    return this.configurations.find((c) => c.id === id)?.config.searchSpace ?? this.drafts[id]?.envelope.config.searchSpace;
  }

  /** The search spaces to suggest: those the server lists, else those its configurations use. */
  spaceNames = $derived(
    this.spaces.length ? this.spaces.map((s) => s.id) : [...new Set(this.configurations.map((c) => c.config.searchSpace).filter(Boolean))],
  );

  /** Asks the backend what it offers now. */
  async readOffers(): Promise<void> {
    try {
      this.offers = await this.#unwatched.offers();
    } catch {
      /* unknown: keep what is known */
    }
  }

  /** The history of configuration `id`: the server's log and the versions published from here. */
  async history(id: number): Promise<HistoryEntry[]> {
    try {
      return await this.backend.history(id);
    } finally {
      // Reading it may have taught the backend that the server keeps no log.
      void this.readOffers();
    }
  }

  /** The stored version a draft started from. */
  baseOf(draft: Draft): Configuration {
    return (draft.id !== null && this.#bases[draft.id]) || JSON.parse(draft.savedJson);
  }

  /** Keeps each unsaved draft (with the version it started from) in the local store; forgets clean ones. */
  async autosave(): Promise<void> {
    for (const draft of Object.values(this.drafts)) {
      const id = draft.id;
      if (id === null || this.offer?.id === id) continue;
      const json = draft.dirty ? draft.json : null;
      if (this.#kept.get(id) === (json ?? '')) continue;
      this.#kept.set(id, json ?? '');
      try {
        if (json) await this.backend.saveDraft(id, draft.body(), this.baseOf(draft));
        else await this.backend.discardDraft(id);
        this.#noteWritten(id);
      } catch (e) {
        this.#kept.delete(id);
        // An edit whose draft cannot be written lives only in this window now; a clean one has nothing to lose.
        if (json) this.#noteUnwritten(id, e);
      }
    }
  }

  /** Offers back a draft kept from an earlier session. */
  async #offer(draft: Draft): Promise<void> {
    if (draft.id === null) return;
    let kept: KeptDraft | null;
    try {
      kept = await this.backend.getDraft(draft.id);
    } catch {
      return;
    }
    if (kept === null) {
      // None is kept: the autosave has nothing to forget while the draft stays clean.
      this.#kept.set(draft.id, '');
      return;
    }
    if (JSON.stringify(kept.draft) === draft.savedJson) return;
    const changedSince = kept.base !== null && !sameSettings(kept.base, JSON.parse(draft.savedJson));
    this.offer = { id: draft.id, kept, changedSince };
  }

  /** Takes the offered draft back; publishing it later checks the version it started from. */
  restoreOffer(): void {
    const offer = this.offer;
    const draft = offer && this.drafts[offer.id];
    if (!offer || !draft) return;
    draft.restore(offer.kept.draft);
    if (offer.kept.base) this.#bases[offer.id] = offer.kept.base;
    this.offer = null;
    this.say({ kind: 'info', text: 'Unsaved changes from your last session were restored.' });
  }

  /** Forgets the offered draft; the editor keeps the published version. */
  async discardOffer(): Promise<void> {
    const offer = this.offer;
    if (!offer) return;
    this.offer = null;
    this.#kept.delete(offer.id);
    await this.backend.discardDraft(offer.id).catch(() => undefined);
  }

  /** Asks whether the backend answers, and shows it. */
  async checkConnection(): Promise<void> {
    try {
      this.online = (await this.backend.checkConnection()).online;
    } catch {
      this.online = false;
    }
  }

  /** Resolves the conflict on screen: merges, makes the server's version the base, and publishes again. */
  async resolveConflict(choices: Record<string, Side>, fallback: Side): Promise<void> {
    const c = this.conflict;
    const draft = c && this.drafts[c.id];
    if (!c || !draft) return;
    const merged = resolve(c.base, c.mine, c.theirs as Configuration, choices, fallback);
    this.conflict = null;
    draft.rebase(c.theirs as Configuration);
    draft.restore(merged);
    delete this.#bases[c.id];
    await this.save();
  }

  /** Makes an earlier version the draft (one undo step); publishing it stores it as a new version. */
  restoreVersion(version: Configuration): void {
    const draft = this.current;
    if (!draft) return;
    const envelope = { ...structuredClone(version), id: draft.envelope.id, user: draft.envelope.user, created: draft.envelope.created };
    draft.restore(envelope);
    this.say({ kind: 'info', text: `The version of ${new Date(version.created ?? Date.now()).toLocaleString()} is now your draft; publish to store it.` });
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
    if (isUnreachable(err)) {
      this.online = false;
      this.say({ kind: 'error', text: `${what}: the server cannot be reached (offline). Your draft is kept on this device. (${err.message})` });
    } else {
      this.say({ kind: 'error', text: `${what}: ${err.message}` });
    }
    return err;
  }

  async init(lastConfigId: number | null): Promise<void> {
    this.loading = true;
    try {
      const [list, template] = await Promise.all([this.backend.listConfigurations(), this.backend.defaultConfiguration(), this.readOffers()]);
      this.template = template;
      this.#setList(list.configurations, list.activeId);
      const ids = list.configurations.map((c) => c.id);
      const first = [lastConfigId, list.activeId, ids[0] ?? null].find((id) => id !== null && ids.includes(id));
      // Asked together: neither needs the other's answer.
      await Promise.all([this.refreshSpaces(), first !== undefined && first !== null ? this.open(first) : null]);
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

  /** Lists the search spaces, where the server offers that. */
  async refreshSpaces(): Promise<void> {
    if (!this.offers.searchSpaces) {
      this.spaces = [];
      return;
    }
    this.spaces = await this.backend.searchSpaces().catch(() => this.spaces);
  }

  async open(id: number): Promise<void> {
    if (this.currentId !== id && this.notice?.kind !== 'error') this.say(null);
    if (!this.drafts[id]) {
      try {
        const draft = new Draft(await this.backend.getConfiguration(id));
        this.drafts[id] = draft;
        await this.#offer(draft);
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
      await this.backend.discardDraft(id).catch(() => undefined);
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
    // A file deleted on disk is written again as it is in the editor: there is nothing left to compare it with.
    const gone = this.gone[id];
    try {
      const answer: PublishOutcome = gone
        ? { status: 'published', outcome: await this.backend.updateConfiguration(id, body) }
        : await this.backend.publish(id, body, this.baseOf(draft));
      this.online = true;
      if (answer.status === 'conflict') {
        this.conflict = { ...answer.conflict, id, onDisk: this.inFolder };
        this.say({ kind: 'error', text: 'Not published: this configuration was changed elsewhere since you started. Choose what to keep.' });
        return [];
      }
      const outcome = answer.outcome;
      delete this.#bases[id];
      if (gone) {
        delete this.gone[id];
        void this.refreshList().catch(() => undefined);
      }
      draft.markSaved(sentJson, outcome.config, outcome.errors);
      if (!draft.dirty) this.#noteWritten(id);
      this.configurations = this.configurations.map((c) => (c.id === id ? outcome.config : c));
      const n = outcome.errors.length;
      this.say(
        n
          ? { kind: 'error', text: `Saved, except ${n} ${n === 1 ? 'setting' : 'settings'} the server refused (marked at ${n === 1 ? 'its field' : 'their fields'}); what you typed is kept.`, fromSave: true }
          : { kind: 'success', text: 'Saved.' },
      );
      return outcome.errors.map((e) => e.key);
    } catch (e) {
      this.#fail('Not published; your changes are kept', e);
      return [];
    } finally {
      this.saving = false;
    }
  }
}
