//! Which namespaced functions (`provider::aws::arn_parse`) a module may call, as
//! Terraform 1.11 builds its function table: the built-in functions (also as `core::`),
//! and the functions of every provider the module names in `required_providers`, under
//! `provider::<local name>::` (`evaluationExternalFunctions`; a provider only implied by a
//! resource or a `provider` block contributes none). A name that is not in the table is
//! HCL's `Call to unknown function`, which Terraform rewrites for namespaced names into
//! `Unknown provider function` with a detail saying what is wrong
//! (`checkForUnknownFunctionDiags`).
//!
//! Whether a required provider offers a function is its schema's to say: where the
//! schema is unavailable, nothing is said. The rules are Terraform's; OpenTofu's words
//! are not recorded, so its dialect is left alone.

use crate::merge::MergedModule;
use crate::schema::{Dialect, FunctionLookup, ProviderFunction, ProviderSchemaSource};

/// What Terraform's function table holds under a namespaced name that is not a built-in
/// function.
pub(super) enum Namespaced {
    /// A required provider offers it: its signature.
    Offered(Box<ProviderFunction>),
    /// Nothing: the detail of `Unknown provider function`.
    Unknown(String),
    /// Strata cannot tell (the provider's schema is unavailable, or the dialect is not
    /// Terraform's).
    Unavailable,
}

/// What `name`, a function name with `::` that is not a built-in function, stands for in
/// module `m`.
pub(super) fn namespaced(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    name: &str,
) -> Namespaced {
    if m.dialect != Dialect::Terraform {
        return Namespaced::Unavailable;
    }
    let Some(separator) = name.rfind("::") else {
        return Namespaced::Unavailable;
    };
    let (namespace, function) = (&name[..separator + 2], &name[separator + 2..]);
    let parts: Vec<&str> = namespace.split("::").collect();
    if parts[0] != "provider" {
        return Namespaced::Unknown(format!(
            "The function namespace {:?} is not valid. Provider function calls must use the \"provider::\" namespace prefix.",
            parts[0]
        ));
    }
    let local = parts.get(1).copied().unwrap_or_default();
    if local.is_empty() {
        return Namespaced::Unknown(
            "The function call must include the provider name after the \"provider::\" prefix."
                .into(),
        );
    }
    // Only `provider::<local>::` of a required provider holds functions.
    let lookup = m.provider_function(schemas, name);
    match lookup.map_or(FunctionLookup::NoFunctions, |(_, found)| found) {
        FunctionLookup::Found(f) => Namespaced::Offered(f),
        FunctionLookup::NoSuchFunction => Namespaced::Unknown(format!(
            "The function {function:?} is not available from the provider {local:?}."
        )),
        FunctionLookup::NoFunctions => Namespaced::Unknown(format!(
            "There is no function named \"{namespace}{function}\". Ensure that provider name {local:?} is declared in this module's required_providers block, and that this provider offers a function named {function:?}."
        )),
        FunctionLookup::Unavailable => Namespaced::Unavailable,
    }
}

/// The provider function Terraform suggests for an unknown function called without a
/// namespace: one named `name` among the required providers' (Terraform takes the first
/// it meets in a Go map, so with several the choice is its own; Strata takes the first
/// local name in order).
pub(super) fn suggestion(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    name: &str,
) -> Option<String> {
    if m.dialect != Dialect::Terraform {
        return None;
    }
    m.terraform.required_providers.keys().find_map(|local| {
        let qualified = format!("provider::{local}::{name}");
        let (_, found) = m.provider_function(schemas, &qualified)?;
        matches!(found, FunctionLookup::Found(_)).then_some(qualified)
    })
}

#[cfg(test)]
#[path = "provider_functions_tests.rs"]
mod tests;
