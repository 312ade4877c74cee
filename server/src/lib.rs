//! Strata: a language server and command-line tool for Terraform and OpenTofu that merges
//! override files exactly as Terraform does. See `ARCHITECTURE.md` for the map of layers.

pub mod cancel;
pub mod check;
pub mod cli;
pub mod eval;
pub mod ide;
pub mod jsonconfig;
pub mod limits;
pub mod lsp;
pub mod merge;
pub mod module;
pub mod plan;
pub mod providers;
pub mod reads;
pub mod schema;
pub mod syntax;
pub mod text;
pub mod types;
pub mod workspace;
