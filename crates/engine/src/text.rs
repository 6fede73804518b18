//! Word splitting and folding close to SQLite's `unicode61 remove_diacritics 2` tokenizer, for the places
//! where Rust must see the same terms that the full-text index sees (the `text` similarity plugin).
//!
//! The query path never relies on this: it hands FTS5 quoted strings and lets FTS5 tokenize them itself.

/// True for characters that belong to a token: letters, digits and combining marks.
pub(crate) fn is_token_char(c: char) -> bool {
    c.is_alphanumeric() || ('\u{300}'..='\u{36f}').contains(&c)
}

/// Lower-cases and strips diacritics from one character (Latin letters), yielding its folded form.
fn fold_char(c: char, out: &mut String) {
    if ('\u{300}'..='\u{36f}').contains(&c) {
        return;
    }
    let base = match c {
        'À'..='Å' | 'à'..='å' | 'Ā' | 'ā' | 'Ă' | 'ă' | 'Ą' | 'ą' => 'a',
        'Ç' | 'ç' | 'Ć' | 'ć' | 'Ĉ' | 'ĉ' | 'Ċ' | 'ċ' | 'Č' | 'č' => 'c',
        'Ď' | 'ď' => 'd',
        'È'..='Ë' | 'è'..='ë' | 'Ē' | 'ē' | 'Ĕ' | 'ĕ' | 'Ė' | 'ė' | 'Ę' | 'ę' | 'Ě' | 'ě' => 'e',
        'Ĝ' | 'ĝ' | 'Ğ' | 'ğ' | 'Ġ' | 'ġ' | 'Ģ' | 'ģ' => 'g',
        'Ì'..='Ï' | 'ì'..='ï' | 'Ĩ' | 'ĩ' | 'Ī' | 'ī' | 'Į' | 'į' | 'İ' => 'i',
        'Ñ' | 'ñ' | 'Ń' | 'ń' | 'Ņ' | 'ņ' | 'Ň' | 'ň' => 'n',
        'Ò'..='Ö' | 'ò'..='ö' | 'Ō' | 'ō' | 'Ő' | 'ő' => 'o',
        'Ś' | 'ś' | 'Ş' | 'ş' | 'Š' | 'š' => 's',
        'Ţ' | 'ţ' | 'Ť' | 'ť' => 't',
        'Ù'..='Ü' | 'ù'..='ü' | 'Ũ' | 'ũ' | 'Ū' | 'ū' | 'Ů' | 'ů' | 'Ű' | 'ű' | 'Ų' | 'ų' => 'u',
        'Ý' | 'ý' | 'ÿ' | 'Ÿ' => 'y',
        'Ź' | 'ź' | 'Ż' | 'ż' | 'Ž' | 'ž' => 'z',
        'Ł' | 'ł' => 'l',
        _ => {
            out.extend(c.to_lowercase());
            return;
        }
    };
    out.push(base);
}

/// The folded tokens of a text, in order.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !is_token_char(c)).filter(|w| !w.is_empty()).map(|w| {
        let mut folded = String::with_capacity(w.len());
        for c in w.chars() {
            fold_char(c, &mut folded);
        }
        folded
    })
}

/// True when `text` holds at least one token.
pub(crate) fn has_token(text: &str) -> bool {
    text.chars().any(|c| c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_accents() {
        let t: Vec<String> = tokens("Café-Crème, NAÏVE zoë 42").collect();
        assert_eq!(t, ["cafe", "creme", "naive", "zoe", "42"]);
    }
}
