//! The configuration language's own blocks, both dialects, as Terraform 1.11 and
//! OpenTofu 1.12 decode them (`internal/configs` of each: `parser_config.go` for the file
//! and `terraform` block, `named_values.go`, `resource.go`, `module_call.go`,
//! `provider.go`, `provisioner.go`, `checks.go`, `import.go`, `moved.go`, `removed.go`).
//! Orders follow Terraform's schemas, because HCL suggests the first close name in
//! schema order.

mod refactoring;
mod resources;
mod settings;
mod values;

use std::sync::{Arc, LazyLock};

use super::{block, BlockSchema, Dialects};

/// The schema of a whole configuration file: its nested blocks are the top-level blocks.
pub fn file_schema() -> &'static BlockSchema {
    static SCHEMA: LazyLock<BlockSchema> = LazyLock::new(build_file_schema);
    &SCHEMA
}

/// Whether `name` is a top-level block type in either dialect.
pub fn is_root_block_name(name: &str) -> bool {
    file_schema().blocks.iter().any(|b| &*b.name == name)
}

fn build_file_schema() -> BlockSchema {
    let resource = Arc::new(resources::resource());
    block("A Terraform or OpenTofu configuration file.")
        .child("terraform", settings::terraform())
        // Only so that a misplaced block gets a message pointing into `terraform`.
        .child("required_providers", settings::required_providers())
        .child("provider", settings::provider())
        .child("variable", values::variable())
        .child("locals", values::locals())
        .child("output", values::output())
        .child("module", resources::module())
        .child("resource", resource)
        .child("data", resources::data())
        .child("ephemeral", resources::ephemeral())
        .child("moved", refactoring::moved())
        .child("removed", refactoring::removed())
        .child("import", refactoring::import())
        .child("check", refactoring::check())
        .child("language", settings::language())
        .child_only(Dialects::OpenTofu)
}

pub use resources::provisioner_schema;
