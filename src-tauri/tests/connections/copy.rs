//! Copying a configuration from the current connection to another through the commands, as the Copy
//! dialog does: the plan ("new there", or the field diff), the copy, and a conflict when the target changed
//! after the plan.

use serde_json::json;

use crate::harness::{harness, servers};

#[test]
fn a_configuration_is_copied_to_another_connection_and_a_later_change_there_is_a_conflict() {
    let (staging, production) = (servers::token_server(|_| {}), servers::token_server(|_| {}));
    let source = staging.create(json!({"config": {"title": "Shop", "searchSpace": "demo", "x-vendor": "kept"}}));
    let h = harness();
    let to = h.add_token_connection("Production", &production.url, &production.token);
    h.use_token_connection(&staging.url, &staging.token);

    let refused = h.invoke(
        "copy_plan",
        json!({"target": h.ok("list_connections", json!({}))["current"], "id": source, "targetId": null}),
    );
    assert_eq!(refused.unwrap_err()["code"], "bad_request", "a configuration is not copied onto itself");

    let plan = h.ok("copy_plan", json!({"target": to, "id": source, "targetId": null}));
    assert_eq!(
        (plan["target"].clone(), plan["sourceId"].clone(), plan["targetId"].clone()),
        (json!(to), json!(source), json!(null))
    );
    assert!(plan["diff"].as_array().unwrap().iter().any(|d| d["path"] == "config.x-vendor" && d["before"].is_null()));
    let copied = h.ok("copy_configuration", json!({"target": to, "id": source, "targetId": null, "base": null}));
    assert_eq!(copied["status"], "published", "{copied}");
    let there = copied["outcome"]["config"]["id"].as_i64().unwrap() as i32;

    // Changed on staging: the plan finds the copy by title and search space and shows the one change.
    h.ok("update_configuration", json!({"id": source, "body": {"config": {"result": {"itemsPerPage": 30}}}}));
    let plan = h.ok("copy_plan", json!({"target": to, "id": source, "targetId": null}));
    assert_eq!(plan["targetId"], there);
    assert_eq!(plan["diff"], json!([{"path": "config.result.itemsPerPage", "before": 10, "after": 30}]));

    // Someone changes production before the copy: nothing is written, the conflict shows both sides.
    production.update(there, json!({"config": {"result": {"itemsPerPage": 20}}}));
    let answer =
        h.ok("copy_configuration", json!({"target": to, "id": source, "targetId": there, "base": plan["base"]}));
    assert_eq!(answer["status"], "conflict", "{answer}");
    let field = answer["conflict"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "config.result.itemsPerPage")
        .unwrap()
        .clone();
    assert_eq!((field["mine"].clone(), field["theirs"].clone()), (json!(30), json!(20)));

    // To the local store too; there it is new.
    let local = h.ok("copy_configuration", json!({"target": "local", "id": source, "targetId": null, "base": null}));
    assert_eq!(local["status"], "published");
    h.ok("use_connection", json!({"id": to}));
    assert_eq!(h.ok("get_configuration", json!({"id": there}))["config"]["result"]["itemsPerPage"], 20);
    assert_eq!(h.ok("get_configuration", json!({"id": there}))["config"]["x-vendor"], "kept");
    h.ok("use_connection", json!({"id": "local"}));
    let titles: Vec<_> = h.ok("list_configurations", json!({}))["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"]["title"].clone())
        .collect();
    assert!(titles.contains(&json!("Shop")), "{titles:?}");
}
