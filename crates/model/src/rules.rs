//! Which values each configuration key accepts (decisions.md §2), as one table that validation walks.
//!
//! The table is the single statement of the rules: merge code asks it, the UI mirrors it, and a key that is
//! not in it is an unknown field that is kept as it came.

use serde_json::Value;

use crate::config::{DetailSetting, FacetSetting};

pub const TITLE_ACTIONS: &[&str] = &["detail_view", "link"];
pub const DATE_FORMATS: &[&str] =
    &["short", "medium", "long", "full", "shortDate", "mediumDate", "longDate", "fullDate"];
pub const FACET_MODES: &[&str] = &["hierarchical", "flat"];
pub const SORTINGS: &[&str] = &["count", "alphabetical"];
pub const SORTING_ORDERS: &[&str] = &["desc", "asc"];
/// Similarity plugins of getSimilar; the first is the default.
pub const SIMILARITY_PLUGINS: &[&str] = &["concepts", "text"];
/// Recommender plugins of getRecommendations.
pub const RECOMMENDERS: &[&str] = &["related-concepts", "same-author"];
/// Largest `data:` URI accepted as a logo.
pub const MAX_LOGO_BYTES: usize = 512 * 1024;

fn facet_defaults() -> Value {
    serde_json::to_value(FacetSetting::default()).unwrap_or_default()
}

fn detail_defaults() -> Value {
    serde_json::to_value(DetailSetting::default()).unwrap_or_default()
}

const LOGO_TYPES: &[&str] = &["png", "jpeg", "gif", "webp", "svg+xml"];

/// What one key accepts.
pub(crate) enum Rule {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    OneOf(&'static [&'static str]),
    Text,
    NonEmpty,
    Colour,
    Logo,
    /// A nested object with its own keys.
    Object(&'static [Field]),
    /// An array of objects, each with these keys on top of `defaults()`; `uri` is mandatory and `refId`
    /// follows it.
    Items {
        fields: &'static [Field],
        defaults: fn() -> Value,
    },
    /// An array of strings.
    Strings,
}

pub(crate) struct Field {
    pub name: &'static str,
    pub rule: Rule,
}

const fn f(name: &'static str, rule: Rule) -> Field {
    Field { name, rule }
}

const COLOUR_PAIR: &[Field] = &[f("backgroundColor", Rule::Colour), f("fontColor", Rule::Colour)];

const FACET_ITEM: &[Field] = &[
    f("uri", Rule::NonEmpty),
    f("title", Rule::Text),
    f("show", Rule::Bool),
    f("facetMode", Rule::OneOf(FACET_MODES)),
    f("hierarchicalDepth", Rule::Int { min: 1, max: 10 }),
    f("maximumTerms", Rule::Int { min: 1, max: 1000 }),
    f("sorting", Rule::OneOf(SORTINGS)),
    f("sortingOrder", Rule::OneOf(SORTING_ORDERS)),
    f("showAllButton", Rule::Bool),
    f("searchable", Rule::Bool),
    f("refId", Rule::Text),
];

const DETAIL_ITEM: &[Field] =
    &[f("uri", Rule::NonEmpty), f("title", Rule::Text), f("show", Rule::Bool), f("refId", Rule::Text)];

/// The keys of `config`.
pub(crate) const CONFIG: &[Field] = &[
    f("title", Rule::NonEmpty),
    f("searchSpace", Rule::NonEmpty),
    f("visible", Rule::Bool),
    f(
        "result",
        Rule::Object(&[
            f("itemsPerPage", Rule::Int { min: 1, max: 100 }),
            f("showResultCount", Rule::Bool),
            f("summaryLength", Rule::Int { min: 0, max: 10000 }),
            f("showTags", Rule::Bool),
            f("numberOfTags", Rule::Int { min: 0, max: 100 }),
            f("titleAction", Rule::OneOf(TITLE_ACTIONS)),
            f("dateFormat", Rule::OneOf(DATE_FORMATS)),
            f("showSimilarDocuments", Rule::Bool),
            f("numberOfSimilarDocuments", Rule::Int { min: 0, max: 50 }),
            f("showDynamicSentiment", Rule::Bool),
            f("showResultAsImage", Rule::Bool),
        ]),
    ),
    f(
        "filter",
        Rule::Object(&[
            f("facetsToShow", Rule::Items { fields: FACET_ITEM, defaults: facet_defaults }),
            f("hideEmptyFacets", Rule::Bool),
            f("componentOrder", Rule::Strings),
        ]),
    ),
    f(
        "layout",
        Rule::Object(&[
            f("basicActionColor", Rule::Object(COLOUR_PAIR)),
            f("focusActionColor", Rule::Object(COLOUR_PAIR)),
            f("criticalActionColor", Rule::Object(COLOUR_PAIR)),
            f("navbar", Rule::Object(COLOUR_PAIR)),
            f("facets", Rule::Object(COLOUR_PAIR)),
            f("documents", Rule::Object(COLOUR_PAIR)),
            f("logo", Rule::Logo),
        ]),
    ),
    f(
        "details",
        Rule::Object(&[
            f("detailsToShow", Rule::Items { fields: DETAIL_ITEM, defaults: detail_defaults }),
            f("showSimilar", Rule::Bool),
            f("showSimilarAsImage", Rule::Bool),
            f("showRecommendations", Rule::Bool),
            f("recommender", Rule::Text),
            f("numberOfRecommendations", Rule::Int { min: 0, max: 50 }),
            f("numberOfSimilar", Rule::Int { min: 0, max: 50 }),
            f("showRecommendedAsImage", Rule::Bool),
            f("showConceptHighlighting", Rule::Bool),
        ]),
    ),
];

impl Rule {
    /// Checks a scalar value; the error is the message shown next to the field.
    pub(crate) fn check(&self, value: &Value) -> Result<(), String> {
        match self {
            Rule::Bool => value.as_bool().map(drop).ok_or_else(|| "must be true or false".to_owned()),
            Rule::Int { min, max } => match value.as_i64() {
                Some(n) if (*min..=*max).contains(&n) => Ok(()),
                _ => Err(format!("must be a whole number from {min} to {max}")),
            },
            Rule::OneOf(allowed) => match value.as_str() {
                Some(s) if allowed.contains(&s) => Ok(()),
                _ => Err(format!("must be one of {}", allowed.join(", "))),
            },
            Rule::Text => value.as_str().map(drop).ok_or_else(|| "must be a string".to_owned()),
            Rule::NonEmpty => match value.as_str() {
                Some(s) if !s.trim().is_empty() => Ok(()),
                Some(_) => Err("must not be empty".to_owned()),
                None => Err("must be a non-empty string".to_owned()),
            },
            Rule::Colour => match value.as_str() {
                Some(s) if is_hex_colour(s) => Ok(()),
                _ => Err("must be a hexadecimal colour: #rgb, #rgba, #rrggbb or #rrggbbaa".to_owned()),
            },
            Rule::Logo => match value.as_str() {
                Some(s) => check_logo(s),
                None => Err("must be a string: empty, an http(s) URL or a data:image URI".to_owned()),
            },
            Rule::Strings => match value.as_array() {
                Some(items) if items.iter().all(Value::is_string) => Ok(()),
                _ => Err("must be an array of strings".to_owned()),
            },
            Rule::Object(_) => value.as_object().map(drop).ok_or_else(|| "must be an object".to_owned()),
            Rule::Items { .. } => value.as_array().map(drop).ok_or_else(|| "must be an array of objects".to_owned()),
        }
    }
}

/// `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, any case.
pub fn is_hex_colour(s: &str) -> bool {
    let Some(hex) = s.strip_prefix('#') else { return false };
    matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

fn check_logo(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Ok(());
    }
    if let Some(rest) = s.strip_prefix("data:image/") {
        if s.len() > MAX_LOGO_BYTES {
            return Err(format!(
                "is a data URI of {} KiB; at most {} KiB is allowed",
                s.len().div_ceil(1024),
                MAX_LOGO_BYTES / 1024
            ));
        }
        let media = rest.split([';', ',']).next().unwrap_or_default();
        if LOGO_TYPES.contains(&media) && rest.contains(',') {
            return Ok(());
        }
        return Err("must be a data:image URI of type png, jpeg, gif, webp or svg+xml".to_owned());
    }
    let lower = s.to_ascii_lowercase();
    let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
    match rest {
        Some(rest)
            if !rest.is_empty()
                && !rest.starts_with('/')
                && !s.chars().any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '<' || c == '>') =>
        {
            Ok(())
        }
        _ => Err("must be empty, an http(s) URL or a data:image URI".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_of_every_written_form_are_accepted_and_others_refused() {
        for ok in ["#fff", "#FFFA", "#1565c0", "#1565C0ff"] {
            assert!(is_hex_colour(ok), "{ok}");
        }
        for bad in ["fff", "#ff", "#fffff", "#ggg", "#1565c0f", "", "red", "# fff"] {
            assert!(!is_hex_colour(bad), "{bad}");
        }
    }

    #[test]
    fn logos_are_urls_or_small_image_data_uris() {
        assert!(check_logo("").is_ok());
        assert!(check_logo("https://example.org/logo.png").is_ok());
        assert!(check_logo("data:image/svg+xml;base64,PHN2Zz4=").is_ok());
        assert!(check_logo("javascript:alert(1)").is_err());
        assert!(check_logo("data:text/html,<b>x</b>").is_err());
        assert!(check_logo("https://").is_err());
        assert!(check_logo("https://a b").is_err());
        let huge = format!("data:image/png;base64,{}", "A".repeat(MAX_LOGO_BYTES));
        let err = check_logo(&huge).unwrap_err();
        assert!(err.contains("512 KiB"), "{err}");
    }
}
