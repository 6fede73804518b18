//! The names of the threads the store and its engine start for work of their own (an import's full-text index
//! and log copies, the engine's packing and upkeep, the automatic backups): one list, so that whoever must know
//! whether such work is still running (the benchmark, before it times anything) reads the same names the
//! threads are given.

/// An import's full-text indexing thread.
pub const IMPORT_TEXT: &str = "import text";
/// An import's copying of its log into the documents file.
pub const IMPORT_CHECKPOINTS: &str = "import checkpoints";
/// The engine packing a large search space's values ahead of its first search.
pub const PACKING: &str = "packing";
/// The engine's upkeep of the store: the full-text index merged.
pub const UPKEEP: &str = "store upkeep";
/// The automatic backups of an open store.
pub const BACKUPS: &str = "studio-backups";

/// Every name above.
pub const BACKGROUND: [&str; 5] = [IMPORT_TEXT, IMPORT_CHECKPOINTS, PACKING, UPKEEP, BACKUPS];
