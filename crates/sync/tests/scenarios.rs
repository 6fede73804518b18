//! Preview scenarios in the local store: kept per backend and configuration apart from drafts, still there after
//! the store is opened again, and refused whole (the kept list staying) when a list breaks one of their limits.

use serde_json::json;
use studio_local::Store;
use studio_model::{BackendError, SelectedFacet};
use studio_sync::{Scenario, ScenarioWidth, SyncStore, LOCAL_KEY, SCENARIO_LIMITS, SCENARIO_MESSAGES};

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

/// One case of crates/sync/cases/scenarios.json, which the browser build's check reads too.
#[derive(serde::Deserialize)]
struct Case {
    name: String,
    list: Vec<CaseScenario>,
    problem: Option<String>,
}

/// A scenario of a case: `selected` is how many facet values it selects.
#[derive(serde::Deserialize)]
struct CaseScenario {
    name: String,
    query: String,
    selected: usize,
    width: ScenarioWidth,
}

fn shared_cases() -> Vec<Case> {
    let file: serde_json::Value = serde_json::from_str(include_str!("../cases/scenarios.json")).expect("JSON");
    serde_json::from_value(file["cases"].clone()).expect("a list of cases")
}

#[test]
fn the_shared_cases_are_kept_or_refused_as_a_bad_request_in_their_words_and_the_kept_list_stays() {
    let dir = tempfile::tempdir().unwrap();
    let sync = SyncStore::new(Store::open_dir(dir.path()).unwrap());
    let kept = vec![scenario("Energy", "solar", ScenarioWidth::Phone)];
    for case in shared_cases() {
        sync.save_scenarios(LOCAL_KEY, 1, &kept).unwrap();
        let list: Vec<Scenario> = case
            .list
            .into_iter()
            .map(|s| {
                let mut one = scenario(&s.name, &s.query, s.width);
                one.selected = vec![one.selected[0].clone(); s.selected];
                one
            })
            .collect();
        match case.problem {
            None => {
                sync.save_scenarios(LOCAL_KEY, 1, &list).unwrap_or_else(|e| panic!("{}: refused: {e}", case.name));
                assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), list, "{}", case.name);
            }
            Some(message) => {
                let err = sync.save_scenarios(LOCAL_KEY, 1, &list).expect_err(&case.name);
                assert_eq!(BackendError::from(err), BackendError::BadRequest(message), "{}", case.name);
                assert_eq!(sync.scenarios(LOCAL_KEY, 1).unwrap(), kept, "{}: the kept list stays", case.name);
            }
        }
    }
}

#[test]
fn the_shared_cases_reach_every_limit_and_every_message() {
    let cases = shared_cases();
    let l = SCENARIO_LIMITS;
    let longest = |f: fn(&CaseScenario) -> usize| cases.iter().flat_map(|c| &c.list).map(f).max().unwrap_or(0);
    assert!(cases.iter().any(|c| c.problem.is_none() && c.list.len() == l.scenarios));
    assert_eq!(longest(|s| s.name.trim().chars().count()), l.name_chars + 1);
    assert_eq!(longest(|s| s.query.chars().count()), l.query_chars + 1);
    assert_eq!(longest(|s| s.selected), l.selected + 1);
    let m = SCENARIO_MESSAGES;
    for template in [m.too_many, m.no_name, m.long_name, m.same_name, m.long_query, m.many_selected] {
        let start = template.split('{').next().unwrap_or_default();
        let end = template.rsplit('}').next().unwrap_or_default();
        let shows = |p: &String| p.starts_with(start) && p.ends_with(end);
        assert!(cases.iter().filter_map(|c| c.problem.as_ref()).any(shows), "no case shows “{template}”");
    }
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
