//! Transparent huge pages off for the processes that import, serve and pull (`studio`, and `studio-bench`'s engine
//! runs, which measure them). Their allocator, mimalloc, asks the kernel for huge pages on the memory it reserves;
//! it also gives freed memory back in 64 kB pieces after a second. Each time part of a huge page is used again
//! after that, the kernel clears a whole 2 MB page: a tenth of a pull's CPU went into clearing pages, and the
//! 100k import took 2.9–4.3 s instead of 2.5–2.7 s (docs/performance-journal.md, "Huge pages cleared again and
//! again"). With the flag set, the kernel maps that memory in 4 kB pages, cleared as they are first used.
//!
//! The flag is inherited by the processes started from this one: the desktop benchmark, which starts the app as a
//! user does, does not set it.

use std::io;

/// Asks the kernel to back this process's memory (and that of the processes it starts) with 4 kB pages only.
/// On a system without transparent huge pages there is nothing to do; an error says the kernel refused.
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_reports_huge_pages_off_for_the_process() {
        without_transparent_huge_pages().unwrap();
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("THP_enabled:")).expect("a THP_enabled line");
        assert_eq!(line.split_whitespace().nth(1), Some("0"), "{line}");
    }
}
