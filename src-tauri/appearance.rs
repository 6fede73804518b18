//! Following the desktop's light or dark style (Linux).
//!
//! The editor's "system" theme is the web view's `prefers-color-scheme`, which WebKitGTK takes from GTK's
//! "prefer dark" setting. Desktops publish the user's choice as the freedesktop Settings portal's
//! `org.freedesktop.appearance color-scheme`; this module reads it once the window is up, and again whenever
//! the portal says it changed, and sets GTK's setting from it on the main thread.
//!
//! The window toolkit can read the portal itself, but it does so before it creates the window, waiting for
//! the answer: on a session bus where the portal must first be started (or does not answer at all) every
//! launch waited for it (docs/performance-journal.md, "The desktop app as a whole"). Here nothing waits: the window
//! opens in GTK's own style and follows the portal's as soon as it answers. A desktop without the portal, or
//! without a session bus, keeps GTK's own style, as before.

use tauri::{AppHandle, Runtime};
use zbus::export::futures_util::StreamExt;
use zbus::zvariant::{OwnedValue, Value};

const NAMESPACE: &str = "org.freedesktop.appearance";
const KEY: &str = "color-scheme";

/// Starts following the desktop's colour scheme in the background.
pub fn follow_desktop<R: Runtime>(app: &AppHandle<R>) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        if let Err(e) = follow(&app).await {
            tracing::debug!("the desktop's colour scheme is not followed: {e}");
        }
    });
}

async fn follow<R: Runtime>(app: &AppHandle<R>) -> zbus::Result<()> {
    let bus = zbus::Connection::session().await?;
    let portal = zbus::Proxy::new(
        &bus,
        "org.freedesktop.portal.Desktop",
        "/org/freedesktop/portal/desktop",
        "org.freedesktop.portal.Settings",
    )
    .await?;
    // Listening before reading: a change between the two is not missed.
    let mut changes = portal.receive_signal("SettingChanged").await?;
    let now: OwnedValue = portal.call("Read", &(NAMESPACE, KEY)).await?;
    prefer_dark(app, scheme(&now));
    while let Some(message) = changes.next().await {
        let Ok((namespace, key, value)) = message.body().deserialize::<(String, String, OwnedValue)>() else {
            continue;
        };
        if namespace == NAMESPACE && key == KEY {
            prefer_dark(app, scheme(&value));
        }
    }
    Ok(())
}

/// The portal's colour scheme in a value (`Read` wraps it in one more variant than `SettingChanged`): 0 no
/// preference, 1 prefers dark, 2 prefers light.
fn scheme(value: &Value) -> Option<u32> {
    match value {
        Value::Value(inner) => scheme(inner),
        Value::U32(scheme) => Some(*scheme),
        _ => None,
    }
}

fn prefer_dark<R: Runtime>(app: &AppHandle<R>, scheme: Option<u32>) {
    let Some(scheme) = scheme else { return };
    let dark = scheme == 1;
    let set = app.run_on_main_thread(move || {
        if let Some(settings) = gtk::Settings::default() {
            use gtk::prelude::GtkSettingsExt;
            settings.set_gtk_application_prefer_dark_theme(dark);
        }
    });
    if let Err(e) = set {
        tracing::debug!("the desktop's colour scheme could not be applied: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_scheme_as_read_and_as_changed() {
        assert_eq!(scheme(&Value::from(1u32)), Some(1));
        assert_eq!(scheme(&Value::Value(Box::new(Value::from(2u32)))), Some(2));
        assert_eq!(scheme(&Value::from("dark")), None);
    }
}
