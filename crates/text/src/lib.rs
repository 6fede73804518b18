//! Search Studio's full-text index: documents of three fields (title, description, body) under row numbers the
//! caller gives, split into terms by FTS5's `unicode61 remove_diacritics 2` tokenizer ([`tokenizer`]), kept in
//! immutable segment files in a directory with a manifest of the live ones and their deleted rows
//! ([`TextIndex`]), and read for phrases, prefixes and the numbers bm25 needs ([`Snapshot`]). The format and its
//! guarantees are in docs/text-index.md.
//!
//! ```no_run
//! # fn main() -> Result<(), studio_text::TextError> {
//! use studio_text::{Phrase, TextIndex};
//! let mut index = TextIndex::open(std::path::Path::new("text"))?;
//! let mut builder = index.builder();
//! builder.add(1, ["Solar energy", "A report", "Solar panels on every roof"])?;
//! index.add(builder.finish()?)?;
//! let found = index.snapshot().query(&[Phrase::new("solar panels", false)])?;
//! assert_eq!(found.rows, [1]);
//! # Ok(())
//! # }
//! ```

mod builder;
mod dictionary;
mod error;
mod files;
mod format;
mod index;
mod interner;
mod manifest;
mod merge;
mod phrase;
mod postings;
mod reader;
mod segment;
mod snapshot;
mod terms;
pub mod tokenizer;
mod unicode_tables;
mod varint;
mod verify;
mod writer;

pub use builder::{Builder, DEFAULT_BUDGET, MAX_DOCUMENT_BYTES};
pub use error::TextError;
pub use format::MAX_ROW;
pub use index::{Merge, Merged, TextIndex};
pub use phrase::Phrase;
pub use reader::Reader;
pub use snapshot::{PhraseMatches, QueryMatches, Snapshot, Statistics};
pub use terms::Terms;
pub use tokenizer::{has_token, is_token_char, tokens, Tokens, MAX_TERM_BYTES};
pub use writer::NewSegment;
