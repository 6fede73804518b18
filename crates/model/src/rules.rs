//! Which values each configuration key accepts (docs/api.md, "Validation"), as one table that validation
//! walks.
//!
//! The table is the single statement of the rules. The merge walks it here; the `bindings` test serialises
//! it, with the messages, lists and item defaults, into the UI's generated types, where one walker applies it
//! the same way, so the editor marks exactly the keys the server refuses. A key that is not in the table is an
//! unknown field that is kept as it came.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::config::{DetailSetting, FacetSetting};

pub const TITLE_ACTIONS: &[&str] = &["detail_view", "link"];
pub const DATE_FORMATS: &[&str] =
    &["short", "medium", "long", "full", "shortDate", "mediumDate", "longDate", "fullDate"];
/// The facet mode that nests a concept field's values under their broader ones.
pub const HIERARCHICAL: &str = "hierarchical";
pub const FACET_MODES: &[&str] = &[HIERARCHICAL, "flat"];
pub const SORTINGS: &[&str] = &["count", "alphabetical"];
pub const SORTING_ORDERS: &[&str] = &["desc", "asc"];
/// Similarity plugins of getSimilar; the first is the default.
pub const SIMILARITY_PLUGINS: &[&str] = &["concepts", "text"];
/// Recommender plugins of getRecommendations.
pub const RECOMMENDERS: &[&str] = &["related-concepts", "same-author"];
/// The parts of the filter panel that `componentOrder` arranges, in their default order.
pub const COMPONENTS: &[&str] = &["search", "facets", "reset"];
/// The largest page of results a search gives (`result.itemsPerPage`).
pub const MAX_ITEMS_PER_PAGE: i64 = 100;
/// The most refiners a facet group gives at each level (`maximumTerms`).
pub const MAX_TERMS: i64 = 1000;
/// The most levels a hierarchical facet group nests (`hierarchicalDepth`).
pub const MAX_DEPTH: i64 = 10;
/// Largest `data:` URI accepted as a logo, in bytes (the whole URI as written).
pub const MAX_LOGO_BYTES: usize = 512 * 1024;
/// Media types of a `data:image/…` logo.
pub const LOGO_TYPES: &[&str] = &["png", "jpeg", "gif", "webp", "svg+xml"];

/// The logo types as a designer names them (each of [`LOGO_TYPES`]), in the logo picker's words.
pub const LOGO_TYPE_NAMES: &str = "PNG, JPEG, GIF, WebP or SVG";

/// What the logo picker says of an image file, before the file becomes a `data:` URI that is then checked as any
/// logo is. A `{name}` is filled by [`fill`]: `{types}` with [`LOGO_TYPE_NAMES`], `{size}` and `{limit}` with
/// sizes in KiB, `{file}` with the file's name.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogoFileMessages {
    /// The label of the file control.
    pub label: &'static str,
    /// A file whose type is none of [`LOGO_TYPES`].
    pub wrong_type: &'static str,
    /// A file whose `data:` URI is longer than [`MAX_LOGO_BYTES`].
    pub too_large: &'static str,
}

pub const LOGO_FILE_MESSAGES: LogoFileMessages = LogoFileMessages {
    label: "Image file ({types}, up to {limit} KiB)",
    wrong_type: "{file} is not a {types} image.",
    too_large: "{file} makes a data URI of {size} KiB; at most {limit} KiB is allowed.",
};

/// The messages shown next to a refused field. A `{name}` is filled by [`fill`] (and by the UI the same way):
/// `{min}` and `{max}` with a bound, `{allowed}` with the allowed values joined by `, `, `{size}` and `{limit}`
/// with sizes in KiB.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Messages {
    pub bool: &'static str,
    pub int: &'static str,
    pub one_of: &'static str,
    pub text: &'static str,
    pub non_empty: &'static str,
    pub blank: &'static str,
    pub colour: &'static str,
    pub logo_not_text: &'static str,
    pub logo: &'static str,
    pub logo_media: &'static str,
    pub logo_size: &'static str,
    pub strings: &'static str,
    pub object: &'static str,
    pub items: &'static str,
    pub item_not_object: &'static str,
    pub item_without_uri: &'static str,
    /// Added to the message of an invalid `uri`: the item is dropped.
    pub item_left_out: &'static str,
    pub ref_id: &'static str,
}

pub const MESSAGES: Messages = Messages {
    bool: "must be true or false",
    int: "must be a whole number from {min} to {max}",
    one_of: "must be one of {allowed}",
    text: "must be a string",
    non_empty: "must be a non-empty string",
    blank: "must not be empty",
    colour: "must be a hexadecimal colour: #rgb, #rgba, #rrggbb or #rrggbbaa",
    logo_not_text: "must be a string: empty, an http(s) URL or a data:image URI",
    logo: "must be empty, an http(s) URL or a data:image URI",
    logo_media: "must be a data:image URI of type png, jpeg, gif, webp or svg+xml",
    logo_size: "is a data URI of {size} KiB; at most {limit} KiB is allowed",
    strings: "must be an array of strings",
    object: "must be an object",
    items: "must be an array of objects",
    item_not_object: "must be an object; the item was left out",
    item_without_uri: "is required; the item was left out",
    item_left_out: "; the item was left out",
    ref_id: "must equal uri; it was set to uri",
};

/// A message template with each `{name}` replaced by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_owned(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
}

/// What one key accepts. Serialised as `{"kind": …, …}` for the UI.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Rule {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    OneOf {
        allowed: &'static [&'static str],
    },
    Text,
    NonEmpty,
    Colour,
    Logo,
    /// A nested object with its own keys.
    Object {
        fields: Fields,
    },
    /// An array of objects, each with these keys on top of `defaults`; `uri` is mandatory and `refId`
    /// follows it.
    Items {
        fields: Fields,
        #[serde(serialize_with = "serialize_defaults")]
        defaults: fn() -> Value,
    },
    /// An array of strings.
    Strings,
}

/// The keys of one object and their rules, in the order the configuration writes them. Serialised as an
/// object from key to rule.
#[derive(Debug, Clone, Copy)]
pub struct Fields(pub &'static [Field]);

#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub rule: Rule,
}

impl Fields {
    pub fn get(&self, name: &str) -> Option<&'static Rule> {
        self.0.iter().find(|f| f.name == name).map(|f| &f.rule)
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for field in self.0 {
            map.serialize_entry(field.name, &field.rule)?;
        }
        map.end()
    }
}

fn serialize_defaults<S: Serializer>(defaults: &fn() -> Value, serializer: S) -> Result<S::Ok, S::Error> {
    defaults().serialize(serializer)
}

fn facet_defaults() -> Value {
    serde_json::to_value(FacetSetting::default()).unwrap_or_default()
}

fn detail_defaults() -> Value {
    serde_json::to_value(DetailSetting::default()).unwrap_or_default()
}

const fn f(name: &'static str, rule: Rule) -> Field {
    Field { name, rule }
}

const fn one_of(allowed: &'static [&'static str]) -> Rule {
    Rule::OneOf { allowed }
}

const fn int(min: i64, max: i64) -> Rule {
    Rule::Int { min, max }
}

const COLOUR_PAIR: Rule =
    Rule::Object { fields: Fields(&[f("backgroundColor", Rule::Colour), f("fontColor", Rule::Colour)]) };

const FACET_ITEM: Fields = Fields(&[
    f("uri", Rule::NonEmpty),
    f("title", Rule::Text),
    f("show", Rule::Bool),
    f("facetMode", one_of(FACET_MODES)),
    f("hierarchicalDepth", int(1, MAX_DEPTH)),
    f("maximumTerms", int(1, MAX_TERMS)),
    f("sorting", one_of(SORTINGS)),
    f("sortingOrder", one_of(SORTING_ORDERS)),
    f("showAllButton", Rule::Bool),
    f("searchable", Rule::Bool),
    f("refId", Rule::Text),
]);

const DETAIL_ITEM: Fields =
    Fields(&[f("uri", Rule::NonEmpty), f("title", Rule::Text), f("show", Rule::Bool), f("refId", Rule::Text)]);

/// The keys of `config`.
pub const CONFIG_RULES: Fields = Fields(&[
    f("title", Rule::NonEmpty),
    f("searchSpace", Rule::NonEmpty),
    f("visible", Rule::Bool),
    f(
        "result",
        Rule::Object {
            fields: Fields(&[
                f("itemsPerPage", int(1, MAX_ITEMS_PER_PAGE)),
                f("showResultCount", Rule::Bool),
                f("summaryLength", int(0, 10000)),
                f("showTags", Rule::Bool),
                f("numberOfTags", int(0, 100)),
                f("titleAction", one_of(TITLE_ACTIONS)),
                f("dateFormat", one_of(DATE_FORMATS)),
                f("showSimilarDocuments", Rule::Bool),
                f("numberOfSimilarDocuments", int(0, 50)),
                f("showDynamicSentiment", Rule::Bool),
                f("showResultAsImage", Rule::Bool),
            ]),
        },
    ),
    f(
        "filter",
        Rule::Object {
            fields: Fields(&[
                f("facetsToShow", Rule::Items { fields: FACET_ITEM, defaults: facet_defaults }),
                f("hideEmptyFacets", Rule::Bool),
                f("componentOrder", Rule::Strings),
            ]),
        },
    ),
    f(
        "layout",
        Rule::Object {
            fields: Fields(&[
                f("basicActionColor", COLOUR_PAIR),
                f("focusActionColor", COLOUR_PAIR),
                f("criticalActionColor", COLOUR_PAIR),
                f("navbar", COLOUR_PAIR),
                f("facets", COLOUR_PAIR),
                f("documents", COLOUR_PAIR),
                f("logo", Rule::Logo),
            ]),
        },
    ),
    f(
        "details",
        Rule::Object {
            fields: Fields(&[
                f("detailsToShow", Rule::Items { fields: DETAIL_ITEM, defaults: detail_defaults }),
                f("showSimilar", Rule::Bool),
                f("showSimilarAsImage", Rule::Bool),
                f("showRecommendations", Rule::Bool),
                f("recommender", Rule::Text),
                f("numberOfRecommendations", int(0, 50)),
                f("numberOfSimilar", int(0, 50)),
                f("showRecommendedAsImage", Rule::Bool),
                f("showConceptHighlighting", Rule::Bool),
            ]),
        },
    ),
]);

impl Rule {
    /// Checks a value against this rule alone (not an object's or an item's own keys); the error is the
    /// message shown next to the field.
    pub fn check(&self, value: &Value) -> Result<(), String> {
        let refuse = |message: &str| Err(message.to_owned());
        match self {
            Rule::Bool => value.as_bool().map_or_else(|| refuse(MESSAGES.bool), drop_ok),
            Rule::Int { min, max } => match value.as_i64() {
                Some(n) if (*min..=*max).contains(&n) => Ok(()),
                _ => Err(fill(MESSAGES.int, &[("min", &min.to_string()), ("max", &max.to_string())])),
            },
            Rule::OneOf { allowed } => match value.as_str() {
                Some(s) if allowed.contains(&s) => Ok(()),
                _ => Err(fill(MESSAGES.one_of, &[("allowed", &allowed.join(", "))])),
            },
            Rule::Text => value.as_str().map_or_else(|| refuse(MESSAGES.text), drop_ok),
            Rule::NonEmpty => match value.as_str() {
                Some(s) if !s.trim().is_empty() => Ok(()),
                Some(_) => refuse(MESSAGES.blank),
                None => refuse(MESSAGES.non_empty),
            },
            Rule::Colour => match value.as_str() {
                Some(s) if is_hex_colour(s) => Ok(()),
                _ => refuse(MESSAGES.colour),
            },
            Rule::Logo => value.as_str().map_or_else(|| refuse(MESSAGES.logo_not_text), check_logo),
            Rule::Strings => match value.as_array() {
                Some(items) if items.iter().all(Value::is_string) => Ok(()),
                _ => refuse(MESSAGES.strings),
            },
            Rule::Object { .. } => value.as_object().map_or_else(|| refuse(MESSAGES.object), drop_ok),
            Rule::Items { .. } => value.as_array().map_or_else(|| refuse(MESSAGES.items), drop_ok),
        }
    }
}

fn drop_ok<T>(_: T) -> Result<(), String> {
    Ok(())
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
            let size = s.len().div_ceil(1024).to_string();
            return Err(fill(MESSAGES.logo_size, &[("size", &size), ("limit", &(MAX_LOGO_BYTES / 1024).to_string())]));
        }
        let media = rest.split([';', ',']).next().unwrap_or_default();
        if LOGO_TYPES.contains(&media) && rest.contains(',') {
            return Ok(());
        }
        return Err(MESSAGES.logo_media.to_owned());
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
        _ => Err(MESSAGES.logo.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_for_another_image_type_names_every_logo_type() {
        for media in LOGO_TYPES {
            assert!(MESSAGES.logo_media.contains(media), "{media}");
        }
    }

    #[test]
    fn the_logo_picker_names_every_logo_type() {
        let names = LOGO_TYPE_NAMES.to_ascii_lowercase();
        for media in LOGO_TYPES {
            let short = media.split('+').next().unwrap_or(media);
            assert!(names.contains(short), "{media}");
        }
        assert_eq!(names.matches(", ").count() + names.matches(" or ").count() + 1, LOGO_TYPES.len());
    }

    #[test]
    fn templates_are_filled_by_name() {
        assert_eq!(fill(MESSAGES.int, &[("min", "1"), ("max", "100")]), "must be a whole number from 1 to 100");
    }
}
