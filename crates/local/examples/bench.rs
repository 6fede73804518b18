//! Runs the engine benchmark without the CLI: `cargo run --release -p studio-local --example bench -- 50000`.

fn main() {
    let docs = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let dir = std::env::temp_dir().join(format!("studio-bench-{}", std::process::id()));
    let result = studio_local::bench::run_bench(&dir, docs);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(report) => print!("{report}"),
        Err(e) => {
            eprintln!("bench failed: {e}");
            std::process::exit(1);
        }
    }
}
