//! Arguments whose values are references of a few kinds only: what `depends_on`,
//! `replace_triggered_by` and a `moved` block's `from` may name. `depends_on` takes
//! whole objects (resources, data sources, module calls, variables, local values: never
//! an attribute, a function or `path`/`terraform`/`each`/`count`); `replace_triggered_by`
//! takes managed resources and their attributes, with `count`/`each` for instance keys;
//! a `moved` block's `from` also takes the addresses of the prior state's resources that
//! the configuration no longer declares.

use super::context::ValuePlace;
use super::{Context, Item, ItemKind, Scope};
use crate::merge::Mode;
use crate::plan::ResourceMode;
use crate::workspace::state_file;

/// Sort group of a prior state's address: before the declared names.
const STATE: u8 = 3;

/// `items` (the values and references offered for `attribute` at `place`) without those
/// the argument cannot take, and with the ones only it takes.
pub fn restrict(
    scope: &Scope,
    ctx: &Context,
    attribute: &str,
    place: &ValuePlace,
    items: &mut Vec<Item>,
) {
    let block = ctx.blocks.last().map(|b| b.kind.as_str());
    let at_root = place.path.is_empty();
    match (block, attribute) {
        (_, "depends_on") => {
            let object = |i: &Item| {
                i.kind == ItemKind::Type
                    || (i.kind == ItemKind::Keyword
                        && ["var", "local", "module", "data", "ephemeral"].contains(&&*i.label))
            };
            // Past the object (`TYPE.NAME.`, `module.CALL.`): nothing may follow.
            let whole = !past_object(&place.path);
            items.retain(|i| whole && (!at_root || object(i)));
        }
        (Some("lifecycle"), "replace_triggered_by") => {
            let managed = |i: &Item| {
                i.kind == ItemKind::Type
                    || (i.kind == ItemKind::Keyword && ["count", "each"].contains(&&*i.label))
            };
            let root = place.path.first().map(String::as_str);
            let takes = at_root
                || matches!(root, Some("count" | "each"))
                || !matches!(
                    root,
                    Some(
                        "var"
                            | "local"
                            | "module"
                            | "data"
                            | "ephemeral"
                            | "path"
                            | "terraform"
                            | "self"
                    )
                );
            items.retain(|i| takes && (!at_root || managed(i)));
        }
        (Some("moved"), "from") if at_root => {
            items.retain(|i| i.kind != ItemKind::Function);
            items.extend(state_addresses(scope));
        }
        _ => {}
    }
}

/// Whether a reference path already names a whole object (`["aws_x", "a"]`,
/// `["data", "t", "n"]`, `["module", "m"]`), so that what follows is an attribute.
fn past_object(path: &[String]) -> bool {
    match path.first().map(String::as_str) {
        Some("data" | "ephemeral") => path.len() >= 3,
        _ => path.len() >= 2,
    }
}

/// The managed resources of the root module's prior state (the state file the plan's
/// code lenses read: the `strata.plan.statePath` setting, else `terraform.tfstate` in the
/// module's directory) that the configuration no longer declares: what a rename left.
fn state_addresses(scope: &Scope) -> Vec<Item> {
    let Some(m) = scope.merged.as_deref() else {
        return Vec::new();
    };
    let path = state_file(&scope.dir, scope.options.state_path.as_deref());
    let Ok(state) = scope.ws.prior_state(&path) else {
        return Vec::new();
    };
    state
        .resources
        .iter()
        .filter(|r| r.module.is_empty() && r.mode == ResourceMode::Managed)
        .filter(|r| {
            !m.resources
                .keys()
                .any(|k| k.mode == Mode::Managed && k.type_name == r.type_name && k.name == r.name)
        })
        .map(|r| {
            Item::plain(
                format!("{}.{}", r.type_name, r.name),
                ItemKind::Object,
                STATE,
            )
            .detail("in the prior state, no longer declared")
        })
        .collect()
}
