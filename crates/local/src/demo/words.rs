//! Names and sentence templates of the demo corpus, so that generated documents read like industry news.

pub(crate) const AUTHORS: &[&str] = &[
    "Ana Lima", "Ben Okafor", "Chloé Martin", "David Cohen", "Elena Petrova", "Farah Haddad", "Gustavo Rocha",
    "Hana Sato", "Ibrahim Diallo", "Julia Becker", "Kenji Watanabe", "Laura Gómez", "Marco Rossi", "Nadia Khan",
    "Oliver Brown", "Priya Nair", "Quentin Dubois", "Rosa Jiménez", "Samuel Mensah", "Tara Singh", "Umar Farouk",
    "Valeria Costa", "William Chen", "Ximena Ortiz", "Yusuf Demir", "Zoë Fischer", "Amara Eze", "Björn Larsen",
    "Camila Torres", "Daniel Park", "Emma Wilson", "Felix Wagner", "Grace Mwangi", "Hugo Lefèvre", "Isabel Silva",
    "Jonas Schmidt", "Kavya Rao", "Liam O'Connor", "Mei Lin", "Noah Müller", "Olivia Dupont", "Pedro Alves",
    "Rahul Mehta", "Sofia Romano", "Tomás Herrera", "Wanjiru Kamau",
];

pub(crate) const COMPANIES: &[&str] = &[
    "Northwind Energy", "Helios Power", "Bluewave Renewables", "Terragrid", "Voltaic Systems", "Quantix Labs",
    "Nimbus Cloud", "Arcadia Semiconductors", "Lumen Robotics", "Cobalt Bank", "Meridian Capital", "Atlas Insurance",
    "Vireo Pharma", "Caduceus Health", "Medisense", "Orbital Motors", "Skyline Airways", "Railway Partners",
    "Harbor Logistics", "Evergreen Foods", "Aquaterra", "Circulo Recycling", "Polaris Mining", "Stratus Telecom",
    "Kestrel Aerospace", "Summit Retail", "Nova Biotech", "Pioneer Steel", "Cascade Water", "Solstice Media",
    "Ironclad Security", "Zenith Chips", "Tidewater Shipping", "Greenfield Agritech", "Aurora Mobility",
    "Sterling Finance",
];

pub(crate) const CONTEXTS: &[&str] = &["News", "Analysis", "Interview", "Press release", "Report", "Opinion"];

/// Title templates: `{company}`, `{topic}` (lower case), `{place}`, `{n}`.
pub(crate) const TITLES: &[&str] = &[
    "{company} expands {topic} business in {place}",
    "{company} bets on {topic} as demand grows in {place}",
    "How {place} became a hub for {topic}",
    "{company} reports record quarter driven by {topic}",
    "Regulators in {place} take a closer look at {topic}",
    "{topic} investment in {place} rises {n} percent",
    "{company} and partners launch {topic} initiative",
    "Five things to know about {topic} in {place}",
    "{company} cuts costs as {topic} market cools",
    "Startups in {place} challenge incumbents in {topic}",
    "{company} names new head of {topic}",
    "Why {topic} matters for {place}'s economy",
    "{company} opens research centre for {topic} in {place}",
    "Analysts split on the outlook for {topic}",
];

/// Sentences of summaries and full texts, with the same placeholders plus `{author}` and `{other}` (a second topic).
pub(crate) const SENTENCES: &[&str] = &[
    "{company} said on Tuesday that it would invest {n} million euros in {topic} over the next three years.",
    "The move follows months of speculation about the company's plans in {place}.",
    "Analysts expect the market for {topic} to grow by {n} percent a year until the end of the decade.",
    "Local officials in {place} welcomed the announcement and promised faster permits.",
    "Critics warn that {topic} still faces high costs and a shortage of skilled workers.",
    "The company employs about {n} hundred people in the region.",
    "Competitors are expected to respond with their own offers in {other}.",
    "Shares of {company} rose {n} percent in early trading.",
    "The project is part of a wider push towards {other} across the sector.",
    "Experts interviewed for this article see {place} as a test case for the rest of the continent.",
    "A spokesperson declined to comment on the financial details of the agreement.",
    "Consumers in {place} are likely to notice the first effects within a year.",
    "The report highlights the link between {topic} and {other}.",
    "Several suppliers have already signed letters of intent, according to people familiar with the matter.",
    "Industry groups called the decision a turning point for {topic}.",
    "Earlier attempts to scale {topic} in {place} stalled because of financing problems.",
];
