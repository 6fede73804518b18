//! The UI's generated TypeScript files (`ui/src/lib/types/*.ts`), as every crate's `bindings` test writes and
//! checks them: one way to write a declaration, and one staleness check that `UPDATE_BINDINGS=1` turns into
//! writing the fresh copy.

use std::path::Path;

/// Appends `decl` (a ts-rs declaration, without `export`) as an exported declaration on its own lines.
pub fn push_declaration(out: &mut String, decl: &str) {
    out.push_str("\nexport ");
    out.push_str(decl);
    if !decl.ends_with(';') {
        out.push(';');
    }
    out.push('\n');
}

/// Fails when the checked-in `path` differs from `fresh`, naming the command that regenerates it
/// (`regenerate`); with `UPDATE_BINDINGS` set, writes `fresh` there instead.
pub fn check_or_write(path: &Path, fresh: &str, regenerate: &str) {
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the types folder can be made");
        }
        std::fs::write(path, fresh).expect("the generated file can be written");
        return;
    }
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(checked_in == fresh, "{} is stale; regenerate it with UPDATE_BINDINGS=1 {regenerate}", path.display());
}
