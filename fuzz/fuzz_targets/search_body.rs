//! A search request body as the server reads it (typed, with the path of a wrong field), run through the
//! local engine against the demo data, with any preview `config` merged over the stored settings.
//! Must hold: no panic, and a well-typed body with `start >= 0` never fails (docs/api.md, Search: no
//! input to a search is an error).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use studio_model::{with_overrides, SearchRequest};

fuzz_target!(|data: &[u8]| {
    let Ok(body) = serde_json::from_slice::<Value>(data) else { return };
    if !body.is_object() {
        return;
    }
    let Ok(request) = serde_path_to_error::deserialize::<_, SearchRequest>(body) else { return };
    if request.start.is_some_and(|s| s < 0) {
        return;
    }
    let scratch = studio_fuzz::demo_store();
    let stored = studio_fuzz::demo_configuration();
    let config = match &request.config {
        Some(overrides) => with_overrides(stored, overrides),
        None => stored.clone(),
    };
    let mut conn = scratch.store().conn().expect("a connection");
    let answer = scratch.backend.engine().search(&mut conn, &config.config, &request);
    let answer = answer.unwrap_or_else(|e| panic!("a valid search body failed: {e}"));
    assert!(answer.result.len() as i64 <= answer.total.max(0), "more results than the total");
});
