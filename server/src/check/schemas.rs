//! Resource types whose arguments Strata knows without a provider (DESIGN.md: built-in
//! knowledge): an argument they do not have is `Unsupported argument`, or, in a resource
//! an override file changes (Terraform then stops checking its arguments, spec §1.5), a
//! warning that it is silently ignored (the rule is `arguments::unknown_argument`).

use super::arguments::{unknown_argument, Ignored};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Mode, Origin};
use crate::syntax::ExprKind;

/// The arguments of the resource types whose schema is fixed and known.
pub(super) fn arguments(type_name: &str) -> Option<&'static [&'static str]> {
    match type_name {
        "terraform_data" => Some(&["input", "triggers_replace"]),
        "null_resource" => Some(&["triggers"]),
        _ => None,
    }
}

/// The attributes the provider computes, beside the arguments.
fn computed(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "terraform_data" => &["id", "output"],
        "null_resource" => &["id"],
        _ => &[],
    }
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    ignore_changes(m, out);
    attribute_references(m, out);
    for r in m.resources.values().filter(|r| r.key.mode == Mode::Managed) {
        let Some(known) = arguments(&r.key.type_name) else {
            continue;
        };
        let overridden = !r.provenance.overrides.is_empty();
        for a in &r.config.attributes {
            let name = &*a.attr.name.name;
            if known.contains(&name) {
                continue;
            }
            let origin = Origin {
                file: a.file,
                span: a.attr.name.span,
            };
            let ignored = overridden.then(|| Ignored {
                summary: "Argument ignored in an overridden resource",
                reason: format!("{} has no argument \"{name}\".", r.key.type_name),
                what: "a resource",
            });
            out.push(unknown_argument(m, origin, name, known, ignored));
        }
    }
}

/// `ignore_changes` paths whose first step the resource type does not have, as
/// `terraform validate` checks them against the schema (`Unsupported attribute`).
fn ignore_changes(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        for block in file.syntax.body.blocks_of("resource") {
            let Some(known) = block.label(0).and_then(arguments) else {
                continue;
            };
            let all: Vec<&str> = known
                .iter()
                .chain(computed(block.label(0).unwrap_or_default()))
                .copied()
                .collect();
            let paths = block
                .body
                .blocks_of("lifecycle")
                .filter_map(|lc| lc.body.attribute("ignore_changes"));
            for a in paths {
                let ExprKind::Tuple(items) = &a.expr.kind else {
                    continue;
                };
                for item in items {
                    let first = match &item.kind {
                        ExprKind::Variable(id) => id,
                        ExprKind::Traversal { root, .. } => match &root.kind {
                            ExprKind::Variable(id) => id,
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if all.contains(&&*first.name) {
                        continue;
                    }
                    let hint = super::arguments::suggestion_among(&first.name, &all)
                        .map(|s| format!(" Did you mean {s:?}?"))
                        .unwrap_or_default();
                    let origin = Origin {
                        file: fi as u32,
                        span: first.span,
                    };
                    out.push(at(
                        m,
                        origin,
                        Severity::Error,
                        super::arguments::UNSUPPORTED_ARGUMENT,
                        "Unsupported attribute".into(),
                        format!(
                            "This object has no argument, nested block, or exported attribute named {:?}.{hint}",
                            first.name
                        ),
                    ));
                }
            }
        }
    }
}

/// References to an attribute a built-in resource type does not have
/// (`terraform_data.a.nope`), as the validate walk checks them against the schema.
/// Terraform does not check them in output values (recorded in
/// fixtures/validate/deprecations-and-attrs).
fn attribute_references(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    super::evaluated::walk(m, |expr, place| {
        if place.block == "output" {
            return;
        }
        for r in crate::eval::references(expr) {
            let Some((type_name, name)) = r.subject.split_once('.') else {
                continue;
            };
            let key = crate::merge::ResourceKey {
                mode: Mode::Managed,
                type_name: type_name.to_string(),
                name: name.to_string(),
            };
            let Some(resource) = m.resources.get(&key) else {
                continue;
            };
            let (Some(known), Some(step)) = (arguments(type_name), r.remaining.first()) else {
                continue;
            };
            let single = resource.count.is_none() && resource.for_each.is_none();
            let Some(attribute) = step.strip_prefix('.').filter(|_| single) else {
                continue;
            };
            let all: Vec<&str> = known.iter().chain(computed(type_name)).copied().collect();
            // `count` has its own error (walk_values.rs), and the schema is not consulted.
            if all.contains(&attribute) || attribute == "count" {
                continue;
            }
            let hint = super::arguments::suggestion_among(attribute, &all)
                .map(|s| format!(" Did you mean {s:?}?"))
                .unwrap_or_default();
            let start = r.span.start as usize + r.subject.len();
            let origin = Origin {
                file: place.file,
                span: crate::syntax::Span::new(start, start + step.len()),
            };
            out.push(at(
                m,
                origin,
                Severity::Error,
                super::arguments::UNSUPPORTED_ARGUMENT,
                "Unsupported attribute".into(),
                format!("This object has no argument, nested block, or exported attribute named {attribute:?}.{hint}"),
            ));
        }
    });
}
