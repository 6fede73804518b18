//! What a server offers beyond the API's nine operations (docs/api.md, Operations). This project's own server offers
//! everything; another server of the API (a team's production server) may lack some of the extensions, and the UI
//! disables or hides what a backend does not offer instead of failing when it is used.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::BackendError;

/// An operation beyond the API's nine that a server of the API may not offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Extension {
    /// `POST /api/configurations/{configId}/set`.
    SetActive,
    /// `GET /api/configurations/visible`.
    Visible,
    /// `GET /api/configurations/{configId}/logs`.
    Logs,
    /// `DELETE /api/configurations/{configId}`.
    Delete,
    /// `GET /api/searchspaces`.
    SearchSpaces,
    /// `GET /api/searchspaces/{searchSpaceId}/facethealth`.
    FacetHealth,
}

impl Extension {
    /// Every extension.
    pub const ALL: [Extension; 6] = [
        Extension::SetActive,
        Extension::Visible,
        Extension::Logs,
        Extension::Delete,
        Extension::SearchSpaces,
        Extension::FacetHealth,
    ];

    /// The operation in words, as it completes "this server does not offer …".
    pub fn operation(self) -> &'static str {
        match self {
            Extension::SetActive => "making a configuration active",
            Extension::Visible => "listing the visible configurations",
            Extension::Logs => "the history of a configuration",
            Extension::Delete => "deleting a configuration",
            Extension::SearchSpaces => "listing search spaces and their facet fields",
            Extension::FacetHealth => "facet health of a search space's fields",
        }
    }

    /// Its method and path, written as an OpenAPI document writes them.
    pub fn route(self) -> (&'static str, &'static str) {
        match self {
            Extension::SetActive => ("post", "/api/configurations/{configId}/set"),
            Extension::Visible => ("get", "/api/configurations/visible"),
            Extension::Logs => ("get", "/api/configurations/{configId}/logs"),
            Extension::Delete => ("delete", "/api/configurations/{configId}"),
            Extension::SearchSpaces => ("get", "/api/searchspaces"),
            Extension::FacetHealth => ("get", "/api/searchspaces/{searchSpaceId}/facethealth"),
        }
    }

    /// The extension a request stands for, from its method and path (`/api/configurations/4/set`).
    pub fn of_request(method: &str, path: &str) -> Option<Extension> {
        let path = path.split('?').next().unwrap_or_default().trim_end_matches('/');
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let method = method.to_ascii_lowercase();
        match (method.as_str(), parts.as_slice()) {
            ("post", ["api", "configurations", id, "set"]) if is_id(id) => Some(Extension::SetActive),
            ("get", ["api", "configurations", "visible"]) => Some(Extension::Visible),
            ("get", ["api", "configurations", id, "logs"]) if is_id(id) => Some(Extension::Logs),
            ("delete", ["api", "configurations", id]) if is_id(id) => Some(Extension::Delete),
            ("get", ["api", "searchspaces"]) => Some(Extension::SearchSpaces),
            ("get", ["api", "searchspaces", _, "facethealth"]) => Some(Extension::FacetHealth),
            _ => None,
        }
    }

    /// The error for a server that lacks this operation: "`server` does not offer …".
    pub fn not_offered(self, server: &str) -> BackendError {
        BackendError::NotOffered(format!("{server} does not offer {}", self.operation()))
    }
}

fn is_id(part: &str) -> bool {
    part.starts_with('{') || part.parse::<i64>().is_ok()
}

/// Which extensions a backend offers. Unknown is "offered": an operation is only taken away once the
/// server's OpenAPI document leaves it out or the server answers that it lacks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Offers {
    pub set_active: bool,
    pub visible: bool,
    pub logs: bool,
    pub delete: bool,
    pub search_spaces: bool,
    pub facet_health: bool,
}

impl Default for Offers {
    fn default() -> Self {
        Offers::all()
    }
}

impl Offers {
    /// Everything offered (this project's own backends).
    pub fn all() -> Self {
        Offers { set_active: true, visible: true, logs: true, delete: true, search_spaces: true, facet_health: true }
    }

    fn slot(&mut self, extension: Extension) -> &mut bool {
        match extension {
            Extension::SetActive => &mut self.set_active,
            Extension::Visible => &mut self.visible,
            Extension::Logs => &mut self.logs,
            Extension::Delete => &mut self.delete,
            Extension::SearchSpaces => &mut self.search_spaces,
            Extension::FacetHealth => &mut self.facet_health,
        }
    }

    /// Whether `extension` is offered.
    pub fn offers(mut self, extension: Extension) -> bool {
        *self.slot(extension)
    }

    /// Marks `extension` as offered or not.
    pub fn set(&mut self, extension: Extension, offered: bool) {
        *self.slot(extension) = offered;
    }

    /// The extensions not offered.
    pub fn missing(self) -> Vec<Extension> {
        Extension::ALL.into_iter().filter(|e| !self.offers(*e)).collect()
    }
}
