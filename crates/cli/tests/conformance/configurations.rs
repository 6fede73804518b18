//! Scenarios over operations 1–6 and the extensions of docs/api.md (Operations), with their error
//! cases. Each checks the rules itself and records every answer for the cross-backend comparison.

use serde_json::{json, Value};
use studio_model::{BackendError, LogAction};

use super::fixtures::Fixture;
use super::transcript::Transcript;

fn body(title: &str, space: &str) -> Value {
    json!({"config": {"title": title, "searchSpace": space}})
}

/// An empty store, then create, read, list, update with valid and invalid keys, and bad bodies.
pub async fn create_read_update(fx: Fixture) -> Transcript {
    let (b, who) = (fx.backend.as_ref(), &fx.caller);
    let mut t = Transcript::default();
    let template = t.ok("default", b.default_configuration().await);
    assert_eq!((template.id, template.user.as_str(), template.created.as_deref()), (None, "anonymous", None));
    let empty = t.ok("list empty", b.list_configurations().await);
    assert!(empty.configurations.is_empty() && empty.active_id.is_none());
    assert!(matches!(t.err("active of none", b.active_configuration().await), BackendError::NotFound(_)));
    assert!(matches!(t.err("get missing", b.get_configuration(1).await), BackendError::NotFound(_)));

    let mut from_template = serde_json::to_value(&template).unwrap();
    from_template["config"]["title"] = json!("From the template");
    from_template["config"]["searchSpace"] = json!(fx.space);
    let first = t.ok("create from template", b.create_configuration(who, from_template).await);
    assert_eq!((first.config.id, first.errors.len()), (Some(1), 0));
    assert_eq!(first.config.user, who.user);
    let invalid = json!({"config": {"title": "Second", "searchSpace": fx.space, "result": {"itemsPerPage": 1000},
        "layout": {"navbar": {"backgroundColor": "red"}}}});
    let second = t.ok("create with invalid keys", b.create_configuration(who, invalid).await);
    let keys: Vec<_> = second.errors.iter().map(|e| e.key.as_str()).collect();
    assert!(
        keys.contains(&"config.result.itemsPerPage") && keys.contains(&"config.layout.navbar.backgroundColor"),
        "{keys:?}"
    );
    assert_eq!(second.config.config.result.items_per_page, 10, "an invalid key takes its default");

    for (step, bad) in [
        ("create without title", json!({"config": {"searchSpace": fx.space}})),
        ("create without config", json!({"title": "x"})),
        ("create with config not an object", json!({"config": 5})),
        ("create with an array", json!([1, 2])),
        ("create with null", Value::Null),
    ] {
        assert!(matches!(t.err(step, b.create_configuration(who, bad).await), BackendError::BadRequest(_)), "{step}");
    }
    let list = t.ok("list two", b.list_configurations().await);
    assert_eq!((list.configurations.len(), list.active_id), (2, Some(1)), "the first created is active");
    t.ok("active", b.active_configuration().await);

    let updated =
        t.ok("update", b.update_configuration(who, 2, json!({"config": {"title": "Renamed", "visible": false}})).await);
    assert_eq!((updated.config.config.title.as_str(), updated.config.config.visible), ("Renamed", false));
    assert_eq!(updated.config.config.search_space, fx.space, "absent keys keep their values");
    let partly = t.ok(
        "update with an invalid key",
        b.update_configuration(who, 2, json!({"config": {"result": {"itemsPerPage": "many", "showTags": false}}}))
            .await,
    );
    assert_eq!(partly.errors.len(), 1);
    assert!(!partly.config.config.result.show_tags);
    assert!(matches!(
        t.err("update missing", b.update_configuration(who, 99, body("x", "y")).await),
        BackendError::NotFound(_)
    ));
    assert!(matches!(
        t.err("update with text", b.update_configuration(who, 2, json!("text")).await),
        BackendError::BadRequest(_)
    ));
    t.ok("get updated", b.get_configuration(2).await);
    let visible = t.ok("visible", b.visible_configurations().await);
    assert_eq!(visible.iter().map(|c| c.id).collect::<Vec<_>>(), [Some(1)]);
    t
}

/// Set active, delete (409 for the active one), history, and their 404s.
pub async fn extensions(fx: Fixture) -> Transcript {
    let (b, who) = (fx.backend.as_ref(), &fx.caller);
    let mut t = Transcript::default();
    t.ok("create 1", b.create_configuration(who, body("One", fx.space)).await);
    t.ok("create 2", b.create_configuration(who, body("Two", "elsewhere")).await);
    t.ok("update 2", b.update_configuration(who, 2, json!({"config": {"result": {"itemsPerPage": 25}}})).await);
    let now_active = t.ok("set active 2", b.set_active(who, 2).await);
    assert_eq!(now_active.id, Some(2));
    assert_eq!(t.ok("active is 2", b.active_configuration().await).id, Some(2));
    assert!(matches!(t.err("delete active", b.delete_configuration(who, 2).await), BackendError::Conflict(_)));
    assert!(matches!(t.err("set active missing", b.set_active(who, 42).await), BackendError::NotFound(_)));
    t.ok("delete 1", b.delete_configuration(who, 1).await);
    assert!(matches!(t.err("get deleted", b.get_configuration(1).await), BackendError::NotFound(_)));
    assert!(matches!(t.err("delete deleted", b.delete_configuration(who, 1).await), BackendError::NotFound(_)));
    let history = t.ok("logs of deleted", b.configuration_logs(1).await);
    assert_eq!(history.iter().map(|e| e.action).collect::<Vec<_>>(), [LogAction::Delete, LogAction::Create]);
    let history = t.ok("logs of 2", b.configuration_logs(2).await);
    assert_eq!(
        history.iter().map(|e| e.action).collect::<Vec<_>>(),
        [LogAction::SetActive, LogAction::Update, LogAction::Create]
    );
    assert_eq!(history[0].user, who.user);
    assert!(matches!(t.err("logs missing", b.configuration_logs(77).await), BackendError::NotFound(_)));
    let list = t.ok("list after", b.list_configurations().await);
    assert_eq!((list.configurations.len(), list.active_id), (1, Some(2)));
    t
}

/// A configuration with fields this project does not know survives create, read and a full write-back.
pub async fn unknown_fields_round_trip(fx: Fixture) -> Transcript {
    let (b, who) = (fx.backend.as_ref(), &fx.caller);
    let mut t = Transcript::default();
    let with_unknowns = json!({"tenant": "acme", "config": {
        "title": "Foreign", "searchSpace": fx.space, "experimentalRanking": {"boost": [1, 2]},
        "result": {"itemsPerPage": 20, "highlightColor": "#ff0"},
        "filter": {"facetsToShow": [{"uri": "dyn_lit_author", "title": "Author", "collapsed": true}],
            "componentOrder": ["facets", "search", "saved-searches"]},
        "layout": {"basicActionColor": {"backgroundColor": "#123", "fontColor": "#fff", "hover": "#000"}, "favicon": "f.ico"},
        "details": {"detailsToShow": [{"uri": "dyn_lit_author", "title": "Author", "width": 2}], "sidebar": null}
    }});
    let created = t.ok("create with unknown fields", b.create_configuration(who, with_unknowns).await);
    let id = created.config.id.expect("an id");
    let read = t.ok("read back", b.get_configuration(id).await);
    let envelope = serde_json::to_value(&read).unwrap();
    for pointer in [
        "/config/experimentalRanking/boost/1",
        "/config/result/highlightColor",
        "/config/filter/facetsToShow/0/collapsed",
        "/config/layout/basicActionColor/hover",
        "/config/layout/favicon",
        "/config/details/detailsToShow/0/width",
        "/config/filter/componentOrder/2",
    ] {
        assert!(envelope.pointer(pointer).is_some(), "{pointer} was lost: {envelope}");
    }
    assert!(envelope["config"]["details"].get("sidebar").is_some(), "a null unknown field is kept too");
    t.ok("write back whole", b.update_configuration(who, id, envelope.clone()).await);
    let again = t.ok("read again", b.get_configuration(id).await);
    assert_eq!(serde_json::to_value(&again).unwrap(), envelope, "a read and written-back configuration loses nothing");
    t
}
