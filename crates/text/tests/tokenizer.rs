//! The tokenizer splits and folds every character as FTS5's `unicode61 remove_diacritics 2` does: each code point
//! of the first two planes (and a sample of the others) between letters, and at the start of a token, through
//! both; and the texts the oracle tests index.

use rusqlite::Connection;
use studio_text::{is_token_char, Tokens};

use crate::support::Corpus;

/// The tokens of `texts` (by row) as FTS5 makes them: per row, its (position, term) in order.
fn fts5_tokens(texts: &[(i64, String)]) -> Vec<Vec<(u32, Vec<u8>)>> {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE c USING fts5(x, tokenize = 'unicode61 remove_diacritics 2');
         CREATE VIRTUAL TABLE v USING fts5vocab(c, instance);
         BEGIN;",
    )
    .unwrap();
    let mut insert = conn.prepare("INSERT INTO c (rowid, x) VALUES (?1, ?2)").unwrap();
    for (k, (_, text)) in texts.iter().enumerate() {
        insert.execute(rusqlite::params![k as i64, text]).unwrap();
    }
    let mut out = vec![Vec::new(); texts.len()];
    let mut rows = conn.prepare("SELECT doc, offset, term FROM v ORDER BY doc, offset").unwrap();
    let mut each = rows.query([]).unwrap();
    while let Some(row) = each.next().unwrap() {
        let doc: i64 = row.get(0).unwrap();
        let offset: i64 = row.get(1).unwrap();
        let term = row.get_ref(2).unwrap().as_bytes().unwrap().to_vec();
        out[doc as usize].push((offset as u32, term));
    }
    out
}

fn our_tokens(text: &str) -> Vec<(u32, Vec<u8>)> {
    let mut tokens = Tokens::new(text);
    let mut out = Vec::new();
    while let Some((position, term)) = tokens.next_token() {
        out.push((position, term.to_vec()));
    }
    out
}

#[test]
fn every_character_splits_and_folds_as_in_fts5() {
    let code_points = (1u32..0x20000).chain((0x20000..=0x10ffff).step_by(251)).chain([0x10fffd, 0x10ffff, 0xe0001]);
    let texts: Vec<(i64, String)> =
        code_points.filter_map(char::from_u32).map(|c| (c as i64, format!("{c}y x{c}y {c}{c} Q{c}"))).collect();
    let theirs = fts5_tokens(&texts);
    let mut differ = Vec::new();
    for ((code, text), theirs) in texts.iter().zip(&theirs) {
        let ours = our_tokens(text);
        if &ours != theirs {
            differ.push(format!("U+{code:04X}: ours {ours:?}, FTS5's {theirs:?}"));
        }
        let c = char::from_u32(*code as u32).unwrap();
        // Between x and y, a character of a token makes one token of the three; a separator leaves "x".
        let joins = theirs.get(1).is_some_and(|(p, t)| *p == 1 && t.len() >= 2 && t.ends_with(b"y"));
        if is_token_char(c) != joins {
            differ.push(format!("U+{code:04X}: is_token_char says {}", is_token_char(c)));
        }
    }
    assert!(
        differ.is_empty(),
        "{} characters differ, the first:\n{}",
        differ.len(),
        differ[..differ.len().min(20)].join("\n")
    );
}

#[test]
fn the_corpus_texts_split_as_in_fts5() {
    let corpus = Corpus::new(11, 300);
    let texts: Vec<(i64, String)> =
        corpus.docs.iter().flat_map(|d| d.fields.iter().map(move |f| (d.row as i64, f.clone()))).collect();
    let theirs = fts5_tokens(&texts);
    for ((_, text), theirs) in texts.iter().zip(&theirs) {
        assert_eq!(&our_tokens(text), theirs, "{text}");
    }
}
