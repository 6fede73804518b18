//! One access token: its header read before any key is chosen (so that `alg: none`, HMAC and other
//! algorithms are refused by name), its signature and claims checked by jsonwebtoken, and the user and
//! groups it names.

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

/// How far a token's `exp` and `nbf` may be off the server's clock and still count: small, to allow for
/// clock skew between the provider and this server, never to extend a token's life noticeably.
pub const CLOCK_LEEWAY: Duration = Duration::from_secs(5);

/// The caller a verified token names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenUser {
    /// `preferred_username`, else `sub`.
    pub name: String,
    /// The groups claim, as written (`/designers`).
    pub groups: Vec<String>,
}

/// Why a token is refused; the text is the 401 answer's message. No variant holds any part of the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the bearer token is a malformed JWT: {0}")]
    Malformed(String),
    #[error("the token's algorithm {0} is not accepted: tokens must be signed with RS256 or ES256")]
    AlgorithmNotAccepted(String),
    #[error("the token's algorithm is not accepted for the key it names (published for another one)")]
    KeyMismatch,
    #[error("the token names no signing key (kid) and the provider publishes several for its algorithm")]
    NoKeyId,
    #[error("the token is signed with an unknown key: {issuer} publishes no key of that key id (kid)")]
    UnknownKey { issuer: String },
    #[error("the token's signature is bad: it does not verify with the provider's key")]
    BadSignature,
    #[error("the token has expired")]
    Expired,
    #[error("the token is not yet valid (its nbf lies in the future)")]
    NotYetValid,
    #[error("the token was issued by another issuer, not {0}")]
    OtherIssuer(String),
    #[error("the token is for another audience: this server needs `{0}` in its aud")]
    OtherAudience(String),
    #[error("the token lacks the `{0}` claim")]
    MissingClaim(String),
    #[error("the token is an ID or refresh token, not an access token")]
    NotAnAccessToken,
    #[error("the token names no user (neither preferred_username nor sub)")]
    NoUser,
}

/// Whether a bearer token has the shape of a JWS compact serialisation (three dot-separated parts), the
/// only tokens worth handing to the provider's verification.
pub fn looks_like_jwt(token: &str) -> bool {
    token.split('.').count() == 3
}

/// What the header says before the signature is checked.
#[derive(Debug)]
pub(super) struct TokenHeader {
    pub alg: Algorithm,
    pub kid: Option<String>,
}

/// Reads the header, refusing every algorithm but RS256 and ES256 by name.
pub(super) fn read_header(token: &str) -> Result<TokenHeader, TokenError> {
    let malformed = |why: &str| TokenError::Malformed(why.to_owned());
    let encoded = token.split('.').next().unwrap_or_default();
    let bytes = URL_SAFE_NO_PAD.decode(encoded).map_err(|_| malformed("its header is not base64url"))?;
    let header: Map<String, Value> =
        serde_json::from_slice(&bytes).map_err(|_| malformed("its header is not a JSON object"))?;
    let alg =
        header.get("alg").and_then(Value::as_str).ok_or_else(|| malformed("its header names no algorithm (alg)"))?;
    let alg = match alg {
        "RS256" => Algorithm::RS256,
        "ES256" => Algorithm::ES256,
        other => return Err(TokenError::AlgorithmNotAccepted(shown_algorithm(other))),
    };
    if header.contains_key("crit") {
        return Err(malformed("its header names critical extensions (crit) this server does not implement"));
    }
    let kid = match header.get("kid") {
        None | Some(Value::Null) => None,
        Some(Value::String(kid)) => Some(kid.clone()),
        Some(_) => return Err(malformed("its key id (kid) is not a string")),
    };
    Ok(TokenHeader { alg, kid })
}

/// An algorithm name as a message may show it: a short registered-looking name as written, anything
/// else (which could be any text a caller chose) not at all.
fn shown_algorithm(alg: &str) -> String {
    let plain = !alg.is_empty() && alg.len() <= 16 && alg.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if plain {
        format!("`{alg}`")
    } else {
        "in its header".to_owned()
    }
}

/// Checks the signature with `key` and the claims `exp`, `nbf`, `iss` and, when `audience` is given,
/// `aud`; returns the claims.
pub(super) fn verified_claims(
    token: &str,
    header: &TokenHeader,
    key: &DecodingKey,
    issuer: &str,
    audience: Option<&str>,
) -> Result<Map<String, Value>, TokenError> {
    let mut validation = Validation::new(header.alg);
    validation.leeway = CLOCK_LEEWAY.as_secs();
    validation.validate_exp = true;
    validation.validate_nbf = true;
    // The discovery document's issuer is compared without a trailing slash; a token may carry either form.
    validation.set_issuer(&[issuer.to_owned(), format!("{issuer}/")]);
    match audience {
        Some(audience) => {
            validation.set_audience(&[audience]);
            validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        }
        None => {
            validation.validate_aud = false;
            validation.set_required_spec_claims(&["exp", "iss"]);
        }
    }
    let data =
        jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation).map_err(|e| match e.into_kind() {
            ErrorKind::InvalidSignature => TokenError::BadSignature,
            ErrorKind::ExpiredSignature => TokenError::Expired,
            ErrorKind::ImmatureSignature => TokenError::NotYetValid,
            ErrorKind::InvalidIssuer => TokenError::OtherIssuer(issuer.to_owned()),
            ErrorKind::InvalidAudience => TokenError::OtherAudience(audience.unwrap_or_default().to_owned()),
            ErrorKind::InvalidAlgorithm => TokenError::KeyMismatch,
            ErrorKind::MissingRequiredClaim(claim) => TokenError::MissingClaim(claim),
            ErrorKind::InvalidClaimFormat(claim) => {
                TokenError::Malformed(format!("its `{claim}` claim is not a number of seconds"))
            }
            ErrorKind::Base64(_) | ErrorKind::Json(_) | ErrorKind::Utf8(_) | ErrorKind::InvalidToken => {
                TokenError::Malformed("its payload or signature cannot be read".to_owned())
            }
            _ => TokenError::BadSignature,
        })?;
    // Keycloak signs ID tokens with the same keys and marks each kind in `typ`; only access tokens grant access.
    if matches!(data.claims.get("typ").and_then(Value::as_str), Some("ID" | "Refresh" | "Logout")) {
        return Err(TokenError::NotAnAccessToken);
    }
    Ok(data.claims)
}

/// The user and groups verified claims name: `preferred_username`, else `sub`; the groups claim as a list
/// of strings (a single string counts as one group; anything else as none).
pub(super) fn user_of(claims: &Map<String, Value>, groups_claim: &str) -> Result<TokenUser, TokenError> {
    let named = |claim: &str| claims.get(claim).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let name = named("preferred_username").or_else(|| named("sub")).ok_or(TokenError::NoUser)?.to_owned();
    let groups = match claims.get(groups_claim) {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        Some(Value::String(group)) => vec![group.clone()],
        _ => Vec::new(),
    };
    Ok(TokenUser { name, groups })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_of(json: &str) -> Result<TokenHeader, TokenError> {
        read_header(&format!("{}.e30.", URL_SAFE_NO_PAD.encode(json)))
    }

    #[test]
    fn only_rs256_and_es256_headers_are_read() {
        assert_eq!(header_of(r#"{"alg":"RS256","kid":"a"}"#).unwrap().kid.as_deref(), Some("a"));
        assert!(matches!(header_of(r#"{"alg":"ES256"}"#).unwrap().alg, Algorithm::ES256));
        for (alg, shown) in
            [("none", "`none`"), ("HS256", "`HS256`"), ("PS256", "`PS256`"), ("<b>x</b>", "in its header")]
        {
            let err = header_of(&format!(r#"{{"alg":"{alg}"}}"#)).unwrap_err();
            assert_eq!(err, TokenError::AlgorithmNotAccepted(shown.to_owned()));
        }
        assert!(matches!(header_of(r#"{"typ":"JWT"}"#), Err(TokenError::Malformed(_))));
        assert!(matches!(header_of(r#"{"alg":"RS256","kid":7}"#), Err(TokenError::Malformed(_))));
        assert!(matches!(header_of(r#"{"alg":"RS256","crit":["b64"]}"#), Err(TokenError::Malformed(_))));
        assert!(matches!(read_header("%%%.e30."), Err(TokenError::Malformed(_))));
    }

    #[test]
    fn the_user_is_preferred_username_else_sub() {
        let claims = |v: Value| v.as_object().unwrap().clone();
        let user = user_of(
            &claims(serde_json::json!({"sub": "1", "preferred_username": "ana", "groups": ["/a", 3]})),
            "groups",
        )
        .unwrap();
        assert_eq!(user, TokenUser { name: "ana".into(), groups: vec!["/a".into()] });
        let user = user_of(&claims(serde_json::json!({"sub": "1", "roles": "b"})), "roles").unwrap();
        assert_eq!(user, TokenUser { name: "1".into(), groups: vec!["b".into()] });
        assert_eq!(user_of(&claims(serde_json::json!({"preferred_username": " "})), "groups"), Err(TokenError::NoUser));
    }
}
