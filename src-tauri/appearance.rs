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
//!
//! The portal is asked through GLib's D-Bus client, on the session bus connection GTK's application already
//! holds, its answers handled on the main loop: that code is in the system's libraries and already in use, where a
//! D-Bus client of the app's own kept about a megabyte of the app's code in memory (docs/performance-journal.md,
//! "The desktop app beside an empty window").

use gtk::gio;
use gtk::glib::{ToVariant, Variant};

const PORTAL: &str = "org.freedesktop.portal.Desktop";
const PATH: &str = "/org/freedesktop/portal/desktop";
const SETTINGS: &str = "org.freedesktop.portal.Settings";
const NAMESPACE: &str = "org.freedesktop.appearance";
const KEY: &str = "color-scheme";

/// Starts following the desktop's colour scheme. Called on the main thread (the app's setup), whose main loop
/// then handles the portal's answers.
pub fn follow_desktop() {
    gio::bus_get(gio::BusType::Session, gio::Cancellable::NONE, |bus| match bus {
        Ok(bus) => follow(&bus),
        Err(e) => tracing::debug!("the desktop's colour scheme is not followed: {e}"),
    });
}

fn follow(bus: &gio::DBusConnection) {
    // Listening before reading: a change between the two is not missed. The subscription lasts as long as the
    // connection, the process's.
    bus.signal_subscribe(
        Some(PORTAL),
        Some(SETTINGS),
        Some("SettingChanged"),
        Some(PATH),
        Some(NAMESPACE),
        gio::DBusSignalFlags::NONE,
        |_, _, _, _, _, parameters| {
            let (namespace, key) = (parameters.try_child_value(0), parameters.try_child_value(1));
            let named = |v: Option<Variant>, name: &str| v.is_some_and(|v| v.str() == Some(name));
            if named(namespace, NAMESPACE) && named(key, KEY) {
                prefer_dark(parameters.try_child_value(2).as_ref().and_then(scheme));
            }
        },
    );
    bus.call(
        Some(PORTAL),
        PATH,
        SETTINGS,
        "Read",
        Some(&(NAMESPACE, KEY).to_variant()),
        None,
        gio::DBusCallFlags::NONE,
        -1,
        gio::Cancellable::NONE,
        |reply| match reply {
            Ok(reply) => prefer_dark(reply.try_child_value(0).as_ref().and_then(scheme)),
            Err(e) => tracing::debug!("the desktop's colour scheme is not followed: {e}"),
        },
    );
}

/// The portal's colour scheme in a value (`Read` wraps it in one more variant than `SettingChanged`): 0 no
/// preference, 1 prefers dark, 2 prefers light.
fn scheme(value: &Variant) -> Option<u32> {
    if value.is::<Variant>() {
        value.as_variant().and_then(|inner| scheme(&inner))
    } else {
        value.get::<u32>()
    }
}

/// Sets GTK's "prefer dark" setting, which WebKitGTK's `prefers-color-scheme` follows (on the main thread, where
/// the bus's answers arrive).
fn prefer_dark(scheme: Option<u32>) {
    let Some(scheme) = scheme else { return };
    if let Some(settings) = gtk::Settings::default() {
        use gtk::prelude::GtkSettingsExt;
        settings.set_gtk_application_prefer_dark_theme(scheme == 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_scheme_as_read_and_as_changed() {
        assert_eq!(scheme(&1u32.to_variant()), Some(1));
        assert_eq!(scheme(&Variant::from_variant(&2u32.to_variant())), Some(2));
        assert_eq!(scheme(&"dark".to_variant()), None);
    }
}
