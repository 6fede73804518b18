//! The ids of a folder's configurations. The API names a configuration by a number, a folder by its key (the
//! file's name); each key gets a number that stays the same while the app runs, and, since it is made from the
//! key itself, across starts too: a draft kept for a file's configuration (drafts are kept by id) is found
//! again after a crash. Two keys whose numbers collide are told apart by trying the next number, in the order
//! the keys were first met.

use std::collections::HashMap;

/// Key ↔ id, for one folder.
#[derive(Debug, Default)]
pub struct Ids {
    by_key: HashMap<String, i32>,
    by_id: HashMap<i32, String>,
}

/// The number a key starts from: FNV-1a of its bytes, kept to the positive ids.
fn start(key: &str) -> i32 {
    let hash = key.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    // 1 ..= i32::MAX - 1: never 0 or negative (drafts of configurations not yet created are negative).
    (hash % (i32::MAX as u32 - 1)) as i32 + 1
}

impl Ids {
    /// The id of `key`, given now if it has none.
    pub fn id(&mut self, key: &str) -> i32 {
        if let Some(id) = self.by_key.get(key) {
            return *id;
        }
        let mut id = start(key);
        while self.by_id.contains_key(&id) {
            id = if id == i32::MAX - 1 { 1 } else { id + 1 };
        }
        self.by_key.insert(key.to_owned(), id);
        self.by_id.insert(id, key.to_owned());
        id
    }

    /// The key of `id`, when it was given.
    pub fn key(&self, id: i32) -> Option<&str> {
        self.by_id.get(&id).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_made_from_its_key_and_never_shared() {
        let mut ids = Ids::default();
        let news = ids.id("news");
        assert_eq!(ids.id("news"), news);
        assert_eq!(Ids::default().id("news"), news, "the same key gets the same id in another run");
        assert_eq!(ids.key(news), Some("news"));
        // A collision takes the next number.
        ids.by_id.insert(start("sport"), "taken".into());
        assert_eq!(ids.id("sport"), start("sport") + 1);
        assert!(ids.id("x") > 0);
    }
}
