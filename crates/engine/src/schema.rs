//! The schemas of the two files the engine reads and keeps: the documents file (documents, their facet values,
//! concepts, generations, the engine's caches) and the full-text index's state file. The store creates and upgrades the
//! files with them; the engine's own tests make their files with them too, so that both read the same tables.

/// The documents file's schema as version 1 created it.
pub const DOCUMENTS: &str = include_str!("../schema/documents.sql");

/// Each later version's additions to the documents file, in order: the file's `user_version` says how many of them
/// it has.
pub const DOCUMENTS_UPGRADES: &[&str] = &[
    include_str!("../schema/documents-0002-term-counts.sql"),
    include_str!("../schema/documents-0003-merged-by-upkeep.sql"),
    include_str!("../schema/documents-0004-larger-term-hash.sql"),
    include_str!("../schema/documents-0005-text-apart.sql"),
    include_str!("../schema/documents-0006-fewer-tables.sql"),
];

/// The full-text index's state file's schema, version 1.
pub const TEXT: &str = include_str!("../schema/text.sql");

/// Each later version's additions to the full-text index's state file, in order.
pub const TEXT_UPGRADES: &[&str] = &[include_str!("../schema/text-0002-own-index.sql")];
