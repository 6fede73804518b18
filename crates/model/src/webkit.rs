//! How the desktop app has WebKitGTK run its page, written once for the app (src-tauri/startup.rs) and for the
//! empty window it is measured beside (crates/bench/fixtures/empty-window), which runs WebKit the same way.

/// Environment variables the desktop app sets on Linux before WebKit's processes start (so that they inherit
/// them), each unless the user has set it already:
/// - `WEBKIT_DISABLE_DMABUF_RENDERER=1`: the web process paints into shared memory instead of GL buffers. The
///   editor is a page of forms and a preview, which the CPU paints without effort, while the GL path kept about
///   120 MB more in the web process (on a machine without a GPU, Mesa's software GL) and slowed the first results
///   (docs/performance-journal.md, "The desktop app as a whole").
/// - `JSC_useJIT=0`: JavaScriptCore runs the page's scripts in its interpreter, with no just-in-time compiler. The
///   page's scripts run cold at the launch and in short bursts at each edit, and measured no slower there without
///   the compilers, whose code and data held about 16 MB more in the idle web process, and 25 MB more after a
///   series of edits (docs/performance-journal.md, "The desktop app beside an empty window"; docs/choices.md, "The
///   desktop app").
pub const WEBKIT_ENV: &[(&str, &str)] = &[("WEBKIT_DISABLE_DMABUF_RENDERER", "1"), ("JSC_useJIT", "0")];

/// Sets [`WEBKIT_ENV`] on Linux, each variable unless the user has set it already. To be called before any thread
/// or WebKit process starts, so that WebKit's processes inherit it.
pub fn set_env() {
    if cfg!(target_os = "linux") {
        for &(variable, value) in WEBKIT_ENV {
            if std::env::var_os(variable).is_none() {
                std::env::set_var(variable, value);
            }
        }
    }
}
