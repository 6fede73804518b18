//! What the fuzz targets share: a store with the demo data, made once per fuzzing process in a temporary
//! directory, and the checks that must hold after any input.
//!
//! A fuzz target must never write outside its temporary directory, and a failed check panics (that is how
//! libFuzzer learns of it); nothing here is used outside fuzzing.

use std::sync::OnceLock;

use studio_local::{demo, LocalBackend, Store};
use studio_model::{Configuration, SearchRequest};

/// A store under a temporary directory that lives as long as the process.
pub struct Scratch {
    pub backend: LocalBackend,
    _dir: tempfile::TempDir,
}

impl Scratch {
    pub fn store(&self) -> &Store {
        self.backend.store()
    }
}

fn open(with_demo: bool) -> Scratch {
    let dir = tempfile::tempdir().expect("a temporary directory for the fuzzing store");
    let store = Store::open_dir(dir.path()).expect("the fuzzing store opens");
    if with_demo {
        demo::load_demo(&store, &mut |_| {}).expect("the demo data loads");
    }
    Scratch { backend: LocalBackend::new(store), _dir: dir }
}

/// The store with the demo search space, shared by every input of a process.
pub fn demo_store() -> &'static Scratch {
    static STORE: OnceLock<Scratch> = OnceLock::new();
    STORE.get_or_init(|| open(true))
}

/// A store with a small generated search space `small` (200 documents), shared by every input of a process:
/// small enough that rebuilding its index after each input stays cheap.
pub fn small_store() -> &'static Scratch {
    static STORE: OnceLock<Scratch> = OnceLock::new();
    STORE.get_or_init(|| {
        let scratch = open(false);
        let mut lines = Vec::new();
        demo::write_documents(&mut lines, 200, demo::DEMO_SEED).expect("documents are generated");
        studio_local::import_documents(scratch.store(), "small", lines.as_slice(), &mut |_| {})
            .expect("documents load");
        scratch
    })
}

/// An empty store, shared by every input of a process (imports accumulate in it).
pub fn empty_store() -> &'static Scratch {
    static STORE: OnceLock<Scratch> = OnceLock::new();
    STORE.get_or_init(|| open(false))
}

/// The demo configuration's settings, as the search of a stored configuration would use them.
pub fn demo_configuration() -> &'static Configuration {
    static CONFIG: OnceLock<Configuration> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let (config, errors) =
            studio_model::merge_create(&demo::demo_configuration()).expect("the demo configuration merges");
        assert!(errors.is_empty(), "{errors:?}");
        config
    })
}

/// Checks that the search index of `space` agrees with the documents table: an empty search finds every
/// document of the space.
pub fn check_index_agrees(scratch: &Scratch, space: &str) {
    let mut conn = scratch.store().conn().expect("a connection");
    let count: i64 = conn
        .query_row("SELECT count(*) FROM documents WHERE search_space = ?1", [space], |r| r.get(0))
        .expect("documents are counted");
    let mut config = Configuration::template().config;
    config.search_space = space.to_owned();
    let answer =
        scratch.backend.engine().search(&mut conn, &config, &SearchRequest::default()).expect("an empty search");
    assert_eq!(answer.total, count, "the index of `{space}` disagrees with the documents table");
}
