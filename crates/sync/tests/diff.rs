//! Field-by-field comparison and the three-way merge of the conflict view.

use std::collections::BTreeMap;

use serde_json::json;
use studio_sync::{diff_fields, resolve, three_way, Side};

fn envelope(title: &str, navbar: &str, per_page: i64, facets: serde_json::Value) -> serde_json::Value {
    json!({"id": 4, "user": "ana", "created": "t", "config": {
        "title": title, "result": {"itemsPerPage": per_page},
        "layout": {"navbar": {"backgroundColor": navbar, "fontColor": "#fff"}},
        "filter": {"facetsToShow": facets}}})
}

#[test]
fn diffs_name_dotted_paths_and_treat_arrays_as_one_field() {
    let a = envelope("A", "#000", 10, json!([{"uri": "x"}]));
    let mut b = envelope("A", "#111", 10, json!([{"uri": "x"}, {"uri": "y"}]));
    b["id"] = json!(99);
    b["config"]["newKey"] = json!({"deep": 1});
    let paths: Vec<String> = diff_fields(&a, &b).into_iter().map(|d| d.path).collect();
    assert_eq!(paths, ["config.filter.facetsToShow", "config.layout.navbar.backgroundColor", "config.newKey.deep"]);
    let removed = diff_fields(&b, &a);
    assert_eq!(removed.iter().find(|d| d.path == "config.newKey.deep").unwrap().after, None);
}

#[test]
fn three_way_marks_only_fields_changed_on_both_sides_as_conflicting() {
    let base = envelope("A", "#000", 10, json!([]));
    let mine = envelope("Mine", "#111", 10, json!([]));
    let theirs = envelope("Theirs", "#000", 20, json!([]));
    let fields = three_way(&base, &mine, &theirs);
    let by: BTreeMap<_, _> = fields.iter().map(|f| (f.path.as_str(), f.conflicting)).collect();
    assert_eq!(by.len(), 3);
    assert!(by["config.title"]);
    assert!(!by["config.layout.navbar.backgroundColor"]);
    assert!(!by["config.result.itemsPerPage"]);
}

#[test]
fn resolving_keeps_both_sides_changes_and_applies_the_choices() {
    let base = envelope("A", "#000", 10, json!([]));
    let mine = envelope("Mine", "#111", 10, json!([{"uri": "m"}]));
    let mut theirs = envelope("Theirs", "#000", 20, json!([{"uri": "t"}]));
    theirs["config"]["serverOnly"] = json!(true);

    let all_mine = resolve(&base, &mine, &theirs, &BTreeMap::new(), Side::Mine);
    assert_eq!(all_mine["config"]["title"], "Mine");
    assert_eq!(all_mine["config"]["filter"]["facetsToShow"], json!([{"uri": "m"}]));
    assert_eq!(all_mine["config"]["layout"]["navbar"]["backgroundColor"], "#111");
    assert_eq!(all_mine["config"]["result"]["itemsPerPage"], 20, "their change that I did not touch stays");
    assert_eq!(all_mine["config"]["serverOnly"], true);

    let mut choices = BTreeMap::new();
    choices.insert("config.title".to_owned(), Side::Mine);
    let mixed = resolve(&base, &mine, &theirs, &choices, Side::Theirs);
    assert_eq!(mixed["config"]["title"], "Mine");
    assert_eq!(mixed["config"]["filter"]["facetsToShow"], json!([{"uri": "t"}]));
    assert_eq!(mixed["config"]["layout"]["navbar"]["backgroundColor"], "#111", "my change they did not touch stays");
}
