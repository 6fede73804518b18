//! What lets `studio-bench --desktop` time the app as a user sees it. Compiled only with the desktop package's
//! `bench-hooks` feature, which the benchmark's build asks for and no other build does (docs/performance.md,
//! "The desktop app as a whole"): the product has neither this command nor its permission.
//!
//! With [`MARK_FIRST_RESULTS`] set to `1`, the main window gets [`first_results_watch`]: a script that watches the
//! page for the preview's first results and, once they are painted, calls [`first_results_shown`], which prints
//! [`FIRST_RESULTS_LINE`] on the standard output once. The web UI itself carries nothing for the benchmark.

use std::io::Write;
use std::sync::Once;

use studio_model::marks::{FIRST_RESULTS_LINE, MARK_FIRST_RESULTS};

use crate::error::Answer;

/// The script that watches for the first results, when the benchmark asks for its mark; none otherwise.
pub fn first_results_watch() -> Option<&'static str> {
    std::env::var_os(MARK_FIRST_RESULTS).is_some_and(|v| v == "1").then_some(include_str!("first_results.js"))
}

/// The preview has painted search results; prints the mark the first time.
#[tauri::command]
pub fn first_results_shown() -> Answer<()> {
    static MARKED: Once = Once::new();
    MARKED.call_once(|| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{FIRST_RESULTS_LINE}").and_then(|()| out.flush());
    });
    Ok(())
}
