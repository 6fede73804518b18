//! The progress display of the long commands (`import`, `import-concepts`, `demo-data`, `pull`): indicatif's
//! bar on stderr. indicatif draws it only when stderr is a terminal and at most a few times a second; piped
//! or redirected, stderr gets nothing from it, so scripts and tests read only the commands' own lines. The
//! commands clear the bar when done (`finish_and_clear`): their summary line says what was done.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over `total` units; `template` is indicatif's (`{bar}`, `{pos}`, `{len}`, `{percent}`, `{msg}`).
fn bar(total: u64, template: &str) -> ProgressBar {
    // The templates are constants of this module: a broken one shows indicatif's plain bar, not an error.
    let style = ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(total).with_style(style.progress_chars("#>-"))
}

/// An import of a file of `total_bytes`: the share of the file read (feed it with
/// [`ProgressBar::wrap_read`]) and the lines read so far (see [`lines`]).
pub fn file(total_bytes: u64) -> ProgressBar {
    bar(total_bytes, "[{bar:30}] {percent:>3}%  {msg}")
}

/// Shows `count` lines read on a [`file`] bar.
pub fn lines(bar: &ProgressBar, count: u64) {
    bar.set_message(format!("{count} lines"));
}

/// Documents written out of `total` (the demo data).
pub fn documents(total: u64) -> ProgressBar {
    bar(total, "[{bar:30}] {pos} of {len} documents")
}

/// Documents pulled from a remote server; the total is known from the first page on.
pub fn pulled() -> ProgressBar {
    bar(0, "pulled {pos} of {len} documents [{bar:30}]")
}
