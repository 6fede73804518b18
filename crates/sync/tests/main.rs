//! The sync crate's tests, gathered in one test binary: each file of this directory is a module here, so that a
//! change links one test program instead of one per file, and the support module is compiled once.

mod support;

mod bindings;
mod connection;
mod copy;
mod diff;
mod drafts;
mod files;
mod publish;
mod pull;
mod scenarios;
