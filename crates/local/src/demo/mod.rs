//! The bundled demo: a deterministic search space `demo` of industry news (titles, summaries, full texts,
//! dates over six years, authors, companies, sentiment, some pictures), a three-level concept scheme of
//! topics and regions, and one configuration using it, so that a first launch shows a convincing search
//! application. The generator also makes test corpora of any size.
//!
//! The generators are pure functions of their seed: they never read the clock or the environment. Only
//! the loaders ([`load_demo`], [`load_demo_data`]) write, into the store they are given.

mod corpus;
mod data;
mod load;
mod scheme;
mod words;

pub use data::{
    demo_configuration, generate_documents, write_concepts, write_documents, DEMO_DOCUMENTS, DEMO_SEED, DEMO_SPACE,
};
pub use load::{load_demo, load_demo_data, DemoConfiguration, DemoDataReport, DemoError, DemoReport};
pub use scheme::{concept_uri, demo_concepts, DemoConcept, CONCEPT_BASE};
