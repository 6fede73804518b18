//! A change of the index is all there or not there at all, whenever it stops: each step of adding a segment and
//! of a merge is stopped after it (the index dropped as a crash would leave it, its files as they are) and the
//! index opened again must be the one of the last manifest, with the files nothing names removed.

use studio_text::{Phrase, Snapshot, TextError, TextIndex};

use crate::support::{build, files, Corpus, Doc};

/// What the index answers for a word of every kind the corpus has, row by row: a fingerprint of its content.
fn answers(snapshot: &Snapshot) -> Vec<(Vec<u64>, Vec<[u32; 3]>)> {
    ["ka", "lo", "mi", "ne", "ru", "sa", "an", "el", "covid", "1"]
        .iter()
        .map(|w| {
            let found = snapshot.phrase(&Phrase::new(w, true)).unwrap();
            (found.rows, found.frequencies)
        })
        .collect()
}

fn rows(snapshot: &Snapshot, docs: &[Doc]) -> Vec<u64> {
    docs.iter().map(|d| d.row).filter(|&r| snapshot.field_sizes(r).is_some()).collect()
}

#[test]
fn a_segment_without_its_manifest_is_not_part_of_the_index() {
    let corpus = Corpus::new(21, 120);
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    build(&mut index, &corpus.docs[..60], 1, 60, 1 << 30);
    let before = answers(&index.snapshot());
    let listed = files(dir.path());
    // The next segment is written and on disk, and the process stops before the manifest names it.
    let mut builder = index.builder();
    for d in &corpus.docs[60..] {
        builder.add(d.row, d.fields()).unwrap();
    }
    let written = builder.finish().unwrap();
    assert_eq!(written.len(), 1);
    assert_eq!(files(dir.path()).len(), listed.len() + 1, "the new segment's file is there");
    drop(written);
    drop(index);

    let index = TextIndex::open(dir.path()).unwrap();
    assert_eq!(answers(&index.snapshot()), before, "the index is the one its manifest names");
    assert_eq!(rows(&index.snapshot(), &corpus.docs), corpus.docs[..60].iter().map(|d| d.row).collect::<Vec<_>>());
    assert_eq!(files(dir.path()), listed, "the segment no manifest names is removed");
}

#[test]
fn a_merge_stopped_at_any_step_leaves_a_whole_index() {
    let corpus = Corpus::new(22, 200);
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    build(&mut index, &corpus.docs, 2, 25, 1 << 30);
    let deleted: Vec<u64> = corpus.docs.iter().map(|d| d.row).filter(|r| r % 5 == 0).collect();
    index.delete(&deleted).unwrap();
    let before = answers(&index.snapshot());
    let live = rows(&index.snapshot(), &corpus.docs);
    let segments = files(dir.path());

    // Stopped after the merged segment was written and renamed into place, before the manifest named it.
    let merged = index.start_merge().unwrap().run().unwrap();
    assert_eq!(files(dir.path()).len(), segments.len() + 1);
    drop(merged);
    drop(index);
    let mut index = TextIndex::open(dir.path()).unwrap();
    assert_eq!(index.snapshot().segments(), 2);
    assert_eq!(answers(&index.snapshot()), before);
    assert_eq!(files(dir.path()), segments, "the merged file no manifest names is removed");

    // Stopped after the manifest was replaced, before the merged segments' files were removed.
    let kept = tempfile::tempdir().unwrap();
    for name in &segments {
        std::fs::copy(dir.path().join(name), kept.path().join(name)).unwrap();
    }
    index.merge().unwrap();
    assert_eq!(index.snapshot().segments(), 1);
    let merged_files = files(dir.path());
    drop(index);
    for name in segments.iter().filter(|n| n.starts_with("segment-")) {
        std::fs::copy(kept.path().join(name), dir.path().join(name)).unwrap();
    }
    // And a manifest being written when the process stopped, and a part of a merge on several threads.
    std::fs::write(dir.path().join("manifest.tmp"), b"half a manif").unwrap();
    std::fs::write(dir.path().join("segment-00000000000000ff.part1.tmp"), b"postings").unwrap();
    let index = TextIndex::open(dir.path()).unwrap();
    assert_eq!(index.snapshot().segments(), 1);
    assert_eq!(answers(&index.snapshot()), before);
    assert_eq!(rows(&index.snapshot(), &corpus.docs), live, "deleted rows stay deleted");
    assert_eq!(files(dir.path()), merged_files, "the old segments and the temporary manifest are removed");
}

#[test]
fn rows_deleted_during_a_merge_stay_deleted() {
    let corpus = Corpus::new(23, 150);
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    build(&mut index, &corpus.docs, 2, 30, 1 << 30);
    index.delete(&[corpus.docs[0].row]).unwrap();
    let merge = index.start_merge().unwrap();
    let late: Vec<u64> = corpus.docs[1..40].iter().map(|d| d.row).collect();
    assert_eq!(index.delete(&late).unwrap(), 39);
    // A segment added while the merge runs stays as it is.
    let extra = Doc { row: 10_000, fields: ["ka lo".into(), String::new(), String::new()], words: Default::default() };
    let mut builder = index.builder();
    builder.add(extra.row, extra.fields()).unwrap();
    index.add(builder.finish().unwrap()).unwrap();
    index.finish_merge(merge.run().unwrap()).unwrap();
    assert_eq!(index.snapshot().segments(), 2);
    let expected: Vec<u64> = corpus.docs[40..].iter().map(|d| d.row).chain([extra.row]).collect();
    let mut all = corpus.docs.clone();
    all.push(extra.clone());
    assert_eq!(rows(&index.snapshot(), &all), expected);
    let found = index.snapshot().phrase(&Phrase::new("ka lo", false)).unwrap();
    assert!(found.rows.contains(&extra.row) && found.rows.iter().all(|r| !late.contains(r)));
    drop(index);
    let mut index = TextIndex::open(dir.path()).unwrap();
    assert_eq!(rows(&index.snapshot(), &all), expected);
    index.merge().unwrap();
    assert_eq!(rows(&index.snapshot(), &all), expected);
    assert_eq!(index.snapshot().statistics().rows, expected.len() as u64);
}

#[test]
fn a_merge_overtaken_by_another_changes_nothing() {
    let corpus = Corpus::new(24, 80);
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    build(&mut index, &corpus.docs, 2, 10, 1 << 30);
    let (first, second) = (index.start_merge().unwrap(), index.start_merge().unwrap());
    let (first, second) = (first.run().unwrap(), second.run().unwrap());
    index.finish_merge(first).unwrap();
    assert!(matches!(index.finish_merge(second), Err(TextError::MergeOvertaken)));
    assert_eq!(index.snapshot().segments(), 1);
    assert_eq!(rows(&index.snapshot(), &corpus.docs).len(), corpus.docs.len());
    let left = files(dir.path());
    assert_eq!(left.iter().filter(|n| n.starts_with("segment-")).count(), 1, "the overtaken merge's file is removed");
    drop(index);
    TextIndex::open(dir.path()).unwrap();
    assert_eq!(files(dir.path()), left, "nothing was left for the next open to remove");
}

#[test]
fn one_writer_at_a_time_and_rows_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let index = TextIndex::open(dir.path()).unwrap();
    let second = TextIndex::open(dir.path());
    assert!(matches!(second, Err(TextError::Busy(_))), "{second:?}");
    let mut builder = index.builder();
    builder.add(5, ["a", "", ""]).unwrap();
    let again = builder.add(5, ["b", "", ""]);
    assert!(matches!(again, Err(TextError::RowOrder { row: 5, after: 5 })), "{again:?}");
    assert!(matches!(builder.add(3, ["c", "", ""]), Err(TextError::RowOrder { .. })));
    assert!(matches!(builder.add(studio_text::MAX_ROW + 1, ["c", "", ""]), Err(TextError::RowTooLarge { .. })));
    let long = "word ".repeat(studio_text::MAX_DOCUMENT_BYTES / 5 + 1);
    let refused = builder.add(9, ["", "", &long]);
    assert!(matches!(refused, Err(TextError::DocumentTooLarge { row: 9, .. })), "{refused:?}");
    builder.add(9, ["a document refused before can be given again", "", ""]).unwrap();
    drop(builder);
    drop(index);
    TextIndex::open(dir.path()).expect("open again once the first is closed");
}

#[test]
fn documents_without_text_count_as_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    let mut builder = index.builder();
    builder.add(1, ["", "", ""]).unwrap();
    builder.add(2, ["Two words", "!", ""]).unwrap();
    index.add(builder.finish().unwrap()).unwrap();
    let snapshot = index.snapshot();
    assert_eq!(snapshot.statistics().rows, 2);
    assert_eq!(snapshot.statistics().tokens, [2, 0, 0]);
    assert_eq!(snapshot.field_sizes(1), Some([0, 0, 0]));
    assert_eq!(snapshot.query(&[Phrase::new("!", false)]).unwrap().rows, Vec::<u64>::new());
    assert_eq!(snapshot.query(&[]).unwrap().rows, Vec::<u64>::new());
}

#[test]
fn a_merge_of_deleted_rows_only_leaves_an_empty_index() {
    let corpus = Corpus::new(25, 60);
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    build(&mut index, &corpus.docs, 2, 10, 1 << 30);
    let all: Vec<u64> = corpus.docs.iter().map(|d| d.row).collect();
    assert_eq!(index.delete(&all).unwrap(), all.len() as u64);
    assert_eq!(index.snapshot().statistics(), studio_text::Statistics::default());
    assert!(index.snapshot().phrase(&Phrase::new("ka", true)).unwrap().rows.is_empty());
    index.merge().unwrap();
    assert_eq!(index.snapshot().segments(), 0);
    assert_eq!(files(dir.path()), ["lock", "manifest"]);
    drop(index);
    let index = TextIndex::open(dir.path()).unwrap();
    assert_eq!(index.snapshot().statistics().rows, 0);
    assert_eq!(index.snapshot().terms().count(), 0);
}
