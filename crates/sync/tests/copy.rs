//! Copying a configuration from one `studio serve` to another over loopback, as a designer promotes it from
//! staging to production: the plan shows "new there" or the field diff against the target's version, the
//! copy creates or updates, unknown fields travel, and a change made on the target after the plan is a
//! conflict that writes nothing.

use crate::support;

use serde_json::json;
use studio_model::{Backend, Caller};
use studio_sync::copy::{copy, plan};
use studio_sync::{HistorySource, PublishOutcome};

fn caller() -> Caller {
    Caller { user: "me".into() }
}

fn written(outcome: PublishOutcome) -> studio_model::WriteOutcome {
    match outcome {
        PublishOutcome::Published { outcome } => *outcome,
        PublishOutcome::Conflict { conflict } => {
            panic!("expected the copy to be written, got a conflict on {:?}", conflict.fields)
        }
    }
}

#[tokio::test]
async fn a_configuration_is_copied_new_there_then_updated_with_its_diff_and_unknown_fields() {
    let (staging, production) = (support::serve(|_| {}).await, support::serve(|_| {}).await);
    let (_dir, _local, sync) = support::app_store();
    let (from, to) = (staging.client(), production.client());
    let source = from
        .create_configuration(
            &caller(),
            json!({"config": {"title": "Shop", "searchSpace": "demo",
            "result": {"itemsPerPage": 25}, "x-vendor": {"keep": [1, 2]}}}),
        )
        .await
        .unwrap()
        .config;
    let source_id = source.id.unwrap();
    to.create_configuration(&caller(), json!({"config": {"title": "Other", "searchSpace": "demo"}})).await.unwrap();

    // Nothing of that title and space on production: the copy would create it.
    let first = plan(&from, &to, "production", source_id, None).await.unwrap();
    assert_eq!((first.target.as_str(), first.source_id, first.target_id), ("production", source_id, None));
    assert!(first.base.is_none());
    assert_eq!(first.candidates.len(), 1);
    let added: Vec<&str> = first.diff.iter().map(|d| d.path.as_str()).collect();
    assert!(added.contains(&"config.title") && added.contains(&"config.x-vendor.keep"), "{added:?}");
    assert!(first.diff.iter().all(|d| d.before.is_none()), "every field is new there");

    let created = written(copy(&sync, &from, &to, &production.base, &caller(), source_id, None, None).await.unwrap());
    let copy_id = created.config.id.unwrap();
    let there = to.get_configuration(copy_id).await.unwrap();
    assert_eq!(there.config.title, "Shop");
    assert_eq!(there.config.result.items_per_page, 25);
    assert_eq!(there.config.extra["x-vendor"], json!({"keep": [1, 2]}), "an unknown field travels unchanged");

    // Production keeps a field of its own; staging changes the page size and the navbar colour.
    to.update_configuration(&caller(), copy_id, json!({"config": {"x-production-only": true}})).await.unwrap();
    from.update_configuration(
        &caller(),
        source_id,
        json!({"config": {"result": {"itemsPerPage": 50},
        "layout": {"navbar": {"backgroundColor": "#224466"}}}}),
    )
    .await
    .unwrap();
    let second = plan(&from, &to, "production", source_id, None).await.unwrap();
    assert_eq!(second.target_id, Some(copy_id), "the same title and search space is found");
    assert_eq!(second.base.as_ref().unwrap().config.extra["x-production-only"], json!(true));
    let changes: Vec<(&str, Option<&serde_json::Value>, Option<&serde_json::Value>)> =
        second.diff.iter().map(|d| (d.path.as_str(), d.before.as_ref(), d.after.as_ref())).collect();
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert!(changes.contains(&("config.result.itemsPerPage", Some(&json!(25)), Some(&json!(50)))), "{changes:?}");
    assert!(changes.iter().any(|c| c.0 == "config.layout.navbar.backgroundColor" && c.2 == Some(&json!("#224466"))));

    let updated = written(
        copy(&sync, &from, &to, &production.base, &caller(), source_id, second.target_id, second.base).await.unwrap(),
    );
    assert!(updated.errors.is_empty(), "{:?}", updated.errors);
    let there = to.get_configuration(copy_id).await.unwrap();
    assert_eq!(there.config.result.items_per_page, 50);
    assert_eq!(there.config.layout.navbar.background_color, "#224466");
    assert_eq!(there.config.extra["x-vendor"], json!({"keep": [1, 2]}));
    assert_eq!(there.config.extra["x-production-only"], json!(true), "a field only the target has stays");
    assert_eq!(to.list_configurations().await.unwrap().configurations.len(), 2, "nothing was duplicated");
    let history = studio_sync::history(&sync, &to, &production.base, copy_id).await.unwrap();
    assert!(history
        .iter()
        .any(|h| h.source == HistorySource::Published && h.config.config.result.items_per_page == 50));
}

#[tokio::test]
async fn a_change_on_the_target_after_the_plan_is_a_conflict_and_nothing_is_written() {
    let (staging, production) = (support::serve(|_| {}).await, support::serve(|_| {}).await);
    let (_dir, _local, sync) = support::app_store();
    let (from, to) = (staging.client(), production.client());
    let body = json!({"config": {"title": "Shop", "searchSpace": "demo"}});
    let source_id = from.create_configuration(&caller(), body.clone()).await.unwrap().config.id.unwrap();
    let target_id = to.create_configuration(&caller(), body).await.unwrap().config.id.unwrap();
    from.update_configuration(
        &caller(),
        source_id,
        json!({"config": {"title": "Shop", "result": {"itemsPerPage": 40}}}),
    )
    .await
    .unwrap();

    let shown = plan(&from, &to, "production", source_id, Some(target_id)).await.unwrap();
    to.update_configuration(&caller(), target_id, json!({"config": {"result": {"itemsPerPage": 15}}})).await.unwrap();
    let answer =
        copy(&sync, &from, &to, &production.base, &caller(), source_id, shown.target_id, shown.base).await.unwrap();
    let PublishOutcome::Conflict { conflict } = answer else { panic!("expected a conflict, got {answer:?}") };
    let field = conflict.fields.iter().find(|f| f.path == "config.result.itemsPerPage").unwrap();
    assert_eq!((field.mine.clone(), field.theirs.clone(), field.conflicting), (Some(json!(40)), Some(json!(15)), true));
    assert_eq!(
        to.get_configuration(target_id).await.unwrap().config.result.items_per_page,
        15,
        "nothing was overwritten"
    );

    // Planned again from the version now there, the copy goes through.
    let again = plan(&from, &to, "production", source_id, Some(target_id)).await.unwrap();
    written(
        copy(&sync, &from, &to, &production.base, &caller(), source_id, again.target_id, again.base).await.unwrap(),
    );
    assert_eq!(to.get_configuration(target_id).await.unwrap().config.result.items_per_page, 40);
}

#[tokio::test]
async fn two_configurations_of_the_same_title_and_space_leave_the_choice_to_the_designer() {
    let (staging, production) = (support::serve(|_| {}).await, support::serve(|_| {}).await);
    let (from, to) = (staging.client(), production.client());
    let body = json!({"config": {"title": "Shop", "searchSpace": "demo"}});
    let source_id = from.create_configuration(&caller(), body.clone()).await.unwrap().config.id.unwrap();
    to.create_configuration(&caller(), body.clone()).await.unwrap();
    let second = to.create_configuration(&caller(), body).await.unwrap().config.id.unwrap();
    let guessed = plan(&from, &to, "production", source_id, None).await.unwrap();
    assert_eq!((guessed.target_id, guessed.candidates.len()), (None, 2), "no guess between two of the same name");
    let chosen = plan(&from, &to, "production", source_id, Some(second)).await.unwrap();
    assert_eq!(chosen.target_id, Some(second));
    assert!(chosen.diff.is_empty(), "the same settings: nothing would change, {:?}", chosen.diff);
}

#[tokio::test]
async fn a_copy_leaves_the_targets_unpublished_draft_of_that_configuration_as_it_was() {
    let (staging, production) = (support::serve(|_| {}).await, support::serve(|_| {}).await);
    let (_dir, _local, sync) = support::app_store();
    let (from, to) = (staging.client(), production.client());
    let body = json!({"config": {"title": "Shop", "searchSpace": "demo"}});
    let source_id = from.create_configuration(&caller(), body.clone()).await.unwrap().config.id.unwrap();
    from.update_configuration(&caller(), source_id, json!({"config": {"result": {"itemsPerPage": 40}}})).await.unwrap();
    let target = to.create_configuration(&caller(), body).await.unwrap().config;
    let target_id = target.id.unwrap();

    // A designer connected to production has an edit of that configuration not yet published.
    let base = serde_json::to_value(&target).unwrap();
    let mut edit = base.clone();
    edit["config"]["title"] = json!("Shop (spring sale)");
    sync.save_draft(&production.base, target_id, &edit, Some(&base)).unwrap();

    let shown = plan(&from, &to, "production", source_id, Some(target_id)).await.unwrap();
    let copied = written(
        copy(&sync, &from, &to, &production.base, &caller(), source_id, shown.target_id, shown.base).await.unwrap(),
    );
    assert_eq!(copied.config.config.result.items_per_page, 40);
    let kept = sync.draft(&production.base, target_id).unwrap().expect("the draft on production is kept");
    assert_eq!(kept.draft, edit, "the draft is unchanged");

    // A copy that creates a configuration there leaves the drafts there alone too.
    written(copy(&sync, &from, &to, &production.base, &caller(), source_id, None, None).await.unwrap());
    assert_eq!(sync.drafts(&production.base).unwrap().len(), 1);
}
