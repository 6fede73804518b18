//! The main window: created hidden and shown once the UI's first screen is complete (the `first_screen_ready`
//! command), so that its first paint is that screen rather than its stages; at the latest
//! [`SHOW_AFTER_LOAD`] after its page has loaded, or [`SHOW_AT_THE_LATEST`] after its creation. It opens at the
//! size and place the preferences remember, which it keeps up to date as the user moves and resizes it.

use std::time::Duration;

use tauri::webview::PageLoadEvent;
use tauri::{Manager, Runtime, WebviewUrl, WebviewWindow, WebviewWindowBuilder, WindowEvent};

use crate::prefs::{Geometry, Prefs};

/// The window's title; external checks look for it.
pub const WINDOW_TITLE: &str = "Search Studio";

/// The main window's label.
const MAIN: &str = "main";

/// How long after its page has loaded the window is shown even when the UI has not said its first screen is
/// complete: the local store's first screen is complete about a quarter of a second after the load; a slow
/// server's first answer is then shown arriving (docs/choices.md, "The desktop app").
const SHOW_AFTER_LOAD: Duration = Duration::from_secs(1);

/// How long after its creation the window is shown even when its page has not finished loading.
const SHOW_AT_THE_LATEST: Duration = Duration::from_secs(3);

/// Opens the main window over the web UI, at `geometry` when the preferences remember one.
pub fn open_main<R: Runtime, M: Manager<R>>(app: &M, geometry: Option<Geometry>) -> tauri::Result<()> {
    let mut builder = WebviewWindowBuilder::new(app, MAIN, WebviewUrl::App("index.html".into()))
        .title(WINDOW_TITLE)
        .min_inner_size(900.0, 600.0)
        .inner_size(1400.0, 900.0)
        .visible(false)
        .on_page_load(|window, payload| {
            if payload.event() == PageLoadEvent::Finished {
                show_after(window, SHOW_AFTER_LOAD);
            }
        });
    if let Some(g) = geometry {
        builder = builder.inner_size(g.width.max(900.0), g.height.max(600.0)).position(g.x, g.y);
    }
    #[cfg(feature = "bench-hooks")]
    if let Some(script) = crate::bench_hooks::first_results_watch() {
        builder = builder.initialization_script(script);
    }
    let window = builder.build()?;
    show_after(window.clone(), SHOW_AT_THE_LATEST);
    let handle = window.clone();
    window.on_window_event(move |event| {
        if matches!(event, WindowEvent::CloseRequested { .. } | WindowEvent::Resized(_) | WindowEvent::Moved(_)) {
            remember_geometry(&handle);
        }
    });
    Ok(())
}

/// Shows the main window, when there is one: the UI's first screen is complete.
pub fn show_main<R: Runtime, M: Manager<R>>(app: &M) {
    if let Some(window) = app.get_webview_window(MAIN) {
        show(&window);
    }
}

/// Shows `window` after `wait`, unless it is shown by then.
fn show_after<R: Runtime>(window: WebviewWindow<R>, wait: Duration) {
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(wait).await;
        show(&window);
    });
}

/// Shows the window when it is hidden: it is created hidden and shown when the UI's first screen is complete.
fn show<R: Runtime>(window: &WebviewWindow<R>) {
    if !window.is_visible().unwrap_or(true) {
        if let Err(e) = window.show() {
            tracing::warn!("cannot show the window: {e}");
        }
    }
}

fn remember_geometry<R: Runtime>(window: &WebviewWindow<R>) {
    let (Ok(scale), Ok(size), Ok(pos)) = (window.scale_factor(), window.inner_size(), window.outer_position()) else {
        return;
    };
    if window.is_minimized().unwrap_or(false) || window.is_maximized().unwrap_or(false) {
        return;
    }
    let (size, pos) = (size.to_logical::<f64>(scale), pos.to_logical::<f64>(scale));
    let geometry = Geometry { x: pos.x, y: pos.y, width: size.width, height: size.height };
    if let Some(prefs) = window.try_state::<Prefs>() {
        if prefs.geometry() != Some(geometry) {
            let _ = prefs.set_geometry(geometry);
        }
    }
}
