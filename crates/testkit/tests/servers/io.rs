//! The memory readers answer this process's real sizes.

use studio_testkit::io::{peak_resident_kib, reset_peak_resident, resident_kib};

#[test]
fn the_peak_follows_what_this_process_holds_and_a_reset_brings_it_back_down() {
    // 64 MiB written, so resident: both readers see it while it is held.
    let block = vec![1u8; 64 * 1024 * 1024];
    assert_eq!(block.iter().map(|b| u64::from(*b)).sum::<u64>(), 64 * 1024 * 1024);
    let held = resident_kib(std::process::id()).expect("VmRSS of this process");
    assert!(held >= 64 * 1024, "{held} KiB resident while holding 64 MiB");
    let peak = peak_resident_kib().expect("VmHWM of this process");
    assert!(peak >= held, "peak {peak} KiB below the {held} KiB resident");
    // Freed, the peak keeps it until it is reset.
    drop(block);
    if reset_peak_resident() {
        let after = peak_resident_kib().expect("VmHWM of this process");
        assert!(after + 32 * 1024 < peak, "peak {after} KiB after the reset, {peak} KiB before");
    }
}

#[test]
fn a_process_that_does_not_exist_has_no_size() {
    assert_eq!(resident_kib(u32::MAX), None);
}
