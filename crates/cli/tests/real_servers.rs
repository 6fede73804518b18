//! `studio serve --upstream` and `studio pull` in front of servers shaped like a team's production server
//! (docs/choices.md, Real servers): one that offers the API's nine operations only and answers the rest as Spring does, and
//! one that takes a provider's short-lived tokens, which the CLI obtains and renews by itself.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use studio_testkit::{ApiOnlyOptions, ApiOnlyServer, OidcProvider, ProviderOptions};

use crate::support::{client, serve_with, studio, Served, STUDIO};

/// A `studio serve` over a store with the demo data, and the API-only double in front of it.
fn api_only_upstream(options: ApiOnlyOptions) -> (tempfile::TempDir, Served, ApiOnlyServer) {
    let data = tempfile::tempdir().unwrap();
    studio(&["demo-data"], data.path());
    let inner = serve_with(data.path(), &[], &[], Stdio::null());
    let double = ApiOnlyServer::start(&inner.base, options).expect("the double starts");
    (data, inner, double)
}

fn call(served: &Served, method: &str, path: &str) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let answer =
        client(30).request(method, format!("{}{path}", served.base)).bearer_auth(&served.token).send().unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().unwrap_or(Value::Null))
}

#[test]
fn a_proxy_says_what_an_api_only_upstream_does_not_offer_and_documents_only_what_it_offers() {
    let (_data, inner, double) = api_only_upstream(ApiOnlyOptions { offer: vec!["set"], ..ApiOnlyOptions::default() });
    let proxy_dir = tempfile::tempdir().unwrap();
    let proxy = serve_with(
        proxy_dir.path(),
        &["--upstream", double.url()],
        &[("STUDIO_UPSTREAM_TOKEN", &inner.token)],
        Stdio::null(),
    );

    let (status, list) = call(&proxy, "GET", "/api/configurations");
    assert_eq!(status, 200, "{list}");
    let id = list["configurations"][0]["id"].as_i64().unwrap();

    for (method, path, operation) in [
        ("DELETE", format!("/api/configurations/{id}"), "deleting a configuration"),
        ("GET", "/api/searchspaces".to_owned(), "listing search spaces and their facet fields"),
        ("GET", format!("/api/configurations/{id}/logs"), "the history of a configuration"),
        ("GET", "/api/configurations/visible".to_owned(), "listing the visible configurations"),
        ("GET", "/api/searchspaces/demo/facethealth".to_owned(), "facet health of a search space's fields"),
    ] {
        let (status, body) = call(&proxy, method, &path);
        assert_eq!(status, 501, "{method} {path}: {body}");
        assert_eq!(body["error"], "Not Implemented");
        assert_eq!(body["message"], format!("{} does not offer {operation}", double.url()), "{method} {path}");
    }
    let (status, body) = call(&proxy, "POST", &format!("/api/configurations/{id}/set"));
    assert_eq!(status, 200, "the double offers make-active: {body}");

    let docs: Value = client(30).get(format!("{}/api-docs", proxy.base)).send().unwrap().json().unwrap();
    let paths = docs["paths"].as_object().unwrap();
    assert!(paths.contains_key("/api/configurations/{configId}/set"), "offered by the upstream's document");
    assert!(!paths.contains_key("/api/searchspaces") && !paths.contains_key("/api/configurations/{configId}/logs"));
    assert!(!paths.contains_key("/api/searchspaces/{searchSpaceId}/facethealth"));
    assert!(paths["/api/configurations/{configId}"].get("delete").is_none());
    assert!(paths["/api/configurations/{configId}"].get("put").is_some(), "the API's operations stay");
    assert!(docs["paths"]["/api/configurations/{configId}/search"]["post"].is_object(), "{}", docs["paths"]);
}

/// The remote client in front of the production server's double: facet health is not offered, and similar
/// documents and recommendations asked to explain come without explanations, where this project's own server
/// behind it explains them.
#[test]
fn a_server_without_the_engines_extensions_lacks_facet_health_and_explains_nothing() {
    use studio_model::{Backend, BackendError, RecommendQuery, SearchRequest, SimilarQuery};
    use studio_remote::RemoteBackend;

    let (_data, inner, double) = api_only_upstream(ApiOnlyOptions::default());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let production = RemoteBackend::new(double.url(), Some(&inner.token)).unwrap();
        let ours = RemoteBackend::new(&inner.base, Some(&inner.token)).unwrap();
        let err = production.facet_health("demo").await.unwrap_err();
        let expected = format!("{} does not offer facet health of a search space's fields", double.url());
        assert_eq!(err, BackendError::NotOffered(expected));
        assert_eq!(ours.facet_health("demo").await.unwrap().search_space, "demo");

        let id = production.list_configurations().await.unwrap().configurations[0].id.unwrap();
        let first = production.search(id, SearchRequest::default()).await.unwrap().result[0].id.clone();
        let similar = SimilarQuery { uri: first.clone(), explain: true, ..Default::default() };
        let recommend = RecommendQuery { uri: first, recommender: "related-concepts".into(), explain: true };
        for (name, backend, explains) in [("production", &production, false), ("ours", &ours, true)] {
            let docs = backend.similar_documents(id, similar.clone()).await.unwrap();
            let recommended = backend.recommendations(id, recommend.clone()).await.unwrap().result;
            assert!(!docs.is_empty() && !recommended.is_empty());
            for d in docs.iter().chain(&recommended) {
                assert_eq!(d.explanation.is_some(), explains, "{name}: {d:?}");
            }
        }
    });
}

/// The test provider with access tokens of two seconds.
fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions {
        access_ttl: Duration::from_secs(2),
        refresh_ttl: Duration::from_secs(120),
        audience: None,
    })
    .expect("the test provider starts (npm ci --prefix crates/testkit/servers)")
}

/// A `studio serve` with the demo data that takes the provider's tokens: group `designers` may do everything.
fn oidc_server(issuer: &str) -> (tempfile::TempDir, Served) {
    let data = tempfile::tempdir().unwrap();
    studio(&["demo-data"], data.path());
    let auth = data.path().join("auth.json");
    let groups = json!({"users": [], "groups": [{"name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"]}]});
    std::fs::write(&auth, groups.to_string()).unwrap();
    let served =
        serve_with(data.path(), &["--auth", auth.to_str().unwrap(), "--oidc-issuer", issuer], &[], Stdio::null());
    (data, served)
}

const ANA: [(&str, &str); 3] = [
    ("STUDIO_UPSTREAM_USERNAME", "ana"),
    ("STUDIO_UPSTREAM_PASSWORD", "ana-password"),
    ("STUDIO_UPSTREAM_CLIENT_SECRET", "ppt-secret"),
];

#[test]
fn a_proxy_signed_in_with_the_password_grant_outlives_many_token_lifetimes_and_an_ended_session() {
    let provider = provider();
    let (_data, inner) = oidc_server(provider.issuer());
    let proxy_dir = tempfile::tempdir().unwrap();
    let proxy = serve_with(
        proxy_dir.path(),
        &["--upstream", &inner.base, "--upstream-issuer", provider.issuer()],
        &ANA,
        Stdio::null(),
    );

    // Longer than a token's life plus the server's leeway for clock skew: only renewed tokens get through.
    let until = Instant::now() + Duration::from_secs(9);
    let mut calls = 0;
    while Instant::now() < until {
        let (status, body) = call(&proxy, "GET", "/api/configurations");
        assert_eq!(status, 200, "request {calls}: {body}");
        calls += 1;
        std::thread::sleep(Duration::from_millis(250));
    }
    provider.revoke_sessions();
    std::thread::sleep(Duration::from_secs(2));
    let (status, body) = call(&proxy, "POST", "/api/configurations");
    assert_eq!(
        status, 400,
        "signed in again with the password: the upstream judged the (empty) body, not the token: {body}"
    );
    let (status, list) = call(&proxy, "GET", "/api/configurations");
    assert_eq!(status, 200, "{list}");
}

#[test]
fn a_proxy_with_wrong_or_missing_credentials_stops_at_once_saying_why() {
    let provider = provider();
    let dir = tempfile::tempdir().unwrap();
    let start = |envs: &[(&str, &str)]| {
        let out = Command::new(STUDIO)
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                "http://127.0.0.1:9",
                "--upstream-issuer",
                provider.issuer(),
                "--data-dir",
            ])
            .arg(dir.path())
            .env_remove("STUDIO_UPSTREAM_USERNAME")
            .env_remove("STUDIO_UPSTREAM_PASSWORD")
            .envs(envs.iter().copied())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, stderr) = start(&[
        ("STUDIO_UPSTREAM_USERNAME", "ana"),
        ("STUDIO_UPSTREAM_PASSWORD", "nope"),
        ("STUDIO_UPSTREAM_CLIENT_SECRET", "ppt-secret"),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("Invalid user credentials"), "{stderr}");
    let (code, stderr) = start(&[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "--upstream-issuer needs the user's credentials in STUDIO_UPSTREAM_USERNAME and STUDIO_UPSTREAM_PASSWORD"
        ),
        "{stderr}"
    );
}

/// `studio pull` of configuration 1 through `double` (in front of `inner`) into the store at `data`: its exit code,
/// stdout and stderr.
fn pull_through(double: &ApiOnlyServer, inner: &Served, data: &std::path::Path) -> (Option<i32>, String, String) {
    let out = Command::new(STUDIO)
        .args(["pull", "--from", double.url(), "--config", "1", "--data-dir"])
        .arg(data)
        .env("STUDIO_REMOTE_TOKEN", &inner.token)
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A production server holding documents this project's store does not take (here two with an empty id): `studio
/// pull` stores the others, and says on stderr how many it skipped and which, by their places among the search's
/// results.
#[test]
fn pull_names_the_documents_it_could_not_store() {
    let (_data, inner, double) =
        api_only_upstream(ApiOnlyOptions { unstorable_results: vec![104, 108], ..ApiOnlyOptions::default() });
    let local = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = pull_through(&double, &inner, local.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), "pulled 2400 documents into demo as configuration 1");
    let lines: Vec<&str> = stderr.lines().collect();
    let note = lines.iter().position(|l| *l == "2 of them could not be stored here and were skipped:");
    let named = note.map(|at| &lines[at + 1..at + 3]);
    assert!(
        named.is_some_and(|n| n[0].starts_with("  result 104: ") && n[1].starts_with("  result 108: ")),
        "{stderr}"
    );
    assert!(named.is_some_and(|n| n.iter().all(|l| l.contains("empty id"))), "{stderr}");
    let copy = serve_with(local.path(), &[], &[], Stdio::null());
    let (status, answer) = copy.post("/api/configurations/1/search", &json!({}));
    assert_eq!((status, answer["total"].as_i64()), (200, Some(2398)), "the others are stored");
}

/// A production server failing while a pull pages through it (the page at 1,200 answers 500 once, which the client
/// does not send again): `studio pull` says what failed and that running it again resumes; run again, it goes on from
/// where it stopped (every page fetched before the failure was stored) into the same copy, which then holds every
/// document.
#[test]
fn a_pull_the_server_failed_resumes_into_the_same_copy_when_run_again() {
    let (_data, inner, double) =
        api_only_upstream(ApiOnlyOptions { failing_searches: Some((1200, 1)), ..ApiOnlyOptions::default() });
    let local = tempfile::tempdir().unwrap();
    let pull = || pull_through(&double, &inner, local.path());
    let (code, _, stderr) = pull();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("failed to answer (500)"), "{stderr}");
    assert!(stderr.contains("; what was pulled is kept: run the same command again to resume"), "{stderr}");
    let (code, stdout, stderr) = pull();
    assert_eq!(code, Some(0), "{stderr}");
    // The pages fetched before the failure are written before the run ends.
    assert_eq!(stdout.trim(), "pulled 2400 documents into demo as configuration 1 (resumed at 1200)");
    let copy = serve_with(local.path(), &[], &[], Stdio::null());
    let (status, answer) = copy.post("/api/configurations/1/search", &json!({}));
    assert_eq!((status, answer["total"].as_i64()), (200, Some(2400)), "the copy is whole");
    let listed = copy.get("/api/configurations").1;
    assert_eq!(listed["configurations"].as_array().map(Vec::len), Some(1), "no second copy: {listed}");
}

#[test]
fn pull_signs_in_with_the_password_grant() {
    let provider = provider();
    let (_data, inner) = oidc_server(provider.issuer());
    let local = tempfile::tempdir().unwrap();
    let out = Command::new(STUDIO)
        .args(["pull", "--from", &inner.base, "--config", "1", "--issuer", provider.issuer(), "--data-dir"])
        .arg(local.path())
        .envs([
            ("STUDIO_REMOTE_USERNAME", "ana"),
            ("STUDIO_REMOTE_PASSWORD", "ana-password"),
            ("STUDIO_REMOTE_CLIENT_SECRET", "ppt-secret"),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("pulled 2400 documents into demo as configuration"), "{stdout}");
}
