//! Preview scenarios in the local store: kept per backend and configuration apart from drafts, still there after
//! the store is opened again, and refused whole (the kept list staying) when a list breaks one of their limits.

use serde_json::json;
use studio_local::Store;
use studio_model::{BackendError, SelectedFacet};
use studio_sync::{Scenario, ScenarioWidth, SyncStore, LOCAL_KEY, SCENARIO_LIMITS};

const REMOTE: &str = "http://remote:8080";

fn scenario(name: &str, query: &str, width: ScenarioWidth) -> Scenario {
    Scenario {
        name: name.into(),
        query: query.into(),
        selected: vec![SelectedFacet {
            field: "dyn_uri_topic".into(),
            label: Some("Energy".into()),
            value: Some("urn:energy".into()),
        }],
        width,
    }
}

fn plain(name: &str) -> Scenario {
    scenario(name, "", ScenarioWidth::Desktop)
}

#[test]
fn scenarios_are_kept_per_backend_and_configuration_apart_from_drafts_and_over_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let list = vec![scenario("Energy", "solar", ScenarioWidth::Tablet), scenario("All", "", ScenarioWidth::Phone)];
    {
        let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
        sync.save_scenarios(LOCAL_KEY, 1, &[plain("First try")]).unwrap();
        sync.save_scenarios(LOCAL_KEY, 1, &list).unwrap();
        sync.save_scenarios(REMOTE, 1, &list[..1]).unwrap();
        sync.save_draft(LOCAL_KEY, 1, &json!({"config": {"title": "Shop"}}), None).unwrap();
        assert!(sync.discard_draft(LOCAL_KEY, 1).unwrap());
    }
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), list, "the last list, kept over a reopen and a discarded draft");
    assert_eq!(sync.scenarios(REMOTE, 1).unwrap(), list[..1], "configuration 1 of another server is another one");
    assert!(sync.scenarios(LOCAL_KEY, 2).unwrap().is_empty());
    sync.save_scenarios(LOCAL_KEY, 1, &[]).unwrap();
    assert!(sync.scenarios(LOCAL_KEY, 1).unwrap().is_empty(), "an empty list forgets them");
    assert_eq!(sync.scenarios(REMOTE, 1).unwrap(), list[..1]);
}

#[test]
fn a_list_at_every_limit_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    let l = SCENARIO_LIMITS;
    let mut list: Vec<_> = (0..l.scenarios).map(|i| plain(&format!("S{i}"))).collect();
    // Characters, not bytes, and the name as trimmed.
    list[0].name = format!("  {}  ", "é".repeat(l.name_chars));
    list[1].query = "ü".repeat(l.query_chars);
    list[2].selected = vec![list[2].selected[0].clone(); l.selected];
    sync.save_scenarios(LOCAL_KEY, 1, &list).unwrap();
    assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), list);
}

#[test]
fn a_list_breaking_a_limit_is_refused_as_a_bad_request_naming_it_and_the_kept_one_stays() {
    let dir = tempfile::tempdir().unwrap();
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    let kept = vec![scenario("Energy", "solar", ScenarioWidth::Phone)];
    sync.save_scenarios(LOCAL_KEY, 1, &kept).unwrap();
    let mut crowded = plain("Crowded");
    crowded.selected = vec![crowded.selected[0].clone(); 51];
    let cases = [
        (
            (0..51).map(|i| plain(&format!("S{i}"))).collect(),
            "at most 50 scenarios can be kept for a configuration, not 51",
        ),
        (vec![plain("Fine"), plain("  ")], "scenario 2 has no name"),
        (vec![plain(&"n".repeat(101))], "the name of scenario 1 is longer than 100 characters"),
        (vec![plain("A"), scenario(" A ", "", ScenarioWidth::Phone)], "two scenarios are named “A”"),
        (
            vec![scenario("Long", &"q".repeat(1001), ScenarioWidth::Desktop)],
            "the query of “Long” is longer than 1000 characters",
        ),
        (vec![crowded], "“Crowded” selects more than 50 facet values"),
    ];
    for (list, message) in cases {
        let err = sync.save_scenarios(LOCAL_KEY, 1, &list).unwrap_err();
        assert_eq!(err.to_string(), message);
        assert_eq!(BackendError::from(err), BackendError::BadRequest(message.into()));
    }
    assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), kept);
}

#[test]
fn a_width_is_one_of_three_names() {
    let read: Scenario =
        serde_json::from_value(json!({"name": "A", "query": "", "selected": [], "width": "tablet"})).unwrap();
    assert_eq!(read.width, ScenarioWidth::Tablet);
    let watch = json!({"name": "A", "query": "", "selected": [], "width": "watch"});
    assert!(serde_json::from_value::<Scenario>(watch).is_err());
    assert_eq!(serde_json::to_value(SCENARIO_LIMITS.widths).unwrap(), json!(["desktop", "tablet", "phone"]));
}

#[test]
fn a_store_from_before_scenarios_gains_them_and_keeps_its_drafts() {
    let dir = tempfile::tempdir().unwrap();
    {
        let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
        sync.save_draft(LOCAL_KEY, 1, &json!({"config": {"title": "Shop"}}), None).unwrap();
        // Back to the schema an older Search Studio wrote: no scenarios table yet.
        let conn = sync.store().conn().unwrap();
        conn.execute_batch("DROP TABLE scenarios; PRAGMA user_version = 6;").unwrap();
    }
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    assert_eq!(sync.draft(LOCAL_KEY, 1).unwrap().unwrap().draft["config"]["title"], "Shop");
    assert!(sync.scenarios(LOCAL_KEY, 1).unwrap().is_empty());
    sync.save_scenarios(LOCAL_KEY, 1, &[plain("After the upgrade")]).unwrap();
    assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), [plain("After the upgrade")]);
}
