//! Which providers a module needs, by local name: its `required_providers` entries (a
//! `source`, or the implied `hashicorp/<name>`), and the local names it uses without
//! declaring them — `provider` blocks, resources' `provider` arguments, and resource
//! types, whose provider is the type's first word (`aws_instance` → `aws`), as Terraform
//! implies them.

use std::collections::BTreeMap;

use serde_json::Value;

use super::address::ProviderAddress;
use crate::eval::constant;
use crate::merge::MergedModule;
use crate::syntax::{Expr, ExprKind, JsonKind};

/// The providers of one module, by local name.
pub fn required_providers(m: &MergedModule) -> BTreeMap<String, ProviderAddress> {
    let mut out = BTreeMap::new();
    for (local, entry) in &m.terraform.required_providers {
        let source = match constant(entry.expr()) {
            Some(Value::Object(fields)) => fields
                .get("source")
                .and_then(Value::as_str)
                .map(str::to_string),
            _ => None,
        };
        let address = source
            .and_then(|s| ProviderAddress::parse(&s, m.dialect))
            .unwrap_or_else(|| ProviderAddress::implied(local, m.dialect));
        out.insert(local.clone(), address);
    }
    let configured = m.providers.keys().map(|(local, _)| local.clone());
    let used = m.resources.values().map(|r| {
        r.provider
            .as_ref()
            .and_then(|p| local_name(p.expr()))
            .unwrap_or_else(|| implied_local_name(&r.key.type_name).to_string())
    });
    for local in configured.chain(used) {
        let implied = ProviderAddress::implied(&local, m.dialect);
        out.entry(local).or_insert(implied);
    }
    out
}

/// The local name a resource type implies: the type up to its first `_`.
pub fn implied_local_name(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
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
