//! Links the preview opens outside the app: a document's `link` title action and the detail view's
//! "Open the document". The webview itself opens no new windows; the system's browser does, and only for
//! http(s) addresses, whatever a document's `link` holds.

use studio_model::ErrorCode;
use tauri::{State, Url};

use crate::browser::Browser;
use crate::error::{Answer, IpcError};

/// Why a link is not opened.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LinkError {
    #[error("not a web address: {0}")]
    Malformed(String),
    #[error("only http and https links open outside the app, not {0}:")]
    Scheme(String),
}

/// The address to hand to the system's browser: `link` parsed, when it is http or https.
pub fn web_address(link: &str) -> Result<Url, LinkError> {
    let url = Url::parse(link.trim()).map_err(|e| LinkError::Malformed(format!("{link} ({e})")))?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(LinkError::Scheme(other.to_owned())),
    }
}

/// Opens `url` in the system's default browser.
#[tauri::command]
pub fn open_link(browser: State<'_, Browser>, url: String) -> Answer<()> {
    let address = web_address(&url).map_err(|e| IpcError::new(ErrorCode::BadRequest, e.to_string()))?;
    browser
        .0
        .open(address.as_str())
        .map_err(|e| IpcError::new(ErrorCode::Internal, format!("cannot open {address} in a browser: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_addresses_are_opened() {
        assert_eq!(web_address(" https://example.org/a?b=1 ").unwrap().as_str(), "https://example.org/a?b=1");
        assert_eq!(web_address("HTTP://Example.org").unwrap().as_str(), "http://example.org/");
        assert_eq!(web_address("file:///etc/passwd"), Err(LinkError::Scheme("file".into())));
        assert_eq!(web_address("javascript:alert(1)"), Err(LinkError::Scheme("javascript".into())));
        assert!(matches!(web_address("example.org/no-scheme"), Err(LinkError::Malformed(_))));
        assert!(matches!(web_address(""), Err(LinkError::Malformed(_))));
    }
}
