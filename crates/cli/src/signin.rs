//! How the CLI signs in to a remote server (docs/architecture.md, Sign-in and token life): with an issuer URL, through
//! the provider's password grant when a user's credentials are given, else its client credentials grant when only
//! the client's secret is (a pipeline signing in as itself), with the secrets from the environment or files (tokens
//! renewed as they expire, the grant repeated when there is no refresh token or the provider's session ends);
//! without one, with a pasted access token from the environment.

use std::path::{Path, PathBuf};

use studio_remote::oidc::ClientCredentials;
use studio_remote::{Grant, PasswordCredentials, ProviderSignIn, RemoteBackend, RemoteError, SignIn};

use crate::error::CliError;

/// The client id of the production server's provider, used when none is given.
pub use studio_remote::oidc::DEFAULT_CLIENT_ID;

/// The environment variables one command reads its credentials from, e.g. `STUDIO_UPSTREAM_…`.
pub struct CredentialVars {
    /// `STUDIO_UPSTREAM` or `STUDIO_REMOTE`.
    pub prefix: &'static str,
    /// The flag that names the issuer, for messages.
    pub issuer_flag: &'static str,
}

/// Where credentials come from when their variables are not set: files holding the secrets (so that no
/// secret need be in the environment or on a command line) and a user name, e.g. from a configuration file.
#[derive(Debug, Default)]
pub struct CredentialFiles {
    pub username: Option<String>,
    pub token: Option<PathBuf>,
    pub password: Option<PathBuf>,
    pub client_secret: Option<PathBuf>,
}

/// The secret a file holds: its text without the line end an editor adds.
fn read_secret(path: &Path) -> Result<Option<String>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
        what: "cannot read the secret file",
        path: path.display().to_string(),
        source,
    })?;
    Ok(Some(text.trim_end_matches(['\n', '\r']).to_owned()).filter(|v| !v.trim().is_empty()))
}

impl CredentialVars {
    fn var(&self, name: &str) -> (String, Option<String>) {
        let key = format!("{}_{name}", self.prefix);
        let value = std::env::var(&key).ok().filter(|v| !v.trim().is_empty());
        (key, value)
    }

    /// A secret's variable, else the file that holds it.
    fn secret(&self, name: &str, file: Option<&PathBuf>) -> Result<(String, Option<String>), CliError> {
        let (key, value) = self.var(name);
        match (value, file) {
            (Some(value), _) => Ok((key, Some(value))),
            (None, Some(file)) => Ok((key, read_secret(file)?)),
            (None, None) => Ok((key, None)),
        }
    }

    /// The client's secret and where it came from (the variable's name, or the file's path), for messages.
    fn client_secret(&self, files: &CredentialFiles) -> Result<Option<(String, String)>, CliError> {
        let (key, value) = self.var("CLIENT_SECRET");
        if let Some(value) = value {
            return Ok(Some((key, value)));
        }
        let Some(file) = &files.client_secret else { return Ok(None) };
        Ok(read_secret(file)?.map(|value| (format!("the file {}", file.display()), value)))
    }

    /// The sign-in these variables describe. With `issuer`: the password grant when a user name and password
    /// are given, else the client credentials grant when only the client's secret is (`PREFIX_CLIENT_SECRET`).
    /// Without one: the token in `PREFIX_TOKEN` (or none). For commands that take no credential files.
    pub fn sign_in(&self, issuer: Option<&str>, client_id: &str) -> Result<SignIn, CliError> {
        self.sign_in_with(issuer, client_id, &CredentialFiles::default())
    }

    /// As [`CredentialVars::sign_in`], taking what the variables do not give from `files`.
    pub fn sign_in_with(
        &self,
        issuer: Option<&str>,
        client_id: &str,
        files: &CredentialFiles,
    ) -> Result<SignIn, CliError> {
        let Some(issuer) = issuer else {
            return Ok(SignIn::token(self.secret("TOKEN", files.token.as_ref())?.1.as_deref()));
        };
        let (user_key, username) = self.var("USERNAME");
        let username = username.or_else(|| files.username.clone());
        let (password_key, password) = self.secret("PASSWORD", files.password.as_ref())?;
        let secret = self.client_secret(files)?;
        let grant = match (username, password, &secret) {
            (Some(username), Some(password), _) => Grant::Password(PasswordCredentials { username, password }),
            (None, None, Some(_)) => Grant::ClientCredentials,
            (None, None, None) => {
                return Err(CliError::Input(format!(
                    "{} needs the user's credentials in {user_key} and {password_key} (the password grant), or only \
                     the client's secret in {} (the client credentials grant, for a pipeline)",
                    self.issuer_flag,
                    self.var("CLIENT_SECRET").0
                )))
            }
            _ => {
                return Err(CliError::Input(format!(
                    "{} needs the user's credentials in {user_key} and {password_key}",
                    self.issuer_flag
                )))
            }
        };
        let mut client = ClientCredentials::new(client_id, secret.as_ref().map(|(_, value)| value.as_str()));
        if let Some((source, _)) = secret {
            client = client.with_secret_source(source);
        }
        Ok(SignIn::Provider(ProviderSignIn { issuer: issuer.to_owned(), client, grant: Some(grant), tokens: None }))
    }
}

/// Where a remote server's credentials come from, for the commands that read or write one.
pub const REMOTE_VARS: CredentialVars = CredentialVars { prefix: "STUDIO_REMOTE", issuer_flag: "--issuer" };

/// How a command signs in to a remote server: `studio pull` and the `studio config` commands.
#[derive(clap::Args)]
pub struct SignInArgs {
    /// Issuer URL of the OpenID Connect provider the server takes tokens from, renewing tokens as they
    /// expire. Signs in with the password grant as STUDIO_REMOTE_USERNAME / STUDIO_REMOTE_PASSWORD (with the
    /// client secret, if the client has one); with neither, with the client credentials grant as the client
    /// itself (for a pipeline), its secret in STUDIO_REMOTE_CLIENT_SECRET or --client-secret-file. Without
    /// --issuer, the token in STUDIO_REMOTE_TOKEN is sent
    #[arg(long, value_name = "ISSUER")]
    pub issuer: Option<String>,
    /// Client id at the provider
    #[arg(long, value_name = "ID", default_value = DEFAULT_CLIENT_ID, requires = "issuer")]
    pub client_id: String,
    /// A file holding the client secret (when STUDIO_REMOTE_CLIENT_SECRET is not set)
    #[arg(long, value_name = "FILE", requires = "issuer")]
    pub client_secret_file: Option<PathBuf>,
}

impl SignInArgs {
    /// The sign-in these flags and the STUDIO_REMOTE_… variables describe.
    pub fn sign_in(&self) -> Result<SignIn, CliError> {
        let files = CredentialFiles { client_secret: self.client_secret_file.clone(), ..CredentialFiles::default() };
        REMOTE_VARS.sign_in_with(self.issuer.as_deref(), &self.client_id, &files)
    }
}

/// Signs in now, when the backend signs in through a provider, so that a wrong issuer or password stops
/// the command at once instead of failing its first request. A provider that cannot be reached yet is
/// only warned about: the first request tries again.
pub async fn sign_in_now(backend: &RemoteBackend) -> Result<(), CliError> {
    let Some(session) = backend.session() else { return Ok(()) };
    match session.bearer().await {
        Ok(_) => {
            tracing::info!(issuer = session.issuer(), "signed in");
            Ok(())
        }
        Err(e @ (RemoteError::Unreachable { .. } | RemoteError::TimedOut { .. })) => {
            tracing::warn!("not signed in yet: {e}");
            Ok(())
        }
        Err(e) => Err(CliError::Input(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each test has variables of its own, so that tests running at once do not see each other's.
    fn vars(prefix: &'static str, set: &[(&str, &str)]) -> CredentialVars {
        for (name, value) in set {
            std::env::set_var(format!("{prefix}_{name}"), value);
        }
        CredentialVars { prefix, issuer_flag: "--issuer" }
    }

    fn provider(sign_in: SignIn) -> ProviderSignIn {
        match sign_in {
            SignIn::Provider(provider) => provider,
            other => panic!("not a provider sign-in: {other:?}"),
        }
    }

    const ISSUER: Option<&str> = Some("https://sso.example.org/realms/team");

    #[test]
    fn only_the_clients_secret_gives_the_client_credentials_grant_naming_its_variable() {
        let vars = vars("STUDIO_TEST_CC_ONLY", &[("CLIENT_SECRET", "s3cret")]);
        let sign_in = provider(vars.sign_in(ISSUER, "pipeline").unwrap());
        assert_eq!(sign_in.grant, Some(Grant::ClientCredentials));
        assert_eq!(sign_in.client.client_id, "pipeline");
        assert_eq!(sign_in.client.client_secret.as_deref(), Some("s3cret"));
        assert_eq!(sign_in.client.secret_source.as_deref(), Some("STUDIO_TEST_CC_ONLY_CLIENT_SECRET"));
    }

    #[test]
    fn a_secret_file_names_itself_as_the_source() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("secret");
        std::fs::write(&file, "from-file\n").unwrap();
        let vars = vars("STUDIO_TEST_CC_FILE", &[]);
        let files = CredentialFiles { client_secret: Some(file.clone()), ..CredentialFiles::default() };
        let sign_in = provider(vars.sign_in_with(ISSUER, "pipeline", &files).unwrap());
        assert_eq!(sign_in.grant, Some(Grant::ClientCredentials));
        assert_eq!(sign_in.client.client_secret.as_deref(), Some("from-file"));
        assert_eq!(sign_in.client.secret_source, Some(format!("the file {}", file.display())));
    }

    #[test]
    fn a_user_name_and_password_give_the_password_grant_with_the_secret_beside_them() {
        let set = [("USERNAME", "ana"), ("PASSWORD", "pw"), ("CLIENT_SECRET", "s")];
        let sign_in = provider(vars("STUDIO_TEST_CC_PASSWORD", &set).sign_in(ISSUER, "ppt").unwrap());
        let Some(Grant::Password(credentials)) = sign_in.grant else { panic!("{:?}", sign_in.grant) };
        assert_eq!((credentials.username.as_str(), credentials.password.as_str()), ("ana", "pw"));
        assert_eq!(sign_in.client.client_secret.as_deref(), Some("s"));
    }

    #[test]
    fn missing_credentials_say_which_variables_each_grant_needs() {
        let err = vars("STUDIO_TEST_CC_NONE", &[]).sign_in(ISSUER, "ppt").unwrap_err().to_string();
        assert_eq!(
            err,
            "--issuer needs the user's credentials in STUDIO_TEST_CC_NONE_USERNAME and STUDIO_TEST_CC_NONE_PASSWORD (the \
             password grant), or only the client's secret in STUDIO_TEST_CC_NONE_CLIENT_SECRET (the client credentials \
             grant, for a pipeline)"
        );
        let half = vars("STUDIO_TEST_CC_HALF", &[("USERNAME", "ana"), ("CLIENT_SECRET", "s")]);
        let err = half.sign_in(ISSUER, "ppt").unwrap_err().to_string();
        assert_eq!(
            err,
            "--issuer needs the user's credentials in STUDIO_TEST_CC_HALF_USERNAME and STUDIO_TEST_CC_HALF_PASSWORD"
        );
    }

    #[test]
    fn without_an_issuer_the_secret_is_not_used_and_the_token_is_sent() {
        let set = [("TOKEN", "pasted"), ("CLIENT_SECRET", "s")];
        let sign_in = vars("STUDIO_TEST_CC_TOKEN", &set).sign_in(None, "ppt").unwrap();
        assert!(matches!(&sign_in, SignIn::Token(token) if token == "pasted"), "{sign_in:?}");
    }
}
