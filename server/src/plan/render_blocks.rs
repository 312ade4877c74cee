//! Nested blocks in the plan text, as `terraform plan` shows them when the provider
//! schema says which attributes of an object are blocks: after the attributes, each block
//! on its own, separated by a blank line, marked `+` (added), `-` (removed) or `~`
//! (changed, with its attributes' changes inside); unchanged blocks are counted, and a
//! block list known only after apply is `+ name (known after apply)`. Blocks nested in
//! blocks show as attributes of them.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::providers::differs;
use super::render_values::{attribute_type, render};
use super::Action;
use crate::eval::Value;
use crate::schema::BlockSchema;

/// Writes the blocks `names` of an object, from its `before` and `after` attributes, at
/// `indent` spaces.
pub(super) fn render_blocks(
    out: &mut String,
    action: Action,
    before: &BTreeMap<String, Value>,
    after: &BTreeMap<String, Value>,
    names: &[String],
    indent: usize,
    schema: Option<&BlockSchema>,
) {
    let pad = " ".repeat(indent);
    let mut names: Vec<&String> = names.iter().collect();
    names.sort();
    let mut hidden = 0;
    for name in names {
        let (old, new) = (before.get(name), after.get(name));
        if action != Action::Delete && matches!(new, Some(Value::Unknown | Value::UnknownOf(_))) {
            let _ = write!(out, "\n{pad}+ {name} (known after apply)\n");
            continue;
        }
        let olds = items(old);
        let news = if action == Action::Delete {
            Vec::new()
        } else {
            items(new)
        };
        for i in 0..olds.len().max(news.len()) {
            let (o, n) = (olds.get(i).copied(), news.get(i).copied());
            let sym = match (o, n) {
                (None, Some(_)) => "+",
                (Some(_), None) => "-",
                (Some(o), Some(n)) if differs(n, o, true) => "~",
                _ => {
                    hidden += 1;
                    continue;
                }
            };
            let _ = write!(out, "\n{pad}{sym} {name} {{\n");
            let nested = schema.and_then(|s| s.blocks.iter().find(|b| *b.name == **name));
            block_body(out, o, n, indent + 4, nested.map(|b| &*b.schema));
            let _ = writeln!(out, "{pad}  }}");
        }
    }
    if hidden > 0 {
        let s = if hidden == 1 { "" } else { "s" };
        let _ = write!(out, "\n{pad}  # ({hidden} unchanged block{s} hidden)\n");
    }
}

/// The blocks a value holds: a list's objects, or one object.
fn items(value: Option<&Value>) -> Vec<&Value> {
    match value {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => match v.elements() {
            Some(list) => list.iter().collect(),
            None => vec![v],
        },
    }
}

/// The attribute lines of one block: added, removed or changed; unchanged ones counted.
fn block_body(
    out: &mut String,
    old: Option<&Value>,
    new: Option<&Value>,
    indent: usize,
    schema: Option<&BlockSchema>,
) {
    let empty = BTreeMap::new();
    let b = old.and_then(Value::attributes).unwrap_or(&empty);
    let a = new.and_then(Value::attributes).unwrap_or(&empty);
    let mut keys: Vec<&String> = b.keys().chain(a.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut lines = Vec::new();
    let mut hidden = 0;
    for key in keys {
        let (o, n) = (
            b.get(key).unwrap_or(&Value::Null),
            a.get(key).unwrap_or(&Value::Null),
        );
        let ty = schema
            .and_then(|s| s.attributes.iter().find(|a| *a.name == **key))
            .and_then(attribute_type);
        let render = |o: &Value, n: &Value| render(o, n, indent, ty.as_ref());
        let line = match (o.is_null(), n.is_null()) {
            (true, true) => None,
            (true, false) => Some(("+", render(o, n))),
            (false, true) => Some(("-", render(o, n))),
            (false, false) if differs(n, o, true) => Some(("~", render(o, n))),
            (false, false) => {
                hidden += 1;
                None
            }
        };
        if let Some((sym, text)) = line {
            lines.push((key, sym, text));
        }
    }
    let width = lines.iter().map(|(k, _, _)| k.len()).max().unwrap_or(0);
    let pad = " ".repeat(indent);
    for (key, sym, text) in lines {
        let _ = writeln!(out, "{pad}{sym} {key:<width$} = {text}");
    }
    if hidden > 0 {
        let s = if hidden == 1 { "" } else { "s" };
        let _ = writeln!(out, "{pad}  # ({hidden} unchanged attribute{s} hidden)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn created_blocks_show_their_set_and_unknown_attributes() {
        let block = Value::Object(obj(&[
            ("volume_size", Value::Number(10.0)),
            ("volume_id", Value::Unknown),
            ("tags", Value::Null),
        ]));
        let after = obj(&[
            ("root_block_device", Value::List(vec![block])),
            ("ebs_block_device", Value::Unknown),
            ("launch_template", Value::List(Vec::new())),
        ]);
        let names = ["root_block_device", "ebs_block_device", "launch_template"].map(String::from);
        let mut out = String::new();
        render_blocks(
            &mut out,
            Action::Create,
            &BTreeMap::new(),
            &after,
            &names,
            6,
            None,
        );
        assert_eq!(
            out,
            "\n      + ebs_block_device (known after apply)\n\
             \n      + root_block_device {\n          + volume_id   = (known after apply)\n          + volume_size = 10\n        }\n"
        );
    }

    #[test]
    fn changed_blocks_show_their_changes_and_unchanged_ones_are_counted() {
        let item = |size: f64| {
            Value::Object(obj(&[
                ("volume_size", Value::Number(size)),
                ("device_name", Value::string("/dev/sda1")),
            ]))
        };
        let before = obj(&[
            ("root_block_device", Value::List(vec![item(10.0)])),
            ("ebs_block_device", Value::List(vec![item(5.0)])),
        ]);
        let after = obj(&[
            ("root_block_device", Value::List(vec![item(20.0)])),
            ("ebs_block_device", Value::List(vec![item(5.0)])),
        ]);
        let names = ["root_block_device", "ebs_block_device"].map(String::from);
        let mut out = String::new();
        render_blocks(&mut out, Action::Update, &before, &after, &names, 6, None);
        assert_eq!(
            out,
            "\n      ~ root_block_device {\n          ~ volume_size = 10 -> 20\n            # (1 unchanged attribute hidden)\n        }\n\
             \n        # (1 unchanged block hidden)\n"
        );
    }
}
