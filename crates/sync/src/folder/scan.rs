//! Where each key of a JSON text is: a small scanner that walks the text as a JSON parser would and notes the
//! line and column of every object key (and of every array element's start), by dotted path, so that a problem
//! found in the parsed value (a rule of the rule table, a folder rule) is shown where the key is written.
//! serde_json reports positions only for its own errors; this fills the gap without another parser.

use std::collections::BTreeMap;

/// A place in a text; both count from 1, the column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The start of a text.
    pub const START: Position = Position { line: 1, column: 1 };
}

/// The positions of a JSON text's keys by dotted path (`config.filter.facetsToShow.2.uri`): an object
/// member's is where its key's opening quote is, an array element's where its value starts. A text that is
/// not JSON gives the positions of what came before the fault. A key written twice is found where it was
/// written last (the value a reader keeps).
#[derive(Debug, Clone, Default)]
pub struct KeyPositions(BTreeMap<String, Position>);

impl KeyPositions {
    /// Scans `text`.
    pub fn of(text: &str) -> Self {
        let mut scan = Scan { text, at: 0, line: 1, column: 1, out: BTreeMap::new() };
        let _ = scan.value(&mut Vec::new());
        KeyPositions(scan.out)
    }

    /// Where the key at `path` is written; for a path that is not written (a key the text leaves out), where
    /// its nearest written parent is; the start of the text when nothing of it is.
    pub fn find(&self, path: &str) -> Position {
        let mut path = path;
        loop {
            if let Some(at) = self.0.get(path) {
                return *at;
            }
            match path.rfind('.') {
                Some(dot) => path = &path[..dot],
                None => return Position::START,
            }
        }
    }

    /// Where exactly the key at `path` is written, if it is.
    pub fn get(&self, path: &str) -> Option<Position> {
        self.0.get(path).copied()
    }
}

struct Scan<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    column: usize,
    out: BTreeMap<String, Position>,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            // Counts characters: a UTF-8 continuation byte is part of the character before it.
            self.column += 1;
        }
        Some(b)
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    fn position(&self) -> Position {
        Position { line: self.line, column: self.column }
    }

    fn note(&mut self, path: &[String], at: Position) {
        self.out.insert(path.join("."), at);
    }

    fn value(&mut self, path: &mut Vec<String>) -> Option<()> {
        self.space();
        match self.peek()? {
            b'{' => self.object(path),
            b'[' => self.array(path),
            b'"' => self.string().map(drop),
            _ => {
                while self.peek().is_some_and(|b| !b",}] \t\r\n".contains(&b)) {
                    self.bump();
                }
                Some(())
            }
        }
    }

    fn object(&mut self, path: &mut Vec<String>) -> Option<()> {
        self.bump();
        self.space();
        if self.peek()? == b'}' {
            self.bump();
            return Some(());
        }
        loop {
            self.space();
            let at = self.position();
            let key = self.string()?;
            path.push(key);
            self.note(path, at);
            self.space();
            if self.bump()? != b':' {
                return None;
            }
            self.value(path)?;
            path.pop();
            self.space();
            match self.bump()? {
                b',' => continue,
                b'}' => return Some(()),
                _ => return None,
            }
        }
    }

    fn array(&mut self, path: &mut Vec<String>) -> Option<()> {
        self.bump();
        self.space();
        if self.peek()? == b']' {
            self.bump();
            return Some(());
        }
        for index in 0.. {
            self.space();
            path.push(index.to_string());
            let at = self.position();
            self.note(path, at);
            self.value(path)?;
            path.pop();
            self.space();
            match self.bump()? {
                b',' => continue,
                b']' => return Some(()),
                _ => return None,
            }
        }
        None
    }

    /// A string literal, decoded (escapes and all) as serde_json decodes it.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        if self.bump()? != b'"' {
            return None;
        }
        loop {
            match self.bump()? {
                b'\\' => {
                    self.bump()?;
                }
                b'"' => break,
                _ => {}
            }
        }
        serde_json::from_str(&self.text[start..self.at]).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_elements_are_found_at_their_line_and_column() {
        let text = "{\n  \"config\": {\"title\": \"Zürich\", \"esc\\\"aped\": 1,\n    \"list\": [ {\"uri\": \"a\"},\n  7 ]\n  }\n}\n";
        let at = KeyPositions::of(text);
        assert_eq!(at.get("config"), Some(Position { line: 2, column: 3 }));
        assert_eq!(at.get("config.title"), Some(Position { line: 2, column: 14 }));
        // Columns count characters: the ü before it is one.
        assert_eq!(at.get("config.esc\"aped"), Some(Position { line: 2, column: 33 }));
        assert_eq!(at.get("config.list.0"), Some(Position { line: 3, column: 15 }));
        assert_eq!(at.get("config.list.0.uri"), Some(Position { line: 3, column: 16 }));
        assert_eq!(at.get("config.list.1"), Some(Position { line: 4, column: 3 }));
        // A key left out is shown at its parent; an unknown path at the start.
        assert_eq!(at.find("config.list.0.title"), Position { line: 3, column: 15 });
        assert_eq!(at.find("other"), Position::START);
    }

    #[test]
    fn a_broken_text_keeps_what_came_before_the_fault() {
        let at = KeyPositions::of("{\"a\": 1, \"b\": [1,, \"c\": 2}");
        assert_eq!(at.get("a"), Some(Position { line: 1, column: 2 }));
        assert_eq!(at.get("b"), Some(Position { line: 1, column: 10 }));
        assert_eq!(at.get("c"), None);
    }
}
