//! Mirror layouts: packed package names, the implied local mirrors and their order, and
//! `locate` finding packed packages.

use std::path::{Path, PathBuf};

use super::*;
use crate::providers::cli_config::{CliConfig, FilesystemMirror};
use crate::providers::locate::{current_platform, locate, Located};
use crate::providers::tests::{install as unpacked, scratch, FakeEnvironment};

fn aws() -> ProviderAddress {
    ProviderAddress::parse("hashicorp/aws", Dialect::Terraform).unwrap()
}

#[test]
fn packed_package_names_state_version_and_platform() {
    let parse = |name: &str| packed_package_name(name, "aws");
    let found = |v: &str, p: &str| Some((v.to_string(), p.to_string()));
    assert_eq!(
        parse("terraform-provider-aws_5.100.0_linux_amd64.zip"),
        found("5.100.0", "linux_amd64")
    );
    // Matched without regard to case; parts after the architecture are ignored.
    assert_eq!(
        parse("Terraform-Provider-AWS_5.1.0_Darwin_ARM64.ZIP"),
        found("5.1.0", "darwin_arm64")
    );
    assert_eq!(
        parse("terraform-provider-aws_5.1.0_linux_amd64_extra.zip"),
        found("5.1.0", "linux_amd64")
    );
    for other in [
        "terraform-provider-aws_5.1.0_linux.zip",
        "terraform-provider-aws_5.1.0_linux_amd64.tar.gz",
        "terraform-provider-awscc_1.0.0_linux_amd64.zip",
        "terraform-provider-aws__linux_amd64.zip",
        "terraform-provider-aws_v5.1.0_x5",
        "5.1.0",
    ] {
        assert_eq!(parse(other), None, "{other}");
    }
}

fn env(home: &Path, vars: &[(&'static str, &str)]) -> FakeEnvironment {
    FakeEnvironment {
        vars: vars.iter().map(|(k, v)| (*k, v.to_string())).collect(),
        home: home.to_path_buf(),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn implied_mirrors_follow_terraforms_and_opentofus_order() {
    let root = Path::new("/w/live");
    let home = Path::new("/h");
    let dirs = |env: &FakeEnvironment, dialect| -> Vec<(String, Origin)> {
        implied_mirrors(root, env, dialect)
            .into_iter()
            .map(|(d, o)| (d.display().to_string(), o))
            .collect()
    };
    let user = |d: &str| (d.to_string(), Origin::ImpliedMirror);
    let workspace = ("/w/live/terraform.d/plugins".to_string(), Origin::Workspace);
    assert_eq!(
        dirs(&env(home, &[]), Dialect::Terraform),
        [
            workspace.clone(),
            user("/h/.terraform.d/plugins"),
            user("/h/.local/share/terraform/plugins"),
            user("/usr/local/share/terraform/plugins"),
            user("/usr/share/terraform/plugins"),
        ]
    );
    // XDG variables: relative entries are ignored; OpenTofu adds its own data directory.
    let xdg = env(
        home,
        &[("XDG_DATA_HOME", "/x"), ("XDG_DATA_DIRS", "/a:rel:/b")],
    );
    assert_eq!(
        dirs(&xdg, Dialect::Terraform),
        [
            workspace.clone(),
            user("/h/.terraform.d/plugins"),
            user("/x/terraform/plugins"),
            user("/a/terraform/plugins"),
            user("/b/terraform/plugins"),
        ]
    );
    assert_eq!(
        dirs(&xdg, Dialect::OpenTofu),
        [
            workspace,
            user("/h/.terraform.d/plugins"),
            user("/x/opentofu/plugins"),
            user("/x/terraform/plugins"),
            user("/a/terraform/plugins"),
            user("/b/terraform/plugins"),
        ]
    );
    let relative_home = env(home, &[("XDG_DATA_HOME", "x")]);
    assert_eq!(
        dirs(&relative_home, Dialect::Terraform)[2],
        user("/h/.local/share/terraform/plugins")
    );
}

/// Writes an (unreadable) packed package file into `base`, and returns its path.
fn packed(base: &Path, version: &str) -> PathBuf {
    let dir = base.join("registry.terraform.io/hashicorp/aws");
    std::fs::create_dir_all(&dir).unwrap();
    let zip = dir.join(format!(
        "terraform-provider-aws_{version}_{}.zip",
        current_platform()
    ));
    std::fs::write(&zip, "not read by locate").unwrap();
    zip
}

#[test]
fn mirrors_hold_packed_packages_and_unpacked_ones_come_first() {
    let dir = scratch("mirrors-packed");
    let root = dir.join("root");
    let mirror = dir.join("mirror");
    let env = env(&dir.join("home"), &[]);
    let config = CliConfig {
        provider_installation: true,
        filesystem_mirrors: vec![FilesystemMirror {
            path: mirror.clone(),
            include: Vec::new(),
            exclude: Vec::new(),
        }],
        ..CliConfig::default()
    };
    let find = |config: &CliConfig, version| {
        locate(
            &aws(),
            Some(version),
            &root,
            config,
            &env,
            Dialect::Terraform,
        )
    };
    let zip = packed(&mirror, "5.1.0");
    packed(&mirror, "5.2.0");
    assert_eq!(
        find(&config, "5.1.0"),
        Ok(Located {
            package: Package::Archive(zip),
            origin: Origin::Mirror
        })
    );
    let binary = unpacked(&mirror, "5.1.0");
    assert_eq!(
        find(&config, "5.1.0").unwrap().package,
        Package::Binary(binary)
    );
    assert!(find(&config, "5.3.0").is_err());

    // The plugin cache and the data directory hold unpacked packages only.
    let cache_only = CliConfig {
        plugin_cache_dir: Some(mirror.clone()),
        provider_installation: true,
        ..CliConfig::default()
    };
    assert!(find(&cache_only, "5.2.0").is_err());
}

#[test]
fn implied_mirrors_are_searched_without_a_provider_installation_block() {
    let dir = scratch("mirrors-implied");
    let root = dir.join("root");
    let home = dir.join("home");
    let env = env(
        &home,
        &[
            ("XDG_DATA_HOME", dir.join("data").to_str().unwrap()),
            ("XDG_DATA_DIRS", dir.join("shared").to_str().unwrap()),
        ],
    );
    let find =
        |config: &CliConfig, dialect| locate(&aws(), Some("5.1.0"), &root, config, &env, dialect);
    let implied = CliConfig::default();
    let in_shared = packed(&dir.join("shared/terraform/plugins"), "5.1.0");
    let found = find(&implied, Dialect::Terraform).unwrap();
    assert_eq!(
        (found.package, found.origin),
        (Package::Archive(in_shared), Origin::ImpliedMirror)
    );
    let in_data = unpacked(&dir.join("data/terraform/plugins"), "5.1.0");
    assert_eq!(
        find(&implied, Dialect::Terraform).unwrap().package,
        Package::Binary(in_data)
    );
    let in_tofu_data = unpacked(&dir.join("data/opentofu/plugins"), "5.1.0");
    assert_eq!(
        find(&implied, Dialect::OpenTofu).unwrap().package,
        Package::Binary(in_tofu_data)
    );
    let in_home = packed(&home.join(".terraform.d/plugins"), "5.1.0");
    assert_eq!(
        find(&implied, Dialect::Terraform).unwrap().package,
        Package::Archive(in_home)
    );
    // `terraform.d/plugins` in the root module comes first, and is workspace code.
    let vendored = unpacked(&root.join("terraform.d/plugins"), "5.1.0");
    let found = find(&implied, Dialect::Terraform).unwrap();
    assert_eq!(
        (found.package, found.origin),
        (Package::Binary(vendored), Origin::Workspace)
    );
    // A provider_installation block (here with no mirror) replaces the implied mirrors.
    let explicit = CliConfig {
        provider_installation: true,
        ..CliConfig::default()
    };
    assert!(find(&explicit, Dialect::Terraform).is_err());
}
