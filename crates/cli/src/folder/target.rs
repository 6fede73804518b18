//! The store or server a `studio config` command reads or writes: `local`, the local store of --data-dir, or
//! a server's base URL, signed in to as `studio pull` signs in (the token in the environment or the
//! provider's password grant). Its name in a state file is `local` or the server's base URL.

use studio_local::os_caller;
use studio_model::{Backend, Caller};
use studio_remote::{RemoteBackend, RemoteOptions, SignIn};

use crate::error::CliError;
use crate::global_args::GlobalArgs;
use crate::signin::{self, SignInArgs};

/// What `local` names.
pub const LOCAL: &str = "local";

/// An opened store or server.
pub struct Opened {
    pub backend: Box<dyn Backend>,
    /// `local`, or the server's base URL.
    pub name: String,
    pub caller: Caller,
    remote: Option<RemoteBackend>,
}

impl Opened {
    /// Opens `spec`, signing in to a server as `sign_in` says when it is one (it is asked only then).
    pub fn open(
        global: &GlobalArgs,
        spec: &str,
        sign_in: impl FnOnce() -> Result<SignIn, CliError>,
    ) -> Result<Opened, CliError> {
        if spec == LOCAL {
            let backend = global.local_backend()?;
            return Ok(Opened { backend: Box::new(backend), name: LOCAL.into(), caller: os_caller(), remote: None });
        }
        let sign_in = sign_in()?;
        let remote = RemoteBackend::signed_in(spec, sign_in, RemoteOptions::default(), None)
            .map_err(|e| CliError::Input(format!("{spec}: {e} (give `local` or a server's base URL)")))?;
        let name = remote.base_url().to_owned();
        Ok(Opened { backend: Box::new(remote.clone()), name, caller: os_caller(), remote: Some(remote) })
    }

    /// Opens `spec` with the flags of `studio pull` (the STUDIO_REMOTE_… credentials).
    pub fn open_remote_vars(global: &GlobalArgs, spec: &str, sign_in: &SignInArgs) -> Result<Opened, CliError> {
        Self::open(global, spec, || sign_in.sign_in())
    }

    /// Signs in now when a provider is involved, so that a wrong password stops the command at once.
    pub async fn sign_in_now(&self) -> Result<(), CliError> {
        match &self.remote {
            Some(remote) => signin::sign_in_now(remote).await,
            None => Ok(()),
        }
    }
}
