//! The Keycloak-shaped provider and the browser stand-in.

use std::time::Duration;

use serde_json::{json, Value};
use studio_testkit::{browser_sign_in, OidcProvider, ProviderOptions, TestkitError};

use crate::support::{code_challenge, get_json, http, json, jwt, param, query, Callback};

fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions::default()).unwrap()
}

fn published_kids(provider: &OidcProvider) -> Vec<String> {
    let (status, jwks) = get_json(&format!("{}/protocol/openid-connect/certs", provider.issuer()));
    assert_eq!(status, 200);
    jwks["keys"].as_array().unwrap().iter().map(|key| key["kid"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn discovery_document_has_keycloak_paths() {
    let provider = provider();
    let issuer = provider.issuer();
    assert!(issuer.starts_with("http://127.0.0.1:") && issuer.ends_with("/realms/studio"), "{issuer}");

    let (status, discovery) = get_json(&format!("{issuer}/.well-known/openid-configuration"));
    assert_eq!(status, 200);
    assert_eq!(discovery["issuer"], issuer);
    let endpoints = [
        ("authorization_endpoint", "auth"),
        ("token_endpoint", "token"),
        ("jwks_uri", "certs"),
        ("userinfo_endpoint", "userinfo"),
        ("end_session_endpoint", "logout"),
    ];
    for (field, path) in endpoints {
        assert_eq!(discovery[field], format!("{issuer}/protocol/openid-connect/{path}"), "{field}");
    }
    assert_eq!(provider.token_endpoint(), discovery["token_endpoint"]);
    for grant in ["authorization_code", "refresh_token", "password", "client_credentials"] {
        assert!(discovery["grant_types_supported"].as_array().unwrap().contains(&json!(grant)), "{grant}");
    }
    assert!(discovery["code_challenge_methods_supported"].as_array().unwrap().contains(&json!("S256")));

    let (status, jwks) = get_json(discovery["jwks_uri"].as_str().unwrap());
    assert_eq!(status, 200);
    let key = &jwks["keys"][0];
    assert_eq!(
        (key["kty"].as_str(), key["alg"].as_str(), key["use"].as_str()),
        (Some("RSA"), Some("RS256"), Some("sig"))
    );
    assert!(key["kid"].is_string() && key.get("d").is_none(), "a public key with a kid: {key}");
}

#[test]
fn password_grant_gives_a_keycloak_shaped_access_token() {
    let options = ProviderOptions {
        access_ttl: Duration::from_secs(7),
        refresh_ttl: Duration::from_secs(60),
        audience: Some("search-studio".into()),
    };
    let provider = OidcProvider::start(options).unwrap();

    let answer = provider.password_grant("ppt", Some("ppt-secret"), "ana", "ana-password");
    assert_eq!(answer["token_type"], "Bearer", "{answer}");
    assert_eq!(answer["expires_in"], 7);
    assert_eq!(answer["refresh_expires_in"], 60);
    assert!(answer["refresh_token"].is_string());

    let (header, claims) = jwt(answer["access_token"].as_str().unwrap());
    assert_eq!(header["alg"], "RS256");
    assert!(published_kids(&provider).contains(&header["kid"].as_str().unwrap().to_owned()), "{header}");
    assert_eq!(claims["iss"], provider.issuer());
    assert_eq!(claims["aud"], "search-studio");
    assert_eq!(claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(), 7);
    assert!(claims["nbf"].as_i64().unwrap() <= claims["iat"].as_i64().unwrap());
    assert_eq!(claims["typ"], "Bearer");
    assert_eq!(claims["azp"], "ppt");
    assert_eq!(claims["preferred_username"], "ana");
    assert_eq!(claims["groups"], json!(["/designers"]));
    assert!(claims["sub"].as_str().is_some_and(|sub| !sub.is_empty()) && claims["jti"].is_string());

    // The public desktop client may use the password grant too; group paths follow the user.
    let bob = provider.password_grant("studio-desktop", None, "bob", "bob-password");
    let (_, bob) = jwt(bob["access_token"].as_str().unwrap());
    assert_eq!(
        (bob["preferred_username"].clone(), bob["groups"].clone(), bob["azp"].clone()),
        (json!("bob"), json!(["/viewers"]), json!("studio-desktop"))
    );
    let cy = provider.password_grant("ppt", Some("ppt-secret"), "cy", "cy-password");
    assert_eq!(jwt(cy["access_token"].as_str().unwrap()).1["groups"], json!([]));
}

#[test]
fn client_credentials_give_a_keycloak_shaped_service_account_token_without_a_refresh_token() {
    let options = ProviderOptions {
        access_ttl: Duration::from_secs(7),
        refresh_ttl: Duration::from_secs(60),
        audience: Some("search-studio".into()),
    };
    let provider = OidcProvider::start(options).unwrap();

    let answer = provider.client_credentials_grant("studio-pipeline", "studio-pipeline-secret");
    assert_eq!(answer["token_type"], "Bearer", "{answer}");
    assert_eq!(answer["expires_in"], 7);
    assert_eq!(answer["refresh_expires_in"], 0, "as Keycloak: no refresh token for a service account");
    assert!(answer.get("refresh_token").is_none(), "{answer}");

    let (header, claims) = jwt(answer["access_token"].as_str().unwrap());
    assert!(published_kids(&provider).contains(&header["kid"].as_str().unwrap().to_owned()), "{header}");
    assert_eq!(claims["iss"], provider.issuer());
    assert_eq!(claims["aud"], "search-studio", "the realm's audience");
    assert_eq!(claims["typ"], "Bearer");
    assert_eq!(
        (claims["azp"].clone(), claims["client_id"].clone()),
        (json!("studio-pipeline"), json!("studio-pipeline"))
    );
    assert_eq!(claims["preferred_username"], "service-account-studio-pipeline");
    assert_eq!(claims["groups"], json!(["/pipelines"]));
    assert!(claims["sub"].as_str().is_some_and(|sub| sub.len() == 36), "the service account's own id: {claims}");

    let wrong = provider.client_credentials_grant("studio-pipeline", "not-the-secret");
    assert_eq!(wrong["error"], "invalid_client", "{wrong}");
    assert!(wrong.get("access_token").is_none());
    let not_allowed = provider.client_credentials_grant("ppt", "ppt-secret");
    assert_eq!(
        not_allowed,
        json!({"error": "unauthorized_client", "error_description": "Client not enabled to retrieve service account"}),
        "a client without a service account, refused as Keycloak refuses it"
    );
}

#[test]
fn default_audience_is_keycloaks_account_and_openid_gives_an_id_token() {
    let provider = provider();
    let (status, answer) = json(
        http()
            .post(provider.token_endpoint())
            .basic_auth("ppt", Some("ppt-secret"))
            .form(&[("grant_type", "password"), ("username", "ana"), ("password", "ana-password"), ("scope", "openid")])
            .send()
            .unwrap(),
    );
    assert_eq!(status, 200, "client_secret_basic is accepted: {answer}");
    let (_, claims) = jwt(answer["access_token"].as_str().unwrap());
    assert_eq!(claims["aud"], "account");
    assert_eq!(claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(), 300);
    let (_, id_token) = jwt(answer["id_token"].as_str().unwrap());
    assert_eq!((id_token["aud"].clone(), id_token["preferred_username"].clone()), (json!("ppt"), json!("ana")));
}

#[test]
fn wrong_credentials_answer_401_invalid_grant_as_keycloak_does() {
    let provider = provider();
    for (user, password) in [("ana", "wrong"), ("nobody", "ana-password")] {
        let answer = provider.password_grant("ppt", Some("ppt-secret"), user, password);
        assert_eq!(answer, json!({"error": "invalid_grant", "error_description": "Invalid user credentials"}));
    }
    let (status, _) = json(
        http()
            .post(provider.token_endpoint())
            .form(&[
                ("grant_type", "password"),
                ("client_id", "ppt"),
                ("client_secret", "ppt-secret"),
                ("username", "ana"),
                ("password", "x"),
            ])
            .send()
            .unwrap(),
    );
    assert_eq!(status, 401);
    let (status, body) = json(
        http()
            .post(provider.token_endpoint())
            .form(&[
                ("grant_type", "password"),
                ("client_id", "ppt"),
                ("client_secret", "ppt-secret"),
                ("username", "ana"),
            ])
            .send()
            .unwrap(),
    );
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_request")), "{body}");
    let wrong_secret = provider.password_grant("ppt", Some("not-the-secret"), "ana", "ana-password");
    assert_eq!(wrong_secret["error"], "invalid_client");
}

fn refresh(provider: &OidcProvider, refresh_token: &str) -> (u16, Value) {
    json(
        http()
            .post(provider.token_endpoint())
            .basic_auth("ppt", Some("ppt-secret"))
            .form(&[("grant_type", "refresh_token"), ("refresh_token", refresh_token)])
            .send()
            .unwrap(),
    )
}

#[test]
fn refresh_gives_new_tokens_until_the_sessions_are_revoked() {
    let provider = provider();
    let first = provider.password_grant("ppt", Some("ppt-secret"), "ana", "ana-password");
    let (status, second) = refresh(&provider, first["refresh_token"].as_str().unwrap());
    assert_eq!(status, 200, "{second}");
    assert_ne!(second["access_token"], first["access_token"]);
    assert_ne!(second["refresh_token"], first["refresh_token"]);
    let (_, claims) = jwt(second["access_token"].as_str().unwrap());
    assert_eq!((claims["preferred_username"].clone(), claims["groups"].clone()), (json!("ana"), json!(["/designers"])));

    let (status, third) = refresh(&provider, second["refresh_token"].as_str().unwrap());
    assert_eq!(status, 200, "the new refresh token refreshes: {third}");

    provider.revoke_sessions();
    let (status, ended) = refresh(&provider, third["refresh_token"].as_str().unwrap());
    assert_eq!((status, ended["error"].as_str()), (400, Some("invalid_grant")), "{ended}");
    let again = provider.password_grant("ppt", Some("ppt-secret"), "ana", "ana-password");
    assert!(again["access_token"].is_string(), "signing in again works: {again}");
}

fn authorize_url(provider: &OidcProvider, callback: &Callback, state: &str, verifier: &str) -> String {
    let mut url = reqwest::Url::parse(&format!("{}/protocol/openid-connect/auth", provider.issuer())).unwrap();
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", "studio-desktop")
        .append_pair("redirect_uri", &callback.redirect_uri())
        .append_pair("scope", "openid")
        .append_pair("state", state)
        .append_pair("code_challenge", &code_challenge(verifier))
        .append_pair("code_challenge_method", "S256");
    url.into()
}

#[test]
fn authorization_code_with_pkce_through_the_login_page() {
    let provider = provider();
    let callback = Callback::listen();
    let verifier = "a-code-verifier-of-forty-three-characters-at-least";
    browser_sign_in(&authorize_url(&provider, &callback, "st4te", verifier), "ana", "ana-password").unwrap();

    let request = callback.received();
    assert!(request.starts_with("GET /callback?"), "{request}");
    let params = query(&request);
    assert_eq!(param(&params, "state"), Some("st4te"));
    let code = param(&params, "code").expect("a code").to_owned();

    let (status, tokens) = json(
        http()
            .post(provider.token_endpoint())
            .form(&[
                ("grant_type", "authorization_code"),
                ("client_id", "studio-desktop"),
                ("code", &code),
                ("code_verifier", verifier),
                ("redirect_uri", &callback.redirect_uri()),
            ])
            .send()
            .unwrap(),
    );
    assert_eq!(status, 200, "{tokens}");
    assert!(tokens["refresh_token"].is_string() && tokens["id_token"].is_string(), "{tokens}");
    let (_, claims) = jwt(tokens["access_token"].as_str().unwrap());
    assert_eq!((claims["preferred_username"].clone(), claims["azp"].clone()), (json!("ana"), json!("studio-desktop")));
}

#[test]
fn a_wrong_password_shows_the_form_again_and_the_browser_says_so() {
    let provider = provider();
    let callback = Callback::listen();
    let url = authorize_url(&provider, &callback, "s", "another-code-verifier-of-forty-three-characters");
    match browser_sign_in(&url, "ana", "not-her-password") {
        Err(TestkitError::Browser { output, .. }) => {
            assert!(output.contains("Invalid username or password"), "{output}")
        }
        other => panic!("sign-in with a wrong password must fail, got {other:?}"),
    }
}

#[test]
fn rotating_keys_publishes_both_and_signs_with_the_new_one() {
    let provider = provider();
    let before = published_kids(&provider);
    assert_eq!(before.len(), 1);
    let old_token = provider.password_grant("ppt", Some("ppt-secret"), "ana", "ana-password");
    assert_eq!(jwt(old_token["access_token"].as_str().unwrap()).0["kid"], before[0].as_str());

    provider.rotate_keys();
    let after = published_kids(&provider);
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(after.contains(&before[0]), "the old key stays published");
    let new_token = provider.password_grant("ppt", Some("ppt-secret"), "ana", "ana-password");
    let new_kid = jwt(new_token["access_token"].as_str().unwrap()).0["kid"].as_str().unwrap().to_owned();
    assert!(new_kid != before[0] && after.contains(&new_kid), "{new_kid} signs now");

    let (status, refreshed) = refresh(&provider, old_token["refresh_token"].as_str().unwrap());
    assert_eq!(status, 200, "refresh tokens outlive the rotation: {refreshed}");
}
