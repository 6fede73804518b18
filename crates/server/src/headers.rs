//! The headers every answer carries for the browser's sake: the web UI's content security policy, no
//! content sniffing, no referrer. Both the API's router and the service around it (probes, `/metrics`, the
//! answers while the store opens) put them on, so they sit below both.

use axum::http::HeaderValue;

/// The policy the web UI runs under in a browser, as strict as the desktop window's (tauri.conf.json): no
/// script but the app's own files, no plugins, no framing; images may come from `data:` and http(s) URLs
/// (logos and result images), and requests go only to this server and, when the web UI signs in through
/// a provider, to `provider_origin` (its discovery document and token endpoint).
pub fn web_ui_csp(provider_origin: Option<&str>) -> HeaderValue {
    let connect = match provider_origin {
        Some(origin) => format!("'self' {origin}"),
        None => "'self'".to_owned(),
    };
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: https: http:; font-src 'self' data:; connect-src {connect}; object-src 'none'; \
         base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
    );
    // An origin is visible ASCII (a host is punycode), so the policy is always a valid header value; should
    // it not be, the page is allowed nothing rather than more.
    HeaderValue::from_str(&policy).unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"))
}

/// Headers on every answer: the content security policy, no content sniffing, no referrer. No CORS header
/// is ever sent, so a page of another origin cannot read an answer (docs/security.md).
pub(crate) async fn security_headers(
    axum::extract::State(csp): axum::extract::State<HeaderValue>,
    mut response: axum::response::Response,
) -> axum::response::Response {
    use axum::http::header::{CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS};
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, csp);
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
