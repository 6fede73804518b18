//! `studio check` and `studio recover`: the thorough look at the local store and the way back from a
//! damaged one, for a person at a terminal. The work is crates/local's (`check`, `recover`), which the
//! desktop's recovery screen runs too; this module only says it.

use studio_local::check::{self, CheckReport};
use studio_local::recover;

use crate::error::CliError;
use crate::global_args::GlobalArgs;

/// Checks both files of the store and compares the configurations with the newest backup. Prints one line
/// per problem (the file, what is wrong, what to do); fails when there is any.
pub fn check(global: &GlobalArgs) -> Result<(), CliError> {
    let dir = global.data_dir()?;
    let report = check::check(&dir)?;
    print_report(&report);
    if report.healthy() {
        println!("the store in {} is healthy", dir.display());
        Ok(())
    } else {
        Err(CliError::Unhealthy(report.problems.len() + report.newer_in_backup.len()))
    }
}

fn print_report(report: &CheckReport) {
    for problem in &report.problems {
        println!("{}: {} ({}); {}", problem.file, kind_words(problem.kind), problem.detail, problem.action);
    }
    if !report.newer_in_backup.is_empty() {
        let backup = report.backup.as_deref().unwrap_or("the newest backup");
        for newer in &report.newer_in_backup {
            println!(
                "configuration {} \"{}\": {backup} holds a newer version than the store; run `studio recover` to bring \
                 it back",
                newer.id, newer.title
            );
        }
    }
}

fn kind_words(kind: check::ProblemKind) -> &'static str {
    match kind {
        check::ProblemKind::NotADatabase => "not a database",
        check::ProblemKind::Truncated => "truncated",
        check::ProblemKind::Damaged => "damaged pages",
        check::ProblemKind::UnreadableRows => "rows that cannot be read",
        check::ProblemKind::Missing => "missing",
        check::ProblemKind::Unreadable => "cannot be read",
    }
}

/// Rebuilds a damaged store from what can be read and the newest backup, and says what it saved.
pub fn recover(global: &GlobalArgs) -> Result<(), CliError> {
    let dir = global.data_dir()?;
    let report = recover::recover(&dir)?;
    for moved in &report.moved_aside {
        println!("moved the damaged file aside: {moved}");
    }
    println!(
        "the store holds {} configurations ({} from the newest backup), {} drafts, {} published versions, {} history \
         entries and {} documents",
        report.configurations, report.from_backup, report.drafts, report.versions, report.history, report.documents
    );
    if report.text_rebuilt {
        println!("the full-text index was built again from the documents");
    }
    for lost in &report.lost_documents {
        println!("{}", lost.message);
    }
    if report.moved_aside.is_empty() {
        println!("nothing was damaged: the store is as it was");
    }
    Ok(())
}
