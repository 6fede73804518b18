//! The web UI's sign-in through the provider (`studio serve --oidc-ui-client-id`): the provider's public
//! client the page signs in as, and where the page must be allowed to send requests for it. The server
//! only names these (in `/api-docs` and the content security policy); the sign-in itself happens between
//! the browser and the provider.

/// How the web UI signs in through the provider whose tokens the server accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSignIn {
    /// The issuer URL, without a trailing `/`.
    pub issuer: String,
    /// The provider's public client the web UI signs in as.
    pub client_id: String,
    /// The issuer's origin (`https://sso.example.org`): the page sends its token requests there.
    origin: String,
}

impl WebSignIn {
    /// The sign-in of `client_id` at `issuer`; `None` when the issuer is not an http(s) URL, whose origin a
    /// page could not be allowed to reach.
    pub fn new(issuer: &str, client_id: &str) -> Option<WebSignIn> {
        let url = reqwest::Url::parse(issuer).ok()?;
        if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
            return None;
        }
        Some(WebSignIn {
            issuer: issuer.trim_end_matches('/').to_owned(),
            client_id: client_id.to_owned(),
            origin: url.origin().ascii_serialization(),
        })
    }

    /// The provider's OpenID Connect discovery document, which names its endpoints.
    pub fn discovery_url(&self) -> String {
        format!("{}/.well-known/openid-configuration", self.issuer)
    }

    /// The issuer's origin, as a content security policy names a source: scheme, host and any port that
    /// is not the scheme's default. A URL's origin cannot hold a space, `;` or `,`, so it cannot add a
    /// directive to the policy.
    pub fn origin(&self) -> &str {
        &self.origin
    }
}

#[cfg(test)]
mod tests {
    use super::WebSignIn;

    #[test]
    fn the_origin_is_scheme_host_and_port_only() {
        let sign_in = WebSignIn::new("https://sso.example.org/realms/team/", "studio-web").unwrap();
        assert_eq!(sign_in.origin(), "https://sso.example.org");
        assert_eq!(sign_in.discovery_url(), "https://sso.example.org/realms/team/.well-known/openid-configuration");
        let local = WebSignIn::new("http://127.0.0.1:8180/realms/studio", "studio-web").unwrap();
        assert_eq!(local.origin(), "http://127.0.0.1:8180");
    }

    #[test]
    fn an_issuer_that_is_not_an_http_url_gives_no_sign_in() {
        for issuer in ["file:///etc/issuer", "not a url", "data:text/plain,x"] {
            assert_eq!(WebSignIn::new(issuer, "studio-web"), None, "{issuer}");
        }
    }
}
