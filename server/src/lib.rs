//! Strata: a language server and command-line tool for Terraform and OpenTofu that merges
//! override files exactly as Terraform does. See `ARCHITECTURE.md` for the map of layers.

pub mod module;
pub mod syntax;
pub mod text;
pub mod workspace;
