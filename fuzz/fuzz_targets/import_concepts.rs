//! Concept scheme lines (`{"uri", "label", "broader"}`) into a store that also holds documents, whose
//! index must then be rebuilt over a possibly cyclic or odd hierarchy. Must hold: no panic, the import
//! never fails as a whole, and the index still agrees with the documents table.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let scratch = studio_fuzz::small_store();
    let report = studio_local::import_concepts(scratch.store(), data, &mut |_| {});
    report.unwrap_or_else(|e| panic!("a concept import failed as a whole: {e}"));
    studio_fuzz::check_index_agrees(scratch, "small");
});
