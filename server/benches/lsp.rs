//! LSP-level benchmark: drives the release `strata serve` binary over stdio, as an editor
//! does, on `../shared/corpus` (or a directory given as the first argument).
//!
//! Measures, each as median and p99: the time from `initialized` to the end of background
//! indexing; the latency from a `didChange` on the largest file of the corpus's largest
//! module to the `publishDiagnostics` for that version, with the whole corpus in the
//! workspace and with that module alone; hover, outline and full semantic tokens right
//! after each edit (the first requests for the new version); the editing requests
//! (outline, folding ranges, references, workspace symbols, semantic tokens full, range
//! and delta, formatting, completion) with the whole corpus indexed; completion with the
//! AWS provider's schema (`lsp_phases/completion.rs`). Also the server's resident memory
//! once indexing is done. Run: `cargo bench --bench lsp [-- DIR]`.
//!
//! With `STRATA_BENCH_COPIES=N`, also workspace symbol queries and completion over a
//! workspace of N copies of the corpus (10 make about 30,000 files), made with the
//! corpus's `make-big.sh` (hard links, in a scratch directory removed afterwards).

#[path = "../../tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;
use support::Client;

mod common;
use common::{median_p99, rss_bytes};

#[path = "lsp_phases/completion.rs"]
mod completion;
#[path = "lsp_phases/plan_lenses.rs"]
mod plan_lenses;

const INDEX_RUNS: usize = 5;
const EDITS: usize = 200;

/// The module directory with the most bytes of `.tf`, and its largest file.
fn largest_module(root: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut sizes: std::collections::HashMap<PathBuf, u64> = Default::default();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tf") {
                *sizes.entry(d.clone()).or_default() += e.metadata().map_or(0, |m| m.len());
            }
        }
    }
    let (dir, _) = sizes.into_iter().max_by_key(|(_, n)| *n)?;
    let file = largest_tf_in(&dir)?;
    Some((dir, file))
}

fn largest_tf_in(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tf"))
        .max_by_key(|e| e.metadata().map_or(0, |m| m.len()))
        .map(|e| e.path())
}

fn index_once(root: &Path) -> (Client, f64) {
    let caps = json!({ "window": { "workDoneProgress": true } });
    let start = Instant::now();
    let (mut client, _) = Client::initialized(Some(root), caps);
    // Message by message: each progress report comes within the client's deadline, the
    // end of a large workspace's indexing need not.
    while client.wait_for(|m| m["method"] == "$/progress")["params"]["value"]["kind"] != "end" {}
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
    if plan_lenses::run(&root) {
        return;
    }

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

    let (module_dir, file) = largest_module(&root).expect("a module");
    edit_latency(
        "whole corpus, valid edits",
        &mut client,
        &file,
        Edit::CommentLine,
    );
    editor_requests(&mut client, &file);
    drop(client);
    // The same edits with only that module in the workspace.
    let (mut alone, _) = index_once(&module_dir);
    edit_latency(
        "module alone, valid edits",
        &mut alone,
        &file,
        Edit::CommentLine,
    );
    drop(alone);
    // Edits that break the file (and mend it): every one needs the full parse with
    // error recovery.
    let (mut breaking, _) = index_once(&module_dir);
    edit_latency(
        "module alone, breaking edits",
        &mut breaking,
        &file,
        Edit::BreakFirstLine,
    );
    drop(breaking);
    let aws = completion::Aws::new(&root);
    if let Some(aws) = &aws {
        let (mut client, took) = aws.start(&root);
        println!(
            "[whole corpus and the AWS module] index and first schema load: {:.0} ms",
            took * 1e3
        );
        aws.completion("whole corpus and the AWS module", &mut client);
    }
    if let Some(copies) = std::env::var("STRATA_BENCH_COPIES")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        big_workspace(&root, copies, aws.as_ref());
    }
}

/// Workspace symbol queries over `copies` copies of the corpus at `root`, and completion
/// with the AWS module beside them.
fn big_workspace(root: &Path, copies: usize, aws: Option<&completion::Aws>) {
    let big = std::env::temp_dir().join(format!("strata-bench-big-{}", std::process::id()));
    let made = std::process::Command::new(root.join("make-big.sh"))
        .arg(&big)
        .arg(copies.to_string())
        .env("CORPUS", root)
        .env("LINK", "1")
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED big workspace: make-big.sh failed");
        let _ = std::fs::remove_dir_all(&big);
        return;
    }
    let (mut client, took) = match aws {
        Some(aws) => aws.start(&big),
        None => index_once(&big),
    };
    let rss = rss_bytes(&client.pid().to_string()) as f64 / 1e6;
    let files = count_files(&big);
    println!(
        "[{copies} copies, {files} files] index: {:.0} ms, server RSS {rss:.0} MB",
        took * 1e3
    );
    let start = Instant::now();
    client.request("workspace/symbol", json!({ "query": "vpc" }));
    println!(
        "[{copies} copies, {files} files] first workspace/symbol (reads every file's declarations): {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let label = format!("{copies} copies, {files} files");
    measure(
        &label,
        "workspace/symbol",
        &mut client,
        "workspace/symbol",
        &|i| json!({ "query": QUERIES[i % QUERIES.len()] }),
    );
    if let Some(aws) = aws {
        aws.completion(&label, &mut client);
    }
    drop(client);
    let _ = std::fs::remove_dir_all(&big);
}

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                count_files(&p)
            } else {
                1
            }
        })
        .sum()
}

/// What each benchmarked edit does, alternately applied and undone.
#[derive(Clone, Copy)]
enum Edit {
    /// Add a comment line at the top, then remove it: the file stays valid, as most
    /// keystrokes leave it.
    CommentLine,
    /// Put `#` before the first line, commenting out a block's header, then remove it.
    BreakFirstLine,
}

/// Edits `file` 200 times, measuring edit→publishDiagnostics and the hover, outline and
/// full semantic tokens right after it.
fn edit_latency(label: &str, client: &mut Client, file: &Path, edit: Edit) {
    let text = std::fs::read_to_string(file).expect("read");
    let u = client.open(file, &text, 0);
    client.diagnostics_for(&u, |p| p["version"] == 0);
    let mut edit_latency = Vec::new();
    let mut hover_latency = Vec::new();
    let mut outline_latency = Vec::new();
    let mut tokens_latency = Vec::new();
    let document = json!({ "textDocument": { "uri": u } });
    for version in 1..=EDITS as i32 {
        let (range, insert) = match (edit, version % 2 == 1) {
            (Edit::CommentLine, true) => (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                "# edit\n",
            ),
            (Edit::CommentLine, false) => (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}),
                "",
            ),
            (Edit::BreakFirstLine, true) => (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
                "#",
            ),
            (Edit::BreakFirstLine, false) => (
                json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}),
                "",
            ),
        };
        let start = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": u, "version": version },
                    "contentChanges": [{ "range": range, "text": insert }] }),
        );
        client.diagnostics_for(&u, |p| p["version"] == version);
        edit_latency.push(start.elapsed().as_secs_f64());

        let at = json!({ "textDocument": { "uri": u }, "position": { "line": 2, "character": 4 } });
        hover_latency.push(timed(client, "textDocument/hover", at).0);
        outline_latency.push(timed(client, "textDocument/documentSymbol", document.clone()).0);
        tokens_latency.push(timed(client, "textDocument/semanticTokens/full", document.clone()).0);
    }
    let (em, ep) = median_p99(edit_latency);
    println!(
        "[{label}] edit -> diagnostics on {} ({} bytes), {EDITS} edits: median {:.2} ms, p99 {:.2} ms",
        file.display(),
        text.len(),
        em * 1e3,
        ep * 1e3
    );
    let after = [
        ("hover", hover_latency),
        ("documentSymbol", outline_latency),
        ("semanticTokens/full", tokens_latency),
    ];
    for (name, latency) in after {
        report(&format!("[{label}] {name} right after each edit"), latency);
    }
}

/// Sends a request; the seconds until the last byte of its answer was read, the seconds
/// until the client had parsed it too, and its result.
fn timed(
    client: &mut Client,
    method: &str,
    params: serde_json::Value,
) -> (Timing, serde_json::Value) {
    let start = Instant::now();
    let result = client.request(method, params);
    let parsed = start.elapsed().as_secs_f64();
    let answered = client.arrived.map_or(parsed, |at| {
        at.saturating_duration_since(start).as_secs_f64()
    });
    ((answered, parsed), result)
}

/// A request's latency: to the last byte of its answer (the server's work and the
/// transport), and to the client's parsed value (the client's JSON parse added).
type Timing = (f64, f64);

/// Prints the median and p99 of `latency`, answered and parsed.
fn report(what: &str, latency: Vec<Timing>) {
    let n = latency.len();
    let (answered, parsed): (Vec<f64>, Vec<f64>) = latency.into_iter().unzip();
    let (am, ap) = median_p99(answered);
    let (pm, pp) = median_p99(parsed);
    println!(
        "{what}, {n} requests: median {:.2} ms, p99 {:.2} ms (answer read; parsed by the client: median {:.2} ms, p99 {:.2} ms)",
        am * 1e3,
        ap * 1e3,
        pm * 1e3,
        pp * 1e3
    );
}

/// The parameters of the `i`th request of a kind.
type Params<'a> = Box<dyn Fn(usize) -> serde_json::Value + 'a>;

/// The workspace symbol queries, in turn.
const QUERIES: [&str; 6] = ["vpc", "var.name", "aws_s3", "subnetid", "module.", "x"];

/// `EDITS` requests of `method`, the `i`th with `params(i)`: median and p99 latency.
fn measure(
    label: &str,
    name: &str,
    client: &mut Client,
    method: &str,
    params: &dyn Fn(usize) -> serde_json::Value,
) {
    let mut latency = Vec::new();
    for i in 0..EDITS {
        // Diagnostics still being published pile up unread: the client must not search
        // them for each answer.
        client.backlog.clear();
        latency.push(timed(client, method, params(i)).0);
    }
    report(&format!("[{label}] {name}"), latency);
}

/// Outline, folding ranges, references, full semantic tokens, formatting and completion
/// (after `var.`, in a resource body) on `file`
/// (open, the whole corpus indexed), and workspace symbol queries over the whole
/// workspace, each `EDITS` times.
fn editor_requests(client: &mut Client, file: &Path) {
    let text = std::fs::read_to_string(file).expect("read");
    let u = support::uri(file);
    let document = json!({ "textDocument": { "uri": u } });
    // The first reference to a variable, else the file's start.
    let at = text.find("var.").map_or(0, |i| i + 4);
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    let references = json!({
        "textDocument": { "uri": u },
        "position": { "line": line, "character": character },
        "context": { "includeDeclaration": true }
    });
    let position = json!({ "line": line, "character": character });
    let after_var = json!({ "textDocument": { "uri": u }, "position": position });
    // The start of the line after the first resource header: its arguments and blocks,
    // from the provider schema when one is loaded.
    let body = text
        .find("resource \"")
        .and_then(|r| text[r..].find("{\n").map(|b| r + b))
        .map_or(0, |b| text[..b].matches('\n').count() + 1);
    let in_body = json!({
        "textDocument": { "uri": u },
        "position": { "line": body, "character": 2 }
    });
    let formatting = json!({
        "textDocument": { "uri": u },
        "options": { "tabSize": 2, "insertSpaces": true }
    });
    // The first hundred lines, as an editor asks for what it shows.
    let shown = json!({
        "textDocument": { "uri": u },
        "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 100, "character": 0 } }
    });
    let requests: [(&str, &str, Params); 9] = [
        (
            "documentSymbol",
            "textDocument/documentSymbol",
            Box::new(|_| document.clone()),
        ),
        (
            "foldingRange",
            "textDocument/foldingRange",
            Box::new(|_| document.clone()),
        ),
        (
            "references",
            "textDocument/references",
            Box::new(|_| references.clone()),
        ),
        (
            "semanticTokens/full",
            "textDocument/semanticTokens/full",
            Box::new(|_| document.clone()),
        ),
        (
            "semanticTokens/range (100 lines)",
            "textDocument/semanticTokens/range",
            Box::new(|_| shown.clone()),
        ),
        (
            "formatting",
            "textDocument/formatting",
            Box::new(|_| formatting.clone()),
        ),
        (
            "completion after var.",
            "textDocument/completion",
            Box::new(|_| after_var.clone()),
        ),
        (
            "completion in a resource body",
            "textDocument/completion",
            Box::new(|_| in_body.clone()),
        ),
        (
            "workspace/symbol",
            "workspace/symbol",
            Box::new(|i| json!({ "query": QUERIES[i % QUERIES.len()] })),
        ),
    ];
    let label = format!("whole corpus; {} ({} bytes)", file.display(), text.len());
    for (name, method, params) in requests {
        measure(&label, name, client, method, &params);
    }
    // Again, now that the background work after indexing (provider schemas, the
    // diagnostics published again with them) is likely done.
    let again = |_| document.clone();
    measure(
        &label,
        "documentSymbol, again",
        client,
        "textDocument/documentSymbol",
        &again,
    );
    semantic_tokens_delta(&label, client, &u);
}

/// `semanticTokens/full/delta` requests, each from the result the one before it gave.
fn semantic_tokens_delta(label: &str, client: &mut Client, u: &str) {
    let document = json!({ "textDocument": { "uri": u } });
    let full = client.request("textDocument/semanticTokens/full", document);
    let mut previous = full["resultId"].clone();
    let mut latency = Vec::new();
    for _ in 0..EDITS {
        client.backlog.clear();
        let params = json!({ "textDocument": { "uri": u }, "previousResultId": previous });
        let (timing, delta) = timed(client, "textDocument/semanticTokens/full/delta", params);
        latency.push(timing);
        previous = delta["resultId"].clone();
    }
    report(&format!("[{label}] semanticTokens/full/delta"), latency);
}
