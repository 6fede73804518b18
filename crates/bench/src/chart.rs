//! An SVG chart of search latency (p50, and p95 dashed) against corpus size for the three engines, both
//! axes logarithmic, drawn from benchmark reports of several sizes: wall-clock time, or the CPU time of
//! the searching thread (which other work on a busy machine skews less). Plain SVG text, no dependency.

use std::fmt::Write;

use super::report::BenchReport;

const W: f64 = 720.0;
const H: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;

/// One line of the chart: an engine's latency at each corpus size.
struct Series {
    name: &'static str,
    colour: &'static str,
    p50: Vec<(f64, f64)>,
    p95: Vec<(f64, f64)>,
}

/// Which time the chart shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Wall,
    Cpu,
}

fn series(reports: &[BenchReport], metric: Metric) -> Vec<Series> {
    let pick = |k: &super::report::KindStats| match metric {
        Metric::Wall => (k.p50_ms, k.p95_ms),
        Metric::Cpu => (k.cpu_p50_ms, k.cpu_p95_ms),
    };
    let mut ours = Series { name: "Search Studio", colour: "#1f6feb", p50: vec![], p95: vec![] };
    let mut tantivy = Series { name: "tantivy", colour: "#d1242f", p50: vec![], p95: vec![] };
    let mut naive = Series { name: "naive SQLite", colour: "#8250df", p50: vec![], p95: vec![] };
    for r in reports {
        let n = r.docs as f64;
        let (p50, p95) = r.kinds.first().map(pick).unwrap_or((r.search_p50_ms, r.search_p95_ms));
        ours.p50.push((n, p50));
        ours.p95.push((n, p95));
        for e in &r.engines {
            let s = match e.engine.as_str() {
                "tantivy" => &mut tantivy,
                "naive" => &mut naive,
                _ => continue,
            };
            let (p50, p95) = pick(&e.search);
            s.p50.push((n, p50));
            s.p95.push((n, p95));
        }
    }
    vec![ours, tantivy, naive].into_iter().filter(|s| !s.p50.is_empty()).collect()
}

/// Powers of ten covering `lo..=hi`.
fn decades(lo: f64, hi: f64) -> (f64, f64) {
    (10f64.powf(lo.max(1e-3).log10().floor()), 10f64.powf(hi.max(1e-3).log10().ceil()).max(10f64.powf(lo.max(1e-3).log10().floor()) * 10.0))
}

/// The chart of `reports` (one per corpus size) as an SVG document.
pub fn svg(reports: &[BenchReport], metric: Metric) -> String {
    let lines = series(reports, metric);
    let points = || lines.iter().flat_map(|s| s.p50.iter().chain(&s.p95));
    let (x0, x1) = decades(points().map(|p| p.0).fold(f64::MAX, f64::min), points().map(|p| p.0).fold(0.0, f64::max));
    let (y0, y1) = decades(points().map(|p| p.1).fold(f64::MAX, f64::min), points().map(|p| p.1).fold(0.0, f64::max));
    let x = |v: f64| LEFT + (v.log10() - x0.log10()) / (x1.log10() - x0.log10()) * (W - LEFT - RIGHT);
    let y = |v: f64| H - BOTTOM - (v.max(y0).log10() - y0.log10()) / (y1.log10() - y0.log10()) * (H - TOP - BOTTOM);
    let mut s = String::new();
    let _ = writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#);
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fff"/>"##);
    let what = if metric == Metric::Cpu { "CPU time" } else { "Latency" };
    let _ = writeln!(s, r#"<text x="{LEFT}" y="22" font-size="15">{what} of a search (text, 3 selected facets, 10 facet groups, a page) by corpus size</text>"#);
    let mut v = x0;
    while v <= x1 * 1.0001 {
        let _ = writeln!(s, r##"<line x1="{0:.1}" y1="{TOP}" x2="{0:.1}" y2="{1}" stroke="#ddd"/><text x="{0:.1}" y="{2}" text-anchor="middle">{3}</text>"##, x(v), H - BOTTOM, H - BOTTOM + 18.0, count_label(v));
        v *= 10.0;
    }
    let mut v = y0;
    while v <= y1 * 1.0001 {
        let _ = writeln!(s, r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1}" y2="{0:.1}" stroke="#ddd"/><text x="{2}" y="{3:.1}" text-anchor="end">{4}</text>"##, y(v), W - RIGHT, LEFT - 6.0, y(v) + 4.0, ms_label(v));
        v *= 10.0;
    }
    let _ = writeln!(s, r#"<text x="{:.1}" y="{}" text-anchor="middle">documents</text>"#, (LEFT + W - RIGHT) / 2.0, H - 18.0);
    let _ = writeln!(s, r#"<text x="18" y="{:.1}" transform="rotate(-90 18 {:.1})" text-anchor="middle">milliseconds (log)</text>"#, (TOP + H - BOTTOM) / 2.0, (TOP + H - BOTTOM) / 2.0);
    for (i, line) in lines.iter().enumerate() {
        for (points, dash) in [(&line.p50, ""), (&line.p95, r#" stroke-dasharray="5 4""#)] {
            let path: Vec<String> = points.iter().map(|&(n, ms)| format!("{:.1},{:.1}", x(n), y(ms))).collect();
            let _ = writeln!(s, r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#, path.join(" "), line.colour);
        }
        for &(n, ms) in &line.p50 {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{}"/>"#, x(n), y(ms), line.colour);
        }
        let ly = TOP + 20.0 + i as f64 * 22.0;
        let _ = writeln!(s, r#"<line x1="{0}" y1="{ly}" x2="{1}" y2="{ly}" stroke="{2}" stroke-width="2"/><text x="{3}" y="{4}">{5}</text>"#, W - RIGHT + 12.0, W - RIGHT + 36.0, line.colour, W - RIGHT + 42.0, ly + 4.0, line.name);
    }
    let ly = TOP + 20.0 + lines.len() as f64 * 22.0;
    let _ = writeln!(s, r##"<text x="{}" y="{ly}" fill="#555">solid p50, dashed p95</text>"##, W - RIGHT + 12.0);
    s.push_str("</svg>\n");
    s
}

fn count_label(v: f64) -> String {
    match v {
        v if v >= 1e6 => format!("{}M", v / 1e6),
        v if v >= 1e3 => format!("{}k", v / 1e3),
        v => format!("{v}"),
    }
}

fn ms_label(v: f64) -> String {
    if v >= 1.0 { format!("{v}") } else { format!("{v:.3}").trim_end_matches('0').to_owned() }
}
