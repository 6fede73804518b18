//! The man pages and shell completions of `studio`, made from its clap definition so that they say exactly
//! what `studio --help` says. The package script writes them with `studio manuals DIR` and installs the tree it
//! gets under /usr/share (docs/packaging.md). That command is read here, before clap, and is not part of the
//! definition: a hidden subcommand would still be offered by the completions.

use std::path::Path;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::args::Cli;
use crate::error::CliError;

/// Where each shell looks for a completion file, under /usr/share, and the file's name there (Debian's
/// places: bash-completion's, zsh's vendor-completions and fish's vendor_completions.d).
const COMPLETIONS: [(Shell, &str, &str); 3] = [
    (Shell::Bash, "bash-completion/completions", "studio"),
    (Shell::Zsh, "zsh/vendor-completions", "_studio"),
    (Shell::Fish, "fish/vendor_completions.d", "studio.fish"),
];

/// Answers `studio manuals DIR`; `None` for every other command line, which clap then reads.
pub fn when_asked() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "manuals" {
        return None;
    }
    let result = match (args.next(), args.next()) {
        (Some(dir), None) => write(Path::new(&dir)),
        _ => Err(CliError::Input("usage: studio manuals DIR (writes the man pages and completions into DIR)".into())),
    };
    Some(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    })
}

/// Writes `man/man1/studio.1` and one page per subcommand (`studio-serve.1`, …), and the bash, zsh and fish
/// completions, into `out` laid out as /usr/share is.
pub fn write(out: &Path) -> Result<(), CliError> {
    let man_dir = out.join("man/man1");
    create_dir(&man_dir)?;
    clap_mangen::generate_to(Cli::command(), &man_dir).map_err(|source| io_error(&man_dir, source))?;

    for (shell, dir, name) in COMPLETIONS {
        let dir = out.join(dir);
        create_dir(&dir)?;
        let path = dir.join(name);
        let mut file = std::fs::File::create(&path).map_err(|source| io_error(&path, source))?;
        clap_complete::generate(shell, &mut Cli::command(), "studio", &mut file);
    }
    Ok(())
}

fn create_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|source| io_error(dir, source))
}

fn io_error(path: &Path, source: std::io::Error) -> CliError {
    CliError::Io { what: "cannot write the manuals to", path: path.display().to_string(), source }
}
