//! The engine's extensions for the designer's tools over a real `studio serve` on loopback (docs/api.md, Facet
//! health; Similar documents and Recommendations): each field's numbers agree with what searches through the
//! same server count; an unknown search space, or one the caller may not use, is 404, and no token is 401;
//! explanations come only with `explain=true`.

use std::process::Stdio;

use serde_json::{json, Value};

use crate::support::{client, serve_with, studio, Served};

/// A served store with the demo data and a configuration whose search shows `field` as a facet with no limits.
fn served_with_facet(field: &str) -> (tempfile::TempDir, Served, i64) {
    let data = tempfile::tempdir().unwrap();
    studio(&["demo-data"], data.path());
    let served = serve_with(data.path(), &[], &[], Stdio::null());
    let facet =
        json!({"uri": field, "title": "F", "facetMode": "hierarchical", "hierarchicalDepth": 10, "maximumTerms": 1000});
    let (status, body) = served.post(
        "/api/configurations",
        &json!({"config": {"title": "Health", "searchSpace": "demo", "filter": {"facetsToShow": [facet]}}}),
    );
    assert_eq!(status, 200, "{body}");
    let id = body["config"]["id"].as_i64().unwrap();
    (data, served, id)
}

/// Values per level of a facet answer's refiners.
fn levels(refiners: &Value, depth: usize, into: &mut Vec<std::collections::BTreeSet<String>>) {
    for r in refiners.as_array().into_iter().flatten() {
        if into.len() <= depth {
            into.push(Default::default());
        }
        let key = r["value"].as_str().filter(|v| !v.is_empty()).or(r["label"].as_str()).unwrap_or_default();
        into[depth].insert(key.to_owned());
        levels(&r["children"], depth + 1, into);
    }
}

#[test]
fn facet_health_agrees_with_searches_through_the_same_server() {
    let (_data, served, id) = served_with_facet("dyn_uri_topic");
    let (status, health) = served.get("/api/searchspaces/demo/facethealth");
    assert_eq!(status, 200, "{health}");
    assert_eq!(health["searchSpace"], "demo");
    assert_eq!(health["documents"], 2400);
    let (_, spaces) = served.get("/api/searchspaces");
    let listed: Vec<&Value> =
        spaces["searchSpaces"][0]["fields"].as_array().unwrap().iter().map(|f| &f["field"]).collect();
    let fields = health["fields"].as_array().unwrap();
    assert_eq!(fields.iter().map(|f| &f["field"]).collect::<Vec<_>>(), listed, "the fields as listed");
    assert_eq!(health["message"], format!("{} fields", fields.len()));

    // The topic facet of a search with no query, no limit of terms or depth: the same levels.
    let (status, answer) =
        served.post(&format!("/api/configurations/{id}/search"), &json!({"input": null, "selectedFacets": []}));
    assert_eq!(status, 200, "{answer}");
    let mut by_level = Vec::new();
    levels(&answer["facets"][0]["facets"], 0, &mut by_level);
    let topic = fields.iter().find(|f| f["field"] == "dyn_uri_topic").unwrap();
    let counted: Vec<u64> = by_level.iter().map(|s| s.len() as u64).collect();
    assert_eq!(topic["valuesByDepth"], json!(counted), "{topic}");
    assert_eq!(topic["depth"], json!(counted.len()));
    let largest = answer["facets"][0]["facets"].as_array().unwrap().iter().map(|r| r["count"].as_u64().unwrap()).max();
    assert_eq!(topic["largestValueDocuments"].as_u64(), largest);

    // Documents carrying a field: every document of the demo has a topic; a search for one author finds its count.
    assert_eq!(topic["documents"], 2400);
    let author = fields.iter().find(|f| f["field"] == "dyn_lit_author").unwrap();
    assert_eq!(author["depth"], 1, "a literal field is flat: {author}");
    assert_eq!(author["values"], author["valuesByDepth"][0]);
}

#[test]
fn facet_health_of_an_unknown_search_space_is_404_and_needs_a_token() {
    let (_data, served, _) = served_with_facet("dyn_lit_author");
    let (status, body) = served.get("/api/searchspaces/nowhere/facethealth");
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["message"], "search space nowhere does not exist");
    let answer = client(30).get(format!("{}/api/searchspaces/demo/facethealth", served.base)).send().unwrap();
    assert_eq!(answer.status().as_u16(), 401);
    let docs: Value = client(30).get(format!("{}/api-docs", served.base)).send().unwrap().json().unwrap();
    assert!(
        docs["paths"]["/api/searchspaces/{searchSpaceId}/facethealth"]["get"].is_object(),
        "documented in /api-docs"
    );
}

/// A caller may read facet health only with the read right, and only of a search space its groups allow: any
/// other is answered as one that does not exist.
#[test]
fn facet_health_of_a_search_space_the_caller_may_not_use_is_404() {
    let data = tempfile::tempdir().unwrap();
    studio(&["demo-data"], data.path());
    let auth = data.path().join("auth.json");
    let user = |name: &str, group: &str| json!({"name": name, "tokenSha256": studio_server::token_digest(&format!("{name}-token")), "groups": [group]});
    let groups = json!({
        "users": [user("ana", "everything"), user("nick", "news"), user("sam", "searchers")],
        "groups": [
            {"name": "everything", "operations": ["read"], "searchSpaces": ["*"]},
            {"name": "news", "operations": ["read"], "searchSpaces": ["news"]},
            {"name": "searchers", "operations": ["search"], "searchSpaces": ["*"]},
        ]
    });
    std::fs::write(&auth, groups.to_string()).unwrap();
    let served = serve_with(data.path(), &["--auth", auth.to_str().unwrap()], &[], Stdio::null());
    let as_user = |name: &str| {
        let url = format!("{}/api/searchspaces/demo/facethealth", served.base);
        let answer = client(30).get(url).bearer_auth(format!("{name}-token")).send().unwrap();
        (answer.status().as_u16(), answer.json::<Value>().unwrap_or(Value::Null))
    };
    let (status, body) = as_user("ana");
    assert_eq!((status, &body["searchSpace"]), (200, &json!("demo")), "{body}");
    let (status, body) = as_user("nick");
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["message"], "search space demo does not exist");
    let (status, body) = as_user("sam");
    assert_eq!(status, 403, "searching is not reading: {body}");
}

#[test]
fn explanations_come_only_when_asked_for() {
    let (_data, served, id) = served_with_facet("dyn_lit_author");
    let (_, answer) =
        served.post(&format!("/api/configurations/{id}/search"), &json!({"input": null, "selectedFacets": []}));
    let uri = answer["result"][0]["id"].as_str().unwrap().to_owned();
    let encoded: String = uri.bytes().map(|b| format!("%{b:02X}")).collect();

    let (status, plain) = served.get(&format!("/api/configurations/{id}/getSimilar?uri={encoded}"));
    assert_eq!(status, 200, "{plain}");
    let docs = plain["result"].as_array().unwrap();
    assert!(!docs.is_empty() && docs.iter().all(|d| d.get("explanation").is_none()), "unchanged unless asked: {plain}");

    let (status, explained) = served.get(&format!("/api/configurations/{id}/getSimilar?uri={encoded}&explain=true"));
    assert_eq!(status, 200, "{explained}");
    let ids = |v: &Value| v["result"].as_array().unwrap().iter().map(|d| d["id"].clone()).collect::<Vec<_>>();
    assert_eq!(ids(&explained), ids(&plain), "the same documents");
    for d in explained["result"].as_array().unwrap() {
        assert_eq!(d["explanation"]["plugin"], "concepts", "{d}");
        let reasons = d["explanation"]["reasons"].as_array().unwrap();
        assert!(!reasons.is_empty() && reasons.len() <= 10, "{d}");
        assert!(reasons.iter().all(|r| ["concept", "broader-concept"].contains(&r["kind"].as_str().unwrap())), "{d}");
    }

    let path =
        format!("/api/configurations/{id}/getRecommendations?uri={encoded}&recommender=same-author&explain=true");
    let (status, recommended) = served.get(&path);
    assert_eq!(status, 200, "{recommended}");
    let authors: Vec<Value> = answer["result"][0]["facetList"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["field"] == "dyn_lit_author")
        .flat_map(|g| g["facets"].as_array().unwrap().iter().map(|r| r["label"].clone()))
        .collect();
    for d in recommended["result"].as_array().unwrap() {
        for r in d["explanation"]["reasons"].as_array().unwrap() {
            assert_eq!(r["kind"], "author");
            assert!(authors.contains(&r["value"]), "{r} is an author of the source");
        }
    }

    let (status, body) = served.get(&format!("/api/configurations/{id}/getSimilar?uri={encoded}&explain=perhaps"));
    assert_eq!(status, 400, "{body}");
}
