//! Drafts in the local store: kept per backend and configuration, replaced by each autosave, still there
//! after the store is opened again (a crash or a kill of the app), and gone once discarded.

use serde_json::json;
use studio_local::Store;
use studio_sync::{SyncStore, LOCAL_KEY};

#[test]
fn a_draft_survives_reopening_the_store_and_is_kept_per_backend_and_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let base = json!({"id": 1, "user": "ana", "created": "x", "config": {"title": "Shop"}});
    {
        let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
        sync.save_draft(LOCAL_KEY, 1, &json!({"config": {"title": "Sho"}}), Some(&base)).unwrap();
        sync.save_draft(LOCAL_KEY, 1, &json!({"config": {"title": "Shop 2"}}), Some(&base)).unwrap();
        sync.save_draft("http://remote:8080", 1, &json!({"config": {"title": "Remote"}}), Some(&base)).unwrap();
        sync.save_draft(LOCAL_KEY, -1, &json!({"config": {"title": "New"}}), None).unwrap();
    }
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    let kept = sync.draft(LOCAL_KEY, 1).unwrap().unwrap();
    assert_eq!(kept.draft["config"]["title"], "Shop 2");
    assert_eq!(kept.base.as_ref().unwrap()["config"]["title"], "Shop");
    assert_eq!(sync.draft("http://remote:8080", 1).unwrap().unwrap().draft["config"]["title"], "Remote");
    assert_eq!(sync.drafts(LOCAL_KEY).unwrap().len(), 2);
    assert!(sync.draft(LOCAL_KEY, -1).unwrap().unwrap().base.is_none());

    assert!(sync.discard_draft(LOCAL_KEY, 1).unwrap());
    assert!(sync.draft(LOCAL_KEY, 1).unwrap().is_none());
    assert!(!sync.discard_draft(LOCAL_KEY, 1).unwrap());
    assert_eq!(sync.draft("http://remote:8080", 1).unwrap().unwrap().draft["config"]["title"], "Remote");
}
