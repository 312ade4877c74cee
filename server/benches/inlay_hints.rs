//! Inlay hints of a large file without the LSP around them (issue 16): the corpus's
//! largest module (`Azure__terraform-azurerm-aks`, or a module directory given as the
//! first argument) copied with the LSP bench's `terraform.tfvars` and an empty state, as
//! `lsp_phases/plan_lenses.rs` copies it. Each round edits the file holding a resource
//! (a comment line added, then removed), merges and plans the module as the code lens
//! does first, then times the hints of the module's largest file: `ide::inlay_hints`
//! and the kept plan the LSP adds planned actions from.
//!
//! A driver for instruction counts too: with `STRATA_HINTS_RUNS=1`, for `valgrind
//! --tool=callgrind --collect-atstart=no --toggle-collect='*inlay_hints*hints*'`.
//! Run: `cargo bench --bench inlay_hints [-- DIR]`.

use std::path::PathBuf;
use std::time::Instant;

use strata::ide::inlay_hints::{hints, Kinds};
use strata::plan::{PlanOptions, VariableInputs};
use strata::syntax::Span;
use strata::workspace::Workspace;

mod common;
use common::median_p99;
use common::plan_module::{files, BENCH_VARIABLES, EMPTY_STATE};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let source = args.first().map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/corpus/Azure__terraform-azurerm-aks")
    });
    if !source.is_dir() {
        eprintln!(
            "SKIPPED inlay hints benchmark: {} not found",
            source.display()
        );
        return;
    }
    let runs: usize = std::env::var("STRATA_HINTS_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200)
        .max(1);
    let copy = std::env::temp_dir().join(format!("strata-bench-hints-{}", std::process::id()));
    std::fs::create_dir_all(&copy).expect("scratch directory");
    for entry in std::fs::read_dir(&source).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".tf") {
            std::fs::copy(entry.path(), copy.join(&name)).expect("copy");
        }
    }
    std::fs::write(copy.join("terraform.tfstate"), EMPTY_STATE).expect("state");
    std::fs::write(copy.join("terraform.tfvars"), BENCH_VARIABLES).expect("tfvars");
    let (edited, largest) = files(&copy).expect("a resource block");
    let ws = Workspace::new();
    ws.index_dirs(std::slice::from_ref(&copy), &|_| {});
    let text = std::fs::read_to_string(&edited).expect("read");
    let largest_text = std::fs::read_to_string(&largest).expect("read");
    let range = Span::new(0, largest_text.len());
    let state = copy.join("terraform.tfstate");
    let options = PlanOptions {
        inputs: VariableInputs {
            env: VariableInputs::from_environment(),
            ..VariableInputs::default()
        },
        ..PlanOptions::default()
    };
    ws.open_document(&edited, &text, 0);
    let mut ide = Vec::new();
    let mut kept = Vec::new();
    let mut count = 0;
    for version in 1..=runs as i32 {
        let current = match version % 2 {
            1 => format!("# edit\n{text}"),
            _ => text.clone(),
        };
        ws.open_document(&edited, &current, version);
        // What the code lens asked first: the merged module and its plan.
        let plan = ws.planned(&copy, &state, &options).expect("a plan");
        assert!(plan.errors.is_empty(), "the plan has errors");
        let start = Instant::now();
        let found = hints(&ws, &largest, range, Kinds::default());
        ide.push(start.elapsed().as_secs_f64());
        count = found.len();
        std::hint::black_box(found);
        let start = Instant::now();
        std::hint::black_box(ws.planned(&copy, &state, &options).expect("a plan"));
        kept.push(start.elapsed().as_secs_f64());
    }
    let label = format!(
        "{} ({} bytes), {count} hints",
        largest
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        largest_text.len()
    );
    for (what, times) in [("ide::inlay_hints", ide), ("kept plan", kept)] {
        let (median, p99) = median_p99(times);
        println!(
            "[{label}] {what}, {runs} edits: median {:.3} ms, p99 {:.3} ms",
            median * 1e3,
            p99 * 1e3
        );
    }
    drop(ws);
    let _ = std::fs::remove_dir_all(&copy);
}
