//! Schema store benchmark with the AWS provider 5.100.0 (from the filesystem mirror,
//! `TF_PLUGIN_MIRROR`) in a temporary initialised workspace and a fresh cache:
//!
//! - the first schema load: hashing the 700 MB binary, starting it, reading its schema,
//!   writing the cache entry; and the same with the binary's hash already known;
//! - the first lookup of `aws_instance` from the cache in a fresh process (the store
//!   loaded from the cache, then the lookup), median and p99 over runs;
//! - the release server's resident memory with the AWS schema loaded and
//!   `../shared/corpus` indexed, and in a fresh process the growth from loading the store
//!   from the cache and from converting every AWS resource type (the most any set of
//!   modules could ask for).
//!
//! Run: `cargo bench --bench schemas [-- CORPUS_DIR]`. Without the provider: SKIPPED.

#[path = "../../tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;
use strata::providers::{Cache, SchemaStore, StoreOptions};
use strata::schema::{ProviderAddress, ProviderBody, ProviderSchemaSource};
use strata::workspace::Workspace;
use support::{Client, TempDir};

mod common;
use common::{median_p99, rss_bytes};

const LOOKUP_RUNS: usize = 9;
const BINARY: &str = "terraform-provider-aws_v5.100.0_x5";

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.first().map(String::as_str) {
        Some("lookup-child") => return lookup_child(Path::new(&args[1]), Path::new(&args[2])),
        Some("memory-child") => return memory_child(Path::new(&args[1]), Path::new(&args[2])),
        _ => {}
    }
    let mirror = std::env::var_os("TF_PLUGIN_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/tf-plugins"));
    let binary = mirror
        .join("registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64")
        .join(BINARY);
    if !binary.is_file() {
        eprintln!("SKIPPED schemas benchmark: {} not found", binary.display());
        return;
    }
    let corpus = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));

    let ws = initialised(&binary);
    let cache = TempDir::new("bench-schema-cache");
    let options = StoreOptions {
        files: Vec::new(),
        run_plugins: true,
        cache: Some(Cache::at(cache.path())),
    };

    let started = Instant::now();
    let store = load(ws.path(), &options);
    let first = started.elapsed();
    println!(
        "first schema load, hashing the binary: {first:.2?} ({})",
        store.statuses()[0]
    );
    drop(store);
    std::fs::remove_dir_all(cache.path().join("schemas-2")).expect("clear the entries");
    let started = Instant::now();
    let store = load(ws.path(), &options);
    println!(
        "first schema load, hash known (start + schema + cache entry): {:.2?}",
        started.elapsed()
    );
    drop(store);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let started = Instant::now();
    let loaded = runtime
        .block_on(strata::providers::plugin::load_schema(&binary))
        .expect("the provider's schema");
    println!(
        "of which the plugin alone (start, GetSchema, conversion, exit): {:.2?}",
        started.elapsed()
    );
    drop(loaded);

    let mut samples = Vec::new();
    for _ in 0..LOOKUP_RUNS {
        let out = std::process::Command::new(std::env::current_exe().expect("own path"))
            .args(["lookup-child"])
            .arg(ws.path())
            .arg(cache.path())
            .output()
            .expect("run the lookup child");
        let text = String::from_utf8_lossy(&out.stdout);
        samples.push(text.trim().parse::<f64>().expect("milliseconds"));
    }
    let (median, p99) = median_p99(samples);
    println!(
        "first lookup of aws_instance from the cache in a fresh process (load + lookup): median {median:.1} ms, p99 {p99:.1} ms"
    );

    let out = std::process::Command::new(std::env::current_exe().expect("own path"))
        .args(["memory-child"])
        .arg(ws.path())
        .arg(cache.path())
        .output()
        .expect("run the memory child");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    if corpus.is_dir() {
        server_memory(&corpus, ws.path(), cache.path());
    } else {
        eprintln!("SKIPPED server memory: {} not found", corpus.display());
    }
}

/// A root module using the AWS provider with `binary` in its `.terraform`.
fn initialised(binary: &Path) -> TempDir {
    let dir = TempDir::new("bench-schema-ws");
    dir.write(
        "main.tf",
        "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nresource \"aws_instance\" \"a\" {}\n",
    );
    dir.write(
        ".terraform.lock.hcl",
        "provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"5.100.0\"\n}\n",
    );
    let package = dir
        .path()
        .join(".terraform/providers/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64");
    std::fs::create_dir_all(&package).expect("package directory");
    std::os::unix::fs::symlink(binary, package.join(BINARY)).expect("symlink");
    dir
}

fn load(dir: &Path, options: &StoreOptions) -> SchemaStore {
    let ws = Workspace::new();
    ws.index_dir(dir);
    ws.provider_schema_store(options)
}

fn aws() -> ProviderAddress {
    ProviderAddress::parse("hashicorp/aws", strata::schema::Dialect::Terraform).expect("address")
}

/// In a fresh process: load the store from the cache and look up `aws_instance`;
/// prints the milliseconds.
fn lookup_child(dir: &Path, cache: &Path) {
    let options = StoreOptions {
        files: Vec::new(),
        run_plugins: false,
        cache: Some(Cache::at(cache)),
    };
    let ws = Workspace::new();
    ws.index_dir(dir);
    let started = Instant::now();
    let store = ws.provider_schema_store(&options);
    let found = store.lookup(&aws(), ProviderBody::Resource, "aws_instance");
    let elapsed = started.elapsed();
    assert!(found.found().is_some(), "{:?}", store.statuses());
    println!("{:.3}", elapsed.as_secs_f64() * 1000.0);
}

/// In a fresh process: memory of the store loaded from the cache, then with every
/// resource type converted (the most any set of modules could ask for).
fn memory_child(dir: &Path, cache: &Path) {
    let options = StoreOptions {
        files: Vec::new(),
        run_plugins: false,
        cache: Some(Cache::at(cache)),
    };
    let ws = Workspace::new();
    ws.index_dir(dir);
    let before = rss_bytes("self");
    let store = ws.provider_schema_store(&options);
    let loaded = rss_bytes("self");
    let names = store.type_names(&aws(), ProviderBody::Resource);
    let listed = rss_bytes("self");
    let started = Instant::now();
    for name in &names {
        store.lookup(&aws(), ProviderBody::Resource, name);
    }
    let elapsed = started.elapsed();
    let all = rss_bytes("self");
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!(
        "fresh process: the AWS store from the cache +{:.1} MiB; all {} resource types converted (in {elapsed:.2?}) +{:.1} MiB more",
        mib(loaded.saturating_sub(before)),
        names.len(),
        mib(all.saturating_sub(listed))
    );
}

/// The release server's resident memory with the corpus and the AWS workspace indexed
/// and the AWS schema loaded (from the cache filled above).
fn server_memory(corpus: &Path, ws: &Path, cache: &Path) {
    let mut client = Client::start_with_env(&[("STRATA_CACHE_DIR", cache.to_str().unwrap_or(""))]);
    let params = json!({
        "processId": null,
        "capabilities": {},
        "workspaceFolders": [
            { "uri": support::uri(corpus), "name": "corpus" },
            { "uri": support::uri(ws), "name": "aws" },
        ],
    });
    client.request("initialize", params);
    client.notify("initialized", json!({}));
    let logged = client.wait_for(|m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains("provider schemas:"))
    });
    let rss = rss_bytes(&client.pid().to_string());
    println!(
        "server RSS with the corpus indexed and the AWS schema loaded: {:.1} MiB ({})",
        rss as f64 / (1024.0 * 1024.0),
        logged["params"]["message"]
    );
}
