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

/// Marks the calling thread as batch work for the scheduler (Linux's `SCHED_BATCH`, which any process may choose):
/// when the thread that hands it work wakes it while every core is busy, it waits for its turn instead of taking
/// that thread's core. An import's helpers are woken hundreds of times a second by the import's own thread,
/// whose time is the import's; beside a server on the same cores (a pull from this machine), each wake cost the
/// import's thread its core (docs/performance-journal.md, "Huge pages cleared again and again"). With cores to
/// spare nothing changes. A kernel that refuses leaves the thread as it was.
pub fn as_batch_work() {
    #[cfg(target_os = "linux")]
    {
        use std::os::raw::c_int;
        /// `SCHED_BATCH` of `<sched.h>`.
        const SCHED_BATCH: c_int = 3;
        #[repr(C)]
        struct SchedParam {
            sched_priority: c_int,
        }
        extern "C" {
            fn sched_setscheduler(pid: c_int, policy: c_int, param: *const SchedParam) -> c_int;
        }
        let param = SchedParam { sched_priority: 0 };
        // SAFETY: `param` lives across the call, which only reads it; pid 0 is the calling thread.
        let _ = unsafe { sched_setscheduler(0, SCHED_BATCH, &param) };
    }
}
