//! A damaged file is an error naming it and saying to build the index again, never a panic or a wrong answer:
//! a segment with a byte changed at many places, cut short at many lengths, or replaced by garbage, and a
//! manifest damaged the same ways. After each change the index is opened and every byte read; where that fails
//! it must be with that error, and every query answered before it fails must be the undamaged index's answer.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use studio_text::{Phrase, PhraseMatches, TextError, TextIndex};

use crate::support::{build, files, Corpus};

/// The queries asked of every damaged index.
fn queries() -> Vec<Phrase> {
    ["ka", "lo*", "mi ne", "sa", "el*", "ba de", "covid", "ru"]
        .iter()
        .map(|q| Phrase::new(q.trim_end_matches('*'), q.ends_with('*')))
        .collect()
}

/// The answers of the index in `dir` (opened, queried, every byte checked), or the first error met.
fn read_all(dir: &Path) -> Result<Vec<PhraseMatches>, TextError> {
    let index = TextIndex::open(dir)?;
    let snapshot = index.snapshot();
    let mut answers = Vec::new();
    for q in queries() {
        answers.push(snapshot.phrase(&q)?);
    }
    index.verify()?;
    Ok(answers)
}

/// Checks the index in `dir` after `what` was done to the file `file`: damaged, and said so.
fn assert_damaged(dir: &Path, file: &str, what: &str, good: &[PhraseMatches]) {
    // Queries answered before the damage is met must be right.
    if let Ok(index) = TextIndex::open(dir) {
        let snapshot = index.snapshot();
        for (q, expected) in queries().iter().zip(good) {
            match snapshot.phrase(q) {
                Ok(found) => assert_eq!(&found, expected, "{what}: a wrong answer to {q:?}"),
                Err(e) => assert!(e.needs_rebuild(), "{what}: {e}"),
            }
        }
    }
    match read_all(dir) {
        Ok(_) => panic!("{what}: the damage went unnoticed"),
        Err(e) => {
            let message = e.to_string();
            assert!(e.needs_rebuild(), "{what}: {message}");
            assert!(message.contains(file), "{what}: {message} does not name {file}");
            assert!(message.contains("build the index again from the documents"), "{what}: {message}");
        }
    }
}

/// An index of two segments, and the name of its first segment's file.
fn small_index(dir: &Path) -> String {
    let corpus = Corpus::new(31, 40);
    let mut index = TextIndex::open(dir).unwrap();
    build(&mut index, &corpus.docs, 2, 20, 1 << 30);
    index.delete(&[corpus.docs[3].row]).unwrap();
    files(dir).into_iter().find(|n| n.starts_with("segment-")).unwrap()
}

#[test]
fn a_segment_with_a_byte_changed_anywhere_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let name = small_index(dir.path());
    let good = read_all(dir.path()).unwrap();
    let path = dir.path().join(&name);
    let pristine = std::fs::read(&path).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // Every byte of the header and footer, and one in three elsewhere.
    let places: Vec<usize> =
        (0..pristine.len()).filter(|&at| at < 16 || at + 108 >= pristine.len() || at % 3 == 0).collect();
    assert!(places.len() > 1000, "{} bytes", pristine.len());
    for at in places {
        let mut bytes = pristine.clone();
        bytes[at] ^= 1 << rng.gen_range(0..8);
        std::fs::write(&path, &bytes).unwrap();
        assert_damaged(dir.path(), &name, &format!("a bit changed at byte {at}"), &good);
    }
    std::fs::write(&path, &pristine).unwrap();
    assert_eq!(read_all(dir.path()).unwrap(), good);
}

#[test]
fn a_segment_cut_short_or_replaced_by_garbage_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let name = small_index(dir.path());
    let good = read_all(dir.path()).unwrap();
    let path = dir.path().join(&name);
    let pristine = std::fs::read(&path).unwrap();
    for len in (0..pristine.len()).step_by(7).chain([pristine.len() - 1]) {
        std::fs::write(&path, &pristine[..len]).unwrap();
        assert_damaged(dir.path(), &name, &format!("cut at {len} bytes"), &good);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let garbage: Vec<u8> = (0..pristine.len()).map(|_| rng.gen()).collect();
    std::fs::write(&path, &garbage).unwrap();
    assert_damaged(dir.path(), &name, "garbage", &good);
    // Garbage that keeps the segment's first and last bytes.
    let mut framed = garbage.clone();
    framed[..16].copy_from_slice(&pristine[..16]);
    let end = pristine.len() - 8;
    framed[end..].copy_from_slice(&pristine[end..]);
    std::fs::write(&path, &framed).unwrap();
    assert_damaged(dir.path(), &name, "garbage between a segment's header and its magic", &good);
    std::fs::write(&path, [&pristine[..], b"more"].concat()).unwrap();
    assert_damaged(dir.path(), &name, "bytes added at the end", &good);
    std::fs::remove_file(&path).unwrap();
    match read_all(dir.path()) {
        Err(TextError::Damaged { path: missing, .. }) => assert!(missing.ends_with(&name)),
        other => panic!("a missing segment: {other:?}"),
    }
}

#[test]
fn a_damaged_manifest_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    small_index(dir.path());
    let good = read_all(dir.path()).unwrap();
    let path = dir.path().join("manifest");
    let pristine = std::fs::read(&path).unwrap();
    for at in 0..pristine.len() {
        let mut bytes = pristine.clone();
        bytes[at] ^= 0x04;
        std::fs::write(&path, &bytes).unwrap();
        assert_damaged(dir.path(), "manifest", &format!("a bit changed at byte {at}"), &good);
    }
    for len in 0..pristine.len() {
        std::fs::write(&path, &pristine[..len]).unwrap();
        assert_damaged(dir.path(), "manifest", &format!("cut at {len} bytes"), &good);
    }
    std::fs::remove_file(&path).unwrap();
    assert_damaged(dir.path(), "manifest", "a manifest missing beside segments", &good);
    std::fs::write(&path, &pristine).unwrap();
    assert_eq!(read_all(dir.path()).unwrap(), good);
}
