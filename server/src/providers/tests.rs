//! Finding providers: addresses, the lock file, the CLI configuration, the directories
//! searched and the providers a module requires.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::*;
use crate::module::{FileSet, Module, SourceFile};
use crate::schema::Dialect;

/// The lock file `terraform init` wrote for `hashicorp/aws` 5.100.0 (Terraform 1.11.4).
const RECORDED_LOCK: &str = r#"# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.100.0"
  constraints = "5.100.0"
  hashes = [
    "h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0=",
  ]
}
"#;

fn aws() -> ProviderAddress {
    ProviderAddress::parse("hashicorp/aws", Dialect::Terraform).unwrap()
}

pub(super) struct FakeEnvironment {
    pub(super) vars: HashMap<&'static str, String>,
    pub(super) home: PathBuf,
}

impl Environment for FakeEnvironment {
    fn var(&self, name: &str) -> Option<String> {
        self.vars.get(name).cloned()
    }

    fn home(&self) -> Option<PathBuf> {
        Some(self.home.clone())
    }
}

/// A fresh scratch directory for one test.
pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-providers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Installs an executable `terraform-provider-aws_v5.100.0_x5` in the package directory
/// of `base`, and returns its path.
pub(super) fn install(base: &Path, version: &str) -> PathBuf {
    let dir = base
        .join("registry.terraform.io/hashicorp/aws")
        .join(version)
        .join(current_platform());
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("LICENSE.txt"), "").unwrap();
    let binary = dir.join(format!("terraform-provider-aws_v{version}_x5"));
    std::fs::write(&binary, "#!/bin/sh\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    binary
}

#[test]
fn addresses_are_completed_as_terraform_completes_them() {
    let tf = Dialect::Terraform;
    assert_eq!(aws().to_string(), "registry.terraform.io/hashicorp/aws");
    assert_eq!(ProviderAddress::parse("AWS", tf), Some(aws()));
    let tofu = ProviderAddress::parse("hashicorp/aws", Dialect::OpenTofu).unwrap();
    assert_eq!(tofu.to_string(), "registry.opentofu.org/hashicorp/aws");
    assert_eq!(ProviderAddress::parse("a/b/c/d", tf), None);
    assert_eq!(ProviderAddress::parse("a//c", tf), None);
    let builtin = ProviderAddress::implied("terraform", tf);
    assert_eq!(builtin.to_string(), "terraform.io/builtin/terraform");
    assert!(builtin.is_builtin());
}

#[test]
fn the_recorded_lock_file_is_read() {
    let locked = read_lock_file(RECORDED_LOCK, Dialect::Terraform).unwrap();
    let entry = &locked[&aws()];
    assert_eq!(entry.version, "5.100.0");
    assert_eq!(entry.constraints.as_deref(), Some("5.100.0"));
    assert_eq!(
        entry.hashes,
        ["h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0="]
    );
    assert_eq!(
        read_lock_file("", Dialect::Terraform),
        Ok(Default::default())
    );
}

#[test]
fn broken_lock_files_are_errors() {
    let tf = Dialect::Terraform;
    assert_eq!(
        read_lock_file("provider \"x\" {", tf),
        Err(LockFileError::Syntax)
    );
    assert_eq!(
        read_lock_file(
            "provider \"hashicorp/aws\" {\n  version = \"1.0.0\"\n}\n",
            tf
        ),
        Err(LockFileError::Address("hashicorp/aws".into()))
    );
    let no_version = "provider \"registry.terraform.io/hashicorp/aws\" {\n}\n";
    assert!(matches!(
        read_lock_file(no_version, tf),
        Err(LockFileError::Version(_))
    ));
}

#[test]
fn the_cli_configuration_gives_cache_mirrors_and_dev_overrides() {
    let text = r#"
plugin_cache_dir = "/cache"
provider_installation {
  filesystem_mirror {
    path    = "/opt/tf-plugins"
    include = ["registry.terraform.io/hashicorp/*"]
  }
  filesystem_mirror {
    path    = "/other"
    exclude = ["hashicorp/aws"]
  }
  dev_overrides {
    "example.com/me/thing" = "/home/me/thing"
  }
  direct {}
}
"#;
    let tf = Dialect::Terraform;
    let config = parse_cli_config(text, tf).unwrap();
    assert_eq!(config.plugin_cache_dir, Some(PathBuf::from("/cache")));
    let [first, second] = config.filesystem_mirrors.as_slice() else {
        panic!("two mirrors expected: {config:?}")
    };
    assert!(first.serves(&aws(), tf));
    assert!(!first.serves(&ProviderAddress::parse("me/x", tf).unwrap(), tf));
    assert!(!second.serves(&aws(), tf));
    let thing = ProviderAddress::parse("example.com/me/thing", tf).unwrap();
    assert_eq!(
        config.dev_overrides,
        [(thing, PathBuf::from("/home/me/thing"))]
    );
    assert!(config.provider_installation);
    assert_eq!(parse_cli_config("provider_installation {", tf), None);
    let implied = parse_cli_config("plugin_cache_dir = \"/cache\"\n", tf).unwrap();
    assert!(!implied.provider_installation);
}

#[test]
fn the_cli_configuration_file_follows_the_environment() {
    let home = scratch("home");
    let mut env = FakeEnvironment {
        vars: HashMap::new(),
        home: home.clone(),
    };
    let tf = Dialect::Terraform;
    assert_eq!(config_file(&env, tf), Some(home.join(".terraformrc")));
    assert_eq!(
        config_file(&env, Dialect::OpenTofu),
        Some(home.join(".tofurc"))
    );
    assert_eq!(load_cli_config(&env, tf), Ok(CliConfig::default()));
    std::fs::write(
        home.join(".terraformrc"),
        "plugin_cache_dir = \"~/cache\"\n",
    )
    .unwrap();
    let config = load_cli_config(&env, tf).unwrap();
    assert_eq!(config.plugin_cache_dir, Some(home.join("cache")));
    env.vars.insert("TF_PLUGIN_CACHE_DIR", "/elsewhere".into());
    let rc = home.join("custom.tfrc");
    std::fs::write(&rc, "plugin_cache_dir = \n").unwrap();
    env.vars
        .insert("TF_CLI_CONFIG_FILE", rc.display().to_string());
    assert_eq!(load_cli_config(&env, tf), Err(CliConfigError::Syntax(rc)));
}

#[test]
fn binaries_are_found_in_terraforms_order() {
    let root = scratch("locate");
    let env = FakeEnvironment {
        vars: HashMap::new(),
        home: root.join("home"),
    };
    let tf = Dialect::Terraform;
    let mirror = root.join("mirror");
    let cache = root.join("cache");
    let mut config = CliConfig {
        provider_installation: true,
        plugin_cache_dir: Some(cache.clone()),
        filesystem_mirrors: vec![FilesystemMirror {
            path: mirror.clone(),
            include: Vec::new(),
            exclude: Vec::new(),
        }],
        ..CliConfig::default()
    };
    let find = |config: &CliConfig, env: &FakeEnvironment, version: Option<&str>| {
        locate(&aws(), version, &root, config, env, tf)
    };
    assert_eq!(
        find(&config, &env, Some("5.100.0")),
        Err(NotFound::Missing(
            aws(),
            "5.100.0".into(),
            current_platform()
        ))
    );
    assert_eq!(find(&config, &env, None), Err(NotFound::NotLocked(aws())));
    let builtin = ProviderAddress::implied("terraform", tf);
    let found = locate(&builtin, None, &root, &config, &env, tf);
    assert_eq!(found, Err(NotFound::Builtin(builtin)));

    let in_mirror = install(&mirror, "5.100.0");
    let found = find(&config, &env, Some("5.100.0")).unwrap();
    assert_eq!(
        (found.package, found.origin),
        (Package::Binary(in_mirror), Origin::Mirror)
    );
    let in_cache = install(&cache, "5.100.0");
    let found = find(&config, &env, Some("5.100.0")).unwrap();
    assert_eq!(
        (found.package, found.origin),
        (Package::Binary(in_cache), Origin::PluginCache)
    );
    let in_workspace = install(&root.join(".terraform/providers"), "5.100.0");
    let found = find(&config, &env, Some("5.100.0")).unwrap();
    assert_eq!(
        (found.package, found.origin),
        (Package::Binary(in_workspace), Origin::Workspace)
    );
    assert!(find(&config, &env, Some("5.99.0")).is_err());

    // TF_DATA_DIR moves the working directory's data; the cache still has the package.
    let moved = FakeEnvironment {
        vars: HashMap::from([("TF_DATA_DIR", "data".to_string())]),
        home: root.join("home"),
    };
    let found = find(&config, &moved, Some("5.100.0")).unwrap();
    assert_eq!(found.origin, Origin::PluginCache);
    let in_data = install(&root.join("data/providers"), "5.100.0");
    assert_eq!(
        find(&config, &moved, Some("5.100.0")).unwrap().package,
        Package::Binary(in_data)
    );

    // A development build wins over every installed version, locked or not.
    let dev = root.join("dev");
    std::fs::create_dir_all(&dev).unwrap();
    let dev_binary = install(&dev, "0.0.1");
    let dev_dir = dev_binary.parent().unwrap().to_path_buf();
    config.dev_overrides.push((aws(), dev_dir));
    let found = find(&config, &env, None).unwrap();
    assert_eq!(
        (found.package, found.origin),
        (Package::Binary(dev_binary), Origin::DevOverride)
    );
}

fn merged(text: &str) -> crate::merge::MergedModule {
    let set = FileSet::from_names(&["main.tf"], Dialect::Terraform);
    let source = SourceFile::parse(PathBuf::from("/m/main.tf"), text.into(), None, None);
    crate::merge::merge(&Module {
        dir: PathBuf::from("/m"),
        dialect: Dialect::Terraform,
        files: set,
        sources: vec![Arc::new(source)],
        core_version: crate::module::CoreVersion::target(Dialect::Terraform),
        revision: 1,
    })
}

#[test]
fn required_providers_include_implied_local_names() {
    let m = merged(
        r#"
terraform {
  required_providers {
    cloud = { source = "Example.com/Acme/Cloud", version = "~> 1.0" }
    null  = "~> 3.0"
  }
}
provider "google" {}
resource "aws_instance" "a" {}
resource "terraform_data" "t" {}
data "http" "h" { provider = http.other }
resource "cloud_thing" "c" {}
"#,
    );
    let required = m.provider_addresses();
    let shown: Vec<String> = required
        .iter()
        .map(|(local, address)| format!("{local}={address}"))
        .collect();
    assert_eq!(
        shown,
        [
            "aws=registry.terraform.io/hashicorp/aws",
            "cloud=example.com/acme/cloud",
            "google=registry.terraform.io/hashicorp/google",
            "http=registry.terraform.io/hashicorp/http",
            "null=registry.terraform.io/hashicorp/null",
            "terraform=terraform.io/builtin/terraform",
        ]
    );
}
