//! Field-by-field comparison and the three-way merge of the conflict view, by the cases the editor's copy of
//! these rules must satisfy too (crates/sync/cases/conflict.json).

use std::collections::BTreeMap;

use serde_json::json;
use studio_sync::{diff_fields, resolve, three_way, Side};

#[test]
fn a_field_removed_has_no_value_after() {
    let case = &shared("diff")[0];
    let removed = diff_fields(&case["after"], &case["before"]);
    assert_eq!(removed.iter().find(|d| d.path == "config.newKey.deep").expect("listed").after, None);
}

/// The conflict cases both languages must satisfy (crates/sync/cases/conflict.json).
fn shared(kind: &str) -> Vec<serde_json::Value> {
    let file: serde_json::Value = serde_json::from_str(include_str!("../cases/conflict.json")).expect("JSON");
    file[kind].as_array().expect("a list of cases").clone()
}

/// The value at a dotted path (object keys only).
fn at<'a>(value: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(value, |v, key| v.get(key))
}

#[test]
fn the_shared_conflict_cases_hold() {
    for case in shared("diff") {
        let paths: Vec<String> = diff_fields(&case["before"], &case["after"]).into_iter().map(|d| d.path).collect();
        assert_eq!(json!(paths), case["paths"], "{}", case["name"]);
    }
    for case in shared("threeWay") {
        let fields = three_way(&case["base"], &case["mine"], &case["theirs"]);
        let marked: Vec<_> = fields.iter().map(|f| json!([f.path, f.conflicting])).collect();
        assert_eq!(json!(marked), case["fields"], "{}", case["name"]);
        for (path, values) in case["values"].as_object().into_iter().flatten() {
            let field = fields.iter().find(|f| &f.path == path).expect("the field is listed");
            assert_eq!(json!([field.base, field.mine, field.theirs]), *values, "{}: {path}", case["name"]);
        }
    }
    for case in shared("resolve") {
        let side = |v: &serde_json::Value| serde_json::from_value::<Side>(v.clone()).expect("mine or theirs");
        let choices: BTreeMap<String, Side> =
            case["choices"].as_object().into_iter().flatten().map(|(k, v)| (k.clone(), side(v))).collect();
        let merged = resolve(&case["base"], &case["mine"], &case["theirs"], &choices, side(&case["rest"]));
        if let Some(whole) = case.get("equals") {
            assert_eq!(&merged, whole, "{}", case["name"]);
        }
        for (path, want) in case["at"].as_object().into_iter().flatten() {
            assert_eq!(at(&merged, path), Some(want), "{}: {path}", case["name"]);
        }
    }
}
