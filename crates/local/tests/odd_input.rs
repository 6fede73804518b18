//! Whatever a user types, a search answers: thousands of random inputs built from FTS5's syntax
//! characters, quotes, stars, control characters and non-Latin text never produce an error.

use studio_local::{import_documents, SearchEngine, Store};
use studio_model::{Config, SearchRequest};

const PIECES: &[&str] = &[
    "\"", "*", "(", ")", ":", "^", "-", "+", "NEAR", "AND", "OR", "NOT", "title", "{", "}", ",", "\\", "'", "\0", "\t",
    "\n", " ", "  ", "one", "two", "café", "Ü", "\u{301}", "\u{1E900}", "\u{E000}", "🙂", "日本", "a", "1", "*\"", "\"*",
];

#[test]
fn random_odd_inputs_never_fail() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let docs = "{\"id\": \"1\", \"title\": \"one two\", \"description\": \"café NEAR\"}\n{\"id\": \"2\", \"title\": \"two three\"}\n";
    import_documents(&store, "s", docs.as_bytes(), &mut |_| {}).unwrap();
    let engine = SearchEngine::new();
    let config = Config { search_space: "s".into(), ..Default::default() };
    let mut conn = store.conn().unwrap();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..3_000 {
        let mut input = String::new();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut s = state;
        for _ in 0..(s % 7) {
            s = s.rotate_left(9).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            input.push_str(PIECES[(s >> 33) as usize % PIECES.len()]);
        }
        let request = SearchRequest { input: Some(input.clone()), ..Default::default() };
        let answer = engine.search(&mut conn, &config, &request);
        assert!(answer.is_ok(), "{input:?}: {answer:?}");
    }
}
