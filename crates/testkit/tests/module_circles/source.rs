//! Reading Rust source as the circle test needs it: its tokens without comments and strings, and the paths a
//! `use` tree names.

pub(crate) fn is_ident(token: Option<&String>) -> bool {
    token.and_then(|t| t.chars().next()).is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The leaves of a `use` tree: each full path as written (`*` last for a glob) with its `as` name.
pub(crate) fn use_tree(tokens: &[String], prefix: Vec<String>, leaves: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix;
    let mut i = 0;
    // `pub use` and `pub(crate) use` were read before `use`; a leading `::` names another crate.
    if tokens.first().is_some_and(|t| t == "::") {
        return;
    }
    while i < tokens.len() {
        match tokens[i].as_str() {
            "::" => i += 1,
            "{" => {
                // Each item of the group, split at its top-level commas.
                let mut level = 0;
                let mut start = i + 1;
                for j in i + 1..tokens.len() {
                    match tokens[j].as_str() {
                        "{" => level += 1,
                        "}" if level == 0 => {
                            if start < j {
                                use_tree(&tokens[start..j], path.clone(), leaves);
                            }
                            return;
                        }
                        "}" => level -= 1,
                        "," if level == 0 => {
                            if start < j {
                                use_tree(&tokens[start..j], path.clone(), leaves);
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            "as" => {
                leaves.push((path, tokens.get(i + 1).cloned()));
                return;
            }
            "self" if !path.is_empty() => i += 1,
            segment => {
                path.push(segment.to_owned());
                i += 1;
            }
        }
    }
    if !path.is_empty() {
        leaves.push((path, None));
    }
}

/// The tokens of Rust source without comments, strings and character literals: names (lifetimes with their
/// quote), `::`, and single characters of punctuation.
pub(crate) fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut level = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    level += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    level -= 1;
                    i += 2;
                    if level == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1, 0);
        } else if (c == 'r' || c == 'b' || c == 'c') && raw_string_start(&chars, i).is_some() {
            let (hashes, quote) = raw_string_start(&chars, i).unwrap_or((0, i));
            i = skip_string(&chars, quote + 1, hashes);
        } else if c == 'b' && next == Some('\'') {
            i = skip_char(&chars, i + 1);
        } else if c == '\'' {
            if next == Some('\\') || chars.get(i + 2) == Some(&'\'') {
                i = skip_char(&chars, i);
            } else {
                let start = i;
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                tokens.push(chars[start..i].iter().collect());
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            tokens.push(word.strip_prefix("r#").map(str::to_owned).unwrap_or(word));
            if chars.get(i) == Some(&'#') && chars[start..i] == ['r'] {
                i += 1;
                tokens.pop();
            }
        } else if c == ':' && next == Some(':') {
            tokens.push("::".to_owned());
            i += 2;
        } else if c.is_whitespace() || c.is_ascii_digit() {
            i += 1;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

/// Where a raw, byte or C string starting at `at` opens: its number of `#` and the place of its quote.
fn raw_string_start(chars: &[char], at: usize) -> Option<(usize, usize)> {
    if at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_') {
        return None;
    }
    let mut i = at;
    if matches!(chars.get(i), Some('b' | 'c')) {
        i += 1;
    }
    let raw = chars.get(i) == Some(&'r');
    if raw {
        i += 1;
    }
    let mut hashes = 0;
    while raw && chars.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    (chars.get(i) == Some(&'"') && i > at).then_some((hashes, i))
}

/// The place after a string whose text starts at `i` and that ends with a quote and `hashes` times `#` (escapes
/// count only in strings that are not raw).
fn skip_string(chars: &[char], mut i: usize, hashes: usize) -> usize {
    while i < chars.len() {
        if chars[i] == '\\' && hashes == 0 {
            i += 2;
            continue;
        }
        if chars[i] == '"' && (1..=hashes).all(|h| chars.get(i + h) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// The place after a character literal whose opening quote is at `i`.
fn skip_char(chars: &[char], mut i: usize) -> usize {
    i += 1;
    while i < chars.len() && chars[i] != '\'' {
        if chars[i] == '\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}
