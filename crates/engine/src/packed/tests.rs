//! Groups walking the same documents together, through the values packed per document, count what each
//! counts alone.

use std::borrow::Cow;

use roaring::RoaringBitmap;
use studio_model::FacetSetting;

use crate::counting::schedule::{count_all, walking_together};
use crate::counting::{cut_of, CountJob};
use crate::facets::facet_group;
use crate::index::SpaceIndex;
use crate::test_documents::{field, TestFiles, NEWS_SPACE};
use crate::tuning::{Tuned, Tuning};

/// Groups walking the same documents together count what each counts walking alone, over sparse and dense
/// scopes, next to a group with a scope of its own (a field with a selection) and a group of some values.
#[test]
fn groups_walked_together_count_what_each_counts_alone() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    assert!(index.fields.iter().any(|f| !f.flat) && index.fields.iter().any(|f| f.flat), "both kinds of field");
    let n = index.rowids.len() as u32;
    let mut walked = 0;
    for step in [37, 5, 2] {
        let result: RoaringBitmap = (0..n).step_by(step).collect();
        let own: RoaringBitmap = (1..n).step_by(3).collect();
        let mut jobs: Vec<CountJob> = index
            .fields
            .iter()
            .map(|field| CountJob { field, scope: Cow::Borrowed(&result), only: None, cut: None, selected: &[] })
            .collect();
        jobs.push(CountJob { field: &index.fields[0], scope: Cow::Owned(own), only: None, cut: None, selected: &[] });
        let some: Vec<u32> = (0..index.fields[1].values.len() as u32).step_by(2).collect();
        jobs.push(CountJob {
            field: &index.fields[1],
            scope: Cow::Borrowed(&result),
            only: Some(some),
            cut: None,
            selected: &[],
        });
        // A flat group of a field with a hierarchy, cut to its five values with the most documents.
        let tree = index.fields.iter().find(|f| !f.flat).expect("a field with a hierarchy");
        let setting = FacetSetting {
            facet_mode: "flat".into(),
            sorting: "count".into(),
            sorting_order: "desc".into(),
            maximum_terms: 5,
            ..FacetSetting::default()
        };
        let cut = cut_of(tree, &setting);
        assert!(cut.is_some());
        jobs.push(CountJob { field: tree, scope: Cow::Borrowed(&result), only: None, cut, selected: &[] });
        let together = walking_together(&jobs, &index);
        assert!(!together.contains(&index.fields.len()), "a scope of its own is walked alone");
        // The demo's scopes are all sparse: under 4,096 documents in roaring's one block.
        assert!(together.contains(&(jobs.len() - 1)), "a cut over a sparse scope walks too");
        walked += together.len();
        let alone = count_all(&jobs, None, Tuned::defaults());
        let mut both = count_all(&jobs, Some(&index), Tuned::defaults());
        assert_eq!(both[..jobs.len() - 1], alone[..jobs.len() - 1], "every {step}th document");
        assert!(alone.iter().flatten().sum::<u64>() > 0, "something was counted");
        let (cut_alone, cut_together) = (alone.last().unwrap(), both.pop().unwrap());
        assert_eq!(
            facet_group(tree, &setting, &cut_together, &[]),
            facet_group(tree, &setting, cut_alone, &[]),
            "the cut group shows the same refiners, every {step}th document"
        );
    }
    assert!(walked > 5, "groups were walked together ({walked})");
}

/// A walk together large enough to share is split between the two threads, and the halves add up to the
/// counts of each walk alone.
#[test]
fn a_large_walk_together_is_shared_and_adds_up() {
    // Every 18th of 2.4M documents: under 4,096 in each block of 65,536, and enough of them to share.
    let n = 2_400_000;
    let (flat, tree) = (field(n, 3_000, false), field(n, 2_000, true));
    let index = SpaceIndex::from_parts("s", (1, 1), (1..=i64::from(n)).collect(), vec![flat, tree], Vec::new());
    let result: RoaringBitmap = (0..n).step_by(18).collect();
    let jobs: Vec<CountJob> = index
        .fields
        .iter()
        .map(|field| CountJob { field, scope: Cow::Borrowed(&result), only: None, cut: None, selected: &[] })
        .collect();
    let packed = index.packed().expect("packed values");
    assert!(result.len() as f64 * packed.per_document() >= Tuning::DEFAULT.shared_work, "enough work to share");
    assert_eq!(walking_together(&jobs, &index), vec![0, 1]);
    let together = count_all(&jobs, Some(&index), Tuned::defaults());
    assert_eq!(together, count_all(&jobs, None, Tuned::defaults()));
    assert_eq!(together[0].iter().sum::<u64>(), result.len(), "each document once in the flat field");
}
