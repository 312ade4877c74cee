//! HCL's `ContextString` for a JSON file: the path of properties and array indexes
//! (`provider.aws[0].assume_role`) through the objects and arrays that hold a byte,
//! which Terraform prints after a diagnostic's place (`on main.tf.json line 3, in …`).

use super::json_parser;
use super::{JsonKind, JsonValue};

/// The context of byte `offset` of the JSON text `text`: `None` when no object or array
/// under the root holds it.
pub fn json_context(text: &str, offset: usize) -> Option<String> {
    let root = json_parser::parse(text).value;
    let mut steps = Vec::new();
    descend(&root, offset, &mut steps);
    let joined = steps.concat();
    let joined = joined.strip_prefix('.').unwrap_or(&joined);
    (!joined.is_empty()).then(|| joined.to_string())
}

/// Follows the first object or array value that holds `offset`, as HCL's
/// `navigationStepsRev` does (scalars are never named).
fn descend(value: &JsonValue, offset: usize, steps: &mut Vec<String>) {
    let holds = |v: &JsonValue| {
        matches!(v.kind, JsonKind::Object(_) | JsonKind::Array(_))
            && (v.span.start as usize) <= offset
            && offset < v.span.end as usize
    };
    match &value.kind {
        JsonKind::Object(properties) => {
            if let Some((key, inner)) = properties.iter().find(|(_, v)| holds(v)) {
                steps.push(format!(".{}", key.name));
                descend(inner, offset, steps);
            }
        }
        JsonKind::Array(items) => {
            if let Some((i, inner)) = items.iter().enumerate().find(|(_, v)| holds(v)) {
                steps.push(format!("[{i}]"));
                descend(inner, offset, steps);
            }
        }
        _ => {}
    }
}
