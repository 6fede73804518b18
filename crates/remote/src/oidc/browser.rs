//! Signing in through the system browser, the way native apps sign in (RFC 8252): an authorization
//! request with PKCE (RFC 7636, S256) whose redirect URI is a one-off listener on the loopback interface
//! (`http://127.0.0.1:PORT/callback`). The caller opens [`BrowserSignIn::authorize_url`] in the browser;
//! [`BrowserSignIn::finish`] waits for the redirect, checks its `state`, answers the browser with a short
//! page, and exchanges the code for tokens.

use std::time::Duration;

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::{ClientCredentials, Provider, Tokens};
use crate::error::RemoteError;

/// The path the provider redirects to on the loopback listener.
pub const CALLBACK_PATH: &str = "/callback";
/// The longest request line and headers read from the browser.
const MAX_REQUEST_BYTES: usize = 16 * 1024;

/// A sign-in under way: the URL to open, and the listener that waits for the provider's redirect.
pub struct BrowserSignIn {
    authorize_url: String,
    redirect_uri: String,
    listener: TcpListener,
    verifier: String,
    state: String,
    provider: Provider,
    client: ClientCredentials,
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The S256 code challenge of a PKCE verifier.
pub fn code_challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// What the browser's request to the callback carried. Only a redirect with a `state` can end a
/// sign-in, and only when the state is this sign-in's.
#[derive(Debug, PartialEq, Eq)]
enum Callback {
    Code {
        code: String,
        state: String,
    },
    Refused {
        error: String,
        description: Option<String>,
        state: String,
    },
    /// Something else (a favicon, a stray or forged request): answered and waited past.
    Other,
}

fn parse_callback(request_line: &str) -> Callback {
    let mut parts = request_line.split_whitespace();
    let (Some("GET"), Some(target)) = (parts.next(), parts.next()) else { return Callback::Other };
    let Ok(url) = reqwest::Url::parse(&format!("http://127.0.0.1{target}")) else { return Callback::Other };
    if url.path() != CALLBACK_PATH {
        return Callback::Other;
    }
    let find = |key: &str| url.query_pairs().find(|(k, _)| k == key).map(|(_, v)| v.into_owned());
    match (find("code"), find("state"), find("error")) {
        (_, Some(state), Some(error)) => Callback::Refused { error, description: find("error_description"), state },
        (Some(code), Some(state), None) => Callback::Code { code, state },
        _ => Callback::Other,
    }
}

const PAGE_DONE: &str = "<!doctype html><meta charset=utf-8><title>Search Studio</title>\
    <h1>Signed in</h1><p>You are signed in to Search Studio. You can close this tab and go back to the app.</p>";
const PAGE_FAILED: &str = "<!doctype html><meta charset=utf-8><title>Search Studio</title>\
    <h1>Not signed in</h1><p>The sign-in did not succeed; Search Studio says why. You can close this tab.</p>";

async fn answer(stream: &mut TcpStream, status: &str, page: &str) {
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{page}",
        page.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Reads the request line of one browser request (headers are read and dropped).
async fn request_line(stream: &mut TcpStream) -> Option<String> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 2048];
    while !buffer.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk)).await.ok()?.ok()?;
        if n == 0 || buffer.len() + n > MAX_REQUEST_BYTES {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&buffer);
    text.lines().next().map(str::to_owned)
}

impl BrowserSignIn {
    /// Opens the loopback listener and builds the authorization URL (scope `openid`).
    pub async fn start(provider: Provider, client: ClientCredentials) -> Result<BrowserSignIn, RemoteError> {
        let listener = TcpListener::bind("127.0.0.1:0").await.map_err(|e| RemoteError::SignIn {
            issuer: provider.issuer.clone(),
            message: format!("cannot open a loopback port for the browser's redirect: {e}"),
        })?;
        let port = listener.local_addr().map_err(|e| RemoteError::Client(e.to_string()))?.port();
        let redirect_uri = format!("http://127.0.0.1:{port}{CALLBACK_PATH}");
        let (verifier, state) = (random_token(), random_token());
        let mut url = reqwest::Url::parse(&provider.authorization_endpoint).map_err(|e| RemoteError::SignIn {
            issuer: provider.issuer.clone(),
            message: format!("its authorization endpoint `{}` is not a URL ({e})", provider.authorization_endpoint),
        })?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &client.client_id)
            .append_pair("redirect_uri", &redirect_uri)
            .append_pair("scope", "openid")
            .append_pair("state", &state)
            .append_pair("code_challenge", &code_challenge(&verifier))
            .append_pair("code_challenge_method", "S256");
        Ok(BrowserSignIn { authorize_url: url.into(), redirect_uri, listener, verifier, state, provider, client })
    }

    /// The URL to open in the system browser.
    pub fn authorize_url(&self) -> &str {
        &self.authorize_url
    }

    /// The loopback redirect URI this sign-in waits on.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// Waits (at most `timeout`) for the provider's redirect, then exchanges its code for tokens.
    pub async fn finish(self, timeout: Duration) -> Result<Tokens, RemoteError> {
        let issuer = self.provider.issuer.clone();
        let waited = tokio::time::timeout(timeout, self.wait_for_code()).await.map_err(|_| RemoteError::SignIn {
            issuer: issuer.clone(),
            message: format!("the browser did not come back within {} s; sign in again", timeout.as_secs()),
        })??;
        self.provider.exchange_code(&self.client, &waited, &self.verifier, &self.redirect_uri).await
    }

    /// Answers every request to the listener, each on its own task (a browser may open a connection it
    /// never uses), until the redirect of this sign-in arrives.
    async fn wait_for_code(&self) -> Result<String, RemoteError> {
        let issuer = &self.provider.issuer;
        let (arrived, mut callbacks) = tokio::sync::mpsc::channel::<(Callback, TcpStream)>(16);
        loop {
            tokio::select! {
                accepted = self.listener.accept() => {
                    let (mut stream, _) = accepted.map_err(|e| RemoteError::SignIn {
                        issuer: issuer.clone(),
                        message: format!("the loopback listener failed: {e}"),
                    })?;
                    let arrived = arrived.clone();
                    tokio::spawn(async move {
                        if let Some(line) = request_line(&mut stream).await {
                            let _ = arrived.send((parse_callback(&line), stream)).await;
                        }
                    });
                }
                Some((callback, mut stream)) = callbacks.recv() => match callback {
                    Callback::Code { code, state } if state == self.state => {
                        answer(&mut stream, "200 OK", PAGE_DONE).await;
                        return Ok(code);
                    }
                    Callback::Refused { error, description, state } if state == self.state => {
                        answer(&mut stream, "200 OK", PAGE_FAILED).await;
                        let text = description.unwrap_or_else(|| error.clone());
                        return Err(RemoteError::GrantRefused { issuer: issuer.clone(), message: format!("{text} ({error})") });
                    }
                    // Not this sign-in's redirect (another state, none, another path): it cannot end it.
                    Callback::Other => answer(&mut stream, "404 Not Found", "").await,
                    _ => answer(&mut stream, "400 Bad Request", PAGE_FAILED).await,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_challenge_is_rfc_7636s_example() {
        // RFC 7636 appendix B.
        assert_eq!(
            code_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn the_callback_gives_the_code_or_the_providers_refusal() {
        assert_eq!(
            parse_callback("GET /callback?code=abc&state=xyz HTTP/1.1"),
            Callback::Code { code: "abc".into(), state: "xyz".into() }
        );
        assert_eq!(
            parse_callback("GET /callback?error=access_denied&error_description=no%20way&state=s HTTP/1.1"),
            Callback::Refused { error: "access_denied".into(), description: Some("no way".into()), state: "s".into() }
        );
        assert_eq!(
            parse_callback("GET /callback?error=access_denied HTTP/1.1"),
            Callback::Other,
            "no state: cannot end it"
        );
        assert_eq!(parse_callback("GET /callback?code=abc HTTP/1.1"), Callback::Other, "no state: cannot end it");
        assert_eq!(parse_callback("GET /favicon.ico HTTP/1.1"), Callback::Other);
        assert_eq!(parse_callback("POST /callback?code=a&state=b HTTP/1.1"), Callback::Other);
    }
}
