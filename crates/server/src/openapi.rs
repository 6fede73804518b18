//! The OpenAPI 3 document served at `/api-docs`, generated from the handlers and the Rust types, so it
//! cannot drift from what the server does.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use studio_model::Offers;

use crate::routes::{configurations, search, searchspaces};

#[derive(OpenApi)]
#[openapi(
    info(title = "Search Studio", description = "Configurations of a faceted search application, and search through them."),
    paths(
        configurations::default_settings,
        configurations::list,
        configurations::active,
        configurations::visible,
        configurations::get,
        configurations::create,
        configurations::update,
        configurations::set_active,
        configurations::delete,
        configurations::logs,
        search::similar,
        search::recommendations,
        search::search,
        searchspaces::list,
    ),
    modifiers(&BearerAuth),
    security(("bearer" = []))
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("bearer", SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()));
    }
}

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document without the operations of the extensions `offers` leaves out (a path left with no
/// operation is dropped).
pub fn document_offering(offers: Offers) -> serde_json::Value {
    let mut document = serde_json::to_value(document()).unwrap_or_default();
    if let Some(paths) = document.get_mut("paths").and_then(serde_json::Value::as_object_mut) {
        for extension in offers.missing() {
            let (method, path) = extension.route();
            if let Some(item) = paths.get_mut(path).and_then(serde_json::Value::as_object_mut) {
                item.remove(method);
                if !item.keys().any(|k| ["get", "put", "post", "delete", "patch"].contains(&k.as_str())) {
                    paths.remove(path);
                }
            }
        }
    }
    document
}
