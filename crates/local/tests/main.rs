//! The integration tests of the local store and its search engine, gathered in one test binary: each file of
//! this directory is a module here. `import_memory` (which measures its own process) and the brute-force
//! oracle (`brute_force/`) stay test programs of their own.

mod support;

mod backups;
mod closing;
mod configurations;
mod demo;
mod faults;
mod idle_memory;
mod import;
mod migrations;
mod odd_input;
mod recover_documents;
mod refresh;
mod search_overrides;
mod shape;
mod similar;
mod snapshot;
mod text_index;
