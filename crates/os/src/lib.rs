//! What Search Studio asks of the operating system for its own processes and threads: memory in small pages for
//! the processes that import, serve and pull, and an import's helper threads scheduled as batch work. Each is an
//! optimisation only: where the system has no such thing, or refuses it, the process runs as it would have
//! without it. These calls' `unsafe` is here, so that the engine keeps none of its own.

use std::io;

/// Asks the kernel to back this process's memory, and that of the processes it starts, with 4 kB pages only
/// (Linux's `PR_SET_THP_DISABLE`). Called first thing by `studio` and by the benchmark's engine runs.
///
/// Their allocator, mimalloc, asks for transparent huge pages on the memory it reserves, and gives freed memory
/// back in 64 kB pieces a second later. Each time part of such a huge page is used again, the kernel clears a whole
/// 2 MB page: a tenth of a pull's CPU went into clearing pages, and the 100k import took 2.9–4.3 s instead of
/// 2.5–2.7 s (docs/performance-journal.md, "Huge pages cleared again and again"). With the flag, the kernel maps
/// that memory in 4 kB pages, cleared as they are first used.
///
/// The processes started from this one inherit the flag: the benchmark leaves it unset when it starts the desktop
/// app or a browser, which it measures as a user runs them. Elsewhere than on Linux there is nothing to do; an
/// error says the kernel refused.
pub fn without_transparent_huge_pages() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::raw::{c_int, c_ulong};
        /// `PR_SET_THP_DISABLE` of `<linux/prctl.h>`.
        const PR_SET_THP_DISABLE: c_int = 41;
        extern "C" {
            fn prctl(option: c_int, ...) -> c_int;
        }
        // SAFETY: `PR_SET_THP_DISABLE` takes the flag as its one argument and zeros after it; no pointer is
        // passed, and the call only sets a flag of the process's memory.
        let set = unsafe { prctl(PR_SET_THP_DISABLE, 1 as c_ulong, 0 as c_ulong, 0 as c_ulong, 0 as c_ulong) };
        if set != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Marks the calling thread as batch work for the scheduler (Linux's `SCHED_BATCH`, which any process may choose):
/// when the thread that hands it work wakes it while every core is busy, it waits for its turn instead of taking
/// that thread's core. An import's full-text builder is woken every 128 documents by the import's own thread, whose
/// time is the import's; beside a server on the same cores (a pull from this machine), each wake cost the import's
/// thread its core (docs/performance-journal.md, "Huge pages cleared again and again"). With cores to spare nothing
/// changes. Elsewhere than on Linux, or where the kernel refuses, the thread stays as it was.
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use studio_testkit::io;

    #[test]
    fn the_kernel_reports_huge_pages_off_for_the_process() {
        without_transparent_huge_pages().unwrap();
        assert_eq!(io::transparent_huge_pages(std::process::id()), Some(false));
    }

    #[test]
    fn the_kernel_schedules_a_thread_marked_as_batch_work_as_batch_and_no_other() {
        let (marked, other) = std::thread::spawn(|| {
            let other = std::thread::spawn(io::own_thread_policy).join().unwrap();
            as_batch_work();
            (io::own_thread_policy(), other)
        })
        .join()
        .unwrap();
        assert_eq!(marked, Some(io::SCHED_BATCH));
        assert_eq!(other, Some(0), "a thread started before is not marked");
    }
}
