//! The marks the desktop app prints for a program that times it from outside (`studio-bench --desktop`),
//! written once here for both sides: the app prints [`FIRST_RESULTS_LINE`] on its standard output when the
//! preview first shows search results, but only when [`MARK_FIRST_RESULTS`] is set to `1`.

/// The environment variable that asks the desktop app for its marks.
pub const MARK_FIRST_RESULTS: &str = "SEARCH_STUDIO_MARK_FIRST_RESULTS";

/// The line the desktop app prints once the preview has painted its first results.
pub const FIRST_RESULTS_LINE: &str = "search-studio: first results shown";
