//! An SVG chart of search latency (p50, and p95 dashed) against corpus size for the three engines, both
//! axes logarithmic, drawn from benchmark reports of several sizes: wall-clock time, or the CPU time of
//! the searching thread (which other work on a busy machine skews less). Drawn with plotters' SVG
//! backend; the legend sits in a column of its own to the right of the plot.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::BenchError;
use crate::report::BenchReport;
use crate::timing::KindStats;

const W: u32 = 720;
const H: u32 = 440;
/// Width of the legend's column.
const RIGHT: u32 = 170;
const TOP: i32 = 40;
const FONT: &str = "sans-serif";
/// Text sizes as plotters takes them: its SVG text is 1/1.24 of the size given, so these are 12 and
/// 15 pixels.
const TEXT: f64 = 12.0 * 1.24;
const TITLE: f64 = 15.0 * 1.24;

/// One line of the chart: an engine's latency at each corpus size.
struct Series {
    name: &'static str,
    colour: RGBColor,
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
    let pick = |k: &KindStats| match metric {
        Metric::Wall => (k.p50_ms, k.p95_ms),
        Metric::Cpu => (k.cpu_p50_ms, k.cpu_p95_ms),
    };
    let line = |name, colour| Series { name, colour, p50: vec![], p95: vec![] };
    let mut ours = line("Search Studio", RGBColor(0x1f, 0x6f, 0xeb));
    let mut tantivy = line("tantivy", RGBColor(0xd1, 0x24, 0x2f));
    let mut naive = line("naive SQLite", RGBColor(0x82, 0x50, 0xdf));
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

/// The powers of ten from the one at or below the smallest value to the one at or above the largest
/// (at least two), or 1 and 10 when there are no values.
fn decades(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if lo > hi { (1.0, 10.0) } else { (lo.max(1e-3), hi.max(1e-3)) };
    let first = lo.log10().floor() as i32;
    let last = (hi.log10().ceil() as i32).max(first + 1);
    (first..=last).map(|k| 10f64.powi(k)).collect()
}

/// The chart of `reports` (one per corpus size) as an SVG document.
pub fn svg(reports: &[BenchReport], metric: Metric) -> Result<String, BenchError> {
    let lines = series(reports, metric);
    let points = || lines.iter().flat_map(|s| s.p50.iter().chain(&s.p95));
    let xs = decades(points().map(|p| p.0));
    let ys = decades(points().map(|p| p.1));
    let (x0, x1) = (xs[0], xs[xs.len() - 1]);
    let (y0, y1) = (ys[0], ys[ys.len() - 1]);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (W, H)).into_drawing_area();
        root.fill(&WHITE)?;
        let what = if metric == Metric::Cpu { "CPU time" } else { "Latency" };
        let title = format!("{what} of a search (text, 3 selected facets, 10 facet groups, a page) by corpus size");
        root.draw(&Text::new(title, (70, 10), (FONT, TITLE)))?;
        let (plot, legend) = root.split_horizontally(W - RIGHT);
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(TOP)
            .margin_right(4)
            .x_label_area_size(42)
            .y_label_area_size(70)
            .build_cartesian_2d((x0..x1).log_scale().with_key_points(xs), (y0..y1).log_scale().with_key_points(ys))?;
        chart
            .configure_mesh()
            .bold_line_style(RGBColor(0xdd, 0xdd, 0xdd))
            .light_line_style(TRANSPARENT)
            .x_desc("documents")
            .y_desc("milliseconds (log)")
            .x_label_formatter(&|v| count_label(*v))
            .y_label_formatter(&|v| ms_label(*v))
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .draw()?;
        // A time below the axis (0 where the CPU time is unknown) sits on the axis.
        let on_chart = |points: &[(f64, f64)]| points.iter().map(|&(n, ms)| (n, ms.max(y0))).collect::<Vec<_>>();
        for line in &lines {
            let style = line.colour.stroke_width(2);
            chart.draw_series(LineSeries::new(on_chart(&line.p50), style))?;
            chart.draw_series(DashedLineSeries::new(on_chart(&line.p95), 5, 4, style))?;
            chart.draw_series(on_chart(&line.p50).into_iter().map(|p| Circle::new(p, 3, line.colour.filled())))?;
        }
        draw_legend(&legend, &lines)?;
        root.present()?;
    }
    Ok(out)
}

/// The legend: each engine's colour and name, then how to read the two lines.
fn draw_legend(area: &DrawingArea<SVGBackend<'_>, Shift>, lines: &[Series]) -> Result<(), BenchError> {
    let left = (FONT, TEXT).into_text_style(area).pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = TOP + 20;
    for line in lines {
        area.draw(&PathElement::new(vec![(12, y), (36, y)], line.colour.stroke_width(2)))?;
        area.draw(&Text::new(line.name, (42, y), left.clone()))?;
        y += 22;
    }
    area.draw(&Text::new("solid p50, dashed p95", (12, y), left.color(&RGBColor(0x55, 0x55, 0x55))))?;
    Ok(())
}

fn count_label(v: f64) -> String {
    match v {
        v if v >= 1e6 => format!("{}M", v / 1e6),
        v if v >= 1e3 => format!("{}k", v / 1e3),
        v => format!("{v}"),
    }
}

fn ms_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{v}")
    } else {
        format!("{v:.3}").trim_end_matches('0').to_owned()
    }
}
