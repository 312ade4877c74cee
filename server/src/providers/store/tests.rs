use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::cache::component;
use super::*;
use crate::providers::current_platform;
use crate::providers::tests::{scratch, FakeEnvironment};
use crate::schema::Dialect;

pub(super) const AWS: &str = "registry.terraform.io/hashicorp/aws";

pub(super) fn aws() -> ProviderAddress {
    ProviderAddress::parse(AWS, Dialect::Terraform).unwrap()
}

fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/providers/schemas.json")
}

/// The recorded AWS provider (7 resource types) as one provider's JSON.
pub(super) fn fixture_aws() -> Value {
    let text = std::fs::read_to_string(fixture_path()).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["provider_schemas"][AWS].clone()
}

fn info(version: Option<&str>) -> EntryInfo {
    EntryInfo {
        address: AWS.into(),
        version: version.map(str::to_string),
        binary_sha256: None,
        read_from: "test".into(),
    }
}

pub(super) fn env(home: &Path) -> FakeEnvironment {
    FakeEnvironment {
        vars: HashMap::new(),
        home: home.to_path_buf(),
    }
}

#[test]
fn cache_keys_name_address_version_and_binary_hash() {
    let cache = Cache::at("/c");
    let key = CacheKey {
        address: aws(),
        version: Some("5.100.0".into()),
        binary_sha256: Some("ab12".into()),
    };
    assert_eq!(
        cache.entry_path(&key),
        Path::new("/c/schemas-2/registry.terraform.io/hashicorp/aws/5.100.0/ab12.schema")
    );
    let imported = CacheKey {
        version: None,
        binary_sha256: None,
        ..key
    };
    assert_eq!(
        cache.entry_path(&imported),
        Path::new("/c/schemas-2/registry.terraform.io/hashicorp/aws/unversioned/imported.schema")
    );
}

#[test]
fn names_from_the_workspace_never_leave_the_cache_directory() {
    assert_eq!(component("5.100.0"), "5.100.0");
    for hostile in ["..", ".", "a/b", "../../etc", "", "unversioned", "a\\b"] {
        let c = component(hostile);
        assert!(c.starts_with("x-") && c.len() == 34, "{hostile:?} -> {c}");
    }
    let address = ProviderAddress {
        hostname: "..".into(),
        namespace: "..".into(),
        type_name: "..".into(),
    };
    let key = CacheKey {
        address,
        version: Some("../../..".into()),
        binary_sha256: Some("../x".into()),
    };
    let path = Cache::at("/c").entry_path(&key);
    assert!(path.starts_with("/c/schemas-2"));
    assert!(path.components().all(|c| c.as_os_str() != ".."), "{path:?}");
}

#[test]
fn a_known_binary_is_not_hashed_again() {
    let dir = scratch("store-hash-index");
    let binary = dir.join("terraform-provider-x");
    std::fs::write(&binary, b"first content").unwrap();
    let modified = std::fs::metadata(&binary).unwrap().modified().unwrap();
    let index = dir.join("binaries.json");
    let first = BinaryHashes::open(index.clone()).sha256(&binary).unwrap();
    assert_eq!(first, hash_file(&binary).unwrap());
    // Same size and time, other bytes: the index answers without reading, in this
    // process and in the next (the index file).
    std::fs::write(&binary, b"other content").unwrap();
    let file = std::fs::File::options().write(true).open(&binary).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    assert_eq!(
        BinaryHashes::open(index.clone()).sha256(&binary).unwrap(),
        first
    );
    // A new time: hashed again.
    let file = std::fs::File::options().write(true).open(&binary).unwrap();
    file.set_modified(modified + std::time::Duration::from_secs(1))
        .unwrap();
    drop(file);
    let again = BinaryHashes::open(index.clone()).sha256(&binary).unwrap();
    assert_ne!(again, first);
    assert_eq!(again, hash_file(&binary).unwrap());
    // A damaged index is an empty one.
    std::fs::write(&index, b"{not json").unwrap();
    assert_eq!(BinaryHashes::open(index).sha256(&binary).unwrap(), again);
}

#[test]
fn bodies_are_converted_on_first_lookup_only() {
    let json = fixture_aws();
    let schema = LazySchema::from_json(info(Some("5.100.0")), &json).unwrap();
    assert_eq!(schema.type_count(), 7 + 2 + 2);
    assert_eq!(schema.type_names(ProviderBody::EphemeralResource).len(), 2);
    assert!(schema
        .type_names(ProviderBody::Resource)
        .contains(&"aws_instance"));
    assert_eq!(schema.converted(), 0);
    let want =
        crate::providers::read_schema_file(&std::fs::read_to_string(fixture_path()).unwrap())
            .unwrap()
            .remove(AWS)
            .unwrap();
    let found = schema.lookup(ProviderBody::Resource, "aws_instance");
    assert_eq!(
        found,
        SchemaLookup::Found(want.resources["aws_instance"].clone())
    );
    assert_eq!(schema.converted(), 1);
    // Memoized: the same Arc'd block comes back.
    let again = schema
        .lookup(ProviderBody::Resource, "aws_instance")
        .found()
        .unwrap();
    let first = found.found().unwrap();
    assert!(std::sync::Arc::ptr_eq(&again.block, &first.block));
    assert_eq!(schema.converted(), 1);
    assert_eq!(
        schema.lookup(ProviderBody::Resource, "aws_nothing"),
        SchemaLookup::NoSuchType
    );
    assert_eq!(
        schema.lookup(ProviderBody::Provisioner, "local-exec"),
        SchemaLookup::Unavailable
    );
    assert_eq!(
        schema.lookup(ProviderBody::Provider, "").found(),
        Some(want.provider)
    );
    // Decompressed back whole, it is the JSON it was made from.
    assert_eq!(schema.to_json().unwrap(), json);
}

#[test]
fn functions_are_read_on_the_first_function_lookup() {
    let json = fixture_aws();
    let schema = LazySchema::from_json(info(Some("5.100.0")), &json).unwrap();
    let want =
        crate::providers::read_schema_file(&std::fs::read_to_string(fixture_path()).unwrap())
            .unwrap()
            .remove(AWS)
            .unwrap();
    assert_eq!(
        schema.function("arn_parse"),
        FunctionLookup::Found(Box::new(want.functions["arn_parse"].clone()))
    );
    assert_eq!(schema.function("nope"), FunctionLookup::NoSuchFunction);
    // A provider without functions says so: Terraform words that differently.
    let mut bare = json.clone();
    bare.as_object_mut().unwrap().remove("functions");
    let bare = LazySchema::from_json(info(None), &bare).unwrap();
    assert_eq!(bare.function("arn_parse"), FunctionLookup::NoFunctions);
    // Damaged functions are unavailable, not absent.
    let mut damaged = json;
    damaged["functions"]["arn_parse"]["return_type"] = Value::Bool(true);
    let damaged = LazySchema::from_json(info(None), &damaged).unwrap();
    assert_eq!(damaged.function("arn_build"), FunctionLookup::Unavailable);
}

#[test]
fn damaged_entries_are_ignored_and_removed() {
    let dir = scratch("store-corrupt");
    let cache = Cache::at(&dir);
    let key = CacheKey {
        address: aws(),
        version: Some("5.100.0".into()),
        binary_sha256: Some("ab".into()),
    };
    let good = encode(info(Some("5.100.0")), &fixture_aws()).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 10;
    flipped[last] ^= 0xff;
    let damaged: [(&str, Vec<u8>); 4] = [
        ("garbage", b"not an entry".to_vec()),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("flipped", flipped),
        ("header", [&good[..30], b"}}}}"].concat()),
    ];
    for (what, bytes) in damaged {
        let path = cache.put(&key, &bytes).unwrap();
        assert!(cache.get(&key).is_none(), "{what}");
        assert!(!path.exists(), "{what}: the damaged entry is removed");
    }
    cache.put(&key, &good).unwrap();
    assert!(cache.get(&key).is_some());
    assert!(LazySchema::decode(good).is_ok());
}

#[test]
fn writes_are_atomic_renames() {
    let dir = scratch("store-atomic");
    let path = dir.join("a/b/entry");
    cache::write_atomic(&path, b"one").unwrap();
    cache::write_atomic(&path, b"two").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"two");
    let names: Vec<_> = std::fs::read_dir(dir.join("a/b")).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
}

/// A module in `dir` needing `providers`, with a lock file pinning `locked`.
pub(super) fn module(
    dir: &Path,
    providers: &[&str],
    locked: Option<&[(&str, &str)]>,
) -> ModuleProviders {
    std::fs::create_dir_all(dir).unwrap();
    if let Some(locked) = locked {
        let text: String = locked
            .iter()
            .map(|(a, v)| format!("provider \"{a}\" {{\n  version = \"{v}\"\n}}\n"))
            .collect();
        std::fs::write(dir.join(".terraform.lock.hcl"), text).unwrap();
    }
    ModuleProviders {
        dir: dir.to_path_buf(),
        dialect: Dialect::Terraform,
        providers: providers
            .iter()
            .map(|p| match *p {
                "terraform" => ProviderAddress::implied(p, Dialect::Terraform),
                _ => ProviderAddress::parse(p, Dialect::Terraform).unwrap(),
            })
            .collect(),
        children: Vec::new(),
    }
}

#[test]
fn roots_own_the_modules_they_call_and_those_below_them() {
    let dir = scratch("store-roots");
    let mut root = module(&dir.join("live"), &["hashicorp/aws"], Some(&[]));
    let called = module(&dir.join("shared/net"), &["hashicorp/null"], None);
    root.children.push(called.dir.clone());
    let below = module(&dir.join("live/sub"), &["hashicorp/random"], None);
    let alone = module(&dir.join("other"), &["hashicorp/tls"], None);
    let roots = root_modules(&[root, called, below, alone]);
    let providers = |r: &RootModule| -> BTreeSet<String> {
        r.providers.iter().map(|p| p.type_name.clone()).collect()
    };
    assert_eq!(roots.len(), 2);
    assert_eq!(roots[0].dir, dir.join("live"));
    assert_eq!(roots[0].lock, Lock::Read(Default::default()));
    assert_eq!(
        providers(&roots[0]),
        BTreeSet::from(["aws".into(), "null".into(), "random".into()])
    );
    assert_eq!(roots[1].dir, dir.join("other"));
    assert_eq!(roots[1].lock, Lock::Absent);
}

/// Installs a fake provider (a script) for `version` under `base`.
pub(super) fn fake_binary(base: &Path, version: &str, script: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = base
        .join("registry.terraform.io/hashicorp/aws")
        .join(version)
        .join(current_platform());
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join(format!("terraform-provider-aws_v{version}_x5"));
    std::fs::write(&binary, script).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    binary
}

pub(super) fn states(store: &SchemaStore) -> Vec<(String, SchemaState)> {
    store
        .statuses()
        .iter()
        .map(|s| (s.provider.type_name.clone(), s.state.clone()))
        .collect()
}

#[test]
fn each_provider_has_a_status_saying_why_it_has_no_schema() {
    let dir = scratch("store-status");
    let cache = Cache::at(dir.join("cache"));
    let options = StoreOptions {
        files: Vec::new(),
        run_plugins: false,
        cache: Some(cache.clone()),
    };
    let fresh = module(&dir.join("fresh"), &["hashicorp/aws"], None);
    let unlocked = module(&dir.join("unlocked"), &["hashicorp/aws"], Some(&[]));
    let missing = module(
        &dir.join("missing"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.1.0")]),
    );
    std::fs::create_dir_all(dir.join("missing/.terraform/providers")).unwrap();
    let untrusted = module(
        &dir.join("untrusted"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.2.0")]),
    );
    let binary = fake_binary(
        &dir.join("untrusted/.terraform/providers"),
        "5.2.0",
        "#!/bin/sh\n",
    );
    let builtin = module(&dir.join("uses-builtin"), &["terraform"], None);
    let modules = [fresh, unlocked, missing, untrusted, builtin];
    let store = SchemaStore::load(&options, &modules, &env(&dir));
    let platform = current_platform();
    let loaded_builtin = SchemaState::Loaded {
        version: None,
        from: LoadedFrom::Builtin,
    };
    assert_eq!(
        states(&store),
        [
            ("aws".into(), SchemaState::NotInitialised),
            (
                "aws".into(),
                SchemaState::Missing {
                    version: "5.1.0".into(),
                    platform
                }
            ),
            ("aws".into(), SchemaState::NotLocked),
            ("aws".into(), SchemaState::Untrusted { binary }),
            ("terraform".into(), loaded_builtin),
        ]
    );
    assert_eq!(
        store.lookup(&aws(), ProviderBody::Resource, "aws_instance"),
        SchemaLookup::Unavailable
    );
    let builtin = ProviderAddress::implied("terraform", Dialect::Terraform);
    assert!(matches!(
        store.lookup(&builtin, ProviderBody::Resource, "terraform_data"),
        SchemaLookup::Found(_)
    ));

    // An import for the version (or for any version) fills the gaps; the untrusted
    // binary is still not run.
    let file = dir.join("aws.json");
    let json =
        serde_json::json!({"format_version": "1.0", "provider_schemas": {AWS: fixture_aws()}});
    std::fs::write(&file, json.to_string()).unwrap();
    import_schema_file(&cache, &file, &|_| Some("5.2.0".into())).unwrap();
    import_schema_file(&cache, &file, &|_| None).unwrap();
    let store = SchemaStore::load(&options, &modules, &env(&dir));
    let got = states(&store);
    assert_eq!(
        got[0].1,
        SchemaState::Loaded {
            version: None,
            from: LoadedFrom::Cache(cache.entry_path(&CacheKey {
                address: aws(),
                version: None,
                binary_sha256: None,
            })),
        }
    );
    // Each root resolves its own version: the one locking 5.1.0, which is missing,
    // falls back to the import that named no version.
    assert!(
        matches!(&got[1].1, SchemaState::Loaded { version: Some(v), .. } if v == "5.1.0"),
        "{got:?}"
    );
    assert!(matches!(
        store.lookup(&aws(), ProviderBody::Resource, "aws_instance"),
        SchemaLookup::Found(_)
    ));
}

#[test]
fn schema_files_win_and_bad_ones_are_reported() {
    let dir = scratch("store-files");
    let options = StoreOptions {
        files: vec![fixture_path(), dir.join("missing.json")],
        run_plugins: false,
        cache: None,
    };
    let needs_aws = module(
        &dir.join("m"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.100.0")]),
    );
    let store = SchemaStore::load(&options, &[needs_aws], &env(&dir));
    assert_eq!(store.file_errors().len(), 1);
    assert!(
        store.file_errors()[0].contains("missing.json"),
        "{:?}",
        store.file_errors()
    );
    let file = LoadedFrom::File(fixture_path());
    assert_eq!(
        states(&store),
        [
            (
                "aws".into(),
                SchemaState::Loaded {
                    version: None,
                    from: file.clone()
                }
            ),
            (
                "terraform".into(),
                SchemaState::Loaded {
                    version: None,
                    from: file
                }
            ),
        ]
    );
    assert!(matches!(
        store.lookup(&aws(), ProviderBody::Resource, "aws_instance"),
        SchemaLookup::Found(_)
    ));
}

#[test]
fn the_user_s_own_binaries_run_without_trust_and_workspace_ones_with_it() {
    let dir = scratch("store-trust");
    let mirror = dir.join("mirror");
    let config = dir.join("cli.tfrc");
    std::fs::write(
        &config,
        format!(
            "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
            mirror.display()
        ),
    )
    .unwrap();
    let mut environment = env(&dir);
    environment
        .vars
        .insert("TF_CLI_CONFIG_FILE", config.display().to_string());
    // A binary that exits without a handshake: starting it is a failure, not a refusal.
    fake_binary(&mirror, "5.3.0", "#!/bin/sh\nexit 0\n");
    let from_mirror = module(&dir.join("m"), &["hashicorp/aws"], Some(&[(AWS, "5.3.0")]));
    let untrusted = StoreOptions {
        files: Vec::new(),
        run_plugins: false,
        cache: Some(Cache::at(dir.join("cache"))),
    };
    let store = SchemaStore::load(&untrusted, &[from_mirror], &environment);
    let failed =
        |s: &SchemaState| matches!(s, SchemaState::Failed { error } if error.contains("handshake"));
    assert!(failed(&states(&store)[0].1), "{:?}", states(&store));

    let workspace = module(&dir.join("w"), &["hashicorp/aws"], Some(&[(AWS, "5.4.0")]));
    fake_binary(
        &dir.join("w/.terraform/providers"),
        "5.4.0",
        "#!/bin/sh\nexit 0\n",
    );
    let trusted = StoreOptions {
        run_plugins: true,
        ..untrusted
    };
    let store = SchemaStore::load(&trusted, &[workspace], &environment);
    assert!(failed(&states(&store)[0].1), "{:?}", states(&store));
}

#[test]
fn a_binary_starts_once_per_machine() {
    let dir = scratch("store-start-right");
    let cache = Cache::at(&dir);
    let key = CacheKey {
        address: aws(),
        version: Some("5.100.0".into()),
        binary_sha256: Some("ab".into()),
    };
    let wait = std::time::Duration::from_secs(10);
    let StartRight::Started(guard) = cache.start_right(&key, wait) else {
        panic!("the first process starts the binary");
    };
    // Another process waits for the entry the first one writes, and uses it.
    let other = {
        let (cache, key) = (cache.clone(), key.clone());
        std::thread::spawn(move || cache.start_right(&key, wait))
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    let entry = encode(info(Some("5.100.0")), &fixture_aws()).unwrap();
    cache.put(&key, &entry).unwrap();
    drop(guard);
    assert!(matches!(other.join().unwrap(), StartRight::Cached(_)));
    // Once released (and without the entry), the right can be taken again.
    std::fs::remove_file(cache.entry_path(&key)).unwrap();
    assert!(matches!(
        cache.start_right(&key, wait),
        StartRight::Started(_)
    ));
}
