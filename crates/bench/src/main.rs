//! `studio-bench`: the side-by-side benchmark of issue 8 — our engine, tantivy and a naive SQLite
//! approach on the same seeded corpus and query mix — and the SVG chart of latency against corpus size.
//! `studio bench` runs this binary when it is installed next to it.

mod tantivy_engine;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use studio_local::bench::{self, chart, BenchOptions, BenchReport, Comparator};
use tantivy_engine::TantivyEngine;

const USAGE: &str = "usage: studio-bench [--docs N]... [--json] [--dir DIR] [--runs N] [--no-naive] [--no-tantivy]
                    [--save FILE.jsonl] [--from FILE.jsonl]... [--chart FILE.svg]

Runs the benchmark of docs/performance.md for each --docs size (default 100000) and prints the figures
(--json: one JSON object per size, the last line being the last size). --save appends each report to a
JSON Lines file; --chart draws FILE.svg (wall clock) and FILE-cpu.svg (CPU time) from this run's reports
and those read with --from.";

#[derive(Default)]
struct Args {
    docs: Vec<usize>,
    json: bool,
    dir: Option<PathBuf>,
    runs: Option<usize>,
    naive: bool,
    tantivy: bool,
    save: Option<PathBuf>,
    from: Vec<PathBuf>,
    chart: Option<PathBuf>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args { naive: true, tantivy: true, ..Default::default() };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--docs" => a.docs.push(value("--docs")?.replace('_', "").parse().map_err(|_| "--docs needs a number".to_owned())?),
            "--runs" => a.runs = Some(value("--runs")?.parse().map_err(|_| "--runs needs a number".to_owned())?),
            "--json" => a.json = true,
            "--no-naive" => a.naive = false,
            "--no-tantivy" => a.tantivy = false,
            "--dir" => a.dir = Some(value("--dir")?.into()),
            "--save" => a.save = Some(value("--save")?.into()),
            "--from" => a.from.push(value("--from")?.into()),
            "--chart" => a.chart = Some(value("--chart")?.into()),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.docs.is_empty() && a.from.is_empty() {
        a.docs.push(100_000);
    }
    Ok(a)
}

fn run_one(args: &Args, docs: usize) -> Result<BenchReport, String> {
    let (dir, scratch) = match &args.dir {
        Some(d) => (d.join(format!("docs-{docs}")), false),
        None => (std::env::temp_dir().join(format!("studio-bench-{}-{docs}", std::process::id())), true),
    };
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    let mut options = BenchOptions::new(docs);
    options.naive = args.naive;
    if let Some(runs) = args.runs {
        options.runs = runs.max(1);
    }
    let mut tantivy = TantivyEngine::default();
    let mut extra: Vec<&mut dyn Comparator> = Vec::new();
    if args.tantivy {
        extra.push(&mut tantivy);
    }
    let result = bench::run(&dir, &options, &mut extra);
    if scratch {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result.map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("studio-bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut reports: Vec<BenchReport> = Vec::new();
    for file in &args.from {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("studio-bench: cannot read {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str(line) {
                Ok(r) => reports.push(r),
                Err(e) => {
                    eprintln!("studio-bench: {} is not a file of reports: {e}", file.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    for &docs in &args.docs {
        let report = match run_one(&args, docs) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("studio-bench: {e}");
                return ExitCode::FAILURE;
            }
        };
        let line = serde_json::to_string(&report).unwrap_or_default();
        if let Some(save) = &args.save {
            let written = std::fs::OpenOptions::new().create(true).append(true).open(save).and_then(|mut f| writeln!(f, "{line}"));
            if let Err(e) = written {
                eprintln!("studio-bench: cannot write {}: {e}", save.display());
                return ExitCode::FAILURE;
            }
        }
        if args.json {
            println!("{line}");
        } else {
            print!("{report}");
        }
        reports.push(report);
    }
    if let Some(path) = &args.chart {
        reports.sort_by_key(|r| r.docs);
        let cpu_path = path.with_file_name(format!(
            "{}-cpu.svg",
            path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
        ));
        for (file, metric) in [(path.clone(), chart::Metric::Wall), (cpu_path, chart::Metric::Cpu)] {
            if let Err(e) = std::fs::write(&file, chart::svg(&reports, metric)) {
                eprintln!("studio-bench: cannot write {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
