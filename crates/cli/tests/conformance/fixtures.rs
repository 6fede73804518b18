//! The backends a scenario runs against, each over a fresh store holding the same small corpus:
//! `LocalBackend` directly; `RemoteBackend → studio serve → LocalBackend` over TCP on loopback; and
//! `RemoteBackend → studio serve --upstream → studio serve → LocalBackend`. The servers are the real
//! `studio` binary.

use std::io::{BufRead, BufReader, Cursor, Lines};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Arc;

use studio_local::demo::{write_concepts, write_documents, DEMO_SPACE};
use studio_local::{import_concepts, import_documents, os_caller, LocalBackend, Store};
use studio_model::{Backend, Caller};
use studio_remote::RemoteBackend;

const STUDIO: &str = env!("CARGO_BIN_EXE_studio");
/// Documents of the test corpus (a slice of the demo's generator, with its concept scheme).
pub const CORPUS_DOCUMENTS: usize = 80;

/// One backend to run a scenario against, and what keeps it alive.
pub struct Fixture {
    pub backend: Arc<dyn Backend>,
    pub caller: Caller,
    /// The search space of the corpus.
    pub space: &'static str,
    _servers: Vec<Studio>,
    _dir: tempfile::TempDir,
}

/// A running `studio serve`, killed when dropped.
pub struct Studio {
    child: Child,
    pub base: String,
    pub token: String,
    _stdout: Lines<BufReader<ChildStdout>>,
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `studio serve` on a free loopback port with `args` and `env`, and reads its token and address.
pub fn studio_serve(data_dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Studio {
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .args(args)
        .env_remove("STUDIO_UPSTREAM_TOKEN")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("studio starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = || lines.next().expect("a line from studio serve").expect("readable");
    let token = next().strip_prefix("token: ").expect("the token line comes first").to_owned();
    let base = next().strip_prefix("listening on ").expect("then the address").to_owned();
    Studio { child, base, token, _stdout: lines }
}

/// A fresh store in `dir` with the corpus imported.
fn corpus_store(dir: &Path) -> Store {
    let store = Store::open_dir(dir).expect("store opens");
    let mut concepts = Vec::new();
    write_concepts(&mut concepts).expect("concepts");
    import_concepts(&store, Cursor::new(concepts), &mut |_| {}).expect("concepts import");
    let mut documents = Vec::new();
    write_documents(&mut documents, CORPUS_DOCUMENTS, 7).expect("documents");
    let report = import_documents(&store, DEMO_SPACE, Cursor::new(documents), &mut |_| {}).expect("documents import");
    assert_eq!(report.imported, CORPUS_DOCUMENTS as u64, "{:?}", report.errors);
    store
}

impl Fixture {
    /// `LocalBackend` over a fresh store.
    pub fn local() -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        let backend = LocalBackend::new(corpus_store(&dir.path().join("data")));
        Fixture { backend: Arc::new(backend), caller: os_caller(), space: DEMO_SPACE, _servers: Vec::new(), _dir: dir }
    }

    /// `RemoteBackend → studio serve → LocalBackend` over a fresh store.
    pub fn remote() -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        drop(corpus_store(&data));
        let server = studio_serve(&data, &[], &[]);
        let backend = RemoteBackend::new(&server.base, Some(&server.token)).expect("remote backend");
        Fixture {
            backend: Arc::new(backend),
            caller: os_caller(),
            space: DEMO_SPACE,
            _servers: vec![server],
            _dir: dir,
        }
    }

    /// `RemoteBackend → studio serve --upstream → studio serve → LocalBackend` over a fresh store.
    pub fn proxy() -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        drop(corpus_store(&data));
        let upstream = studio_serve(&data, &[], &[]);
        let proxy = studio_serve(
            &dir.path().join("proxy-data"),
            &["--upstream", &upstream.base],
            &[("STUDIO_UPSTREAM_TOKEN", &upstream.token)],
        );
        let backend = RemoteBackend::new(&proxy.base, Some(&proxy.token)).expect("remote backend");
        Fixture {
            backend: Arc::new(backend),
            caller: os_caller(),
            space: DEMO_SPACE,
            _servers: vec![upstream, proxy],
            _dir: dir,
        }
    }
}
