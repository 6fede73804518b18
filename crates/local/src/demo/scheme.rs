//! The demo concept scheme: topics and regions, three levels each (176 concepts), as static data.

/// Base of the demo concept URIs.
pub const CONCEPT_BASE: &str = "https://demo.searchstudio.dev/concept/";

/// A three-level tree: (top concept, [(second level, [third level])]).
pub(crate) type Tree = &'static [(&'static str, &'static [(&'static str, &'static [&'static str])])];

/// The topic facet's tree.
pub(crate) const TOPICS: Tree = &[
    (
        "Energy",
        &[
            ("Renewables", &["Solar power", "Wind power", "Hydropower", "Geothermal energy"]),
            ("Fossil fuels", &["Oil", "Natural gas", "Coal", "Refining"]),
            ("Grid and storage", &["Batteries", "Transmission lines", "Smart grids", "Hydrogen"]),
            ("Energy policy", &["Carbon pricing", "Subsidies", "Emissions targets", "Energy security"]),
        ],
    ),
    (
        "Technology",
        &[
            ("Artificial intelligence", &["Machine learning", "Language models", "Computer vision", "Robotics"]),
            ("Semiconductors", &["Chip design", "Foundries", "Memory chips", "Chip supply chain"]),
            ("Cloud and software", &["Cloud computing", "Cybersecurity", "Open source", "Data centres"]),
            ("Consumer technology", &["Smartphones", "Wearables", "Video games", "Streaming"]),
        ],
    ),
    (
        "Finance",
        &[
            ("Markets", &["Equities", "Bonds", "Commodities", "Currencies"]),
            ("Banking", &["Retail banking", "Investment banking", "Fintech", "Bank regulation"]),
            ("Corporate", &["Mergers", "Public offerings", "Earnings", "Layoffs"]),
            ("Economy", &["Inflation", "Interest rates", "Employment", "Trade"]),
        ],
    ),
    (
        "Health",
        &[
            ("Medicine", &["Oncology", "Cardiology", "Vaccines", "Rare diseases"]),
            ("Pharmaceuticals", &["Drug approvals", "Clinical trials", "Generic drugs", "Drug pricing"]),
            ("Public health", &["Pandemics", "Nutrition", "Mental health", "Ageing"]),
            ("Health technology", &["Telemedicine", "Medical devices", "Digital records", "Diagnostics"]),
        ],
    ),
    (
        "Mobility",
        &[
            ("Automotive", &["Electric vehicles", "Autonomous driving", "Car sales", "Charging networks"]),
            ("Aviation", &["Airlines", "Aircraft makers", "Airports", "Sustainable aviation fuel"]),
            ("Rail and transit", &["High-speed rail", "Urban transit", "Freight rail", "Ticketing"]),
            ("Logistics", &["Shipping", "Ports", "Warehousing", "Last-mile delivery"]),
        ],
    ),
    (
        "Environment",
        &[
            ("Climate", &["Heatwaves", "Floods", "Droughts", "Climate science"]),
            ("Nature", &["Biodiversity", "Forests", "Oceans", "Agriculture"]),
            ("Circular economy", &["Recycling", "Plastics", "Packaging", "Repair"]),
            ("Water", &["Water supply", "Wastewater", "Desalination", "Irrigation"]),
        ],
    ),
];

/// (continent, [(country, [cities])]) of the region facet.
pub(crate) const REGIONS: Tree = &[
    (
        "Europe",
        &[("Germany", &["Berlin", "Munich"]), ("France", &["Paris", "Lyon"]), ("Spain", &["Madrid", "Barcelona"])],
    ),
    (
        "North America",
        &[
            ("United States", &["New York", "San Francisco"]),
            ("Canada", &["Toronto", "Vancouver"]),
            ("Mexico", &["Mexico City", "Monterrey"]),
        ],
    ),
    (
        "Asia",
        &[("Japan", &["Tokyo", "Osaka"]), ("India", &["Mumbai", "Bengaluru"]), ("China", &["Shanghai", "Shenzhen"])],
    ),
    (
        "Africa",
        &[
            ("Nigeria", &["Lagos", "Abuja"]),
            ("Kenya", &["Nairobi", "Mombasa"]),
            ("South Africa", &["Johannesburg", "Cape Town"]),
        ],
    ),
    (
        "South America",
        &[
            ("Brazil", &["São Paulo", "Rio de Janeiro"]),
            ("Chile", &["Santiago", "Valparaíso"]),
            ("Colombia", &["Bogotá", "Medellín"]),
        ],
    ),
];

/// One concept of the demo scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoConcept {
    pub uri: String,
    pub label: String,
    /// Empty for a top concept.
    pub broader: Vec<String>,
    /// 1 (top), 2 or 3.
    pub level: u8,
}

/// The URI of a demo concept: `<base><scheme>/<slug of label>`.
pub fn concept_uri(scheme: &str, label: &str) -> String {
    let slug: String = label
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'ã' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            c if c.is_ascii_alphanumeric() => c,
            _ => '-',
        })
        .collect();
    format!("{CONCEPT_BASE}{scheme}/{slug}")
}

/// Every concept of a three-level tree, parents before children.
pub(crate) fn flatten(scheme: &str, tree: Tree) -> Vec<DemoConcept> {
    let mut out = Vec::new();
    for (top, seconds) in tree {
        let top_uri = concept_uri(scheme, top);
        out.push(DemoConcept { uri: top_uri.clone(), label: (*top).to_owned(), broader: Vec::new(), level: 1 });
        for (second, thirds) in seconds.iter() {
            let second_uri = concept_uri(scheme, second);
            out.push(DemoConcept {
                uri: second_uri.clone(),
                label: (*second).to_owned(),
                broader: vec![top_uri.clone()],
                level: 2,
            });
            for third in thirds.iter() {
                out.push(DemoConcept {
                    uri: concept_uri(scheme, third),
                    label: (*third).to_owned(),
                    broader: vec![second_uri.clone()],
                    level: 3,
                });
            }
        }
    }
    out
}

/// The whole demo concept scheme: topics, then regions.
pub fn demo_concepts() -> Vec<DemoConcept> {
    let mut all = flatten("topic", TOPICS);
    all.extend(flatten("region", REGIONS));
    all
}
