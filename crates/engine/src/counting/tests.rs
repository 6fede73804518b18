//! Counting checked against counting another way: walked and intersected counts, shared work, cut groups and
//! hierarchies over generated fields.

use std::borrow::Cow;
use std::collections::HashMap;

use roaring::RoaringBitmap;

use studio_model::FacetSetting;

use super::schedule::count_all;
use super::{count_cut, count_values, cut_of, CountJob, Cut};
use crate::facets::facet_group;
use crate::field_index::{FacetValue, FieldIndex};
use crate::packed::Packed;
use crate::test_documents::field;
use crate::tuning::{Tuned, Tuning};

/// A concept field over `n` documents shaped like real ones: one top concept above ten broader ones
/// above 300 narrower ones of very unequal sizes; each document has one narrower concept.
fn concepts(n: u32) -> FieldIndex {
    let leaf = |d: u32| {
        let x = (f64::from(d) * 0.618_033_988_75).fract();
        (300.0 * x * x * x) as u32
    };
    let value = |v: u32| match v {
        0 => (None, Vec::new()),
        1..=10 => (Some(0), vec![0]),
        _ => (Some(1 + (v - 11) % 10), vec![1 + (v - 11) % 10, 0]),
    };
    let mut docs = vec![RoaringBitmap::new(); 311];
    for d in 0..n {
        let v = 11 + leaf(d);
        docs[v as usize].insert(d);
        for a in value(v).1 {
            docs[a as usize].insert(d);
        }
    }
    let list = docs
        .into_iter()
        .enumerate()
        .map(|(v, docs)| {
            let (parent, ancestors) = value(v as u32);
            let children = (0..311u32).filter(|&c| value(c).0 == Some(v as u32)).collect();
            FacetValue {
                label: format!("c{}", 311 - v),
                label_lower: format!("c{}", 311 - v),
                uri: Some(format!("urn:c{v}")),
                docs,
                children,
                parents: parent.into_iter().collect(),
                ancestors,
            }
        })
        .collect();
    FieldIndex::from_parts(
        "dyn_uri_c".into(),
        list,
        HashMap::new(),
        (0..=n).collect(),
        (0..n).map(|d| 11 + leaf(d)).collect(),
    )
}

/// A flat group cut to what it shows (the most documents first, or the first by label) is the group
/// every count gives, selected values included, over scopes dense and sparse; a field without a hierarchy
/// is never cut.
#[test]
fn cut_groups_are_the_groups_of_every_count() {
    let n = 200_000;
    let field = concepts(n);
    let setting = |sorting: &str, order: &str, maximum: i32| FacetSetting {
        facet_mode: "flat".into(),
        sorting: sorting.into(),
        sorting_order: order.into(),
        maximum_terms: maximum,
        ..Default::default()
    };
    let scopes: Vec<RoaringBitmap> = vec![
        (0..n).step_by(2).collect(),
        (0..n / 3).collect(),
        (0..n).filter(|d| d % 97 == 3).collect(),
        (1..n).collect(),
    ];
    let mut cut_used = HashMap::new();
    for scope in &scopes {
        let every = count_values(&field, scope, None);
        for setting in [setting("count", "desc", 10), setting("count", "desc", 3), setting("alphabetical", "asc", 5)] {
            let cut = cut_of(&field, &setting).expect("a flat group of a hierarchy, sorted as it shows");
            for selected in [vec![], vec![300], vec![12, 5]] {
                let Some(counts) = count_cut(&field, scope, cut, &selected) else { continue };
                *cut_used.entry(format!("{cut:?}")).or_insert(0) += 1;
                assert_eq!(
                    facet_group(&field, &setting, &counts, &selected),
                    facet_group(&field, &setting, &every, &selected),
                    "{cut:?} over {} documents, {selected:?} selected",
                    scope.len()
                );
            }
        }
    }
    assert_eq!(cut_used.len(), 3, "each cut was cheaper than walking for some scopes: {cut_used:?}");
    assert!(cut_of(&field, &setting("count", "asc", 10)).is_none(), "ascending counts need every count");
    assert!(
        cut_of(&field, &FacetSetting { facet_mode: "hierarchical".into(), ..setting("count", "desc", 10) }).is_none()
    );
    assert!(cut_of(&self::field(100, 10, false), &setting("count", "desc", 10)).is_none(), "no hierarchy");
}

/// A value is passed over only when a parent of it already has fewer documents in the scope than the last
/// value shown: a narrower concept holding every document its parent has in the scope is still shown.
#[test]
fn a_cut_passes_over_only_what_a_parent_rules_out() {
    // T above A and zB; A1, A2 below A; B1, B2 below zB. Documents 0–59,999 are A's, the rest zB's (in
    // thousands, so that intersecting costs less than walking).
    const K: u32 = 1_000;
    let spans: [(&str, std::ops::Range<u32>, Option<u32>); 7] = [
        ("T", 0..100 * K, None),
        ("A", 0..60 * K, Some(0)),
        ("zB", 60 * K..100 * K, Some(0)),
        ("A1", 0..30 * K, Some(1)),
        ("A2", 30 * K..60 * K, Some(1)),
        ("B1", 60 * K..90 * K, Some(2)),
        ("B2", 90 * K..100 * K, Some(2)),
    ];
    let values: Vec<FacetValue> = spans
        .iter()
        .enumerate()
        .map(|(v, (label, docs, parent))| FacetValue {
            label: (*label).into(),
            label_lower: label.to_lowercase(),
            uri: Some(format!("urn:{label}")),
            docs: docs.clone().collect(),
            children: (0..7u32).filter(|&c| spans[c as usize].2 == Some(v as u32)).collect(),
            parents: parent.iter().copied().collect(),
            ancestors: match parent {
                Some(0) => vec![0],
                Some(p) => vec![*p, 0],
                None => Vec::new(),
            },
        })
        .collect();
    let leaf = |d: u32| (3..7).find(|&v| spans[v as usize].1.contains(&d)).unwrap_or(6);
    let n = 100 * K;
    let field =
        FieldIndex::from_parts("c".into(), values, HashMap::new(), (0..=n).collect(), (0..n).map(leaf).collect());
    let setting = FacetSetting {
        facet_mode: "flat".into(),
        sorting: "count".into(),
        sorting_order: "desc".into(),
        maximum_terms: 2,
        ..Default::default()
    };
    // In the scope: T 40, A 10, A1 10, zB 30 and B1 30 (all of zB's), B1 first by label.
    let scope: RoaringBitmap = (0..10 * K).chain(60 * K..90 * K).collect();
    let cut = count_cut(&field, &scope, Cut::MostDocuments(2), &[]).expect("cheap enough to cut");
    let group = facet_group(&field, &setting, &cut, &[]);
    let shown: Vec<&str> = group.facets.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(shown, ["T", "B1"]);
    assert_eq!(group, facet_group(&field, &setting, &count_values(&field, &scope, None), &[]));
    assert_eq!(cut[3], 0, "A1 was passed over: A has 10 in the scope, fewer than the last shown");
}

/// Walking documents counts each value once per document having it or a value below it, whether the
/// document's values have values above them in common (counted with marks) or not (counted at the end).
#[test]
fn walked_counts_count_shared_ancestors_once() {
    // 0 above 1 and 2; 1 above 3 and 4; 2 above 5; 6 alone.
    let parents: [Option<u32>; 7] = [None, Some(0), Some(0), Some(1), Some(1), Some(2), None];
    let ancestors = |v: u32| {
        let mut out = Vec::new();
        let mut at = parents[v as usize];
        while let Some(p) = at {
            out.push(p);
            at = parents[p as usize];
        }
        out
    };
    let of = |d: u32| -> Vec<u32> {
        match d % 5 {
            0 => vec![3, 4], // share 1 and 0
            1 => vec![3, 5], // share 0
            2 => vec![4],
            3 => vec![3, 1], // a value and the one above it
            _ => vec![4, 6], // nothing in common
        }
    };
    let n = 20_000;
    let mut docs = vec![RoaringBitmap::new(); 7];
    for d in 0..n {
        for v in of(d) {
            docs[v as usize].insert(d);
            for a in ancestors(v) {
                docs[a as usize].insert(d);
            }
        }
    }
    let values = docs
        .into_iter()
        .enumerate()
        .map(|(v, docs)| FacetValue {
            label: format!("v{v}"),
            label_lower: format!("v{v}"),
            uri: None,
            docs,
            children: (0..7u32).filter(|&c| parents[c as usize] == Some(v as u32)).collect(),
            parents: parents[v].into_iter().collect(),
            ancestors: ancestors(v as u32),
        })
        .collect();
    let mut offsets = vec![0u32];
    let mut direct = Vec::new();
    for d in 0..n {
        direct.extend(of(d));
        offsets.push(direct.len() as u32);
    }
    let field = FieldIndex::from_parts("t".into(), values, HashMap::new(), offsets, direct);
    assert_eq!((0..5).map(|d| field.shares_ancestors(d)).collect::<Vec<_>>(), [true, true, false, true, false]);
    for scope in
        [(0..n).collect::<RoaringBitmap>(), (0..n).step_by(7).collect(), (0..n).filter(|d| d % 5 != 2).collect()]
    {
        let mut tally = super::Tally::new(&field);
        for d in &scope {
            for &v in field.direct_values(d) {
                tally.add(&field, d, v);
            }
        }
        let expected: Vec<u64> = field.values.iter().map(|v| scope.intersection_len(&v.docs)).collect();
        assert_eq!(tally.finish(&field), expected, "over {} documents", scope.len());
        assert_eq!(count_values(&field, &scope, None), expected);
        let packed = Packed::of(std::slice::from_ref(&field), n as usize).expect("fits");
        assert_eq!(packed.count(&scope, 0..u32::MAX, &[(0, &field)]), [expected]);
    }
}

/// Enough work to share with a second thread gives the same counts as counting each job alone, and
/// those are the right ones: also for the two jobs long enough to be walked in two halves.
#[test]
fn shared_counting_gives_every_job_its_own_counts() {
    let n = 600_000;
    let (flat, tree) = (field(n, 3_000, false), field(n, 2_000, true));
    let evens: RoaringBitmap = (0..n).step_by(2).collect();
    let jobs = vec![
        CountJob { field: &flat, scope: Cow::Owned(evens.clone()), only: None, cut: None, selected: &[] },
        CountJob { field: &tree, scope: Cow::Owned(evens.clone()), only: None, cut: None, selected: &[] },
        CountJob {
            field: &flat,
            scope: Cow::Owned((0..n / 3).collect()),
            only: Some(vec![1, 2]),
            cut: None,
            selected: &[],
        },
    ];
    let shared_work = Tuning::DEFAULT.shared_work;
    assert!(jobs.iter().map(CountJob::cost).sum::<f64>() > shared_work, "the work is shared");
    assert!(jobs[..2].iter().all(|j| j.walks() && j.cost() >= shared_work), "walked in halves");
    let shared = count_all(&jobs, None, Tuned::defaults());
    for (job, counts) in jobs.iter().zip(&shared) {
        assert_eq!(counts, &count_values(job.field, &job.scope, job.only.as_deref()));
    }
    let expected = |values: u32, docs: &mut dyn Iterator<Item = u32>| {
        let mut counts = vec![0u64; values as usize];
        docs.for_each(|d| counts[(d % values) as usize] += 1);
        counts
    };
    assert_eq!(shared[0], expected(3_000, &mut (0..n).step_by(2)));
    // Value 0 of the tree is above every other, so it counts every document.
    let mut tree_counts = expected(2_000, &mut (0..n).step_by(2));
    tree_counts[0] = u64::from(n / 2);
    assert_eq!(shared[1], tree_counts);
    assert_eq!(&shared[2][1..3], &expected(3_000, &mut (0..n / 3))[1..3]);
}

/// Over every document of the space, the counts (read off the values' bitmaps) are those of walking them.
#[test]
fn counts_over_the_whole_space_are_the_walked_counts() {
    let n = 5_000;
    for field in [field(n, 7, false), field(n, 5, true)] {
        let all: RoaringBitmap = (0..n).collect();
        let counts = count_values(&field, &all, None);
        let mut walked = vec![0u64; field.values.len()];
        for d in 0..n {
            for &v in field.direct_values(d) {
                for &w in field.closure(v) {
                    walked[w as usize] += 1;
                }
            }
        }
        assert_eq!(counts, walked);
        assert_eq!(counts.iter().max(), Some(&u64::from(if field.flat { n.div_ceil(7) } else { n })));
        // One document fewer is not the whole space: counted by walking or intersecting, still right.
        let most: RoaringBitmap = (1..n).collect();
        // Document 0 has value 0 (in the tree, value 0 is above every document's value).
        walked[0] -= 1;
        assert_eq!(count_values(&field, &most, None), walked);
    }
}
