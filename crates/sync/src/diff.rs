//! Field-by-field comparison of configuration envelopes and the three-way merge behind the conflict view.
//!
//! A field is a leaf of the JSON: a scalar, an array (updates replace arrays as a whole, so an array is
//! one field), or an empty object. `id`, `user` and `created` are the server's and never compared.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::types::{FieldChange, FieldDiff, Side};

const SERVER_OWNED: &[&str] = &["id", "user", "created"];

/// Leaves of `value` by dotted path, with their segments (keys may themselves hold dots).
fn leaves(value: &Value) -> BTreeMap<String, (Vec<String>, Value)> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut BTreeMap<String, (Vec<String>, Value)>) {
        match v {
            Value::Object(map) if !map.is_empty() => {
                for (k, child) in map {
                    if path.is_empty() && SERVER_OWNED.contains(&k.as_str()) {
                        continue;
                    }
                    path.push(k.clone());
                    walk(child, path, out);
                    path.pop();
                }
            }
            _ if path.is_empty() => {}
            _ => {
                out.insert(path.join("."), (path.clone(), v.clone()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(value, &mut Vec::new(), &mut out);
    out
}

fn at<'a>(map: &'a BTreeMap<String, (Vec<String>, Value)>, path: &str) -> Option<&'a Value> {
    map.get(path).map(|(_, v)| v)
}

/// The fields where `after` differs from `before`.
pub fn diff_fields(before: &Value, after: &Value) -> Vec<FieldDiff> {
    let (a, b) = (leaves(before), leaves(after));
    let paths: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    paths
        .into_iter()
        .filter(|p| at(&a, p) != at(&b, p))
        .map(|p| FieldDiff { path: p.clone(), before: at(&a, p).cloned(), after: at(&b, p).cloned() })
        .collect()
}

/// The dotted paths where `after` differs from `before`.
pub fn changed_paths(before: &Value, after: &Value) -> Vec<String> {
    diff_fields(before, after).into_iter().map(|d| d.path).collect()
}

/// Every field where base, mine and theirs do not all agree.
pub fn three_way(base: &Value, mine: &Value, theirs: &Value) -> Vec<FieldChange> {
    let (b, m, t) = (leaves(base), leaves(mine), leaves(theirs));
    let paths: BTreeSet<&String> = b.keys().chain(m.keys()).chain(t.keys()).collect();
    paths
        .into_iter()
        .filter_map(|p| {
            let (bv, mv, tv) = (at(&b, p), at(&m, p), at(&t, p));
            if bv == mv && mv == tv {
                return None;
            }
            let conflicting = mv != bv && tv != bv && mv != tv;
            Some(FieldChange {
                path: p.clone(),
                base: bv.cloned(),
                mine: mv.cloned(),
                theirs: tv.cloned(),
                conflicting,
            })
        })
        .collect()
}

/// The merged envelope: theirs, with every field only I changed kept as mine, and every field both changed
/// taken from the side `choices` names (else `default`). The server-owned keys are theirs.
pub fn resolve(base: &Value, mine: &Value, theirs: &Value, choices: &BTreeMap<String, Side>, default: Side) -> Value {
    let (b, m, t) = (leaves(base), leaves(mine), leaves(theirs));
    let mut merged = theirs.clone();
    let all: BTreeMap<&String, &Vec<String>> =
        b.iter().chain(m.iter()).chain(t.iter()).map(|(p, (segs, _))| (p, segs)).collect();
    for (path, segments) in all {
        let (bv, mv, tv) = (at(&b, path), at(&m, path), at(&t, path));
        let take_mine = if mv == tv || mv == bv {
            false
        } else if tv == bv {
            true
        } else {
            choices.get(path.as_str()).copied().unwrap_or(default) == Side::Mine
        };
        if take_mine {
            put(&mut merged, segments, mv.cloned());
        }
    }
    merged
}

/// Sets (or, for `None`, removes) the leaf at `segments`, creating objects on the way.
fn put(root: &mut Value, segments: &[String], value: Option<Value>) {
    let Some((last, parents)) = segments.split_last() else { return };
    let mut node = root;
    for seg in parents {
        if !node.is_object() {
            *node = Value::Object(Map::new());
        }
        let Value::Object(map) = node else { return };
        node = map.entry(seg.clone()).or_insert_with(|| Value::Object(Map::new()));
    }
    if !node.is_object() {
        *node = Value::Object(Map::new());
    }
    if let Value::Object(map) = node {
        match value {
            Some(v) => {
                map.insert(last.clone(), v);
            }
            None => {
                map.remove(last);
            }
        }
    }
}
