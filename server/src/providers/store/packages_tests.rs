//! Unpacking packed provider packages into the cache, and refusing hostile archives.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::*;
use crate::providers::current_platform;
use crate::providers::store::tests::{env, module, AWS};
use crate::providers::store::{SchemaState, SchemaStore, StoreOptions};
use crate::providers::tests::scratch;

/// Writes a zip archive of `entries` (name, Unix mode, content) at `path`.
pub(in crate::providers) fn write_zip(path: &Path, entries: &[(&str, u32, &[u8])]) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (i, (name, mode, content)) in entries.iter().enumerate() {
        // Both methods a provider package may use.
        let method = if i % 2 == 0 {
            zip::CompressionMethod::Deflated
        } else {
            zip::CompressionMethod::Stored
        };
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(method)
            .unix_permissions(*mode);
        zip.start_file(*name, options).unwrap();
        zip.write_all(content).unwrap();
    }
    zip.finish().unwrap();
}

fn setup(name: &str) -> (PathBuf, Cache, BinaryHashes) {
    let dir = scratch(name);
    let cache = Cache::at(dir.join("cache"));
    let hashes = cache.binary_hashes();
    (dir, cache, hashes)
}

const BINARY: &str = "terraform-provider-aws_v5.1.0_x5";

#[cfg(unix)]
#[test]
fn a_packed_package_is_unpacked_once_into_the_cache() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, cache, hashes) = setup("packages-unpack");
    let zip = dir.join("terraform-provider-aws_5.1.0_linux_amd64.zip");
    write_zip(
        &zip,
        &[
            ("LICENSE.txt", 0o644, b"license"),
            (BINARY, 0o755, b"#!/bin/sh\n"),
        ],
    );
    let binary = unpacked_executable(&cache, &hashes, &zip, "aws", &UNPACK_LIMITS).unwrap();
    let sha = hashes.sha256(&zip).unwrap();
    assert_eq!(binary, cache.dir().join("packages").join(&sha).join(BINARY));
    assert_eq!(std::fs::read(&binary).unwrap(), b"#!/bin/sh\n");
    let mode = std::fs::metadata(&binary).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
    let license = binary.with_file_name("LICENSE.txt");
    let license_mode = std::fs::metadata(&license).unwrap().permissions().mode();
    assert_eq!(license_mode & 0o777, 0o644);

    // Once: the unpacked directory is used as it is.
    std::fs::write(binary.with_file_name("marker"), "").unwrap();
    let again = unpacked_executable(&cache, &hashes, &zip, "aws", &UNPACK_LIMITS).unwrap();
    assert_eq!(again, binary);
    assert!(binary.with_file_name("marker").exists());

    // An archive without the executable is refused.
    let empty = dir.join("empty.zip");
    write_zip(&empty, &[("README", 0o644, b"")]);
    let refused = unpacked_executable(&cache, &hashes, &empty, "aws", &UNPACK_LIMITS);
    assert!(
        matches!(refused, Err(UnpackError::NoExecutable(_))),
        "{refused:?}"
    );
}

/// What is left in `dir` (recursively), as relative paths.
fn files_under(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            out.push(path.strip_prefix(base).unwrap().display().to_string());
            if path.is_dir() {
                walk(base, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn hostile_archives_are_refused_and_leave_nothing_behind() {
    let (dir, cache, hashes) = setup("packages-hostile");
    let unpack_with = |entries: &[(&str, u32, &[u8])], limits: &UnpackLimits| {
        let zip = dir.join("package.zip");
        write_zip(&zip, entries);
        unpacked_executable(&cache, &hashes, &zip, "aws", limits)
    };
    for name in ["../escaped", "a/../../escaped", "/tmp/absolute"] {
        let refused = unpack_with(&[(name, 0o755, b"x")], &UNPACK_LIMITS);
        assert!(
            matches!(refused, Err(UnpackError::Escapes(_))),
            "{name}: {refused:?}"
        );
    }
    assert!(!dir.join("escaped").exists());

    let small = UnpackLimits {
        max_entries: 2,
        max_entry_bytes: 10,
        max_total_bytes: 15,
    };
    let big = unpack_with(&[(BINARY, 0o755, &[b'x'; 11])], &small);
    assert!(matches!(big, Err(UnpackError::TooLarge(_))), "{big:?}");
    let too_much = unpack_with(
        &[("a", 0o644, &[b'x'; 8]), (BINARY, 0o755, &[b'x'; 8])],
        &small,
    );
    assert!(
        matches!(too_much, Err(UnpackError::TooLarge(_))),
        "{too_much:?}"
    );
    let many = unpack_with(
        &[("a", 0o644, b""), ("b", 0o644, b""), (BINARY, 0o755, b"")],
        &small,
    );
    assert!(
        matches!(many, Err(UnpackError::TooManyEntries(3))),
        "{many:?}"
    );
    // Nothing half-unpacked stays in the cache.
    let left: Vec<String> = files_under(&cache.dir().join("packages"));
    assert_eq!(left, Vec::<String>::new());
}

#[test]
fn a_packed_package_in_the_workspace_is_not_unpacked_unless_it_may_run() {
    let (dir, cache, _) = setup("packages-untrusted");
    let root = module(
        &dir.join("root"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.1.0")]),
    );
    let vendored = dir.join("root/terraform.d/plugins/registry.terraform.io/hashicorp/aws");
    std::fs::create_dir_all(&vendored).unwrap();
    let zip = vendored.join(format!(
        "terraform-provider-aws_5.1.0_{}.zip",
        current_platform()
    ));
    write_zip(&zip, &[(BINARY, 0o755, b"#!/bin/sh\nexit 1\n")]);
    let options = StoreOptions {
        files: Vec::new(),
        run_plugins: false,
        cache: Some(cache.clone()),
    };
    let store = SchemaStore::load(&options, &[root], &env(&dir));
    let state = &store.statuses()[0].state;
    assert_eq!(state, &SchemaState::Untrusted { binary: zip });
    assert!(!cache.dir().join("packages").exists());
}
