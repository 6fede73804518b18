//! A keyring in memory standing in for the system's, which a test can make stop answering: while stalled,
//! every call waits; once resumed, the waiting calls go through one at a time, the newest first (so a write
//! the app gave up on lands after the ones it made since, as a slow keyring daemon may do).

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use search_studio::secrets::{Keyring, KeyringAccess, KeyringError};

#[derive(Default)]
struct State {
    entries: HashMap<String, String>,
    stalled: bool,
    /// Calls waiting while stalled, by ticket.
    waiting: Vec<u64>,
    next_ticket: u64,
    /// The ticket allowed to go on after a resume.
    turn: Option<u64>,
    /// Every call that went through: `get|set|delete <entry>`.
    log: Vec<String>,
}

#[derive(Default)]
pub struct TestKeyring {
    state: Mutex<State>,
    changed: Condvar,
}

/// How long the app waits for this keyring here (the real one waits seconds).
pub const PATIENCE: Duration = Duration::from_millis(300);

impl TestKeyring {
    pub fn new() -> Arc<TestKeyring> {
        Arc::new(TestKeyring::default())
    }

    /// The app's access to this keyring.
    pub fn access(self: &Arc<Self>) -> KeyringAccess {
        KeyringAccess::new(self.clone(), PATIENCE)
    }

    /// From now on, calls wait until [`TestKeyring::resume`].
    pub fn stall(&self) {
        self.state.lock().unwrap().stalled = true;
    }

    /// Lets the waiting calls through, the newest first, each finished before the next starts; answers
    /// once all are done.
    pub fn resume(&self) {
        let mut state = self.state.lock().unwrap();
        state.stalled = false;
        while let Some(ticket) = state.waiting.iter().max().copied() {
            state.turn = Some(ticket);
            self.changed.notify_all();
            state = self.changed.wait_while(state, |s| s.waiting.contains(&ticket)).unwrap();
        }
        state.turn = None;
    }

    /// The entry `user` as kept now.
    pub fn entry(&self, user: &str) -> Option<String> {
        self.state.lock().unwrap().entries.get(user).cloned()
    }

    /// Every call that went through so far.
    pub fn log(&self) -> Vec<String> {
        self.state.lock().unwrap().log.clone()
    }

    /// Runs `work` on the entries when this keyring answers.
    fn answer<T>(&self, what: String, work: impl FnOnce(&mut HashMap<String, String>) -> T) -> T {
        let mut state = self.state.lock().unwrap();
        if state.stalled {
            let ticket = state.next_ticket;
            state.next_ticket += 1;
            state.waiting.push(ticket);
            state = self.changed.wait_while(state, |s| s.stalled || s.turn != Some(ticket)).unwrap();
            state.waiting.retain(|t| *t != ticket);
        }
        state.log.push(what);
        let answer = work(&mut state.entries);
        self.changed.notify_all();
        answer
    }
}

impl Keyring for TestKeyring {
    fn get(&self, user: &str) -> Result<Option<String>, KeyringError> {
        Ok(self.answer(format!("get {user}"), |entries| entries.get(user).cloned()))
    }

    fn set(&self, user: &str, secret: &str) -> Result<(), KeyringError> {
        self.answer(format!("set {user}"), |entries| entries.insert(user.to_owned(), secret.to_owned()));
        Ok(())
    }

    fn delete(&self, user: &str) -> Result<(), KeyringError> {
        self.answer(format!("delete {user}"), |entries| entries.remove(user));
        Ok(())
    }
}
