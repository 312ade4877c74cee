//! Workspace-index benchmark over `../shared/corpus` (or a directory given as the first
//! argument): discover + read + parse + classify every module, end to end, as the
//! language server's background indexer and `strata check` do.
//!
//! Reports the median and p99 of the wall-clock time over the runs, the throughput at
//! the median in MB/s of source, and resident memory growth after one full index as a
//! multiple of the source bytes. Run: `cargo bench --bench index [-- DIR [RUNS]]`.

use std::path::PathBuf;
use std::time::Instant;

use strata::workspace::{discover_modules, Workspace};

mod common;
use common::{median_p99, rss_bytes};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let dir = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(20);
    if !dir.is_dir() {
        eprintln!("SKIPPED index benchmark: {} not found", dir.display());
        return;
    }

    // Memory: one index in a fresh workspace, measured while it is alive.
    let before = rss_bytes("self");
    let ws = Workspace::new();
    let dirs = discover_modules(&dir);
    ws.index_dirs(&dirs, &|_| {});
    let after = rss_bytes("self");
    let source: usize = ws.modules().iter().map(|m| m.source_bytes()).sum();
    let files: usize = ws.modules().iter().map(|m| m.sources.len()).sum();
    drop(ws);

    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let ws = Workspace::new();
        let dirs = discover_modules(&dir);
        ws.index_dirs(&dirs, &|_| {});
        times.push(start.elapsed().as_secs_f64());
        drop(ws);
    }
    let (median, p99) = median_p99(times);
    let mb = source as f64 / 1e6;
    println!(
        "index {}: {} modules, {} files, {:.2} MB of source",
        dir.display(),
        dirs.len(),
        files,
        mb
    );
    println!(
        "time over {runs} runs: median {:.1} ms, p99 {:.1} ms; throughput at median {:.1} MB/s",
        median * 1e3,
        p99 * 1e3,
        mb / median
    );
    println!(
        "resident memory: {:.1} MB before, {:.1} MB after indexing: growth {:.1} MB = {:.1}x source",
        before as f64 / 1e6,
        after as f64 / 1e6,
        (after.saturating_sub(before)) as f64 / 1e6,
        after.saturating_sub(before) as f64 / source.max(1) as f64
    );
}
