//! The corpus's largest module as the plan benchmarks copy it: what it needs to plan
//! without errors, and which of its files they edit and ask hints of.

use std::path::{Path, PathBuf};

/// Values for the largest module's (`Azure__terraform-azurerm-aks`) required variables,
/// and for those whose default fails a validation or precondition in Terraform too (HCL's
/// `||` evaluates both sides), so that it plans without errors.
pub const BENCH_VARIABLES: &str = r#"resource_group_name = "bench"
location = "bench"
prefix = "bench"
agents_pool_undrainable_node_behavior = "Cordon"
net_profile_pod_cidrs = ["10.244.0.0/16"]
net_profile_service_cidrs = ["10.0.0.0/16"]
bootstrap_profile = {}
"#;

/// An empty prior state.
pub const EMPTY_STATE: &str = r#"{"version": 4, "serial": 1, "lineage": "bench", "resources": []}"#;

/// The largest `.tf` file of `dir` holding a resource block, and its largest `.tf` file.
pub fn files(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut tf: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tf"))
        .map(|e| (e.metadata().map_or(0, |m| m.len()), e.path()))
        .collect();
    tf.sort();
    let largest = tf.last()?.1.clone();
    let edited = tf.iter().rev().find(|(_, p)| {
        std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.starts_with("resource ")))
    })?;
    Some((edited.1.clone(), largest))
}
