//! What a remote server offers beyond the API's nine operations, learned from the paths its OpenAPI
//! document lists (OpenAPI 2.0, as the production server serves it, or 3.x, as this project's server does)
//! and from every answer that says it lacks an extension.

use std::future::Future;
use std::sync::Mutex;

use serde_json::Value;
use studio_model::{Extension, Offers};
use tokio::sync::OnceCell;

use crate::error::RemoteError;

/// The offers of one server as far as they are known.
#[derive(Default)]
pub(crate) struct KnownOffers {
    /// From `/api-docs`, read once; `None` inside when the server has no readable document.
    documented: OnceCell<Option<Offers>>,
    /// Extensions the server has answered that it lacks.
    refused: Mutex<Vec<Extension>>,
}

impl KnownOffers {
    /// Reads the OpenAPI document with `fetch` until it gives a definite answer: a document, or an answer
    /// saying there is none (404, 405, or something that is not an OpenAPI document). A failure that says
    /// nothing about the document (the server unreachable, a 5xx, a refused token) is asked again next time.
    pub async fn documented<F, Fut>(&self, fetch: F)
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Value, RemoteError>>,
    {
        let _ = self
            .documented
            .get_or_try_init(|| async {
                match fetch().await {
                    Ok(document) => Ok(offers_in_document(&document)),
                    Err(RemoteError::NotFound { .. } | RemoteError::NotTheApi { .. }) => Ok(None),
                    Err(RemoteError::Refused { status: 405, .. }) => Ok(None),
                    Err(other) => Err(other),
                }
            })
            .await;
    }

    /// Records that the server lacks `extension`.
    pub fn lacks(&self, extension: Extension) {
        let mut refused = self.refused.lock().unwrap_or_else(|p| p.into_inner());
        if !refused.contains(&extension) {
            refused.push(extension);
        }
    }

    /// What is known now: the document's paths (everything, without one), less what the server refused.
    pub fn known(&self) -> Offers {
        let mut offers = self.documented.get().copied().flatten().unwrap_or_default();
        for extension in self.refused.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            offers.set(*extension, false);
        }
        offers
    }
}

/// A path as compared: the base path joined in, parameters written `{}`, no trailing slash.
fn normalise(path: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    let trimmed = out.trim_end_matches('/');
    if trimmed.starts_with('/') {
        trimmed.to_owned()
    } else {
        format!("/{trimmed}")
    }
}

/// The path prefix every documented path sits under: OpenAPI 2.0's `basePath`, or the path of OpenAPI 3's
/// first server URL.
fn base_path(document: &Value) -> String {
    if let Some(base) = document.get("basePath").and_then(Value::as_str) {
        return base.trim_end_matches('/').to_owned();
    }
    let server = document.pointer("/servers/0/url").and_then(Value::as_str).unwrap_or_default();
    let path = match server.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None => server,
    };
    path.trim_end_matches('/').to_owned()
}

/// Which extensions an OpenAPI document (2.0 or 3.x) lists; `None` when the value is not such a document.
pub(crate) fn offers_in_document(document: &Value) -> Option<Offers> {
    let is_openapi = document.get("swagger").is_some() || document.get("openapi").is_some();
    let paths = document.get("paths")?.as_object().filter(|_| is_openapi)?;
    let base = base_path(document);
    let listed: Vec<(String, &Value)> =
        paths.iter().map(|(path, item)| (normalise(&format!("{base}{path}")), item)).collect();
    let mut offers = Offers::all();
    for extension in Extension::ALL {
        let (method, path) = extension.route();
        let wanted = normalise(path);
        let present = listed.iter().any(|(p, item)| *p == wanted && item.get(method).is_some());
        offers.set(extension, present);
    }
    Some(offers)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_swagger_2_document_with_a_base_path_offers_what_it_lists() {
        let document = json!({
            "swagger": "2.0",
            "basePath": "/api",
            "paths": {
                "/configurations": {"get": {}, "post": {}},
                "/configurations/{id}": {"get": {}, "put": {}},
                "/configurations/{id}/set": {"post": {}},
                "/configurations/{configId}/logs": {"get": {}},
            }
        });
        let offers = offers_in_document(&document).unwrap();
        assert!(offers.set_active && offers.logs);
        assert!(!offers.delete && !offers.visible && !offers.search_spaces);
    }

    #[test]
    fn an_openapi_3_document_offers_what_it_lists_under_its_server_path() {
        let document = json!({
            "openapi": "3.1.0",
            "servers": [{"url": "https://search.example.org/"}],
            "paths": {
                "/api/configurations/{configId}": {"get": {}, "put": {}, "delete": {}},
                "/api/searchspaces": {"get": {}},
            }
        });
        let offers = offers_in_document(&document).unwrap();
        assert!(offers.delete && offers.search_spaces);
        assert!(!offers.set_active && !offers.logs && !offers.visible);
    }

    #[test]
    fn anything_else_is_not_a_document() {
        assert_eq!(offers_in_document(&json!({"paths": {}})), None);
        assert_eq!(offers_in_document(&json!({"status": 404, "error": "Not Found"})), None);
    }
}
