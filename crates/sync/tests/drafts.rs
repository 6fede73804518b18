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

fn scenario(name: &str, query: &str, width: &str) -> studio_sync::Scenario {
    studio_sync::Scenario {
        name: name.into(),
        query: query.into(),
        selected: vec![studio_model::SelectedFacet {
            field: "dyn_uri_topic".into(),
            label: Some("Energy".into()),
            value: Some("urn:energy".into()),
        }],
        width: width.into(),
    }
}

#[test]
fn scenarios_are_kept_per_backend_and_configuration_apart_from_drafts() {
    let dir = tempfile::tempdir().unwrap();
    let list = vec![scenario("Energy", "solar", "tablet"), scenario("All", "", "desktop")];
    {
        let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
        sync.save_scenarios(LOCAL_KEY, 1, &list).unwrap();
        sync.save_scenarios("http://remote:8080", 1, &list[..1]).unwrap();
        sync.save_draft(LOCAL_KEY, 1, &json!({"config": {"title": "Shop"}}), None).unwrap();
        assert!(sync.discard_draft(LOCAL_KEY, 1).unwrap());
    }
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), list, "kept over a reopen and a discarded draft");
    assert_eq!(sync.scenarios("http://remote:8080", 1).unwrap(), list[..1]);
    assert!(sync.scenarios(LOCAL_KEY, 2).unwrap().is_empty());
    sync.save_scenarios(LOCAL_KEY, 1, &[]).unwrap();
    assert!(sync.scenarios(LOCAL_KEY, 1).unwrap().is_empty(), "an empty list forgets them");
}

#[test]
fn a_list_of_scenarios_breaking_a_limit_is_refused_and_the_kept_one_stays() {
    let dir = tempfile::tempdir().unwrap();
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    let kept = vec![scenario("Energy", "solar", "phone")];
    sync.save_scenarios(LOCAL_KEY, 1, &kept).unwrap();
    let many: Vec<_> = (0..51).map(|i| scenario(&format!("S{i}"), "", "desktop")).collect();
    let mut crowded = scenario("Crowded", "", "desktop");
    crowded.selected = vec![crowded.selected[0].clone(); 51];
    let cases = [
        (many, "at most 50 scenarios can be kept for a configuration, not 51"),
        (vec![scenario("  ", "", "desktop")], "scenario 1 has no name"),
        (vec![scenario(&"n".repeat(101), "", "desktop")], "the name of scenario 1 is longer than 100 characters"),
        (vec![scenario("A", "", "desktop"), scenario(" A ", "", "phone")], "two scenarios are named “A”"),
        (vec![scenario("Long", &"q".repeat(1001), "desktop")], "the query of “Long” is longer than 1000 characters"),
        (vec![crowded], "“Crowded” selects more than 50 facet values"),
        (vec![scenario("Wide", "", "watch")], "“Wide” has the width “watch”; it must be one of desktop, tablet, phone"),
    ];
    for (list, message) in cases {
        let err = sync.save_scenarios(LOCAL_KEY, 1, &list).unwrap_err();
        assert_eq!(err.to_string(), message);
        assert!(matches!(studio_model::BackendError::from(err), studio_model::BackendError::BadRequest(_)));
    }
    assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), kept);
}
