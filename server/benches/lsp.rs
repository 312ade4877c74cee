//! LSP-level benchmark: drives the release `strata serve` binary over stdio, as an editor
//! does, on `../shared/corpus` (or a directory given as the first argument).
//!
//! Measures, each as median and p99: the time from `initialized` to the end of background
//! indexing; the latency from a `didChange` on the corpus's largest file to the
//! `publishDiagnostics` for that version; and hover latency. Also the server's resident
//! memory once indexing is done. Run: `cargo bench --bench lsp [-- DIR]`.

#[path = "../../tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;
use support::Client;

mod common;
use common::{median_p99, rss_bytes};

const INDEX_RUNS: usize = 5;
const EDITS: usize = 200;

fn largest_tf(dir: &Path) -> Option<PathBuf> {
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tf") {
                let len = e.metadata().map_or(0, |m| m.len());
                if best.as_ref().is_none_or(|(l, _)| len > *l) {
                    best = Some((len, p));
                }
            }
        }
    }
    best.map(|(_, p)| p)
}

fn index_once(root: &Path) -> (Client, f64) {
    let caps = json!({ "window": { "workDoneProgress": true } });
    let start = Instant::now();
    let (mut client, _) = Client::initialized(Some(root), caps);
    client.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    let took = start.elapsed().as_secs_f64();
    client.backlog.clear();
    (client, took)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let root = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    if !root.is_dir() {
        eprintln!("SKIPPED lsp benchmark: {} not found", root.display());
        return;
    }
    let root = root.canonicalize().expect("corpus path");

    let mut index_times = Vec::new();
    for _ in 0..INDEX_RUNS - 1 {
        index_times.push(index_once(&root).1);
    }
    let (mut client, took) = index_once(&root);
    index_times.push(took);
    let rss = rss_bytes(&client.pid().to_string()) as f64 / 1e6;
    let (median, p99) = median_p99(index_times);
    println!(
        "index {} over stdio: median {:.0} ms, p99 {:.0} ms ({INDEX_RUNS} runs); server RSS after indexing {rss:.0} MB",
        root.display(),
        median * 1e3,
        p99 * 1e3
    );

    let file = largest_tf(&root).expect("a .tf file");
    let text = std::fs::read_to_string(&file).expect("read");
    let u = client.open(&file, &text, 0);
    client.diagnostics_for(&u, |p| p["version"] == 0);
    let mut edit_latency = Vec::new();
    let mut hover_latency = Vec::new();
    for version in 1..=EDITS as i32 {
        // Type one character at the top, then delete it: the file stays valid.
        let (range, insert) = if version % 2 == 1 {
            (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                "#",
            )
        } else {
            (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}),
                "",
            )
        };
        let start = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": u, "version": version },
                    "contentChanges": [{ "range": range, "text": insert }] }),
        );
        client.diagnostics_for(&u, |p| p["version"] == version);
        edit_latency.push(start.elapsed().as_secs_f64());

        let start = Instant::now();
        client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": u }, "position": { "line": 2, "character": 4 } }),
        );
        hover_latency.push(start.elapsed().as_secs_f64());
    }
    let (em, ep) = median_p99(edit_latency);
    let (hm, hp) = median_p99(hover_latency);
    println!(
        "edit -> diagnostics on {} ({} bytes), {EDITS} edits: median {:.2} ms, p99 {:.2} ms",
        file.display(),
        text.len(),
        em * 1e3,
        ep * 1e3
    );
    println!(
        "hover, {EDITS} requests: median {:.2} ms, p99 {:.2} ms",
        hm * 1e3,
        hp * 1e3
    );
}
