//! The system's browser, as the shell uses it: for links out of the preview and for the browser sign-in.
//! Opening is a small trait held in managed state, so that tests can put a browser stand-in in its place.

use std::sync::Arc;

/// Opens a web address outside the app.
pub trait Opener: Send + Sync {
    /// Opens `url` and returns at once; the browser goes on by itself.
    fn open(&self, url: &str) -> std::io::Result<()>;
}

/// The system's default browser.
pub struct SystemBrowser;

impl Opener for SystemBrowser {
    fn open(&self, url: &str) -> std::io::Result<()> {
        open::that_detached(url)
    }
}

/// The opener the app uses, in managed state.
#[derive(Clone)]
pub struct Browser(pub Arc<dyn Opener>);
