//! Whatever a user types, a search answers: thousands of random inputs built from FTS5's syntax
//! characters, quotes, stars, control characters and non-Latin text never produce an error.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use studio_local::{import_documents, SearchEngine, Store};
use studio_model::{Config, SearchRequest};

const PIECES: &[&str] = &[
    "\"",
    "*",
    "(",
    ")",
    ":",
    "^",
    "-",
    "+",
    "NEAR",
    "AND",
    "OR",
    "NOT",
    "title",
    "{",
    "}",
    ",",
    "\\",
    "'",
    "\0",
    "\t",
    "\n",
    " ",
    "  ",
    "one",
    "two",
    "café",
    "Ü",
    "\u{301}",
    "\u{1E900}",
    "\u{E000}",
    "🙂",
    "日本",
    "a",
    "1",
    "*\"",
    "\"*",
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
    let mut rng = ChaCha8Rng::seed_from_u64(0x2545_F491_4F6C_DD1D);
    for _ in 0..3_000 {
        let mut input = String::new();
        for _ in 0..rng.gen_range(0..7) {
            input.push_str(PIECES[rng.gen_range(0..PIECES.len())]);
        }
        let request = SearchRequest { input: Some(input.clone()), ..Default::default() };
        let answer = engine.search(&mut conn, &config, &request);
        assert!(answer.is_ok(), "{input:?}: {answer:?}");
    }
}
