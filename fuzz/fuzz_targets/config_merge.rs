//! Configuration JSON as a create or update body, as preview overrides, and as a stored configuration.
//! Must hold: no panic; a body is refused only as a bad request (never an internal error, which would be
//! a 500); what a merge produces reads back unchanged and, sent again as an update, changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use studio_model::{merge_create, merge_update, with_overrides, BackendError, Configuration};

fuzz_target!(|data: &[u8]| {
    let Ok(body) = serde_json::from_slice::<Value>(data) else { return };
    let _ = serde_json::from_value::<Configuration>(body.clone());
    let stored = studio_fuzz::demo_configuration();
    match merge_create(&body) {
        Ok((created, _)) => {
            check_round_trip(&created);
            check_update_is_idempotent(&created, true);
        }
        Err(e) => check_refusal(&e),
    }
    match merge_update(stored, &body) {
        Ok((updated, _)) => {
            check_round_trip(&updated);
            check_update_is_idempotent(&updated, false);
        }
        Err(e) => check_refusal(&e),
    }
    let overrides = body.get("config").unwrap_or(&body);
    check_round_trip(&with_overrides(stored, overrides));
});

fn check_refusal(e: &BackendError) {
    assert!(
        matches!(e, BackendError::BadRequest(_)),
        "a body was refused as something other than a bad request: {e:?}"
    );
}

/// A configuration written as JSON and read back is the same configuration.
fn check_round_trip(config: &Configuration) {
    let text = serde_json::to_string(config).expect("a configuration serialises");
    let back: Configuration = serde_json::from_str(&text).expect("a merged configuration reads back");
    assert_eq!(&back, config, "a merged configuration changed in a JSON round trip: {text}");
}

/// Sending a stored configuration back unchanged as an update stores the same configuration; when it came
/// from a create (so its mandatory fields are set) every key of it is valid.
fn check_update_is_idempotent(config: &Configuration, all_valid: bool) {
    let body = serde_json::to_value(config).expect("a configuration serialises");
    let (again, errors) = merge_update(config, &body).expect("a stored configuration is a valid update body");
    if all_valid {
        assert!(errors.is_empty(), "a stored configuration sent back was refused: {errors:?}");
    }
    assert_eq!(&again, config, "sending a configuration back unchanged changed it");
}
