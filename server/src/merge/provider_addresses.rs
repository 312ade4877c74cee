//! Which provider each part of a module belongs to, by source address: its
//! `required_providers` entries (a `source`, or the implied `hashicorp/<name>`), and the
//! local names it uses without declaring them — `provider` blocks, resources' `provider`
//! arguments, and resource types, whose provider is the type's first word
//! (`aws_instance` → `aws`), as Terraform implies them. Provider schemas are looked up
//! by these addresses.

use std::collections::BTreeMap;

use super::{literal_string, MergedModule, Resource};
use crate::schema::{FunctionLookup, ProviderAddress, ProviderSchemaSource};
use crate::syntax::{Expr, ExprKind, JsonKind};

impl MergedModule {
    /// The providers of this module, by local name.
    pub fn provider_addresses(&self) -> BTreeMap<String, ProviderAddress> {
        let mut out: BTreeMap<String, ProviderAddress> = self
            .terraform
            .required_providers
            .iter()
            .map(|(local, entry)| (local.clone(), self.required_address(local, entry.expr())))
            .collect();
        let configured = self.providers.keys().map(|(local, _)| local.clone());
        let used = self.resources.values().map(resource_local_name);
        for local in configured.chain(used) {
            let implied = ProviderAddress::implied(&local, self.dialect);
            out.entry(local).or_insert(implied);
        }
        out
    }

    /// The provider whose schema a resource's body follows: its `provider` argument's
    /// local name, or the one its type implies, resolved through `required_providers`.
    pub fn resource_provider(&self, resource: &Resource) -> ProviderAddress {
        self.local_provider(&resource_local_name(resource))
    }

    /// The address a local provider name stands for in this module.
    pub fn local_provider(&self, local: &str) -> ProviderAddress {
        match self.terraform.required_providers.get(local) {
            Some(entry) => self.required_address(local, entry.expr()),
            None => ProviderAddress::implied(local, self.dialect),
        }
    }

    /// The provider whose functions `provider::<local>::` names: only a `required_providers`
    /// entry's (Terraform 1.11 offers no function of a provider the module only implies).
    pub fn function_provider(&self, local: &str) -> Option<ProviderAddress> {
        let entry = self.terraform.required_providers.get(local)?;
        Some(self.required_address(local, entry.expr()))
    }

    /// The provider-defined function called `name` (`provider::<local>::<function>`), as
    /// the schema of the provider `function_provider(<local>)` gives it: that provider,
    /// and what its schema says of the function. `None` when `name` is not of that form
    /// or `<local>` is not a required provider.
    pub fn provider_function(
        &self,
        schemas: &dyn ProviderSchemaSource,
        name: &str,
    ) -> Option<(ProviderAddress, FunctionLookup)> {
        let (local, function) = name.strip_prefix("provider::")?.split_once("::")?;
        if function.contains("::") {
            return None;
        }
        let provider = self.function_provider(local)?;
        let lookup = schemas.function(&provider, function);
        Some((provider, lookup))
    }

    fn required_address(&self, local: &str, entry: &Expr) -> ProviderAddress {
        entry_source(entry)
            .and_then(|s| ProviderAddress::parse(s, self.dialect))
            .unwrap_or_else(|| ProviderAddress::implied(local, self.dialect))
    }
}

/// The local provider name of a resource: its `provider` argument's, or its type's.
pub fn resource_local_name(resource: &Resource) -> String {
    resource
        .provider
        .as_ref()
        .and_then(|p| local_name(p.expr()))
        .unwrap_or_else(|| implied_local_name(&resource.key.type_name).to_string())
}

/// The local name a resource type implies: the type up to its first `_`.
pub fn implied_local_name(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
}

/// The literal `source` of a `required_providers` entry, in either syntax.
pub fn entry_source(entry: &Expr) -> Option<&str> {
    match &entry.kind {
        ExprKind::Object(items) => items.iter().find_map(|(k, v)| match &k.kind {
            ExprKind::Variable(id) if &*id.name == "source" => literal_string(v),
            _ => None,
        }),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::Object(items) => items.iter().find_map(|(k, v)| match &v.kind {
                JsonKind::String(s) if &*k.name == "source" => Some(&**s),
                _ => None,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The local name of a `provider = aws.west` reference (`"aws.west"` in JSON).
fn local_name(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::Traversal { root, .. } => local_name(root),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::String(s) => s.split('.').next().map(str::to_string),
            _ => None,
        },
        _ => None,
    }
}
