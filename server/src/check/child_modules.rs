//! What a child module may not hold, reported when its caller is checked as the root
//! (`internal/configs/config_build.go`, `module.go`): a backend (`Backend configuration
//! ignored`, a warning), import blocks (`Invalid import configuration`), and a
//! `required_version` the version in effect does not meet. The diagnostics are placed in
//! the child's files.

use super::{ChildModules, Diagnostic, Severity};
use crate::merge::{literal_string, MergedModule};
use crate::module::Module;

/// Code of what a child module holds that only a root module may.
pub const CHILD_MODULE: &str = "root-only-in-child";

pub(super) fn check(
    module: &Module,
    m: &MergedModule,
    children: ChildModules<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for call in m.module_calls.values() {
        let Some(source) = call.source.as_ref().and_then(|s| literal_string(s.expr())) else {
            continue;
        };
        let Some(child) = children(source) else {
            continue;
        };
        let path = format!("module.{}", call.name);
        let version = &module.core_version.version;
        super::core_version::check_child(&child, version, &path, source, out);
        if let Some(backend) = &child.terraform.backend {
            out.push(super::at(
                &child,
                backend.header_origin(),
                Severity::Warning,
                CHILD_MODULE,
                "Backend configuration ignored".into(),
                "Any selected backend applies to the entire configuration, so Terraform expects provider configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.".into(),
            ));
        }
        if let Some(import) = child.imports.first() {
            out.push(super::at(
                &child,
                import.header_origin(),
                Severity::Error,
                CHILD_MODULE,
                "Invalid import configuration".into(),
                format!("An import block was detected in {path:?}. Import blocks are only allowed in the root module."),
            ));
        }
    }
}
