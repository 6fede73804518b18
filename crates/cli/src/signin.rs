//! How the CLI signs in to a remote server (docs/architecture.md, Sign-in and token life): with an issuer URL, through
//! the provider's password grant with credentials from the environment (renewed as tokens expire, and repeated when the
//! provider's session ends); without one, with a pasted access token from the environment.

use std::path::{Path, PathBuf};

use studio_remote::oidc::ClientCredentials;
use studio_remote::{PasswordCredentials, ProviderSignIn, RemoteBackend, RemoteError, SignIn};

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

    /// The sign-in these variables describe: the password grant of `issuer` when one is given, else the
    /// token in `PREFIX_TOKEN` (or none).
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
        let (Some(username), Some(password)) = (username, password) else {
            return Err(CliError::Input(format!(
                "{} needs the user's credentials in {user_key} and {password_key}",
                self.issuer_flag
            )));
        };
        let secret = self.secret("CLIENT_SECRET", files.client_secret.as_ref())?.1;
        Ok(SignIn::Provider(ProviderSignIn {
            issuer: issuer.to_owned(),
            client: ClientCredentials::new(client_id, secret.as_deref()),
            password: Some(PasswordCredentials { username, password }),
            tokens: None,
        }))
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
