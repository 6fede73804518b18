//! The OpenAPI 3 document served at `/api-docs`, generated from the handlers and the Rust types, so it
//! cannot drift from what the server does: the API's paths come from the same `routes!` lists that route
//! them (`routes::api`), the probes' from here.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use serde_json::{json, Value};
use studio_model::Offers;

use crate::auth::WebSignIn;
use crate::routes;

#[derive(OpenApi)]
#[openapi(
    info(title = "Search Studio", description = "Configurations of a faceted search application, and search through them."),
    paths(
        crate::probes::healthz,
        crate::probes::readyz,
    ),
    modifiers(&BearerAuth),
    security(("bearer" = []))
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The whole document: the probes, and every operation of the API under `/api`.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi().nest("/api", routes::api().into_openapi())
}

/// The name of the provider sign-in's security scheme, and the extension of it that names the web UI's
/// client (docs/choices.md, "The web UI").
const OIDC_SCHEME: &str = "oidc";
const CLIENT_ID_EXTENSION: &str = "x-search-studio-client-id";

/// The document without the operations of the extensions `offers` leaves out (a path left with no
/// operation is dropped), and with the provider the web UI signs in through, if there is one.
pub fn document_offering(offers: Offers, sign_in: Option<&WebSignIn>) -> Value {
    let mut document = serde_json::to_value(document()).unwrap_or_default();
    if let Some(sign_in) = sign_in {
        add_sign_in(&mut document, sign_in);
    }
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for extension in offers.missing() {
            let (method, path) = extension.route();
            if let Some(item) = paths.get_mut(path).and_then(Value::as_object_mut) {
                item.remove(method);
                if !item.keys().any(|k| ["get", "put", "post", "delete", "patch"].contains(&k.as_str())) {
                    paths.remove(path);
                }
            }
        }
    }
    document
}

/// Names the provider as an `openIdConnect` security scheme (its discovery document, and the web UI's
/// client id as an extension of the scheme) and lists it beside the bearer scheme as a way to call the API.
fn add_sign_in(document: &mut Value, sign_in: &WebSignIn) {
    let scheme = json!({
        "type": "openIdConnect",
        "openIdConnectUrl": sign_in.discovery_url(),
        "description": concat!(
            "Access tokens of this OpenID Connect provider; the web UI signs in as the public client named here, ",
            "with the authorization code and PKCE."
        ),
        CLIENT_ID_EXTENSION: sign_in.client_id,
    });
    let Some(root) = document.as_object_mut() else { return };
    let schemes = root
        .entry("components")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .map(|components| components.entry("securitySchemes").or_insert_with(|| json!({})));
    if let Some(schemes) = schemes.and_then(Value::as_object_mut) {
        schemes.insert(OIDC_SCHEME.to_owned(), scheme);
    }
    if let Some(security) = root.entry("security").or_insert_with(|| json!([])).as_array_mut() {
        security.push(json!({ OIDC_SCHEME: ["openid"] }));
    }
}
