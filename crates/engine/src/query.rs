//! The text query rules of docs/api.md (Text query syntax) turned into a safe FTS5 MATCH expression.
//!
//! Whatever the user types, the result is either "no text condition" or an expression made only of
//! double-quoted strings joined by spaces (implicit AND), each optionally followed by `*`. FTS5 tokenizes
//! inside the quotes itself, so case and accents are folded exactly as in the index, and no input can
//! produce FTS5 syntax (operators, column filters, parentheses): odd input never becomes an error.

use studio_text::{has_token, is_token_char};

/// One condition of a query: a word or a phrase (several tokens in a row), the last token optionally a prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// The text of the word or phrase; FTS5 splits it into tokens.
    pub text: String,
    /// True when the last token matches as a prefix (the input had a trailing `*`).
    pub prefix: bool,
}

impl Clause {
    /// The clause as an FTS5 phrase: its text quoted, `*` after it for a prefix.
    pub fn to_fts(&self) -> String {
        format!("\"{}\"{}", self.text, if self.prefix { "*" } else { "" })
    }
}

/// A parsed text query: every clause must match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextQuery {
    pub clauses: Vec<Clause>,
}

impl TextQuery {
    /// Parses user input. Rules: `"a quoted phrase"` is one clause when its closing quote exists (a quote
    /// without a partner is literal, i.e. a separator); outside phrases every word is a clause of its own,
    /// words being split at anything that is not a letter or digit (`e-mail` is `e` AND `mail`, as in
    /// common search engines); a trailing `*` makes the last word (or the phrase's last word) a prefix.
    pub fn parse(input: &str) -> TextQuery {
        // Control characters (a NUL would end the expression early inside SQLite) separate words.
        let chars: Vec<char> = input.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let mut clauses = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() {
                i += 1;
                continue;
            }
            let phrase = if chars[i] == '"' { chars[i + 1..].iter().position(|&c| c == '"') } else { None };
            let (text, next) = match phrase {
                Some(len) => (chars[i + 1..i + 1 + len].iter().collect::<String>(), i + len + 2),
                None => take_word(&chars, i),
            };
            i = next;
            let mut prefix = false;
            let mut text = text;
            while i < chars.len() && chars[i] == '*' {
                prefix = true;
                i += 1;
            }
            while text.ends_with('*') {
                text.pop();
                prefix = true;
            }
            if phrase.is_some() {
                if has_token(&text) {
                    clauses.push(Clause { text, prefix });
                }
                continue;
            }
            let words: Vec<&str> = text.split(|c: char| !is_token_char(c)).filter(|w| has_token(w)).collect();
            let last = words.len().saturating_sub(1);
            for (k, word) in words.into_iter().enumerate() {
                clauses.push(Clause { text: word.to_owned(), prefix: prefix && k == last });
            }
        }
        TextQuery { clauses }
    }

    /// True when the query puts no condition on the text (empty input, or nothing but punctuation).
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The FTS5 MATCH expression, or `None` for an empty query.
    pub fn to_fts(&self) -> Option<String> {
        if self.clauses.is_empty() {
            return None;
        }
        let parts: Vec<String> = self.clauses.iter().map(Clause::to_fts).collect();
        Some(parts.join(" "))
    }
}

/// A whitespace-delimited word starting at `start`; returns it and the index after it.
fn take_word(chars: &[char], start: usize) -> (String, usize) {
    let mut end = start;
    while end < chars.len() && !chars[end].is_whitespace() {
        end += 1;
    }
    (chars[start..end].iter().collect(), end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fts(s: &str) -> Option<String> {
        TextQuery::parse(s).to_fts()
    }

    #[test]
    fn words_phrases_and_prefixes() {
        assert_eq!(fts("solar  Energy"), Some("\"solar\" \"Energy\"".into()));
        assert_eq!(fts("\"green deal\" bank*"), Some("\"green deal\" \"bank\"*".into()));
        assert_eq!(fts("\"green de\"*"), Some("\"green de\"*".into()));
    }

    #[test]
    fn odd_input_is_safe() {
        assert_eq!(fts(""), None);
        assert_eq!(fts("  \" * -- ()"), None);
        assert_eq!(fts("\"unclosed phrase"), Some("\"unclosed\" \"phrase\"".into()));
        assert_eq!(fts("a\"b NOT OR ( title:x"), Some("\"a\" \"b\" \"NOT\" \"OR\" \"title\" \"x\"".into()));
        assert_eq!(fts("**x**"), Some("\"x\"*".into()));
        assert_eq!(fts("e-mail covid-19*"), Some("\"e\" \"mail\" \"covid\" \"19\"*".into()));
    }
}
