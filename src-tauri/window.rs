//! The main window: created hidden and shown once its page has loaded (or after [`SHOW_AT_THE_LATEST`]), at the
//! size and place the preferences remember, which it keeps up to date as the user moves and resizes it.

use std::time::Duration;

use tauri::webview::PageLoadEvent;
use tauri::{Manager, Runtime, WebviewUrl, WebviewWindow, WebviewWindowBuilder, WindowEvent};

use crate::prefs::{Geometry, Prefs};

/// The window's title; external checks look for it.
pub const WINDOW_TITLE: &str = "Search Studio";

/// How long after its creation the window is shown even when its page has not finished loading.
const SHOW_AT_THE_LATEST: Duration = Duration::from_secs(3);

/// Opens the main window over the web UI, at `geometry` when the preferences remember one.
pub fn open_main<R: Runtime, M: Manager<R>>(app: &M, geometry: Option<Geometry>) -> tauri::Result<()> {
    let mut builder = WebviewWindowBuilder::new(app, "main", WebviewUrl::App("index.html".into()))
        .title(WINDOW_TITLE)
        .min_inner_size(900.0, 600.0)
        .inner_size(1400.0, 900.0)
        .visible(false)
        .on_page_load(|window, payload| {
            if payload.event() == PageLoadEvent::Finished {
                show(&window);
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
    let shown = window.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(SHOW_AT_THE_LATEST).await;
        show(&shown);
    });
    let handle = window.clone();
    window.on_window_event(move |event| {
        if matches!(event, WindowEvent::CloseRequested { .. } | WindowEvent::Resized(_) | WindowEvent::Moved(_)) {
            remember_geometry(&handle);
        }
    });
    Ok(())
}

/// Shows the window when it is hidden: it is created hidden and shown when its page has loaded.
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
