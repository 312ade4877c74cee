//! Criterion benchmark: parsing and formatting real configuration files (the largest of
//! `../shared/corpus`, or the project's fixtures where the corpus is absent).

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use strata::ide::format::format;
use strata::syntax::{parse, Syntax};

fn sample_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("../../shared/corpus");
    let mut files: Vec<PathBuf> = Vec::new();
    let base = if corpus.is_dir() {
        corpus
    } else {
        eprintln!("../shared/corpus not found: benchmarking fixtures/ only");
        root.join("../fixtures")
    };
    collect(&base, &mut files);
    let mut with_text: Vec<(String, String)> = files
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            Some((p.file_name()?.to_string_lossy().into_owned(), text))
        })
        .collect();
    with_text.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    with_text.truncate(3);
    with_text
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "tf") {
            out.push(p);
        }
    }
}

fn bench_parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    for (name, text) in sample_files() {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("native", &name), &text, |b, text| {
            b.iter(|| parse(text, Syntax::Native, None))
        });
        // `terraform fmt`'s edits (issue 15's bar: 20 ms for the largest file), the file
        // mangled so that every line needs some.
        let unindented: String = text
            .split_inclusive('\n')
            .map(|line| line.trim_start_matches(' '))
            .collect();
        group.bench_with_input(BenchmarkId::new("format", &name), &unindented, |b, text| {
            b.iter(|| format(text))
        });
        // The recovery path: the same file with one block left unclosed near the top.
        let broken = text.replacen('}', "", 1);
        group.bench_with_input(BenchmarkId::new("recovering", &name), &broken, |b, text| {
            b.iter(|| parse(text, Syntax::Native, None))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
