//! Completion in a variable definitions file (`.tfvars`): the input variables of the
//! module in its directory, those without a default first and those already given left
//! out (in JSON, those written before the cursor too: the text does not parse while a
//! key is typed); a boolean variable's values.

use super::references::source_text;
use super::{json_keys, variables, Context, Item, ItemKind, Position, Scope};
use crate::syntax::Syntax;

/// Sort group of values.
const VALUES: u8 = 0;

/// The suggestions at `ctx` in a variable definitions file.
pub fn complete(scope: &Scope, ctx: &Context) -> Vec<Item> {
    let Some(m) = scope.ws.merged(&scope.dir) else {
        return Vec::new();
    };
    match &ctx.position {
        Position::Body if ctx.blocks.is_empty() => {
            let mut written = scope.written(&[]);
            if scope.file.syntax.syntax != Syntax::Native {
                written.extend(json_keys::top_level_keys(&scope.file.text, scope.offset));
            }
            m.variables
                .values()
                .filter(|v| !written.contains(&v.name))
                .map(|v| variables::input(&m, v, scope.options.snippets))
                .collect()
        }
        Position::Value { attribute, place } if ctx.blocks.is_empty() && place.whole => {
            let is_bool = m
                .variables
                .get(attribute)
                .and_then(|v| v.type_constraint.as_ref())
                .is_some_and(|t| source_text(&m, t) == "bool");
            if !is_bool {
                return Vec::new();
            }
            ["true", "false"]
                .iter()
                .map(|v| Item::plain(*v, ItemKind::Value, VALUES))
                .collect()
        }
        _ => Vec::new(),
    }
}
