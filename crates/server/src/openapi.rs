//! The OpenAPI 3 document served at `/api-docs`, generated from the handlers and the Rust types, so it
//! cannot drift from what the server does.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

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
