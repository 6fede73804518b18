//! Document import lines (docs/api.md, Import formats) into a store. Must hold: no panic, the import itself never
//! fails (a bad line is reported and skipped), and afterwards the search index agrees with the documents
//! table.
#![no_main]

use libfuzzer_sys::fuzz_target;

const SPACE: &str = "fuzz";

fuzz_target!(|data: &[u8]| {
    let scratch = studio_fuzz::empty_store();
    let report = studio_local::import_documents(scratch.store(), SPACE, data, &mut |_| {});
    let report = report.unwrap_or_else(|e| panic!("an import failed as a whole: {e}"));
    assert!(report.errors.len() as u64 <= report.skipped);
    studio_fuzz::check_index_agrees(scratch, SPACE);
});
