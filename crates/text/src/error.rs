//! What can go wrong with a full-text index: its files (unreadable, damaged, of another format), a caller's
//! input that the index cannot take, and a second writer.

use std::path::{Path, PathBuf};

/// Why an index could not be built, opened, changed or read.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// A file of the index does not hold what it should: a checksum that does not match, a file cut short,
    /// bytes that do not decode. Nothing of it is answered; the index is a copy of the documents and is built
    /// again from them.
    #[error(
        "the full-text index's file {} is damaged ({why}): build the index again from the documents",
        path.display()
    )]
    Damaged { path: PathBuf, why: String },
    /// A file of the index was written by another version of the format than this program reads.
    #[error(
        "the full-text index's file {} has format version {found}, and this program reads version {expected}: \
         build the index again from the documents",
        path.display()
    )]
    Version { path: PathBuf, found: u32, expected: u32 },
    /// A file or directory of the index could not be read, written, synced, renamed or removed.
    #[error("cannot {what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    /// Another index of the same directory, in this process or another, is open for writing.
    #[error(
        "the full-text index in {} is open elsewhere (one program at a time writes it); close the other one",
        .0.display()
    )]
    Busy(PathBuf),
    /// A builder was given rows out of order: one builder takes each row once, in increasing order.
    #[error("row {row} was added after row {after}: a builder takes each row once, in increasing order")]
    RowOrder { row: u64, after: u64 },
    /// The same row in two segments: a row is given once, to one builder.
    #[error("row {row} is in two segments of the full-text index: a row number is given once")]
    DuplicateRow { row: u64 },
    /// A row number beyond what the index numbers.
    #[error("row {row} is beyond the largest row number the full-text index takes ({most})")]
    RowTooLarge { row: u64, most: u64 },
    /// A document with more text than the index takes in one document.
    #[error(
        "row {row} has {bytes} bytes of text, more than the {most} a document of the full-text index holds: \
         shorten its text"
    )]
    DocumentTooLarge { row: u64, bytes: usize, most: usize },
    /// A merge was finished after the index changed under it in a way it cannot take (its segments merged by
    /// another merge); the merged file is dropped and the index stays as it is.
    #[error("the merge of the full-text index was overtaken by another merge; nothing changed")]
    MergeOvertaken,
}

impl TextError {
    /// For `map_err`: a failed file operation (`what`: "read", "write", ...) on `path`.
    pub(crate) fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> TextError {
        let path = path.to_path_buf();
        move |source| TextError::Io { what, path, source }
    }

    /// The file `path` is damaged, for the reason `why`.
    pub(crate) fn damaged(path: &Path, why: impl Into<String>) -> TextError {
        TextError::Damaged { path: path.to_path_buf(), why: why.into() }
    }

    /// True for an index that has to be built again from the documents (a damaged file, another format).
    pub fn needs_rebuild(&self) -> bool {
        matches!(self, TextError::Damaged { .. } | TextError::Version { .. })
    }
}

/// Bytes that do not decode as they should, before the file they came from is known: [`Corrupt::at`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Corrupt(pub &'static str);

impl Corrupt {
    /// The error of the file `path`.
    pub(crate) fn at(self, path: &Path) -> TextError {
        TextError::damaged(path, self.0)
    }
}
