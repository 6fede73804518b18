//! What a configuration's items name: a facet field by its id or by the uri `search_spaces` lists for it.

use super::field_index::FieldIndex;
use super::index::SpaceIndex;

/// Prefix of the `uri` that `search_spaces` lists for a facet field: `urn:searchstudio:field:<field id>`.
pub const FIELD_URI_PREFIX: &str = "urn:searchstudio:field:";

/// The field a `facetsToShow` item names: its id, or the uri `search_spaces` lists for it.
pub(crate) fn resolve_field<'a>(index: &'a SpaceIndex, uri: &str) -> Option<&'a FieldIndex> {
    index.field(uri).or_else(|| uri.strip_prefix(FIELD_URI_PREFIX).and_then(|id| index.field(id)))
}

/// What a `facetsToShow` or `detailsToShow` item names: its uri, or its refId when the uri is empty.
pub(crate) fn item_name<'a>(uri: &'a str, ref_id: &'a str) -> &'a str {
    if uri.is_empty() {
        ref_id
    } else {
        uri
    }
}
