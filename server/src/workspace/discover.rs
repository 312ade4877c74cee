//! Finding every module under a workspace folder.

use std::path::{Path, PathBuf};

/// Directories that never hold a module of the workspace: version control, Terraform's
/// downloaded providers and modules, Terragrunt's cache.
pub fn is_skipped_dir(name: &str) -> bool {
    matches!(name, ".git" | ".terraform" | ".terragrunt-cache")
}

/// Every directory under `root` (itself included) that holds a configuration file,
/// sorted; unreadable directories are passed over.
pub fn discover_modules(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut has_config = false;
        for entry in entries.filter_map(Result::ok) {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            if kind.is_dir() {
                if !is_skipped_dir(name) {
                    stack.push(entry.path());
                }
            } else if super::is_config_name(name) {
                has_config = true;
            }
        }
        if has_config {
            found.push(dir);
        }
    }
    found.sort();
    found
}
