//! The demo's data as pure functions of their seed: the search space's documents and their JSON Lines, the concept
//! scheme's lines and the configuration over them. Nothing here writes to a store ([`super::load`] does).

use std::io::Write;

use serde_json::{json, Value};
use studio_model::Document;

use super::corpus;
use super::scheme::demo_concepts;

/// The demo search space id.
pub const DEMO_SPACE: &str = "demo";
/// Documents in the demo search space.
pub const DEMO_DOCUMENTS: usize = 2_400;
/// Seed of the demo corpus.
pub const DEMO_SEED: u64 = 20_190_101;

/// `n` documents of the demo's shape in search space `demo`, fully determined by `seed`. Each carries its
/// full text in `extra["content"]`, so that serialising it gives an import line (docs/api.md, Import formats).
pub fn generate_documents(n: usize, seed: u64) -> impl Iterator<Item = Document> {
    let mut rng = corpus::Rng::new(seed);
    (0..n).map(move |i| corpus::document(&mut rng, i, DEMO_SPACE))
}

/// Writes `n` generated documents as JSON Lines.
pub fn write_documents(mut out: impl Write, n: usize, seed: u64) -> std::io::Result<()> {
    for doc in generate_documents(n, seed) {
        serde_json::to_writer(&mut out, &doc)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes the demo concept scheme as JSON Lines for `import_concepts`.
pub fn write_concepts(mut out: impl Write) -> std::io::Result<()> {
    for c in demo_concepts() {
        serde_json::to_writer(&mut out, &corpus::concept_line(&c))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn facet(uri: &str, title: &str, mode: &str, sorting: &str, order: &str, maximum: i32) -> Value {
    json!({
        "uri": uri, "title": title, "show": true, "facetMode": mode, "hierarchicalDepth": 3,
        "maximumTerms": maximum, "sorting": sorting, "sortingOrder": order, "showAllButton": false,
        "searchable": true, "refId": uri
    })
}

fn detail(uri: &str, title: &str) -> Value {
    json!({ "uri": uri, "title": title, "show": true, "refId": uri })
}

/// A configuration envelope (for the create operation) of a news search over the demo search space, with
/// hierarchical topic and region facets, author, company and context facets, and the detail view set up
/// with similar documents and recommendations.
pub fn demo_configuration() -> Value {
    json!({
        "id": null, "user": "anonymous", "created": null,
        "config": {
            "title": "Industry news (demo)",
            "searchSpace": DEMO_SPACE,
            "visible": true,
            "result": {
                "itemsPerPage": 10, "showResultCount": true, "summaryLength": 240, "showTags": true,
                "numberOfTags": 6, "titleAction": "detail_view", "dateFormat": "mediumDate",
                "showSimilarDocuments": true, "numberOfSimilarDocuments": 5, "showDynamicSentiment": true,
                "showResultAsImage": false
            },
            "filter": {
                "facetsToShow": [
                    facet("dyn_uri_topic", "Topic", "hierarchical", "count", "desc", 10),
                    facet("dyn_uri_region", "Region", "hierarchical", "count", "desc", 10),
                    facet("dyn_lit_author", "Author", "flat", "count", "desc", 10),
                    facet("dyn_lit_companyname", "Company", "flat", "count", "desc", 10),
                    facet("dyn_lit_context", "Type of article", "flat", "alphabetical", "asc", 10)
                ],
                "hideEmptyFacets": true,
                "componentOrder": ["search", "facets", "reset"]
            },
            "layout": {
                "basicActionColor": { "backgroundColor": "#1565c0", "fontColor": "#ffffff" },
                "focusActionColor": { "backgroundColor": "#c75000", "fontColor": "#ffffff" },
                "criticalActionColor": { "backgroundColor": "#c62828", "fontColor": "#ffffff" },
                "navbar": { "backgroundColor": "#0d47a1", "fontColor": "#ffffff" },
                "facets": { "backgroundColor": "#f5f7fa", "fontColor": "#212121" },
                "documents": { "backgroundColor": "#ffffff", "fontColor": "#212121" },
                "logo": LOGO
            },
            "details": {
                "detailsToShow": [
                    detail("dyn_lit_author", "Author"),
                    detail("dyn_lit_companyname", "Company"),
                    detail("dyn_uri_topic", "Topic"),
                    detail("dyn_uri_region", "Region"),
                    detail("dyn_flt_sentiment", "Sentiment")
                ],
                "showSimilar": true, "showSimilarAsImage": false, "showRecommendations": true,
                "recommender": "related-concepts", "numberOfRecommendations": 4, "numberOfSimilar": 4,
                "showRecommendedAsImage": false, "showConceptHighlighting": false
            }
        }
    })
}

/// The demo logo: a small SVG as a data URI.
const LOGO: &str = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='160'%20height='40'%3E%3Ccircle%20cx='20'%20cy='20'%20r='14'%20fill='%23f07d2e'/%3E%3Ctext%20x='42'%20y='27'%20font-family='sans-serif'%20font-size='18'%20fill='%23ffffff'%3EIndustry%20News%3C/text%3E%3C/svg%3E";
