// The provider's storage (sessions, grants, codes, refresh tokens, interactions) in memory. It outlives
// the provider instance, which is rebuilt when the signing keys rotate, and it can forget every session
// at once, which is how a test makes a Keycloak session end.

const epochTime = () => Math.floor(Date.now() / 1000);

export class Store {
  /** model name -> Map(id -> { payload, expiresAt }) */
  #models = new Map();

  #entries(model) {
    let entries = this.#models.get(model);
    if (!entries) {
      entries = new Map();
      this.#models.set(model, entries);
    }
    return entries;
  }

  #live(model, id) {
    const entries = this.#entries(model);
    const entry = entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= epochTime()) {
      entries.delete(id);
      return undefined;
    }
    return entry;
  }

  /** Forgets everything stored for the named models. */
  clear(models) {
    for (const model of models) this.#models.delete(model);
  }

  /** The adapter oidc-provider uses for one model (its `adapter` factory). */
  adapter(model) {
    const store = this;
    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === 'number' ? epochTime() + expiresIn : undefined;
        store.#entries(model).set(id, { payload: structuredClone(payload), expiresAt });
      },
      async find(id) {
        const entry = store.#live(model, id);
        return entry ? structuredClone(entry.payload) : undefined;
      },
      async findByUid(uid) {
        for (const [id, entry] of store.#entries(model)) {
          if (entry.payload.uid === uid) return this.find(id);
        }
        return undefined;
      },
      async findByUserCode(userCode) {
        for (const [id, entry] of store.#entries(model)) {
          if (entry.payload.userCode === userCode) return this.find(id);
        }
        return undefined;
      },
      async consume(id) {
        const entry = store.#live(model, id);
        if (entry) entry.payload.consumed = epochTime();
      },
      async destroy(id) {
        store.#entries(model).delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const entries of store.#models.values()) {
          for (const [id, entry] of entries) {
            if (entry.payload.grantId === grantId) entries.delete(id);
          }
        }
      },
    };
  }
}
