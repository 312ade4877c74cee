//! Criterion benchmark: the editing features' own work (outline, folding ranges, semantic
//! tokens, formatting, references, callers), without the LSP transport, on the largest
//! file of the corpus's largest module with the whole corpus indexed, as the language
//! server holds it. A median here is stable on a loaded machine where the LSP benchmark's
//! wall-clock latencies are not. Run: `cargo bench --bench editing`.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use strata::ide::references::{occurrences, target_at};
use strata::ide::semantic_tokens::semantic_tokens;
use strata::ide::{folding, format, outline, FileInModule};
use strata::workspace::{discover_modules, Workspace};

/// The corpus, with the largest `.tf` file of its largest module (by bytes of `.tf`).
fn corpus() -> Option<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut best: Option<(u64, PathBuf)> = None;
    for dir in discover_modules(&root) {
        let files: Vec<(u64, PathBuf)> = std::fs::read_dir(&dir)
            .ok()?
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "tf"))
            .map(|e| (e.metadata().map_or(0, |m| m.len()), e.path()))
            .collect();
        let total: u64 = files.iter().map(|(n, _)| n).sum();
        if best.as_ref().is_none_or(|(b, _)| total > *b) {
            best = files.into_iter().max().map(|(_, p)| (total, p));
        }
    }
    Some((root, best?.1))
}

fn editing(c: &mut Criterion) {
    let Some((root, path)) = corpus() else {
        eprintln!("SKIPPED editing benchmark: ../shared/corpus not found");
        return;
    };
    let ws = Workspace::new();
    ws.index_dirs(&discover_modules(&root), &|_| {});
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    ws.open_document(&path, &text, 1);
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let Some(opened) = FileInModule::of(&ws, &path) else {
        return;
    };
    let file = opened.file.clone();
    let schemas = ws.provider_schemas_for(&dir);
    let at = text.find("var.").map_or(0, |i| i + 4);

    eprintln!("editing {} ({} bytes)", path.display(), text.len());
    let mut group = c.benchmark_group("editing");
    group.sample_size(30);
    group.bench_function("outline", |b| {
        b.iter(|| outline::outline(&file, opened.merged()))
    });
    group.bench_function("folding ranges", |b| {
        b.iter(|| folding::folding_ranges(&file.text, &file.syntax))
    });
    group.bench_function("semantic tokens", |b| {
        b.iter(|| semantic_tokens(&file, opened.merged(), &*schemas))
    });
    group.bench_function("format", |b| b.iter(|| format::format(&text)));
    // As the server formats an open document whose parse it holds without errors.
    group.bench_function("format (parse known)", |b| {
        b.iter(|| format::format_checked(&text, format::SyntaxCheck::Passed))
    });
    group.bench_function("references", |b| {
        b.iter(|| {
            target_at(&ws, &path, at).map(|located| occurrences(&ws, &located.dir, &located.target))
        })
    });
    group.bench_function("callers", |b| b.iter(|| ws.callers_of(&dir)));
    group.finish();
}

criterion_group!(benches, editing);
criterion_main!(benches);
