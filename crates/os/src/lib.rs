//! What Search Studio asks of the operating system for its own processes and threads: memory in small pages for
//! the processes that import, serve and pull, and an import's helper threads scheduled as batch work. Each is an
//! optimisation only: where the system has no such thing, or refuses it, the process runs as it would have
//! without it. These calls' `unsafe` is here, so that the engine keeps none of its own.

use std::io;

/// Linux's `SCHED_BATCH` of `<sched.h>`, the policy [`as_batch_work`] gives a thread.
pub const SCHED_BATCH: i32 = 3;

/// Whether the kernel may back this process's memory, and that of the processes it starts, with transparent huge
/// pages (Linux's `PR_SET_THP_DISABLE`, which the kernel reads at each page fault). `studio` turns them off at the
/// start of its `run`, and so do the benchmark's engine runs, which measure it.
///
/// Their allocator, mimalloc, asks for huge pages on the memory it reserves and gives freed memory back in 64 kB
/// pieces a second later; each time part of such a huge page is used again, the kernel clears a whole 2 MB page
/// (docs/performance-journal.md, "Huge pages cleared again and again", for what that cost). Without them, the kernel
/// maps that memory in 4 kB pages, cleared as they are first used.
///
/// The processes started from this one inherit the setting: the benchmark leaves it as the system has it when it
/// starts the desktop app or a browser, which it measures as a user runs them, and gives it back to the engines of
/// other projects it compares with. Elsewhere than on Linux there is nothing to do; an error says the kernel refused.
pub fn transparent_huge_pages(allowed: bool) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::raw::{c_int, c_ulong};
        /// `PR_SET_THP_DISABLE` of `<linux/prctl.h>`.
        const PR_SET_THP_DISABLE: c_int = 41;
        extern "C" {
            fn prctl(option: c_int, ...) -> c_int;
        }
        let disable = c_ulong::from(!allowed);
        // SAFETY: `PR_SET_THP_DISABLE` takes the flag as its one argument and zeros after it; no pointer is
        // passed, and the call only sets a flag of the process's memory.
        let set = unsafe { prctl(PR_SET_THP_DISABLE, disable, 0 as c_ulong, 0 as c_ulong, 0 as c_ulong) };
        if set != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = allowed;
    Ok(())
}

/// Marks the calling thread as batch work for the scheduler (Linux's `SCHED_BATCH`, which any process may choose),
/// unless someone chose another policy than the default for it: when the thread that hands it work wakes it while
/// every core is busy, it waits for its turn rather than take that thread's core. The full-text builder (an
/// import's, or a rebuild's) is woken every 128 documents by the thread that writes them, whose time is the
/// import's; beside a server on the same cores (a pull from this machine), such wakes often took that thread's core
/// (docs/performance-journal.md, "Huge pages cleared again and again"). With cores to spare nothing changes.
/// Elsewhere than on Linux, or where the kernel refuses, the thread stays as it was.
pub fn as_batch_work() {
    #[cfg(target_os = "linux")]
    {
        use std::os::raw::c_int;
        /// `SCHED_OTHER` of `<sched.h>`, the default policy.
        const SCHED_OTHER: c_int = 0;
        #[repr(C)]
        struct SchedParam {
            sched_priority: c_int,
        }
        extern "C" {
            fn sched_getscheduler(pid: c_int) -> c_int;
            fn sched_setscheduler(pid: c_int, policy: c_int, param: *const SchedParam) -> c_int;
        }
        let param = SchedParam { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread; `sched_getscheduler` takes no pointer, and `param` lives across
        // `sched_setscheduler`, which only reads it.
        unsafe {
            if sched_getscheduler(0) == SCHED_OTHER {
                let _ = sched_setscheduler(0, SCHED_BATCH, &param);
            }
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use studio_testkit::io;

    #[test]
    fn the_kernel_reports_huge_pages_as_the_process_set_them() {
        transparent_huge_pages(false).unwrap();
        assert_eq!(io::transparent_huge_pages(std::process::id()), Some(false));
        transparent_huge_pages(true).unwrap();
        assert_eq!(io::transparent_huge_pages(std::process::id()), Some(true));
        transparent_huge_pages(false).unwrap();
        assert_eq!(io::transparent_huge_pages(std::process::id()), Some(false));
    }

    #[test]
    fn the_kernel_schedules_a_thread_marked_as_batch_work_as_batch_and_no_other() {
        // A second thread of the same process reads its own policy only once the first has marked itself.
        let (marked_tx, marked_rx) = mpsc::channel();
        let other = std::thread::spawn(move || {
            marked_rx.recv().unwrap();
            io::own_thread_policy()
        });
        let marked = std::thread::spawn(move || {
            as_batch_work();
            let policy = io::own_thread_policy();
            marked_tx.send(()).unwrap();
            policy
        });
        assert_eq!(marked.join().unwrap(), Some(SCHED_BATCH));
        assert_eq!(other.join().unwrap(), Some(0), "another thread, alive meanwhile, is not marked");
    }
}
