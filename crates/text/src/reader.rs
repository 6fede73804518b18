//! Reading an index that a writer elsewhere (another [`crate::TextIndex`] of this process, or another process)
//! may change: a [`Reader`] takes no lock, reads the manifest and opens the segments it names, and reads them
//! again only when the manifest was replaced since, reusing the segments it still names.
//!
//! A writer replaces the manifest before it removes the files of segments merged away, so a segment the manifest
//! just read names can only be missing when a newer manifest replaced it meanwhile: the reader then reads the
//! manifest again.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::TextError;
use crate::files::{segment_path, MANIFEST};
use crate::manifest::Manifest;
use crate::segment::Segment;
use crate::snapshot::{Part, Snapshot};

/// Reads of the manifest a reader makes before it gives up on a directory whose segments keep being merged away
/// under it.
const TRIES: usize = 8;

/// Which manifest file a snapshot was read from: a replaced manifest is a new file, written at another moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileStamp {
    dev: u64,
    ino: u64,
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl FileStamp {
    fn of(path: &Path) -> Result<Option<FileStamp>, TextError> {
        match std::fs::metadata(path) {
            Ok(m) => Ok(Some(FileStamp {
                dev: m.dev(),
                ino: m.ino(),
                len: m.len(),
                modified: (m.mtime(), m.mtime_nsec()),
                changed: (m.ctime(), m.ctime_nsec()),
            })),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(TextError::io("read", path)(e)),
        }
    }
}

/// A reader of the index in a directory; see the module's documentation.
#[derive(Debug)]
pub struct Reader {
    dir: PathBuf,
    last: Mutex<Option<(Option<FileStamp>, Snapshot)>>,
}

impl Reader {
    /// A reader of the index in `dir` (which need not exist yet: it reads as an empty index until it does).
    pub fn new(dir: &Path) -> Reader {
        Reader { dir: dir.to_owned(), last: Mutex::new(None) }
    }

    /// The index's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The index as its manifest says now.
    pub fn snapshot(&self) -> Result<Snapshot, TextError> {
        let manifest_path = self.dir.join(MANIFEST);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let mut stamp = FileStamp::of(&manifest_path)?;
        if let Some((seen, snapshot)) = &*last {
            if *seen == stamp {
                return Ok(snapshot.clone());
            }
        }
        let mut open: HashMap<u64, Arc<Segment>> = HashMap::new();
        if let Some((_, snapshot)) = &*last {
            open.extend(snapshot.parts().iter().map(|p| (p.segment.id, p.segment.clone())));
        }
        for _ in 0..TRIES {
            let bytes = match std::fs::read(&manifest_path) {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    *last = Some((None, Snapshot::default()));
                    return Ok(Snapshot::default());
                }
                Err(e) => return Err(TextError::io("read", &manifest_path)(e)),
            };
            let manifest = Manifest::decode(&manifest_path, &bytes)?;
            match parts(&self.dir, &manifest_path, &manifest, &open)? {
                Ok(parts) => {
                    let snapshot = Snapshot::new(parts);
                    *last = Some((stamp, snapshot.clone()));
                    return Ok(snapshot);
                }
                // Merged away since the manifest was read: a newer one names what replaced it.
                Err(_) => stamp = FileStamp::of(&manifest_path)?,
            }
        }
        Err(TextError::damaged(&manifest_path, "the segments it names keep disappearing"))
    }
}

/// The parts `manifest` names, with the segments of `open` reused; `Err` with its path when a segment file is
/// missing.
pub(crate) fn parts(
    dir: &Path,
    manifest_path: &Path,
    manifest: &Manifest,
    open: &HashMap<u64, Arc<Segment>>,
) -> Result<Result<Vec<Arc<Part>>, PathBuf>, TextError> {
    let mut parts = Vec::with_capacity(manifest.segments.len());
    for entry in &manifest.segments {
        let segment = match open.get(&entry.id) {
            Some(segment) => segment.clone(),
            None => match Segment::open(&segment_path(dir, entry.id), entry.id) {
                Ok(segment) => Arc::new(segment),
                Err(TextError::Io { source, path, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(Err(path))
                }
                Err(e) => return Err(e),
            },
        };
        if segment.rows.len() as u64 != entry.docs || entry.deleted.iter().any(|r| segment.doc_of(r).is_none()) {
            return Err(TextError::damaged(manifest_path, "a segment's documents are not what it says"));
        }
        parts.push(Arc::new(Part::new(segment, Arc::new(entry.deleted.clone()))));
    }
    Ok(Ok(parts))
}
