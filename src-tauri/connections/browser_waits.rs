//! The browser sign-ins under way, at most one per connection: a new one, a cancel or removing the
//! connection ends the wait (dropping its sender) and so closes its loopback listener.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::oneshot;

/// The browser sign-ins waiting, by connection: each with the sender whose drop ends the wait.
#[derive(Default)]
pub(super) struct BrowserWaits {
    next: AtomicU64,
    waiting: Mutex<HashMap<String, (u64, oneshot::Sender<()>)>>,
}

impl BrowserWaits {
    fn waiting(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u64, oneshot::Sender<()>)>> {
        self.waiting.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A new wait for connection `id`, ending the one before it: its number, and what resolves when it is
    /// stopped.
    pub(super) fn begin(&self, id: &str) -> (u64, oneshot::Receiver<()>) {
        let number = self.next.fetch_add(1, Ordering::SeqCst);
        let (stop, stopped) = oneshot::channel();
        self.waiting().insert(id.to_owned(), (number, stop));
        (number, stopped)
    }

    /// Wait `number` for `id` is over (unless a newer one took its place).
    pub(super) fn end(&self, id: &str, number: u64) {
        let mut waiting = self.waiting();
        if waiting.get(id).is_some_and(|(n, _)| *n == number) {
            waiting.remove(id);
        }
    }

    /// Stops the wait for connection `id`; false when none was waiting.
    pub(super) fn cancel(&self, id: &str) -> bool {
        self.waiting().remove(id).is_some()
    }
}
