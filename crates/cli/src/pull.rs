//! `studio pull --from URL --config ID`: takes a remote search space offline (studio_sync::pull), with
//! a progress bar on a terminal; Ctrl+C stops between pages and the next run resumes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use studio_local::os_caller;
use studio_remote::{RemoteBackend, RemoteOptions};
use studio_sync::pull::Resume;
use studio_sync::SyncError;

use crate::error::CliError;
use crate::global_args::GlobalArgs;
use crate::progress;
use crate::runtime::runtime;
use crate::signin::{self, SignInArgs};

#[derive(clap::Args)]
pub struct PullArgs {
    /// Base URL of the remote server (the part before /api)
    #[arg(long, value_name = "URL")]
    from: String,
    /// Id of the configuration on the remote server
    #[arg(long = "config", value_name = "ID")]
    config: i32,
    #[command(flatten)]
    sign_in: SignInArgs,
}

pub fn run(global: &GlobalArgs, args: &PullArgs) -> Result<(), CliError> {
    let sign_in = args.sign_in.sign_in()?;
    let remote = RemoteBackend::signed_in(&args.from, sign_in, RemoteOptions::default(), None)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let source = remote.base_url().to_owned();
    let rt = runtime()?;
    // Signed in before the local store is opened, so that a refused sign-in leaves nothing behind.
    rt.block_on(signin::sign_in_now(&remote))?;
    let local = global.local_backend()?;
    let bar = progress::pulled();
    let cancel = Arc::new(AtomicBool::new(false));
    let report = rt.block_on(async {
        let flag = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                flag.store(true, Ordering::Relaxed);
            }
        });
        let mut progress = |done: u64, total: u64| {
            bar.set_length(total);
            bar.set_position(done);
        };
        studio_sync::pull::pull(&local, &remote, &source, args.config, &os_caller(), &mut progress, &cancel).await
    });
    bar.finish_and_clear();
    match report {
        Ok(r) => {
            let resumed = if r.resumed_from > 0 { format!(" (resumed at {})", r.resumed_from) } else { String::new() };
            println!(
                "pulled {} documents into {} as configuration {}{resumed}",
                r.documents, r.search_space, r.local_id
            );
            if let Some(note) = r.skipped_note() {
                eprintln!("{note}:");
            }
            for skipped in &r.skipped_documents {
                eprintln!("  {skipped}");
            }
            if r.skipped > r.skipped_documents.len() as u64 {
                eprintln!("  … and {} more", r.skipped - r.skipped_documents.len() as u64);
            }
            if let Some(note) = r.partial_note() {
                eprintln!("note: {note}");
            }
            Ok(())
        }
        Err(SyncError::Cancelled) => Err(CliError::Input("pull stopped; run the same command again to resume".into())),
        Err(e) => Err(match Resume::after(&e) {
            Some(resume) => {
                let vars = signin::REMOTE_VARS;
                let sign_in = format!(
                    "sign in again (a valid token in {}_TOKEN, or {} with the account's credentials)",
                    vars.prefix, vars.issuer_flag
                );
                CliError::Input(format!("{e}; {}", resume.advice("run the same command again", &sign_in)))
            }
            None => match e {
                SyncError::Backend(e) => CliError::Backend(e),
                e => CliError::Input(e.to_string()),
            },
        }),
    }
}
