//! No crate of the workspace has modules that import each other in a circle.
//!
//! A circle of imports means that none of its files can be read, changed or moved without the others: the
//! crate's layers (the engine under the store, the store's rows under import, recovery and the demo) hold only
//! while every import runs one way. This test reads every crate's sources from its roots (`lib.rs`, `main.rs`
//! and the files their `mod` declarations name), builds the graph of the files' imports (`use` trees and paths
//! that start with `crate::`, `super::`, `self::` or a child module's name, followed through re-exports to the
//! file that defines the name) and fails naming each circle with the names that tie it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "module_circles/source.rs"]
mod source;
use source::{is_ident, tokens, use_tree};

#[test]
fn no_module_imports_form_a_circle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let workspace = workspace.canonicalize().unwrap_or(workspace);
    let mut found = Vec::new();
    let packages = packages(&workspace);
    assert!(packages.len() >= 8, "the workspace's packages were not found under {}", workspace.display());
    for (package, roots) in packages {
        for root in roots {
            let graph = Crate::read(&root);
            for circle in graph.circles() {
                found.push(graph.describe(&package, &workspace, &circle));
            }
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other in a circle (move what both sides need below them, so that imports run \
         one way):\n\n{}",
        found.join("\n")
    );
}

#[test]
fn a_circle_is_found_and_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let src = dir.path().join("src");
    fs::create_dir_all(src.join("store")).expect("a source directory");
    let write = |name: &str, text: &str| fs::write(src.join(name), text).expect("a source file");
    write("lib.rs", "mod store;\nmod engine;\npub use store::Store;\n");
    write("store/mod.rs", "mod rows;\npub use rows::Row;\npub struct Store;\n");
    write("store/rows.rs", "use crate::engine::{index::Index};\npub struct Row;\n");
    write("engine.rs", "pub mod index {\n    pub struct Index(crate::Store);\n}\n");
    let graph = Crate::read(&src.join("lib.rs"));
    let circles = graph.circles();
    assert_eq!(circles.len(), 1, "one circle: {circles:?}");
    let text = graph.describe("example", dir.path(), &circles[0]);
    for part in ["src/engine.rs -> src/store/mod.rs: Store", "src/store/rows.rs -> src/engine.rs: Index"] {
        assert!(text.contains(part), "{part} in {text}");
    }
    // Through a re-export to the file that defines the name, no circle is left.
    write("engine.rs", "pub mod index {\n    pub struct Index(crate::store::rows::Row);\n}\n");
    write("store/rows.rs", "pub struct Row;\n");
    assert!(Crate::read(&src.join("lib.rs")).circles().is_empty());
}

fn relative(workspace: &Path, file: &Path) -> String {
    file.strip_prefix(workspace).unwrap_or(file).display().to_string()
}

/// Every package of the workspace (the root's and those under `crates/`) with its crates' root files.
fn packages(workspace: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let mut dirs = vec![workspace.to_path_buf()];
    let mut members: Vec<PathBuf> = fs::read_dir(workspace.join("crates"))
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    members.sort();
    dirs.extend(members);
    dirs.push(workspace.join("crates/bench/fixtures/empty-window"));
    dirs.into_iter().filter_map(|dir| package(&dir)).collect()
}

/// The package's name and the root files of its library and binaries: cargo's defaults and the `path`s its
/// `[lib]` and `[[bin]]` sections name.
fn package(dir: &Path) -> Option<(String, Vec<PathBuf>)> {
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    let mut name = None;
    let mut section = String::new();
    let mut roots = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_owned();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let value = value.trim().trim_matches('"');
        match (section.as_str(), key.trim()) {
            ("[package]", "name") if name.is_none() => name = Some(value.to_owned()),
            ("[lib]" | "[[bin]]", "path") => {
                roots.insert(dir.join(value));
            }
            _ => {}
        }
    }
    for default in ["src/lib.rs", "src/main.rs"] {
        roots.insert(dir.join(default));
    }
    if let Ok(bins) = fs::read_dir(dir.join("src/bin")) {
        roots
            .extend(bins.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "rs")));
    }
    Some((name?, roots.into_iter().filter(|r| r.is_file()).collect()))
}

/// A module: the file it is written in, its child modules, the names it defines and the names it imports.
#[derive(Default, Debug)]
struct Module {
    file: PathBuf,
    children: BTreeMap<String, Vec<String>>,
    defined: BTreeSet<String>,
    imported: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
}

/// One crate's modules (by path from the crate's root, which is `[]`) and the paths each file names.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    /// Each path a file names, from the crate's root.
    uses: Vec<(PathBuf, Vec<String>)>,
}

impl Crate {
    fn read(root: &Path) -> Crate {
        let mut krate = Crate::default();
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        krate.read_file(root, Vec::new(), dir);
        krate
    }

    /// Reads `file`, the module `path`, whose child modules' files lie in `dir`.
    fn read_file(&mut self, file: &Path, path: Vec<String>, dir: PathBuf) {
        let Ok(text) = fs::read_to_string(file) else { return };
        let tokens = tokens(&text);
        self.modules.entry(path.clone()).or_default().file = file.to_path_buf();
        // The inline modules open at this point: (module path, directory of its child files, brace depth).
        let mut frames: Vec<(Vec<String>, PathBuf, usize)> = vec![(path, dir, 0)];
        let mut depth = 0;
        let mut i = 0;
        let mut pending_files = Vec::new();
        while i < tokens.len() {
            let (module, module_dir, body_depth) = frames.last().cloned().expect("the file's own module");
            let at_item_level = depth == body_depth;
            let t = tokens[i].as_str();
            match t {
                "{" => depth += 1,
                "}" => {
                    depth = depth.saturating_sub(1);
                    if frames.len() > 1 && depth < frames.last().map_or(0, |f| f.2) {
                        frames.pop();
                    }
                }
                "mod" if at_item_level && is_ident(tokens.get(i + 1)) => {
                    let name = tokens[i + 1].clone();
                    let mut child = module.clone();
                    child.push(name.clone());
                    self.modules.entry(module.clone()).or_default().children.insert(name.clone(), child.clone());
                    match tokens.get(i + 2).map(String::as_str) {
                        Some("{") => {
                            self.modules.entry(child.clone()).or_default().file = file.to_path_buf();
                            depth += 1;
                            frames.push((child, module_dir.join(&name), depth));
                            i += 3;
                            continue;
                        }
                        _ => pending_files.push((child, module_dir.join(&name))),
                    }
                    i += 2;
                    continue;
                }
                "use" => {
                    let end = tokens[i..].iter().position(|t| t == ";").map_or(tokens.len(), |p| i + p);
                    let mut leaves = Vec::new();
                    use_tree(&tokens[i + 1..end], Vec::new(), &mut leaves);
                    for (written, alias) in leaves {
                        let glob = written.last().is_some_and(|s| s == "*");
                        let written: Vec<String> = written.into_iter().filter(|s| s != "*").collect();
                        let Some(absolute) = self.absolute(&module, &written) else { continue };
                        self.uses.push((file.to_path_buf(), absolute.clone()));
                        let entry = self.modules.entry(module.clone()).or_default();
                        if glob {
                            entry.globs.push(absolute);
                        } else if let Some(name) = alias.or_else(|| absolute.last().cloned()) {
                            if name != "_" && name != "self" {
                                entry.imported.insert(name, absolute);
                            }
                        }
                    }
                    i = end + 1;
                    continue;
                }
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union"
                    if at_item_level && is_ident(tokens.get(i + 1)) =>
                {
                    self.modules.entry(module.clone()).or_default().defined.insert(tokens[i + 1].clone());
                }
                "macro_rules" if tokens.get(i + 1).is_some_and(|t| t == "!") && is_ident(tokens.get(i + 2)) => {
                    self.modules.entry(module.clone()).or_default().defined.insert(tokens[i + 2].clone());
                }
                _ if is_ident(Some(&tokens[i])) && tokens.get(i + 1).is_some_and(|t| t == "::") => {
                    // A path outside `use`: its segments up to the first that is not a name.
                    let previous = i.checked_sub(1).map(|p| tokens[p].as_str());
                    let mut written = vec![tokens[i].clone()];
                    let mut j = i + 1;
                    while tokens.get(j).is_some_and(|t| t == "::") && is_ident(tokens.get(j + 1)) {
                        written.push(tokens[j + 1].clone());
                        j += 2;
                    }
                    if previous != Some("::") {
                        if let Some(absolute) = self.absolute(&module, &written) {
                            self.uses.push((file.to_path_buf(), absolute));
                        }
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        for (child, base) in pending_files {
            let own = base.with_extension("rs");
            let (child_file, child_dir) = if own.is_file() { (own, base) } else { (base.join("mod.rs"), base) };
            self.read_file(&child_file, child, child_dir);
        }
    }

    /// `written` from inside `module` as a path from the crate's root; `None` for other crates' paths.
    fn absolute(&self, module: &[String], written: &[String]) -> Option<Vec<String>> {
        let mut path = module.to_vec();
        let mut rest = written;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                path.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    path.pop();
                    rest = &rest[1..];
                }
            }
            // A child module of the module the path is written in (or of an inline module's file).
            Some(first) if self.has_child(module, first) => {}
            _ => return None,
        }
        path.extend(rest.iter().cloned());
        Some(path)
    }

    fn has_child(&self, module: &[String], name: &str) -> bool {
        self.modules.get(module).is_some_and(|m| m.children.contains_key(name))
    }

    /// The file that defines what `path` names: followed through modules and re-exports as far as they go.
    fn resolve(&self, path: &[String], hops: usize) -> Option<(PathBuf, String)> {
        let mut module: Vec<String> = Vec::new();
        for (at, segment) in path.iter().enumerate() {
            let current = self.modules.get(&module)?;
            if let Some(child) = current.children.get(segment) {
                module = child.clone();
                continue;
            }
            if current.defined.contains(segment) {
                return Some((current.file.clone(), segment.clone()));
            }
            if hops < 16 {
                if let Some(target) = current.imported.get(segment) {
                    let mut further = target.clone();
                    further.extend(path[at + 1..].iter().cloned());
                    if let Some(found) = self.resolve(&further, hops + 1) {
                        return Some(found);
                    }
                }
                for glob in &current.globs {
                    let mut further = glob.clone();
                    further.extend(path[at..].iter().cloned());
                    if let Some(found) = self.resolve(&further, hops + 1) {
                        if found.0 != current.file {
                            return Some(found);
                        }
                    }
                }
            }
            return Some((current.file.clone(), segment.clone()));
        }
        let file = self.modules.get(&module)?.file.clone();
        Some((file, path.last().cloned().unwrap_or_default()))
    }

    /// The import arrows between files, with the names each carries.
    fn arrows(&self) -> BTreeMap<(PathBuf, PathBuf), BTreeSet<String>> {
        let mut arrows: BTreeMap<(PathBuf, PathBuf), BTreeSet<String>> = BTreeMap::new();
        for (from, path) in &self.uses {
            if let Some((to, name)) = self.resolve(path, 0) {
                if &to != from {
                    arrows.entry((from.clone(), to)).or_default().insert(name);
                }
            }
        }
        arrows
    }

    /// The circles of files (strongly connected sets of more than one file), each sorted.
    fn circles(&self) -> Vec<Vec<PathBuf>> {
        let arrows = self.arrows();
        let mut next: BTreeMap<&PathBuf, Vec<&PathBuf>> = BTreeMap::new();
        for (from, to) in arrows.keys() {
            next.entry(from).or_default().push(to);
            next.entry(to).or_default();
        }
        // Tarjan's strongly connected components, iteratively.
        let nodes: Vec<&PathBuf> = next.keys().copied().collect();
        let number: HashMap<&PathBuf, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let edges: Vec<Vec<usize>> = nodes.iter().map(|n| next[n].iter().map(|t| number[t]).collect()).collect();
        let (mut index, mut low, mut on_stack) =
            (vec![usize::MAX; nodes.len()], vec![0; nodes.len()], vec![false; nodes.len()]);
        let (mut stack, mut counter, mut found) = (Vec::new(), 0, Vec::new());
        for start in 0..nodes.len() {
            if index[start] != usize::MAX {
                continue;
            }
            let mut work = vec![(start, 0)];
            while let Some(&mut (node, ref mut child)) = work.last_mut() {
                if *child == 0 && index[node] == usize::MAX {
                    index[node] = counter;
                    low[node] = counter;
                    counter += 1;
                    stack.push(node);
                    on_stack[node] = true;
                }
                if let Some(&target) = edges[node].get(*child) {
                    *child += 1;
                    if index[target] == usize::MAX {
                        work.push((target, 0));
                    } else if on_stack[target] {
                        low[node] = low[node].min(index[target]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == index[node] {
                    let mut component = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component.push(nodes[member].clone());
                        if member == node {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        component.sort();
                        found.push(component);
                    }
                }
            }
        }
        found
    }

    /// The circle's files and the arrows between them with the names they carry.
    fn describe(&self, package: &str, workspace: &Path, circle: &[PathBuf]) -> String {
        let mut text = format!("{package}: a circle of {} files:\n", circle.len());
        for ((from, to), names) in self.arrows() {
            if circle.contains(&from) && circle.contains(&to) {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                text.push_str(&format!(
                    "  {} -> {}: {}\n",
                    relative(workspace, &from),
                    relative(workspace, &to),
                    names.join(", ")
                ));
            }
        }
        text
    }
}
