//! The vocabulary every part of Search Studio shares: the configuration resource of the API with its exact
//! JSON names and defaults, the rules that decide which values are valid (docs/api.md, Validation and Create
//! and update), the document and search types, and the [`Backend`] trait that the local store, the remote
//! client, the HTTP server and the desktop shell all speak.
//!
//! This crate must never do I/O or depend on a transport: it is the contract, not an implementation.

mod backend;
mod config;
mod document;
mod error;
pub mod marks;
mod merge;
mod offers;
mod rules;
pub mod webkit;
mod written;

pub use backend::{Backend, Caller, ConfigurationList, LogAction, LogEntry, WriteOutcome};
pub use config::{
    ColourPair, Config, Configuration, DetailSetting, Details, Extra, FacetSetting, Filter, Layout, ResultSettings,
};
pub use document::{
    Document, Explanation, FacetField, FacetGroup, FacetHealth, FacetKind, FieldHealth, Reason, RecommendQuery,
    Recommendations, Refiner, SearchPage, SearchRequest, SearchResponse, SearchSpace, SelectedFacet, SimilarQuery,
    ALL_CONCEPTS_FIELD, ALL_CONCEPTS_LABEL, CONCEPT_PREFIX, MAX_REASONS,
};
pub use error::{disk_full_message, file_error_message, is_disk_full, BackendError, ErrorCode, FieldError};
pub use merge::{merge_create, merge_update, with_overrides};
pub use offers::{Extension, Offers};
pub use rules::{
    fill, is_hex_colour, Field, Fields, LogoFileMessages, Messages, Rule, COMPONENTS, CONFIG_RULES, DATE_FORMATS,
    FACET_MODES, HIERARCHICAL, LOGO_FILE_MESSAGES, LOGO_TYPES, LOGO_TYPE_NAMES, MAX_DEPTH, MAX_ITEMS_PER_PAGE,
    MAX_LOGO_BYTES, MAX_TERMS, MESSAGES, RECOMMENDERS, SIMILARITY_PLUGINS, SORTINGS, SORTING_ORDERS, TITLE_ACTIONS,
};
pub use written::{WrittenAnswer, WrittenDocument, WrittenGroup, WrittenRefiner};
