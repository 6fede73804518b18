//! The full-text index's tests, one binary: real files in temporary directories, SQLite's FTS5 as the oracle.

mod damage;
mod durability;
mod oracle;
mod reader;
mod support;
mod tokenizer;
