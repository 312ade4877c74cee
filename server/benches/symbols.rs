//! Workspace symbol queries without the LSP around them (issue 15): `N` copies of
//! `../shared/corpus` (or a directory given as the first argument) made with the corpus's
//! `make-big.sh` (hard links, in a scratch directory removed afterwards; 10 copies make
//! the bench's 30,040 files), indexed, then `ide::workspace_symbols` asked the LSP
//! bench's queries in turn, as the server asks it (at most 256 answers, UTF-16).
//!
//! A driver for instruction counts as much as for time: with `STRATA_SYMBOLS_RUNS=1`
//! each query runs once, for `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*workspace_symbols*'`. Environment: `STRATA_BENCH_COPIES` (default
//! 10), `STRATA_SYMBOLS_RUNS` (rounds of the queries, default 50).
//! Run: `cargo bench --bench symbols [-- DIR]`.

use std::path::PathBuf;
use std::time::Instant;

use strata::ide::workspace_symbols::{workspace_symbols, Index};
use strata::text::PositionEncoding;
use strata::workspace::{discover_modules, Workspace};

mod common;
use common::median_p99;

/// The LSP bench's queries (`lsp.rs`), in the same turn.
const QUERIES: [&str; 6] = ["vpc", "var.name", "aws_s3", "subnetid", "module.", "x"];

/// The LSP server's limit (`lsp/workspace_symbols.rs`).
const LIMIT: usize = 256;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let corpus = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    let make_big = corpus.join("make-big.sh");
    if !make_big.is_file() {
        eprintln!(
            "SKIPPED symbols benchmark: {} not found",
            make_big.display()
        );
        return;
    }
    let copies = env_number("STRATA_BENCH_COPIES", 10);
    let runs = env_number("STRATA_SYMBOLS_RUNS", 50).max(1);
    let big = std::env::temp_dir().join(format!("strata-bench-symbols-{}", std::process::id()));
    let made = std::process::Command::new(&make_big)
        .arg(&big)
        .arg(copies.to_string())
        .env("CORPUS", &corpus)
        .env("LINK", "1")
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED symbols benchmark: make-big.sh failed");
        let _ = std::fs::remove_dir_all(&big);
        return;
    }
    let ws = Workspace::new();
    let start = Instant::now();
    ws.index_dirs(&discover_modules(&big), &|_| {});
    let files: usize = ws.modules().iter().map(|m| m.sources.len()).sum();
    println!(
        "[{copies} copies, {files} files] index: {:.0} ms",
        start.elapsed().as_secs_f64() * 1e3
    );

    let index = Index::default();
    let start = Instant::now();
    let first = workspace_symbols(&index, &ws, QUERIES[0], LIMIT, PositionEncoding::Utf16);
    println!(
        "first query (reads every file's declarations): {:.2} ms, {} answers",
        start.elapsed().as_secs_f64() * 1e3,
        first.len()
    );
    let mut all = Vec::new();
    let mut by_query = vec![Vec::new(); QUERIES.len()];
    for _ in 0..runs {
        for (q, query) in QUERIES.iter().enumerate() {
            let start = Instant::now();
            let found = workspace_symbols(&index, &ws, query, LIMIT, PositionEncoding::Utf16);
            let took = start.elapsed().as_secs_f64();
            std::hint::black_box(found);
            all.push(took);
            by_query[q].push(took);
        }
    }
    for (query, times) in QUERIES.iter().zip(by_query) {
        let (median, p99) = median_p99(times);
        println!(
            "{query:>10}: median {:.2} ms, p99 {:.2} ms ({runs} runs)",
            median * 1e3,
            p99 * 1e3
        );
    }
    let (median, p99) = median_p99(all);
    println!(
        "all queries in turn: median {:.2} ms, p99 {:.2} ms",
        median * 1e3,
        p99 * 1e3
    );
    drop(ws);
    let _ = std::fs::remove_dir_all(&big);
}
