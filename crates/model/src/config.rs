//! The configuration resource of docs/api.md ("The configuration"): an envelope (`id`, `user`, `created`)
//! around the display settings.
//!
//! Every struct keeps the fields it does not know in `extra`, so that a configuration written by a newer
//! server survives a round trip through Search Studio unchanged. Defaults are exactly the ones of the tables
//! of docs/api.md; the item defaults (`FacetSetting::default`, `DetailSetting::default`) also reach the UI
//! through its generated types.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;
use utoipa::ToSchema;

/// Fields that this project does not know, kept and written back as they came.
pub type Extra = Map<String, Value>;

/// A stored configuration, or the default template when `id` and `created` are null.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Configuration {
    /// Assigned by the server; null in the default template.
    pub id: Option<i32>,
    /// Owner of the configuration; `anonymous` in the default template.
    pub user: String,
    /// Creation time, UTC, ISO 8601 with milliseconds; null in the default template.
    pub created: Option<String>,
    pub config: Config,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Configuration {
    /// The default template (operation 1 of docs/api.md).
    pub fn template() -> Self {
        Configuration {
            id: None,
            user: "anonymous".to_owned(),
            created: None,
            config: Config::default(),
            extra: Extra::new(),
        }
    }
}

/// The display settings bound to one search space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    pub title: String,
    pub search_space: String,
    pub visible: bool,
    pub result: ResultSettings,
    pub filter: Filter,
    pub layout: Layout,
    pub details: Details,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            title: String::new(),
            search_space: String::new(),
            visible: true,
            result: ResultSettings::default(),
            filter: Filter::default(),
            layout: Layout::default(),
            details: Details::default(),
            extra: Extra::new(),
        }
    }
}

/// How the result list looks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ResultSettings {
    pub items_per_page: i32,
    pub show_result_count: bool,
    pub summary_length: i32,
    pub show_tags: bool,
    pub number_of_tags: i32,
    /// `detail_view` or `link`.
    pub title_action: String,
    /// One of the named date formats of docs/api.md (`config.result`).
    pub date_format: String,
    pub show_similar_documents: bool,
    pub number_of_similar_documents: i32,
    pub show_dynamic_sentiment: bool,
    pub show_result_as_image: bool,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for ResultSettings {
    fn default() -> Self {
        ResultSettings {
            items_per_page: 10,
            show_result_count: true,
            summary_length: 200,
            show_tags: true,
            number_of_tags: 10,
            title_action: "detail_view".to_owned(),
            date_format: "medium".to_owned(),
            show_similar_documents: true,
            number_of_similar_documents: 5,
            show_dynamic_sentiment: false,
            show_result_as_image: false,
            extra: Extra::new(),
        }
    }
}

/// The facet filter panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Filter {
    pub facets_to_show: Vec<FacetSetting>,
    pub hide_empty_facets: bool,
    /// Names of the filter-panel parts in display order: `search`, `facets`, `reset`.
    pub component_order: Vec<String>,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for Filter {
    fn default() -> Self {
        Filter { facets_to_show: Vec::new(), hide_empty_facets: true, component_order: Vec::new(), extra: Extra::new() }
    }
}

/// One facet of the filter panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct FacetSetting {
    /// The facet field id (`dyn_lit_author`) or the field's URI as listed by `/api/searchspaces`.
    pub uri: String,
    pub title: String,
    pub show: bool,
    /// `hierarchical` or `flat`.
    pub facet_mode: String,
    pub hierarchical_depth: i32,
    pub maximum_terms: i32,
    /// `count` or `alphabetical`.
    pub sorting: String,
    /// `desc` or `asc`.
    pub sorting_order: String,
    pub show_all_button: bool,
    pub searchable: bool,
    /// Always equal to `uri`.
    pub ref_id: String,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for FacetSetting {
    fn default() -> Self {
        FacetSetting {
            uri: String::new(),
            title: String::new(),
            show: true,
            facet_mode: "flat".to_owned(),
            hierarchical_depth: 3,
            maximum_terms: 10,
            sorting: "count".to_owned(),
            sorting_order: "desc".to_owned(),
            show_all_button: false,
            searchable: false,
            ref_id: String::new(),
            extra: Extra::new(),
        }
    }
}

/// A background and font colour, each a hexadecimal colour code.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ColourPair {
    pub background_color: String,
    pub font_color: String,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl ColourPair {
    fn new(background: &str, font: &str) -> Self {
        ColourPair { background_color: background.to_owned(), font_color: font.to_owned(), extra: Extra::new() }
    }
}

/// Colours and logo of the search application.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Layout {
    pub basic_action_color: ColourPair,
    pub focus_action_color: ColourPair,
    pub critical_action_color: ColourPair,
    pub navbar: ColourPair,
    pub facets: ColourPair,
    pub documents: ColourPair,
    /// Empty, an http(s) URL or a `data:image/...` URI.
    pub logo: String,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            basic_action_color: ColourPair::new("#1565c0", "#ffffff"),
            focus_action_color: ColourPair::new("#f07d2e", "#ffffff"),
            critical_action_color: ColourPair::new("#ff0000", "#ffffff"),
            navbar: ColourPair::new("#00adee", "#ffffff"),
            facets: ColourPair::new("#fff", "#212121"),
            documents: ColourPair::new("#fff", "#212121"),
            logo: String::new(),
            extra: Extra::new(),
        }
    }
}

/// The document detail view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Details {
    pub details_to_show: Vec<DetailSetting>,
    pub show_similar: bool,
    pub show_similar_as_image: bool,
    pub show_recommendations: bool,
    /// Name of the recommender plugin.
    pub recommender: String,
    pub number_of_recommendations: i32,
    pub number_of_similar: i32,
    pub show_recommended_as_image: bool,
    pub show_concept_highlighting: bool,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for Details {
    fn default() -> Self {
        Details {
            details_to_show: Vec::new(),
            show_similar: false,
            show_similar_as_image: false,
            show_recommendations: false,
            recommender: String::new(),
            number_of_recommendations: 4,
            number_of_similar: 4,
            show_recommended_as_image: false,
            show_concept_highlighting: false,
            extra: Extra::new(),
        }
    }
}

/// One field shown in the detail view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct DetailSetting {
    pub uri: String,
    pub title: String,
    pub show: bool,
    /// Always equal to `uri`.
    pub ref_id: String,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for DetailSetting {
    fn default() -> Self {
        DetailSetting {
            uri: String::new(),
            title: String::new(),
            show: true,
            ref_id: String::new(),
            extra: Extra::new(),
        }
    }
}
