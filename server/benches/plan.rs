//! Criterion benchmark of the planner (issue 5): a generated module of N resource blocks
//! (every fourth with `count = 2`, every fourth with a two-key `for_each`, the rest
//! single), 5% of them renamed by `moved` blocks, planned against a prior state of N
//! instances in which a tenth of the inputs differ. N from 250 to 4,000 shows whether the
//! time grows linearly (below about 1,000 everything fits in the CPU caches, which makes
//! the smallest sizes faster per instance). The configuration is parsed and merged once, outside the
//! measurement; the state is parsed once too.
//!
//! `workspace plan` is issue 14's figure at 1,000 blocks, as the editor plans: the
//! configuration checked first, then planned (`Workspace::plan_module`), and the kept
//! plan the lenses, inlay hints and code actions share while nothing changed
//! (`Workspace::planned`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::json;
use strata::merge::MergedModule;
use strata::plan::{parse_state, plan, Configuration, PlanOptions, State};
use strata::workspace::Workspace;

/// Writes the module and its prior state (`terraform.tfstate`), and returns the state.
fn generate(dir: &Path, n: usize) -> State {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = String::from("locals {\n  prefix = \"bench\"\n}\n\n");
    let mut resources = Vec::new();
    let mut instances_in_state = 0;
    let instance = |key: Option<serde_json::Value>, input: String| {
        let mut i = json!({
            "schema_version": 0,
            "attributes": {
                "id": format!("id-{input}"),
                "input": {"value": input, "type": "string"},
                "output": {"value": input, "type": "string"},
                "triggers_replace": null
            }
        });
        if let Some(k) = key {
            i["index_key"] = k;
        }
        i
    };
    for r in 0..n {
        let name = format!("r{r}");
        let moved = r % 20 == 7;
        let (meta, keys): (&str, Vec<Option<serde_json::Value>>) = match r % 4 {
            0 => ("  count = 2\n", vec![Some(json!(0)), Some(json!(1))]),
            1 => (
                "  for_each = toset([\"a\", \"b\"])\n",
                vec![Some(json!("a")), Some(json!("b"))],
            ),
            _ => ("", vec![None]),
        };
        let key_expr = match r % 4 {
            0 => "-${count.index}",
            1 => "-${each.key}",
            _ => "",
        };
        text.push_str(&format!(
            "resource \"terraform_data\" \"{name}\" {{\n{meta}  input = \"${{local.prefix}}-{r}{key_expr}\"\n}}\n\n"
        ));
        if moved {
            text.push_str(&format!(
                "moved {{\n  from = terraform_data.old{r}\n  to   = terraform_data.{name}\n}}\n\n"
            ));
        }
        let mut objects = Vec::new();
        for key in keys {
            if instances_in_state >= n {
                break;
            }
            let suffix = match &key {
                Some(serde_json::Value::Number(i)) => format!("-{i}"),
                Some(serde_json::Value::String(s)) => format!("-{s}"),
                _ => String::new(),
            };
            let changed = if r % 10 == 3 { "-old" } else { "" };
            objects.push(instance(key, format!("bench-{r}{suffix}{changed}")));
            instances_in_state += 1;
        }
        if !objects.is_empty() {
            let state_name = if moved { format!("old{r}") } else { name };
            resources.push(json!({
                "mode": "managed", "type": "terraform_data", "name": state_name,
                "provider": "provider[\"terraform.io/builtin/terraform\"]",
                "instances": objects
            }));
        }
    }
    std::fs::write(dir.join("main.tf"), text).unwrap();
    let state = json!({"version": 4, "serial": 1, "lineage": "bench", "resources": resources});
    std::fs::write(dir.join("terraform.tfstate"), state.to_string()).unwrap();
    parse_state(&state.to_string(), "bench.tfstate").unwrap()
}

fn bench_plan(c: &mut Criterion) {
    let mut group = c.benchmark_group("plan");
    for n in [250, 500, 1000, 2000, 4000] {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("strata-bench-plan-{n}-{}", std::process::id()));
        let state = generate(&dir, n);
        let ws = Workspace::new();
        let module = ws.index_dir(&dir);
        let merged: Arc<MergedModule> = ws.merged_of(&module);
        let none = |_: &Path, _: &str| None;
        let config = Configuration {
            root_dir: dir.clone(),
            root: merged,
            child: &none,
            schemas: &strata::schema::NoProviderSchemas,
        };
        let options = PlanOptions::default();
        let planned = plan(&config, &state, &options);
        assert!(planned.errors.is_empty(), "{:?}", planned.errors);
        group.bench_with_input(
            BenchmarkId::new("resources, state instances", n),
            &n,
            |b, _| b.iter(|| plan(&config, &state, &options)),
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    group.finish();
}

fn bench_workspace_plan(c: &mut Criterion) {
    let mut group = c.benchmark_group("workspace plan");
    let n = 1000;
    let dir: PathBuf =
        std::env::temp_dir().join(format!("strata-bench-ws-plan-{n}-{}", std::process::id()));
    generate(&dir, n);
    let ws = Workspace::new();
    ws.index_dir(&dir);
    let state = dir.join("terraform.tfstate");
    let options = PlanOptions::default();
    let planned = ws.plan_module(&dir, Some(&state), &options).unwrap();
    assert!(planned.errors.is_empty(), "{:?}", planned.errors);
    group.bench_with_input(BenchmarkId::new("check and plan", n), &n, |b, _| {
        b.iter(|| ws.plan_module(&dir, Some(&state), &options))
    });
    group.bench_with_input(BenchmarkId::new("kept plan", n), &n, |b, _| {
        b.iter(|| ws.planned(&dir, &state, &options))
    });
    let _ = std::fs::remove_dir_all(&dir);
    group.finish();
}

criterion_group!(benches, bench_plan, bench_workspace_plan);
criterion_main!(benches);
