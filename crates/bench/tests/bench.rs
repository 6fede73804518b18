//! A run on a small corpus produces a complete report, with the naive SQLite approach's and tantivy's
//! answers checked equal to ours before they are timed (timings are not asserted: speed belongs to
//! benchmarks, not tests); the chart shows every engine; the corpus has the shape the method describes.

use studio_bench::chart::{self, Metric};
use studio_bench::clock::{ensure_quiet, Clock};
use studio_bench::corpus::{SynthCorpus, FIELDS};
use studio_bench::preview::{self, PreviewOptions};
use studio_bench::tantivy_engine::TantivyEngine;
use studio_bench::{make_searchable, run, BenchOptions, Comparator, Phases};
use studio_model::Backend;

/// The benchmark checks that no background work of a store or an engine runs in its process when a clock starts
/// or stops, so its tests run one at a time: another test's threads would be seen as such work.
fn alone() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn a_run_reports_the_headline_keys_after_the_three_engines_agree() {
    let _alone = alone();
    let dir = tempfile::tempdir().unwrap();
    let mut options = BenchOptions::new(400);
    options.runs = 12;
    let mut tantivy = TantivyEngine::default();
    let report = run(dir.path(), &options, &mut [&mut tantivy as &mut dyn Comparator]).unwrap();
    assert_eq!(report.docs, 400);
    assert!(report.import_docs_per_s > 0.0 && report.open_ready_s > 0.0 && report.rss_mb > 0.0);
    assert!(report.search_p95_ms >= report.search_p50_ms);
    assert!(report.config_save_p50_ms > 0.0 && report.config_save_p95_ms >= report.config_save_p50_ms);
    let kinds: Vec<&str> = report.kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "search",
            "facets only",
            "similar (concepts)",
            "similar (text)",
            "recommend",
            "search, no selection",
            "search, same words again"
        ]
    );
    let engines: Vec<&str> = report.engines.iter().map(|e| e.engine.as_str()).collect();
    assert_eq!(engines, ["naive", "tantivy"], "both engines ran after agreeing with ours");
    assert!(report.engines.iter().all(|e| e.search.runs == 12 && e.facets_only.runs == 12));
    assert_eq!(report.queries_per_kind, 12, "twelve distinct queries of each kind");
    assert!(report.kinds.iter().all(|k| k.runs == 12 && k.p99_ms >= k.p95_ms && k.p95_ms >= k.p50_ms));
    assert!(report.naive_search_p50_ms.is_some() && report.search_vs_tantivy.is_some());

    // Each side's clock is the sum of its phases, which name every step to searchable at full speed.
    let names = |p: &Phases| p.0.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let ours = &report.import_phases_ms;
    assert_eq!(names(ours), ["import", "index", "background", "sync"]);
    assert!(ours.0.iter().all(|(_, ms)| *ms >= 0.0));
    assert!((ours.total_ms() / 1000.0 - report.import_seconds).abs() < 1e-9, "{ours:?}");
    assert!((report.import_docs_per_s - 400.0 / report.import_seconds).abs() < 1e-6);
    assert_eq!(report.index_build_ms, ours.get("index").unwrap());
    let tantivy = &report.engines[1];
    assert_eq!(names(&tantivy.build_phases_ms), ["add_documents", "commit", "merge", "reader"]);
    assert!((tantivy.build_phases_ms.total_ms() / 1000.0 - tantivy.build_s).abs() < 1e-9);
    assert_eq!(report.tantivy_phases_ms.as_ref(), Some(&tantivy.build_phases_ms));
    let ratio = report.import_vs_tantivy.unwrap();
    assert!((ratio - report.import_docs_per_s / (400.0 / tantivy.build_s)).abs() < 1e-9, "a ratio of rates: {ratio}");

    // Search at equal threads: ours and tantivy's on one thread, and each on two.
    assert_eq!(report.kinds_one_thread.len(), 2);
    assert!(report.search_one_thread_p95_ms > 0.0 && report.facets_only_one_thread_p95_ms > 0.0);
    assert_eq!(report.tantivy_search_p95_ms, Some(tantivy.search.p95_ms));
    let two = tantivy.search_two_threads.as_ref().expect("tantivy timed on two threads");
    assert_eq!((two.runs, report.tantivy_two_thread_search_p95_ms), (12, Some(two.p95_ms)));
    assert!(report.engines[0].search_two_threads.is_none(), "the naive approach searches on one thread");
    let vs = report.search_vs_tantivy.unwrap();
    assert!((vs - report.search_one_thread_p95_ms / tantivy.search.p95_ms).abs() < 1e-9, "{vs}");
    let vs_two = report.search_vs_tantivy_two_threads.unwrap();
    assert!((vs_two - report.search_p95_ms / two.p95_ms).abs() < 1e-9, "{vs_two}");

    assert_eq!(report.search_no_selection_p95_ms, report.kinds[5].p95_ms);
    assert_eq!(report.text_similar_p95_ms, report.kinds[3].p95_ms);
    assert_eq!(report.search_again_p95_ms, report.kinds[6].p95_ms);

    // The pull and an import of the same documents, both to searchable, divided.
    let pulled = report.pull_phases_ms.as_ref().unwrap();
    let imported = report.pull_import_phases_ms.as_ref().unwrap();
    assert_eq!(names(pulled), ["pull", "index", "background", "sync"]);
    assert_eq!(names(imported), ["import", "index", "background", "sync"]);
    let pull_rate = report.pull_docs_per_s.unwrap();
    assert!((pull_rate - 400_000.0 / pulled.total_ms()).abs() < 1e-6);
    let same_rate = report.pull_import_docs_per_s.unwrap();
    assert!((same_rate - 400_000.0 / imported.total_ms()).abs() < 1e-6);
    let ratio = report.pull_vs_import.unwrap();
    assert!((ratio - pull_rate / same_rate).abs() < 1e-9, "a ratio of rates: {ratio}");
    let json = serde_json::to_value(&report).unwrap();
    for key in ["import_phases_ms", "tantivy_phases_ms"] {
        let phases = json[key].as_object().unwrap_or_else(|| panic!("{key} is an object: {json}"));
        assert!(phases.values().all(|ms| ms.as_f64().is_some()), "{key}: phase → milliseconds");
    }
    let back: studio_bench::BenchReport = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.import_phases_ms, report.import_phases_ms, "the phases read back in their order");
    for key in [
        "docs",
        "import_docs_per_s",
        "search_p50_ms",
        "search_p95_ms",
        "facets_only_p95_ms",
        "similar_p95_ms",
        "recommend_p95_ms",
        "open_ready_s",
        "rss_mb",
        "config_save_p50_ms",
        "config_save_p95_ms",
        "config_save_unsynced_p50_ms",
        "tantivy_search_p50_ms",
        "naive_search_p50_ms",
        "search_vs_tantivy",
        "search_no_selection_p95_ms",
        "text_similar_p95_ms",
        "search_again_p95_ms",
        "import_vs_tantivy",
        "pull_docs_per_s",
        "pull_vs_import",
        "queries_per_kind",
        "search_p99_ms",
        "search_one_thread_p95_ms",
        "tantivy_search_p95_ms",
        "tantivy_two_thread_search_p95_ms",
    ] {
        assert!(json.get(key).is_some(), "{key} missing from {json}");
    }
    let text = report.to_string();
    assert!(
        text.contains("documents/s")
            && text.contains("pull ")
            && text.contains("naive: search")
            && text.contains("tantivy: build"),
        "{text}"
    );

    let mut larger = report.clone();
    larger.docs = 4_000;
    for metric in [Metric::Wall, Metric::Cpu] {
        let svg = chart::svg(&[report.clone(), larger.clone()], metric).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
        for label in ["Search Studio", "tantivy", "naive SQLite", "documents", "milliseconds (log)", "1k"] {
            assert!(svg.contains(label), "{label} missing from {svg}");
        }
        assert!(svg.contains("polyline"), "the lines are drawn: {svg}");
    }
}

#[test]
fn the_naive_engine_alone_without_tantivy() {
    let _alone = alone();
    let dir = tempfile::tempdir().unwrap();
    let mut options = BenchOptions::new(200);
    options.runs = 6;
    options.pull = false;
    let report = run(dir.path(), &options, &mut []).unwrap();
    assert_eq!(report.docs, 200);
    assert!(report.pull_docs_per_s.is_none() && report.pull_vs_import.is_none(), "the pull left out");
    assert_eq!(report.engines.len(), 1);
    assert!(report.naive_search_p50_ms.is_some() && report.search_vs_tantivy.is_none());
    let svg = chart::svg(&[report], Metric::Wall).unwrap();
    assert!(svg.contains("naive SQLite") && !svg.contains(">tantivy<"), "{svg}");
}

#[test]
fn the_synthetic_corpus_has_the_shape_of_annotated_content() {
    let _alone = alone();
    let corpus = SynthCorpus::new(8);
    assert!(corpus.topics.len() + corpus.places.len() >= 5_000);
    assert_eq!(corpus.topics.iter().map(|c| c.path.len()).max(), Some(3), "three levels");
    let docs: Vec<_> = (0..2_000).map(|i| corpus.doc(i)).collect();
    assert_eq!(corpus.doc(17).title, docs[17].title, "a pure function of the seed and the number");
    assert_eq!(SynthCorpus::new(8).doc(17).content, docs[17].content, "the same for a new corpus of the seed");
    assert_ne!(SynthCorpus::new(9).doc(17).content, docs[17].content, "another seed, other documents");
    let authors: std::collections::HashSet<&str> =
        docs.iter().flat_map(|d| d.literals.iter().filter(|(f, _)| *f == 2).map(|(_, v)| v.as_str())).collect();
    assert!(authors.len() > 500, "many distinct authors: {}", authors.len());
    let line = docs[0].to_json(&corpus);
    let fields: Vec<&str> =
        line["facetList"].as_array().unwrap().iter().map(|g| g["field"].as_str().unwrap()).collect();
    assert_eq!(fields, FIELDS);
    // Zipf with exponent 1: the most frequent word occurs about a hundred times as often as the hundredth.
    let count = |w: &str| docs.iter().flat_map(|d| d.content.split(' ')).filter(|t| *t == w).count();
    let (first, hundredth) = (count(&corpus.words[0]), count(&corpus.words[99]).max(1));
    assert!((50..200).contains(&(first / hundredth)), "{first} against {hundredth}");
}

/// The memory reading of `studio-bench --desktop` (a module of the program, so included by its path), run on
/// this test's own process tree.
#[path = "../src/desktop/memory.rs"]
mod desktop_memory;

#[test]
fn the_memory_of_a_process_tree_counts_the_process_and_its_children() {
    let _alone = alone();
    let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    let me = std::process::id();
    let tree = desktop_memory::tree_memory(me);
    let _ = child.kill();
    let _ = child.wait();
    let tree = tree.unwrap();
    assert_eq!(tree[0].pid, me, "the process itself comes first");
    let sleeper = tree.iter().find(|p| p.pid == child.id()).expect("its child is part of the tree");
    assert_eq!(sleeper.name, "sleep");
    assert!(sleeper.pss_kb > 0 && tree[0].pss_kb > sleeper.pss_kb, "{tree:?}");
    assert!(desktop_memory::tree_memory(u32::MAX).is_err(), "no such process");
}

/// The store of a benchmark run of `docs` documents (`runs` timed runs, without the naive engine and the pull),
/// kept in a temporary directory as `--dir` keeps it.
fn kept_store(docs: usize, runs: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut options = BenchOptions::new(docs);
    options.runs = runs;
    options.naive = false;
    options.pull = false;
    run(dir.path(), &options, &mut []).unwrap();
    dir
}

/// `studio-bench --preview` over a kept store: the built web UI in headless Chromium times settings edits in both
/// states of the preview (needs ui/dist, the UI's packages and Chromium, as the UI's end-to-end tests do).
#[test]
fn the_preview_figures_come_from_edits_in_the_web_ui_over_a_kept_store() {
    let _alone = alone();
    let dir = kept_store(600, 3);
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui");
    let report = preview::run(dir.path(), &PreviewOptions { ui: ui.clone(), edits: 2 }).unwrap();
    assert_eq!((report.docs, report.edits), (600, 2));
    assert!(!report.query.is_empty());
    assert!(
        report.preview_edit_shown_p50_ms > 0.0 && report.preview_edit_shown_p95_ms >= report.preview_edit_shown_p50_ms
    );
    assert!(report.preview_edit_query_shown_p50_ms > 0.0);
    let json = serde_json::to_value(&report).unwrap();
    assert!(json.get("preview_edit_shown_p95_ms").is_some(), "{json}");
    assert!(report.to_string().contains("settings edit"), "{report}");

    let empty = tempfile::tempdir().unwrap();
    let refused = preview::run(empty.path(), &PreviewOptions { ui: "/nonexistent".into(), edits: 1 }).unwrap_err();
    assert!(refused.to_string().contains("web UI is not built"), "{refused}");

    // A store too small for an edit that shows eleven results is refused before any browser starts.
    let small = kept_store(8, 2);
    for _ in 0..2 {
        let refused = preview::run(small.path(), &PreviewOptions { ui: ui.clone(), edits: 1 }).unwrap_err();
        assert!(refused.to_string().contains("too small for --preview"), "{refused}");
        assert!(refused.to_string().contains("has 8 results, and each timed edit shows 11"), "{refused}");
    }
    // Served twice, the store still holds one benchmark configuration.
    let store = studio_local::Store::open_dir(small.path()).unwrap();
    let list = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(studio_local::LocalBackend::new(store).list_configurations())
        .unwrap();
    let benchmark = list.configurations.iter().filter(|c| c.config.title == "Benchmark").count();
    assert_eq!(benchmark, 1, "one benchmark configuration however often the store is served");
}

/// `studio-bench --kept` times every kind of call of our engine over a kept store without importing it again,
/// and refuses a directory without a store or a store of another size than the one named.
#[test]
fn kept_stores_are_timed_without_a_new_import() {
    let _alone = alone();
    let dir = kept_store(300, 2);
    let documents = dir.path().join(studio_local::DOCUMENTS_FILE);
    let size = std::fs::metadata(&documents).unwrap().len();
    let kinds = studio_bench::run_kept(dir.path(), 300, 4).unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(names.len(), 7, "{names:?}");
    assert!(names.contains(&"search, no selection") && names.contains(&"similar (text)"), "{names:?}");
    assert!(kinds.iter().all(|k| k.runs == 4 && k.p95_ms >= k.p50_ms && k.p50_ms > 0.0), "{kinds:?}");
    assert_eq!(std::fs::metadata(&documents).unwrap().len(), size, "nothing was imported again");

    let wrong = studio_bench::run_kept(dir.path(), 1000, 1).unwrap_err();
    assert!(wrong.to_string().contains("holds 300 documents of the benchmark's search space, not the 1000"), "{wrong}");
    let empty = tempfile::tempdir().unwrap();
    let none = studio_bench::run_kept(empty.path(), 300, 1).unwrap_err();
    assert!(none.to_string().contains("holds no documents of the benchmark's search space"), "{none}");
    assert!(!empty.path().join(studio_local::DOCUMENTS_FILE).exists(), "no store was made where there was none");
}

/// A clock does not start while a store's background work runs, nor stop while work it started is left
/// running: such work would overlap the next timed phase, or be work moved off the clock.
#[test]
fn no_background_work_overlaps_a_timed_phase() {
    let _alone = alone();
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, running) = std::sync::mpsc::channel::<()>();
    let upkeep = std::thread::Builder::new()
        .name(studio_local::threads::UPKEEP.into())
        .spawn(move || {
            let _ = started.send(());
            let _ = wait.recv();
        })
        .unwrap();
    running.recv().unwrap();
    let refused = Clock::start("a build").expect_err("the store's upkeep is running");
    assert!(refused.to_string().contains("before a build: store upkeep"), "{refused}");

    // Work started within the clock and still running at its end is refused too.
    drop(release);
    upkeep.join().unwrap();
    let mut clock = Clock::start("a build").unwrap();
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let packing = clock
        .phase("index", || {
            // The thread takes its name as it starts: the phase ends once it runs under it.
            let (started, running) = std::sync::mpsc::channel::<()>();
            let thread = std::thread::Builder::new()
                .name(studio_local::threads::PACKING.into())
                .spawn(move || {
                    let _ = started.send(());
                    let _ = wait.recv();
                })
                .unwrap();
            running.recv().unwrap();
            Ok(thread)
        })
        .unwrap();
    let refused = clock.stop().expect_err("the packing thread is left running");
    assert!(refused.to_string().contains("after a build: packing"), "{refused}");
    drop(release);
    packing.join().unwrap();
    ensure_quiet("at the end", false).unwrap();
}

/// The import's clock ends with the store as every fast search needs it: the engine's index built, its full-text
/// index merged into one segment, its files synced; and nothing of the store left running.
#[test]
fn the_import_is_timed_to_searchable_at_full_speed() {
    let _alone = alone();
    let dir = tempfile::tempdir().unwrap();
    let store = studio_local::Store::open_dir(dir.path()).unwrap();
    let corpus = SynthCorpus::new(8);
    let mut lines = Vec::new();
    for i in 0..300 {
        lines.extend(serde_json::to_vec(&corpus.doc(i).to_json(&corpus)).unwrap());
        lines.push(b'\n');
    }
    // Three imports leave several segments of the full-text index.
    for part in lines.split_inclusive(|b| *b == b'\n').collect::<Vec<_>>().chunks(100) {
        studio_local::import_documents(&store, "bench", part.concat().as_slice(), &mut |_| {}).unwrap();
    }
    let segments = || studio_text::Reader::new(store.text_dir()).snapshot().unwrap().segments();
    assert!(segments() > 1, "several segments before");
    let engine = studio_local::SearchEngine::new();
    let mut clock = Clock::start("the import").unwrap();
    make_searchable(&mut clock, &store, &engine, "bench").unwrap();
    assert_eq!(segments(), 1, "merged on the clock");
    let phases = clock.stop().unwrap();
    assert_eq!(phases.0.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["index", "background", "sync"]);
}

#[test]
fn the_text_build_times_both_sides_to_one_segment_on_disk() {
    let _alone = alone();
    let dir = tempfile::tempdir().unwrap();
    let report = studio_bench::text_build::run(dir.path(), 300, 8).unwrap();
    assert_eq!(report.docs, 300);
    let names = |p: &Phases| p.0.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&report.fts5_phases_ms), ["insert", "optimize", "commit"]);
    assert_eq!(names(&report.text_one_thread_phases_ms), ["build", "write", "add", "merge"]);
    assert_eq!(names(&report.text_two_threads_phases_ms), ["build", "add", "merge"]);
    assert_eq!(report.text_segments_written, [1, 2], "two builders write a segment each");
    for side in ["text-one-thread", "text-two-threads"] {
        let segments = std::fs::read_dir(dir.path().join(side))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("segment-"))
            .count();
        assert_eq!(segments, 1, "{side} is merged into one segment");
        let index = studio_text::TextIndex::open(&dir.path().join(side)).unwrap();
        assert_eq!(index.snapshot().statistics().rows, 300);
        index.verify().unwrap();
    }
    let conn = rusqlite::Connection::open(dir.path().join("fts5.db")).unwrap();
    let rows: i64 = conn.query_row("SELECT count(*) FROM documents_fts_docsize", [], |r| r.get(0)).unwrap();
    assert_eq!(rows, 300);
    assert!(report.text_one_thread_vs_fts5 > 0.0 && report.fts5_file_mb > 0.0 && report.text_index_mb > 0.0);
}
