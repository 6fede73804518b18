//! The index: a directory of segment files and the manifest naming the live ones with their deleted rows.
//!
//! Every change is a new manifest: segments written and synced by builders become live when a manifest naming
//! them replaces the last one ([`TextIndex::add`]); deleted rows are added to their segment's set in the next
//! manifest ([`TextIndex::delete`]); a merge writes one segment of the live documents of several, renames it
//! into place, then the manifest that names it instead of them replaces the last one, and only then are
//! their files removed ([`TextIndex::merge`]). A crash between any two steps leaves the last manifest, and
//! the index it names, whole; the files it does not name are removed when the index is next opened.
//!
//! One [`TextIndex`] at a time writes a directory: opening takes a lock on the file `lock` in it, which a second
//! opener, in this process or another, finds taken ([`TextError::Busy`]).

use std::collections::HashMap;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use roaring::RoaringTreemap;

use crate::builder::Builder;
use crate::error::TextError;
use crate::files::{remove, replace, segment_id, segment_path, sync_dir, LOCK, MANIFEST, TEMPORARY};
use crate::manifest::{Entry, Manifest};
use crate::merge::{merge, Source};
use crate::reader::parts;
use crate::segment::Segment;
use crate::snapshot::{Part, Snapshot};
use crate::writer::NewSegment;

/// A full-text index in a directory; see the module's documentation.
#[derive(Debug)]
pub struct TextIndex {
    dir: PathBuf,
    _lock: File,
    generation: u64,
    parts: Vec<Arc<Part>>,
    /// The next segment id to give (builders and merges take theirs from it).
    ids: Arc<AtomicU64>,
}

/// A merge taken from the index, to run on any thread ([`Merge::run`]) and finish on the index
/// ([`TextIndex::finish_merge`]).
#[derive(Debug)]
pub struct Merge {
    dir: PathBuf,
    id: u64,
    parts: Vec<Arc<Part>>,
}

/// A merge that ran: its segment written and on disk (none when no live document was left), not yet live.
#[derive(Debug)]
pub struct Merged {
    /// The segments merged, each with its deleted rows when the merge began.
    sources: Vec<(u64, Arc<RoaringTreemap>)>,
    segment: Option<NewSegment>,
}

impl Merge {
    /// Writes the merged segment; the index goes on answering (and changing) meanwhile.
    pub fn run(self) -> Result<Merged, TextError> {
        self.run_on(1)
    }

    /// The same on `threads` threads, each merging a range of the terms.
    pub fn run_on(self, threads: usize) -> Result<Merged, TextError> {
        let sources: Vec<Source> = self.parts.iter().map(|p| (&*p.segment, &*p.deleted)).collect();
        let segment = merge(&self.dir, self.id, &sources, threads)?;
        let sources = self.parts.iter().map(|p| (p.segment.id, p.deleted.clone())).collect();
        Ok(Merged { sources, segment })
    }
}

impl TextIndex {
    /// Opens the index in `dir`, creating the directory and an empty index where there is none, and removes the
    /// files a build or merge cut short left behind.
    pub fn open(dir: &Path) -> Result<TextIndex, TextError> {
        std::fs::create_dir_all(dir).map_err(TextError::io("create the directory", dir))?;
        let lock_path = dir.join(LOCK);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(TextError::io("open", &lock_path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(TextError::Busy(dir.to_owned())),
            Err(TryLockError::Error(e)) => return Err(TextError::io("lock", &lock_path)(e)),
        }
        let manifest_path = dir.join(MANIFEST);
        let manifest = match std::fs::read(&manifest_path) {
            Ok(bytes) => Manifest::decode(&manifest_path, &bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if stray_files(dir, &Manifest::default())?.iter().any(|p| !is_temporary(p)) {
                    return Err(TextError::damaged(&manifest_path, "it is missing while segment files are there"));
                }
                let manifest = Manifest { generation: 0, next_id: 1, segments: Vec::new() };
                replace(&manifest_path, &manifest.encode())?;
                manifest
            }
            Err(e) => return Err(TextError::io("read", &manifest_path)(e)),
        };
        let parts = match parts(dir, &manifest_path, &manifest, &HashMap::new())? {
            Ok(parts) => parts,
            Err(missing) => return Err(TextError::damaged(&missing, "it is missing, and the manifest names it")),
        };
        let stray = stray_files(dir, &manifest)?;
        for path in &stray {
            remove(path)?;
        }
        if !stray.is_empty() {
            sync_dir(dir)?;
        }
        Ok(TextIndex {
            dir: dir.to_owned(),
            _lock: lock,
            generation: manifest.generation,
            parts,
            ids: Arc::new(AtomicU64::new(manifest.next_id)),
        })
    }

    /// [`TextIndex::open`], waiting up to `wait` for another writer of the directory to close it.
    pub fn open_waiting(dir: &Path, wait: Duration) -> Result<TextIndex, TextError> {
        let start = Instant::now();
        loop {
            match TextIndex::open(dir) {
                Err(TextError::Busy(_)) if start.elapsed() < wait => std::thread::sleep(Duration::from_millis(20)),
                opened => return opened,
            }
        }
    }

    /// Takes every document out of the index: a manifest naming no segment, then their files removed.
    pub fn clear(&mut self) -> Result<(), TextError> {
        let old: Vec<PathBuf> = self.parts.iter().map(|p| p.segment.path.clone()).collect();
        self.commit(Vec::new())?;
        for path in &old {
            // What cannot be removed now is removed at the next open.
            let _ = remove(path);
        }
        let _ = sync_dir(&self.dir);
        Ok(())
    }

    /// The index's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A builder of new segments for this index (it can run on another thread).
    pub fn builder(&self) -> Builder {
        Builder::new(self.dir.clone(), self.ids.clone())
    }

    /// The index as it stands, for queries.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::new(self.parts.clone())
    }

    /// Makes `segments` (written by this index's builders) live, in one new manifest.
    pub fn add(&mut self, segments: Vec<NewSegment>) -> Result<(), TextError> {
        if segments.is_empty() {
            return Ok(());
        }
        let mut parts = self.parts.clone();
        for new in segments {
            if new.path != segment_path(&self.dir, new.id) {
                return Err(TextError::damaged(&new.path, "it is not a segment of this index"));
            }
            let segment = Segment::open(&new.path, new.id)?;
            parts.push(Arc::new(Part::new(Arc::new(segment), Arc::default())));
        }
        self.commit(parts)
    }

    /// Deletes `rows` from the index: no query answers them again. Rows it does not hold are passed over.
    /// Returns how many rows were deleted.
    pub fn delete(&mut self, rows: &[u64]) -> Result<u64, TextError> {
        let mut parts = self.parts.clone();
        let mut changed: Vec<Option<RoaringTreemap>> = vec![None; parts.len()];
        let mut deleted = 0;
        for &row in rows {
            let Some(k) = parts.iter().position(|p| p.segment.doc_of(row).is_some()) else { continue };
            let set = changed[k].get_or_insert_with(|| (*parts[k].deleted).clone());
            if set.insert(row) {
                deleted += 1;
            }
        }
        if deleted == 0 {
            return Ok(0);
        }
        for (k, set) in changed.into_iter().enumerate() {
            if let Some(set) = set {
                parts[k] = Arc::new(Part::new(parts[k].segment.clone(), Arc::new(set)));
            }
        }
        self.commit(parts)?;
        Ok(deleted)
    }

    /// Merges every live segment into one, dropping deleted rows; nothing to do for one segment without
    /// deleted rows.
    pub fn merge(&mut self) -> Result<(), TextError> {
        self.merge_on(1)
    }

    /// The same on `threads` threads, each merging a range of the terms.
    pub fn merge_on(&mut self, threads: usize) -> Result<(), TextError> {
        match self.start_merge() {
            Some(merge) => self.finish_merge(merge.run_on(threads)?),
            None => Ok(()),
        }
    }

    /// The merge of every live segment, to run on any thread, unless there is nothing to merge.
    pub fn start_merge(&self) -> Option<Merge> {
        if self.parts.is_empty() || (self.parts.len() == 1 && self.parts[0].deleted.is_empty()) {
            return None;
        }
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        Some(Merge { dir: self.dir.clone(), id, parts: self.parts.clone() })
    }

    /// Makes a merge's segment live in place of the segments it merged, keeping the rows deleted since it
    /// began deleted, then removes their files. Fails, changing nothing, when one of them is no longer live.
    pub fn finish_merge(&mut self, merged: Merged) -> Result<(), TextError> {
        let live = |id: u64| self.parts.iter().position(|p| p.segment.id == id);
        if merged.sources.iter().any(|&(id, _)| live(id).is_none()) {
            if let Some(segment) = &merged.segment {
                remove(&segment.path)?;
            }
            return Err(TextError::MergeOvertaken);
        }
        let mut parts: Vec<Arc<Part>> = Vec::with_capacity(self.parts.len());
        let mut old = Vec::new();
        for part in &self.parts {
            if merged.sources.iter().any(|&(id, _)| id == part.segment.id) {
                old.push(part.segment.path.clone());
            } else {
                parts.push(part.clone());
            }
        }
        if let Some(new) = &merged.segment {
            let segment = Segment::open(&new.path, new.id)?;
            let mut since = RoaringTreemap::new();
            for (id, at_start) in &merged.sources {
                if let Some(k) = live(*id) {
                    since |= &*self.parts[k].deleted - &**at_start;
                }
            }
            parts.push(Arc::new(Part::new(Arc::new(segment), Arc::new(since))));
        }
        self.commit(parts)?;
        for path in &old {
            // What cannot be removed now is removed at the next open.
            let _ = remove(path);
        }
        let _ = sync_dir(&self.dir);
        Ok(())
    }

    /// Reads every byte of every live segment and checks it ([`Snapshot`] queries check what they read).
    pub fn verify(&self) -> Result<(), TextError> {
        self.snapshot().verify()
    }

    /// Replaces the manifest with one naming `parts`, then makes them the index's.
    fn commit(&mut self, parts: Vec<Arc<Part>>) -> Result<(), TextError> {
        let manifest = Manifest {
            generation: self.generation + 1,
            next_id: self.ids.load(Ordering::Relaxed),
            segments: parts
                .iter()
                .map(|p| Entry { id: p.segment.id, docs: p.segment.rows.len() as u64, deleted: (*p.deleted).clone() })
                .collect(),
        };
        replace(&self.dir.join(MANIFEST), &manifest.encode())?;
        self.generation = manifest.generation;
        self.parts = parts;
        Ok(())
    }
}

/// True for a file being written when it was left.
fn is_temporary(path: &Path) -> bool {
    path.to_str().is_some_and(|p| p.ends_with(TEMPORARY))
}

/// The files of `dir` that are the index's but not named by `manifest`: segments and temporary files.
fn stray_files(dir: &Path, manifest: &Manifest) -> Result<Vec<PathBuf>, TextError> {
    let mut stray = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(TextError::io("list", dir))? {
        let entry = entry.map_err(TextError::io("list", dir))?;
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else { continue };
        let named = segment_id(&name).is_some_and(|id| manifest.segments.iter().any(|s| s.id == id));
        if (segment_id(&name).is_some() && !named) || name.ends_with(TEMPORARY) {
            stray.push(entry.path());
        }
    }
    Ok(stray)
}
