//! How the window's web view is set up beyond what Tauri sets, measured with `studio-bench --desktop`
//! (docs/performance.md, "The desktop app as a whole").
//!
//! On Linux, WebKitGTK's hardware acceleration is turned off: the editor is a page of forms and a preview,
//! which the CPU paints without effort, while the GPU path kept about 120 MB more in WebKit's web process
//! (GL buffers; on a machine without a GPU, Mesa's software GL) and slowed the first results. Nothing else
//! here changes what the page can do.

/// Applies the settings to the window's web view (on Linux; elsewhere there is nothing to change).
pub fn tune<R: tauri::Runtime>(window: &tauri::WebviewWindow<R>) {
    #[cfg(target_os = "linux")]
    {
        let changed = window.with_webview(|webview| {
            use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
            if let Some(settings) = WebViewExt::settings(&webview.inner()) {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
        });
        if let Err(e) = changed {
            tracing::warn!("cannot set up the web view (it keeps WebKit's defaults): {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}
