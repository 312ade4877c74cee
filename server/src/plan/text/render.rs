//! A computed diff as text (`jsonformat/computed/renderers`): each nesting level four
//! columns right of its parent, each line led by its change symbol; unchanged children
//! counted (`# (2 unchanged attributes hidden)`) except `id`, `name` and `tags`; a removed
//! value ends in `-> null` where its parent does not already say so; `# forces
//! replacement` where the plan's `replace_paths` end.

use std::collections::BTreeMap;

use super::diff::{BlockGroup, Blocks, Diff, Opts, Renderer};
use super::primitive::render_primitive;
use crate::plan::Action;
use crate::schema::is_identifier;
use crate::text::go_quote::go_quote;

/// The attributes a block or object always shows.
const IMPORTANT: [&str; 3] = ["id", "name", "tags"];

/// The symbol of an action, three columns wide (`format.DiffActionSymbol`).
pub(super) fn symbol(action: Action) -> &'static str {
    match action {
        Action::DeleteThenCreate => "-/+",
        Action::CreateThenDelete => "+/-",
        Action::Create => "  +",
        Action::Delete => "  -",
        Action::Forget => " .",
        Action::Read => " <=",
        Action::Update => "  ~",
        Action::NoOp => "   ",
    }
}

/// The symbol and the space after it.
pub(super) fn write_symbol(action: Action) -> String {
    format!("{} ", symbol(action))
}

/// `-> null` after a removed value, unless its parent says so.
pub(super) fn null_suffix(action: Action, opts: Opts) -> &'static str {
    match !opts.override_null_suffix && action == Action::Delete {
        true => " -> null",
        false => "",
    }
}

/// `# forces replacement` after a value whose change forces it.
pub(super) fn forces_replacement(replace: bool, opts: Opts) -> String {
    match (replace || opts.force_forces_replacement) && !opts.forbid_forces_replacement {
        true => " # forces replacement".into(),
        false => String::new(),
    }
}

/// The indentation of nesting level `indent`.
pub(super) fn pad(indent: usize) -> String {
    "    ".repeat(indent)
}

fn unchanged(what: &str, count: usize) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("# ({count} unchanged {what}{s} hidden)")
}

/// The line counting a collection's hidden children, if any.
fn hidden_line(out: &mut String, what: &str, count: usize, indent: usize) {
    if count > 0 {
        out.push_str(&format!(
            "{}{}{}\n",
            pad(indent + 1),
            write_symbol(Action::NoOp),
            unchanged(what, count)
        ));
    }
}

/// The bracket closing a collection, with `-> null` when it is removed.
fn closing(bracket: char, diff: &Diff, indent: usize, opts: Opts) -> String {
    format!(
        "{}{}{bracket}{}",
        pad(indent),
        write_symbol(Action::NoOp),
        null_suffix(diff.action, opts)
    )
}

/// A name as an attribute name: quoted unless it is an identifier.
pub(super) fn attribute_name(name: &str) -> String {
    match is_identifier(name) {
        true => name.to_string(),
        false => go_quote(name),
    }
}

/// The text of a diff at nesting level `indent` (`RenderHuman`).
pub(super) fn render(diff: &Diff, indent: usize, opts: Opts) -> String {
    match &diff.renderer {
        Renderer::Primitive { before, after, ty } => {
            render_primitive(diff, before, after, *ty, indent, opts)
        }
        Renderer::List { elements, context } => list(diff, elements, *context, indent, opts),
        Renderer::Set { elements, nested } => set(diff, elements, *nested, indent, opts),
        Renderer::Map { elements, nested } => map(diff, elements, *nested, indent, opts),
        Renderer::Object { attributes, nested } => object(diff, attributes, *nested, indent, opts),
        Renderer::Block { attributes, blocks } => block(diff, attributes, blocks, indent, opts),
        Renderer::Unknown(before) => match before {
            Some(before) if diff.action != Action::Create => {
                let mut before_opts = opts.child();
                before_opts.override_null_suffix = true;
                before_opts.forbid_forces_replacement = diff.replace;
                format!(
                    "{} -> (known after apply){}",
                    render(before, indent, before_opts),
                    forces_replacement(diff.replace, opts)
                )
            }
            _ => format!(
                "(known after apply){}",
                forces_replacement(diff.replace, opts)
            ),
        },
        Renderer::Sensitive { .. } => format!(
            "(sensitive value){}{}",
            null_suffix(diff.action, opts),
            forces_replacement(diff.replace, opts)
        ),
        Renderer::SensitiveBlock { .. } => {
            let prefix = format!("{}{}", pad(indent), write_symbol(Action::NoOp));
            format!(
                "{{{}\n{prefix}  # At least one attribute in this block is (or was) sensitive,\n{prefix}  # so its contents will not be displayed.\n{prefix}}}",
                forces_replacement(diff.replace, opts)
            )
        }
        Renderer::TypeChange(before, after) => {
            let mut inner = opts;
            inner.override_null_suffix = true;
            format!(
                "{} -> {}",
                render(before, indent, inner),
                render(after, indent, inner)
            )
        }
        Renderer::WriteOnly { sensitive } => format!(
            "{}{}{}",
            match sensitive {
                true => "(sensitive, write-only attribute)",
                false => "(write-only attribute)",
            },
            null_suffix(diff.action, opts),
            forces_replacement(diff.replace, opts)
        ),
    }
}

/// The comment lines above a value whose sensitivity changes (`WarningsHuman`).
pub(super) fn warnings(diff: &Diff, indent: usize) -> Vec<String> {
    let (inner, before, after, what) = match &diff.renderer {
        Renderer::Sensitive {
            inner,
            before,
            after,
        } => (inner, before, after, "attribute value"),
        Renderer::SensitiveBlock {
            inner,
            before,
            after,
        } => (inner, before, after, "block"),
        _ => return Vec::new(),
    };
    if before == after || matches!(inner.action, Action::Create | Action::Delete) {
        return Vec::new();
    }
    let warning = match before {
        true => format!(
            "  # Warning: this {what} will no longer be marked as sensitive\n{}  # after applying this change.",
            pad(indent)
        ),
        false => format!(
            "  # Warning: this {what} will be marked as sensitive and will not\n{}  # display in UI output after applying this change.",
            pad(indent)
        ),
    };
    match (what, inner.action) {
        ("attribute value", Action::NoOp) => vec![format!("{warning} The value is unchanged.")],
        _ => vec![warning],
    }
}

/// Writes a diff's warnings, each on its own line at `indent`.
fn write_warnings(out: &mut String, diff: &Diff, indent: usize) {
    for warning in warnings(diff, indent) {
        out.push_str(&format!("{}{warning}\n", pad(indent)));
    }
}

fn list(diff: &Diff, elements: &[Diff], context: bool, indent: usize, opts: Opts) -> String {
    if elements.is_empty() {
        let replace = forces_replacement(diff.replace, opts);
        return format!("[]{}{replace}", null_suffix(diff.action, opts));
    }
    let mut element_opts = opts.child();
    element_opts.override_null_suffix = true;
    let mut unchanged_opts = opts.child();
    unchanged_opts.show_unchanged_children = true;
    let inner = pad(indent + 1);
    let mut out = format!("[{}\n", forces_replacement(diff.replace, opts));
    let mut skipped: Vec<&Diff> = Vec::new();
    let mut render_next = false;
    for element in elements {
        if element.action == Action::NoOp && !render_next && !opts.show_unchanged_children {
            skipped.push(element);
            continue;
        }
        render_next = false;
        let mut this_opts = element_opts;
        if context {
            // The unchanged element before a change is shown for context, those before it
            // counted; so is the element after it.
            if skipped.len() > 1 {
                let count = unchanged("element", skipped.len() - 1);
                out.push_str(&format!("{inner}{}{count}\n", write_symbol(Action::NoOp)));
            }
            if let Some(last) = skipped.last() {
                let text = render(last, indent + 1, unchanged_opts);
                out.push_str(&format!("{inner}{}{text},\n", write_symbol(last.action)));
            }
            skipped.clear();
            match element.action {
                Action::NoOp => this_opts = unchanged_opts,
                _ => render_next = true,
            }
        }
        write_warnings(&mut out, element, indent + 1);
        let text = render(element, indent + 1, this_opts);
        out.push_str(&format!("{inner}{}{text},\n", write_symbol(element.action)));
    }
    hidden_line(&mut out, "element", skipped.len(), indent);
    out.push_str(&closing(']', diff, indent, opts));
    out
}

fn set(diff: &Diff, elements: &[Diff], nested: bool, indent: usize, opts: Opts) -> String {
    // A nested attribute set says `# forces replacement` on its elements, not itself.
    let (own, children) = (diff.replace && !nested, diff.replace && nested);
    if elements.is_empty() {
        let replace = forces_replacement(own, opts);
        return format!("[]{}{replace}", null_suffix(diff.action, opts));
    }
    let mut element_opts = opts.child();
    element_opts.override_null_suffix = true;
    element_opts.force_forces_replacement = children;
    let inner = pad(indent + 1);
    let mut out = format!("[{}\n", forces_replacement(own, opts));
    let mut hidden = 0;
    for element in elements {
        if element.action == Action::NoOp && !opts.show_unchanged_children {
            hidden += 1;
            continue;
        }
        write_warnings(&mut out, element, indent + 1);
        let text = render(element, indent + 1, element_opts);
        out.push_str(&format!("{inner}{}{text},\n", write_symbol(element.action)));
    }
    hidden_line(&mut out, "element", hidden, indent);
    out.push_str(&closing(']', diff, indent, opts));
    out
}

fn map(
    diff: &Diff,
    elements: &BTreeMap<String, Diff>,
    nested: bool,
    indent: usize,
    opts: Opts,
) -> String {
    let (own, children) = (diff.replace && !nested, diff.replace && nested);
    if elements.is_empty() {
        let replace = forces_replacement(own, opts);
        return format!("{{}}{}{replace}", null_suffix(diff.action, opts));
    }
    let width = elements
        .keys()
        .map(|k| go_quote(k).len())
        .max()
        .unwrap_or(0);
    let mut element_opts = opts.child();
    element_opts.override_null_suffix = diff.action == Action::Delete || nested;
    element_opts.force_forces_replacement = children;
    let inner = pad(indent + 1);
    let mut out = format!("{{{}\n", forces_replacement(own, opts));
    let mut hidden = 0;
    for (key, element) in elements {
        if element.action == Action::NoOp && !opts.show_unchanged_children {
            hidden += 1;
            continue;
        }
        write_warnings(&mut out, element, indent + 1);
        // Only objects in a map end in a comma.
        let comma = match element.renderer {
            Renderer::Object { .. } => ",",
            _ => "",
        };
        let key = go_quote(key);
        let key = match nested {
            true => key,
            false => format!("{key:<width$}"),
        };
        let text = render(element, indent + 1, element_opts);
        out.push_str(&format!(
            "{inner}{}{key} = {text}{comma}\n",
            write_symbol(element.action)
        ));
    }
    hidden_line(&mut out, "element", hidden, indent);
    out.push_str(&closing('}', diff, indent, opts));
    out
}

/// One `name = value` line per attribute, aligned; `id`, `name` and `tags` always shown.
/// Returns how many unchanged attributes were hidden.
fn attribute_lines(
    out: &mut String,
    attributes: &BTreeMap<String, Diff>,
    indent: usize,
    opts: Opts,
    attribute_opts: Opts,
    escape_important: bool,
) -> usize {
    let width = attributes
        .keys()
        .map(|k| attribute_name(k).len())
        .max()
        .unwrap_or(0);
    let inner = pad(indent + 1);
    let mut hidden = 0;
    for (key, attribute) in attributes {
        let name = attribute_name(key);
        if IMPORTANT.contains(&key.as_str()) {
            let mut important = attribute_opts.child();
            important.show_unchanged_children = true;
            write_warnings(out, attribute, indent + 1);
            let name = if escape_important { name } else { key.clone() };
            let text = render(attribute, indent + 1, important);
            out.push_str(&format!(
                "{inner}{}{name:<width$} = {text}\n",
                write_symbol(attribute.action)
            ));
            continue;
        }
        if attribute.action == Action::NoOp && !opts.show_unchanged_children {
            hidden += 1;
            continue;
        }
        write_warnings(out, attribute, indent + 1);
        let text = render(attribute, indent + 1, attribute_opts);
        out.push_str(&format!(
            "{inner}{}{name:<width$} = {text}\n",
            write_symbol(attribute.action)
        ));
    }
    hidden
}

fn object(
    diff: &Diff,
    attributes: &BTreeMap<String, Diff>,
    nested: bool,
    indent: usize,
    opts: Opts,
) -> String {
    if attributes.is_empty() {
        let replace = forces_replacement(diff.replace, opts);
        return format!("{{}}{}{replace}", null_suffix(diff.action, opts));
    }
    let mut attribute_opts = opts.child();
    attribute_opts.override_null_suffix = !nested;
    let mut out = format!("{{{}\n", forces_replacement(diff.replace, opts));
    let hidden = attribute_lines(&mut out, attributes, indent, opts, attribute_opts, true);
    hidden_line(&mut out, "attribute", hidden, indent);
    out.push_str(&closing('}', diff, indent, opts));
    out
}

fn block(
    diff: &Diff,
    attributes: &BTreeMap<String, Diff>,
    blocks: &BTreeMap<String, BlockGroup>,
    indent: usize,
    opts: Opts,
) -> String {
    if attributes.is_empty() && blocks.is_empty() {
        return format!("{{}}{}", forces_replacement(diff.replace, opts));
    }
    let mut out = format!("{{{}\n", forces_replacement(diff.replace, opts));
    let hidden = attribute_lines(&mut out, attributes, indent, opts, opts.child(), false);
    let inner = pad(indent + 1);
    hidden_line(&mut out, "attribute", hidden, indent);
    let mut hidden_blocks = 0;
    for (key, group) in blocks {
        let mut separated = false;
        let mut one = |out: &mut String, block: &Diff, map_key: &str| {
            let shown = sensitive_block(block, group);
            if shown.action == Action::NoOp && !opts.show_unchanged_children {
                hidden_blocks += 1;
                return;
            }
            // A blank line between the attributes and each block type's first block.
            if !separated && !attributes.is_empty() {
                out.push('\n');
                separated = true;
            }
            let mut block_opts = opts.child();
            block_opts.force_forces_replacement = group.replace;
            write_warnings(out, &shown, indent + 1);
            let text = render(&shown, indent + 1, block_opts);
            out.push_str(&format!(
                "{inner}{}{}{map_key} {text}\n",
                write_symbol(shown.action),
                attribute_name(key)
            ));
        };
        let unknown = Diff::new(Renderer::Unknown(None), diff.action, false);
        match &group.blocks {
            Blocks::Single(b) => one(&mut out, b, ""),
            Blocks::Map(m) => {
                if group.unknown {
                    one(&mut out, &unknown, "");
                }
                for (k, b) in m {
                    one(&mut out, b, &format!(" {}", go_quote(k)));
                }
            }
            Blocks::List(items) | Blocks::Set(items) => {
                if group.unknown {
                    one(&mut out, &unknown, "");
                }
                for b in items {
                    one(&mut out, b, "");
                }
            }
        }
    }
    if hidden_blocks > 0 {
        let count = unchanged("block", hidden_blocks);
        out.push_str(&format!("\n{inner}{}{count}\n", write_symbol(Action::NoOp)));
    }
    out.push_str(&format!("{}{}}}", pad(indent), write_symbol(Action::NoOp)));
    out
}

/// A block of a type whose blocks are (or were) all sensitive, shown without its contents.
fn sensitive_block(block: &Diff, group: &BlockGroup) -> Diff {
    let (before, after) = (group.before_sensitive, group.after_sensitive);
    let hide = match block.action {
        Action::Create => after,
        Action::Delete => before,
        Action::Update | Action::NoOp => before || after,
        _ => false,
    };
    if !hide {
        return block.clone();
    }
    let action = match block.action {
        Action::NoOp if before != after => Action::Update,
        other => other,
    };
    let inner = Box::new(block.clone());
    let renderer = Renderer::SensitiveBlock {
        inner,
        before,
        after,
    };
    Diff::new(renderer, action, block.replace)
}
