//! Loading the whole demo into a local store: its concept scheme, its documents and the one configuration
//! over them. The desktop app (its "load the demo" task and its first launch) and `studio demo-data` both
//! call [`load_demo_data`], so that they load the same thing the same way.

use std::io::{BufReader, Cursor, Read};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use studio_model::BackendError;

use super::data::{demo_configuration, write_concepts, write_documents, DEMO_DOCUMENTS, DEMO_SEED, DEMO_SPACE};
use crate::backend::{os_caller, LocalBackend};
use crate::configs;
use crate::error::StoreError;
use crate::import::{import_concepts, import_documents, ImportReport};
use crate::store::Store;

/// What `load_demo` loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DemoReport {
    pub concepts: ImportReport,
    pub documents: ImportReport,
}

/// Loads the demo concept scheme and documents into `store`, without the configuration ([`load_demo_data`]
/// loads the whole demo). Loading again replaces the documents. `on_progress` receives the number of
/// document lines read so far.
pub fn load_demo(store: &Store, on_progress: &mut dyn FnMut(u64)) -> Result<DemoReport, StoreError> {
    load_data(store, on_progress, &AtomicBool::new(false))
}

/// What [`load_demo_data`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoDataReport {
    /// The concepts and documents loaded.
    pub data: DemoReport,
    /// The configuration over the demo search space.
    pub configuration: DemoConfiguration,
}

/// The configuration using the demo search space after a load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DemoConfiguration {
    /// This load created it (from [`demo_configuration`]).
    Created { id: i32, title: String },
    /// One already used the demo search space, and was left as it was.
    Existing { id: i32 },
}

/// Why the demo could not be loaded; the message is the store's or the configuration's own.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// Loading the concepts or documents failed, or the load was cancelled (a read error of the input).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Listing or creating the configuration failed.
    #[error(transparent)]
    Configuration(#[from] BackendError),
}

/// A reader that fails once `cancel` is set, which ends an import between two lines.
struct Cancellable<'a, R> {
    inner: R,
    cancel: &'a AtomicBool,
}

impl<R: Read> Read for Cancellable<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("cancelled"));
        }
        self.inner.read(buf)
    }
}

/// Loads the demo concept scheme and documents into the store of `local` (loading again replaces the
/// documents), then creates the demo configuration as the person using this machine, unless a
/// configuration already uses the demo search space. `on_progress` receives the number of document lines
/// read so far; setting `cancel` stops the documents' import between two lines (batches already written
/// stay written) and no configuration is created.
pub fn load_demo_data(
    local: &LocalBackend,
    on_progress: &mut dyn FnMut(u64),
    cancel: &AtomicBool,
) -> Result<DemoDataReport, DemoError> {
    let data = load_data(local.store(), on_progress, cancel)?;
    let mut conn = local.store().conn()?;
    let existing = configs::list(&conn)?;
    let configuration = match existing.configurations.iter().find(|c| c.config.search_space == DEMO_SPACE) {
        Some(config) => DemoConfiguration::Existing { id: config.id.unwrap_or_default() },
        None => {
            let created = configs::create(&mut conn, &os_caller(), &demo_configuration())?;
            DemoConfiguration::Created { id: created.config.id.unwrap_or_default(), title: created.config.config.title }
        }
    };
    Ok(DemoDataReport { data, configuration })
}

/// The concept scheme and the documents, without the configuration; `cancel` as for [`load_demo_data`].
fn load_data(store: &Store, on_progress: &mut dyn FnMut(u64), cancel: &AtomicBool) -> Result<DemoReport, StoreError> {
    let mut concepts = Vec::new();
    write_concepts(&mut concepts)?;
    let concepts = import_concepts(store, Cursor::new(concepts), &mut |_| {})?;
    let mut documents = Vec::new();
    write_documents(&mut documents, DEMO_DOCUMENTS, DEMO_SEED)?;
    let reader = BufReader::new(Cancellable { inner: Cursor::new(documents), cancel });
    let documents = import_documents(store, DEMO_SPACE, reader, on_progress)?;
    Ok(DemoReport { concepts, documents })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::{load_demo_data, DemoConfiguration};
    use crate::backend::LocalBackend;
    use crate::configs;
    use crate::demo::{DEMO_DOCUMENTS, DEMO_SPACE};
    use crate::store::Store;

    fn backend(dir: &tempfile::TempDir) -> LocalBackend {
        LocalBackend::new(Store::open_dir(dir.path()).unwrap())
    }

    #[test]
    fn the_first_load_creates_the_configuration_and_a_second_keeps_it() {
        let dir = tempfile::tempdir().unwrap();
        let local = backend(&dir);
        let mut last = 0;
        let first = load_demo_data(&local, &mut |n| last = n, &AtomicBool::new(false)).unwrap();
        assert_eq!(first.data.documents.imported, DEMO_DOCUMENTS as u64);
        assert_eq!(last, DEMO_DOCUMENTS as u64);
        let DemoConfiguration::Created { id, title } = first.configuration else { panic!("{first:?}") };
        assert_eq!(title, "Industry news (demo)");
        let again = load_demo_data(&local, &mut |_| {}, &AtomicBool::new(false)).unwrap();
        assert_eq!(again.configuration, DemoConfiguration::Existing { id });
        let list = configs::list(&local.store().conn().unwrap()).unwrap();
        assert_eq!(list.configurations.len(), 1, "one configuration over the demo space");
        assert_eq!(list.configurations[0].config.search_space, DEMO_SPACE);
    }

    #[test]
    fn a_cancelled_load_stops_and_creates_no_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let local = backend(&dir);
        let failed = load_demo_data(&local, &mut |_| {}, &AtomicBool::new(true));
        assert!(failed.unwrap_err().to_string().contains("cancelled"));
        let list = configs::list(&local.store().conn().unwrap()).unwrap();
        assert!(list.configurations.is_empty());
    }
}
