//! A reader without the lock sees what the writer made live, and only that: adds, deletes, merges and a cleared
//! index, read again only when the manifest was replaced; an index not made yet reads as empty.

use studio_text::{Phrase, Reader, Snapshot, TextIndex};

use crate::support::{build, Corpus};

/// What the index answers for a few words, row by row, with its statistics.
fn answers(snapshot: &Snapshot) -> (Vec<Vec<u64>>, u64, [u64; 3]) {
    let rows = ["ka", "lo", "mi", "an"].iter().map(|w| snapshot.phrase(&Phrase::new(w, true)).unwrap().rows).collect();
    (rows, snapshot.statistics().rows, snapshot.statistics().tokens)
}

#[test]
fn a_reader_follows_the_writer_through_adds_deletes_merges_and_a_clear() {
    let corpus = Corpus::new(5, 200);
    let dir = tempfile::tempdir().unwrap();
    let reader = Reader::new(&dir.path().join("index"));
    assert_eq!(reader.snapshot().unwrap().statistics().rows, 0, "no index yet: empty");

    let mut index = TextIndex::open(&dir.path().join("index")).unwrap();
    build(&mut index, &corpus.docs[..120], 2, 40, 1 << 30);
    assert_eq!(answers(&reader.snapshot().unwrap()), answers(&index.snapshot()), "the segments added");
    build(&mut index, &corpus.docs[120..], 1, 80, 1 << 30);
    let deleted: Vec<u64> = corpus.docs.iter().step_by(7).map(|d| d.row).collect();
    index.delete(&deleted).unwrap();
    let seen = reader.snapshot().unwrap();
    assert_eq!(answers(&seen), answers(&index.snapshot()), "more segments, rows deleted");
    assert!(seen.deleted() > 0 && seen.segments() > 1);

    // A merge removes the files of the segments it merged once the new manifest is in place; the reader's
    // snapshot taken before still answers from its open files.
    index.merge().unwrap();
    assert_eq!(answers(&seen), answers(&index.snapshot()), "a merge changes no answer");
    let merged = reader.snapshot().unwrap();
    assert_eq!((merged.segments(), merged.deleted()), (1, 0));
    assert_eq!(answers(&merged), answers(&index.snapshot()));

    index.clear().unwrap();
    assert_eq!(answers(&reader.snapshot().unwrap()).1, 0, "cleared");
}

#[test]
fn a_second_writer_waits_for_the_first_and_opens_once_it_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let first = TextIndex::open(dir.path()).unwrap();
    let short = std::time::Duration::from_millis(50);
    assert!(matches!(TextIndex::open_waiting(dir.path(), short), Err(studio_text::TextError::Busy(_))));
    let waiting = std::thread::spawn({
        let dir = dir.path().to_owned();
        move || TextIndex::open_waiting(&dir, std::time::Duration::from_secs(60)).map(|_| ())
    });
    std::thread::sleep(short);
    drop(first);
    waiting.join().unwrap().expect("opened once the first writer let go");
}

#[test]
fn the_sizes_of_many_rows_are_each_row_s_sizes() {
    let corpus = Corpus::new(11, 300);
    let dir = tempfile::tempdir().unwrap();
    let mut index = TextIndex::open(dir.path()).unwrap();
    // Two builders taking alternate batches: segments whose rows interleave, and several of each.
    build(&mut index, &corpus.docs, 2, 16, 4 << 10);
    index.delete(&corpus.docs.iter().step_by(5).map(|d| d.row).collect::<Vec<_>>()).unwrap();
    let snapshot = index.snapshot();
    assert!(snapshot.segments() > 4, "several segments: {}", snapshot.segments());
    let last = corpus.docs.iter().map(|d| d.row).max().unwrap();
    let mut rows: Vec<u64> = corpus.docs.iter().map(|d| d.row).chain([0, last + 1, last + 1000]).collect();
    rows.sort_unstable();
    rows.dedup();
    let one_by_one: Vec<Option<[u32; 3]>> = rows.iter().map(|&r| snapshot.field_sizes(r)).collect();
    assert!(one_by_one.iter().any(Option::is_none) && one_by_one.iter().any(|s| s.is_some_and(|s| s[2] > 0)));
    assert_eq!(snapshot.field_sizes_of(&rows), one_by_one);
}

#[test]
fn a_builder_s_later_budget_writes_larger_segments_that_answer_alike() {
    let corpus = Corpus::new(13, 400);
    let built = |later: Option<usize>| {
        let dir = tempfile::tempdir().unwrap();
        let mut index = TextIndex::open(dir.path()).unwrap();
        let mut builder = index.builder().budget(16 << 10);
        if let Some(bytes) = later {
            builder = builder.budget_after(2, bytes);
        }
        for d in &corpus.docs {
            builder.add(d.row, d.fields()).unwrap();
        }
        let segments = builder.finish().unwrap();
        let count = segments.len();
        index.add(segments).unwrap();
        (count, answers(&index.snapshot()))
    };
    let (small, answered) = built(None);
    let (grown, answered_grown) = built(Some(64 << 20));
    assert!(small > 3, "the small budget alone writes many segments ({small})");
    assert_eq!(grown, 3, "two segments on the first budget, then everything else in one");
    assert_eq!(answered_grown, answered);
}
