//! Create and update semantics of docs/api.md (Create and update): every invalid key is reported with its dotted path and
//! the rest of the body is kept.

use serde_json::{json, Value};
use studio_model::{merge_create, merge_update, BackendError, Configuration, FieldError};

fn create(config: Value) -> (Value, Vec<FieldError>) {
    let (stored, errors) = merge_create(&json!({ "config": config })).expect("created");
    (serde_json::to_value(stored).unwrap(), errors)
}

fn keys(errors: &[FieldError]) -> Vec<&str> {
    errors.iter().map(|e| e.key.as_str()).collect()
}

/// The validation cases both languages must satisfy (crates/model/cases/validation.json).
fn shared_cases() -> Vec<Value> {
    let text = include_str!("../cases/validation.json");
    let file: Value = serde_json::from_str(text).expect("the case file is JSON");
    file["cases"].as_array().expect("a list of cases").clone()
}

fn shared_case(name: &str) -> Value {
    shared_cases().into_iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no shared case {name:?}"))
}

fn strings(list: &Value) -> Vec<&str> {
    list.as_array().expect("a list").iter().map(|v| v.as_str().expect("a string")).collect()
}

#[test]
fn the_shared_validation_cases_hold_for_an_update_of_the_template() {
    for case in shared_cases() {
        let name = case["name"].as_str().unwrap();
        let (_, errors) = merge_update(&Configuration::template(), &json!({ "config": case["config"] }))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut got = keys(&errors);
        got.sort();
        assert_eq!(got, strings(&case["refused"]), "{name}");
        for (key, message) in case["messages"].as_object().into_iter().flatten() {
            let error = errors.iter().find(|e| &e.key == key).unwrap_or_else(|| panic!("{name}: {key} refused"));
            assert_eq!(error.message, message.as_str().unwrap(), "{name}: {key}");
        }
    }
}

#[test]
fn create_needs_a_title_and_a_search_space() {
    for body in [
        json!({"config": {"searchSpace": "demo"}}),
        json!({"config": {"title": "", "searchSpace": "demo"}}),
        json!({"config": {"title": "A"}}),
        json!({"config": {"title": "A", "searchSpace": 7}}),
    ] {
        let err = merge_create(&body).unwrap_err();
        let BackendError::BadRequest(message) = err else { panic!("{err:?}") };
        assert!(message.contains("config.title") || message.contains("config.searchSpace"), "{message}");
    }
    let err = merge_create(&json!({"config": {}})).unwrap_err();
    assert!(err.to_string().contains("config.title and config.searchSpace"), "{err}");
}

#[test]
fn a_body_that_is_not_an_envelope_is_refused() {
    for body in [json!([1, 2]), json!("x"), json!(null), json!({"title": "A"}), json!({"config": [1]})] {
        assert!(matches!(merge_create(&body), Err(BackendError::BadRequest(_))), "{body}");
        assert!(matches!(merge_update(&Configuration::template(), &body), Err(BackendError::BadRequest(_))), "{body}");
    }
}

#[test]
fn each_kind_of_bad_value_takes_its_default_on_create() {
    let case = shared_case("each kind of bad value is refused at its key");
    let (stored, errors) = create(case["config"].clone());
    let mut got = keys(&errors);
    got.sort();
    assert_eq!(got, strings(&case["refused"]));
    assert!(errors.iter().all(|e| !e.message.is_empty()));

    let c = &stored["config"];
    // The valid rest of the body is stored ...
    assert_eq!(c["title"], "Shop");
    assert_eq!(c["result"]["showTags"], false);
    assert_eq!(c["layout"]["navbar"]["fontColor"], "#000");
    assert_eq!(c["filter"]["facetsToShow"].as_array().unwrap().len(), 1);
    assert_eq!(c["filter"]["facetsToShow"][0]["title"], "Author");
    assert_eq!(c["filter"]["facetsToShow"][0]["refId"], "dyn_lit_author");
    // ... and each invalid key holds its default.
    assert_eq!(c["visible"], true);
    assert_eq!(c["result"]["itemsPerPage"], 10);
    assert_eq!(c["result"]["summaryLength"], 200);
    assert_eq!(c["result"]["numberOfTags"], 10);
    assert_eq!(c["result"]["titleAction"], "detail_view");
    assert_eq!(c["result"]["dateFormat"], "medium");
    assert_eq!(c["filter"]["componentOrder"], json!([]));
    assert_eq!(c["filter"]["facetsToShow"][0]["maximumTerms"], 10);
    assert_eq!(c["filter"]["facetsToShow"][0]["hierarchicalDepth"], 3);
    assert_eq!(c["layout"]["navbar"]["backgroundColor"], "#00adee");
    assert_eq!(c["layout"]["facets"]["backgroundColor"], "#fff");
    assert_eq!(c["layout"]["logo"], "");
    assert_eq!(c["details"]["numberOfRecommendations"], 4);
    assert_eq!(c["details"]["detailsToShow"], json!([]));
}

#[test]
fn bounds_are_inclusive() {
    let (stored, errors) = create(shared_case("bounds are inclusive")["config"].clone());
    assert_eq!(errors, vec![]);
    assert_eq!(stored["config"]["result"]["itemsPerPage"], 100);
    assert_eq!(stored["config"]["filter"]["facetsToShow"][0]["maximumTerms"], 1000);
}

#[test]
fn a_mismatched_ref_id_is_reported_and_follows_the_uri() {
    let (stored, errors) = create(json!({
        "title": "A", "searchSpace": "s",
        "filter": { "facetsToShow": [{ "uri": "dyn_uri_topic", "refId": "other" }] }
    }));
    assert_eq!(keys(&errors), vec!["config.filter.facetsToShow.0.refId"]);
    assert_eq!(stored["config"]["filter"]["facetsToShow"][0]["refId"], "dyn_uri_topic");
}

#[test]
fn update_replaces_present_keys_keeps_absent_ones_and_keeps_current_values_of_invalid_keys() {
    let (first, _) = merge_create(&json!({"config": {
        "title": "A", "searchSpace": "s",
        "result": { "itemsPerPage": 20, "showTags": false },
        "layout": { "navbar": { "backgroundColor": "#123456" } },
        "filter": { "facetsToShow": [{ "uri": "a" }, { "uri": "b" }] }
    }}))
    .unwrap();
    let (updated, errors) = merge_update(
        &first,
        &json!({
            "id": 99, "user": "mallory", "created": "1999-01-01T00:00:00.000Z",
            "config": {
                "title": "",
                "result": { "itemsPerPage": 500, "summaryLength": 50 },
                "layout": { "navbar": { "fontColor": "#000000" } },
                "filter": { "facetsToShow": [{ "uri": "c" }] }
            }
        }),
    )
    .unwrap();
    assert_eq!(keys(&errors), vec!["config.title", "config.result.itemsPerPage"]);
    let c = &updated.config;
    assert_eq!(c.title, "A", "an invalid title keeps the current one");
    assert_eq!(c.result.items_per_page, 20, "an invalid value keeps the current one");
    assert_eq!(c.result.summary_length, 50);
    assert!(!c.result.show_tags, "an absent key keeps its value");
    assert_eq!(c.layout.navbar.background_color, "#123456");
    assert_eq!(c.layout.navbar.font_color, "#000000");
    let uris: Vec<_> = c.filter.facets_to_show.iter().map(|f| f.uri.as_str()).collect();
    assert_eq!(uris, ["c"], "arrays are replaced as a whole");
    assert_eq!(
        (updated.id, updated.user.as_str(), updated.created.as_deref()),
        (first.id, first.user.as_str(), first.created.as_deref())
    );
}

#[test]
fn a_large_data_uri_logo_is_refused_with_its_size() {
    let logo = format!("data:image/png;base64,{}", "A".repeat(600 * 1024));
    let (stored, errors) = create(json!({ "title": "A", "searchSpace": "s", "layout": { "logo": logo } }));
    assert_eq!(keys(&errors), vec!["config.layout.logo"]);
    assert!(errors[0].message.contains("KiB"), "{}", errors[0].message);
    assert_eq!(stored["config"]["layout"]["logo"], "");
    let (stored, errors) =
        create(json!({ "title": "A", "searchSpace": "s", "layout": { "logo": "data:image/svg+xml;base64,PHN2Zy8+" } }));
    assert!(errors.is_empty());
    assert_eq!(stored["config"]["layout"]["logo"], "data:image/svg+xml;base64,PHN2Zy8+");
}
