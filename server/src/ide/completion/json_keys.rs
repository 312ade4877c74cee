//! The cursor's context in the JSON syntax (`.tf.json`): the keys of the objects around
//! the cursor are read from the text before it (arrays of objects stand for several
//! blocks and are passed through), then unfolded as Terraform's JSON syntax unfolds them
//! with the schema: a block type's key, then one key per label, then its body's keys. A
//! key position in a body is `Position::Body`, in the labels `Position::Label`; in a
//! `${ }` or `%{ }` sequence of an argument's string, `Position::Value`, read from the
//! string as the native syntax's template (references and functions are offered there);
//! anywhere else, nothing is offered.

use super::context::{floor_char_boundary, BlockFrame, Call, Context, Position, ValuePlace};
use super::Scope;

/// What is open at a point of the text.
enum Container {
    /// An object: the key whose value is being written, or none while a key is due.
    Object {
        key: Option<String>,
        key_due: bool,
        /// The keys written before, which are not offered again.
        keys: Vec<String>,
    },
    Array,
}

/// The context at byte `cursor` of the JSON `text`; inside a `${ }` or `%{ }` sequence
/// of a string value when its strings are `templates` (in a configuration file, not in
/// a variables file).
pub fn context_at(scope: &Scope, text: &str, cursor: usize, templates: bool) -> Context {
    let cursor = floor_char_boundary(text, cursor.min(text.len()));
    let nothing = Context {
        blocks: Vec::new(),
        position: Position::Nothing,
        prefix: cursor..cursor,
    };
    if let Some((path, start)) = value_path(text, cursor).filter(|_| templates) {
        return match unfold(scope, &path) {
            Unfolded::Blocks { blocks, rest } if rest < path.len() => {
                template_context(text, start, cursor, &path[rest], blocks).unwrap_or(nothing)
            }
            _ => nothing,
        };
    }
    let Some(KeyPath {
        path,
        quoted_from,
        written: in_body,
    }) = key_path(text, cursor)
    else {
        return nothing;
    };
    let prefix = match quoted_from {
        Some(start) => {
            let rest = &text[cursor..];
            start..cursor + rest.find(['"', '\n']).unwrap_or(rest.len())
        }
        None => cursor..cursor,
    };
    match unfold(scope, &path) {
        // A key that names no block type is an argument: its object is a value.
        Unfolded::Blocks { rest, .. } if rest < path.len() => nothing,
        Unfolded::Blocks { mut blocks, .. } => {
            if let Some(innermost) = blocks.last_mut() {
                innermost.written = in_body;
            }
            Context {
                blocks,
                position: Position::Body,
                prefix,
            }
        }
        Unfolded::Labels {
            blocks,
            kind,
            before,
        } => Context {
            position: Position::Label {
                kind,
                index: before.len(),
                before,
                quoted: quoted_from.is_some(),
            },
            blocks,
            prefix,
        },
    }
}

/// How Terraform's JSON syntax unfolds a path of keys with the schema.
enum Unfolded {
    /// The blocks the keys open, and the index of the first key that names no block
    /// type (an argument; the path's length when there is none).
    Blocks {
        blocks: Vec<BlockFrame>,
        rest: usize,
    },
    /// The keys end among the labels of a block of type `kind`, `before` written.
    Labels {
        blocks: Vec<BlockFrame>,
        kind: String,
        before: Vec<String>,
    },
}

/// `path` unfolded as Terraform's JSON syntax unfolds it: a block type's key, then one
/// key per label, then its body's keys.
fn unfold(scope: &Scope, path: &[String]) -> Unfolded {
    let mut blocks: Vec<BlockFrame> = Vec::new();
    let mut i = 0;
    while i < path.len() {
        let kind = &path[i];
        let schemas = scope.body_schemas(&blocks);
        let language = schemas
            .language
            .as_ref()
            .and_then(|l| l.block(kind, scope.dialect).map(|b| b.schema.labels.len()));
        let provider = schemas
            .provider
            .as_ref()
            .and_then(|p| p.block(kind, scope.dialect).map(|_| 0));
        let Some(labels) = language.or(provider) else {
            break;
        };
        let written = &path[i + 1..];
        if written.len() < labels {
            return Unfolded::Labels {
                blocks,
                kind: kind.clone(),
                before: written.to_vec(),
            };
        }
        blocks.push(BlockFrame {
            kind: kind.clone(),
            labels: written[..labels].to_vec(),
            written: Vec::new(),
        });
        i += 1 + labels;
    }
    Unfolded::Blocks { blocks, rest: i }
}

/// The context in the value of `attribute` at `cursor`, in a JSON string whose text
/// starts at `start`: the string read as the native syntax's quoted template up to the
/// cursor, its escapes read (`\"` is a quote there). Only a place in a `${ }` or `%{ }`
/// sequence is one (the rest is text); `None` elsewhere.
fn template_context(
    text: &str,
    start: usize,
    cursor: usize,
    attribute: &str,
    blocks: Vec<BlockFrame>,
) -> Option<Context> {
    const HEAD: &str = "a = \"";
    let (typed, offsets) = unescaped(text.get(start..cursor)?)?;
    let native = format!("{HEAD}{typed}");
    let file = crate::syntax::parse(&native, crate::syntax::Syntax::Native, None);
    let ctx = super::context::context_at(&native, &file, native.len());
    let Position::Value { place, .. } = ctx.position else {
        return None;
    };
    if !place.in_template {
        return None;
    }
    // An offset of `native` as one of `text`: each character at its escape's start.
    let at = |o: usize| {
        let o = o.checked_sub(HEAD.len())?;
        Some(start + offsets.get(o).copied().unwrap_or(cursor - start))
    };
    let place = ValuePlace {
        call: place.call.and_then(|c| {
            Some(Call {
                name_span: at(c.name_span.start)?..at(c.name_span.end)?,
                ..c
            })
        }),
        ..place
    };
    Some(Context {
        blocks,
        position: Position::Value {
            attribute: attribute.to_string(),
            place,
        },
        prefix: at(ctx.prefix.start)?..at(ctx.prefix.end)?,
    })
}

/// A JSON string's text (without its quotes) unescaped, with the offset in `raw` of each
/// byte of the result; `None` when it ends inside an escape or has an invalid one.
fn unescaped(raw: &str) -> Option<(String, Vec<usize>)> {
    let mut out = String::with_capacity(raw.len());
    let mut offsets = Vec::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        let c = match c {
            '\\' => match chars.next()?.1 {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'u' => {
                    let hex: String = (0..4)
                        .map(|_| chars.next().map(|(_, h)| h))
                        .collect::<Option<_>>()?;
                    char::from_u32(u32::from_str_radix(&hex, 16).ok()?).unwrap_or('\u{fffd}')
                }
                other => other,
            },
            c => c,
        };
        out.push(c);
        offsets.extend(std::iter::repeat_n(i, c.len_utf8()));
    }
    Some((out, offsets))
}

/// The keys written before `cursor` in the JSON `text`'s outermost object, when a key
/// of it is due there: read from the text, which does not parse while a key is typed.
pub fn top_level_keys(text: &str, cursor: usize) -> Vec<String> {
    let cursor = floor_char_boundary(text, cursor.min(text.len()));
    key_path(text, cursor)
        .filter(|k| k.path.is_empty())
        .map(|k| k.written)
        .unwrap_or_default()
}

/// Where a key is due.
struct KeyPath {
    /// The keys of the objects around the cursor, outermost first.
    path: Vec<String>,
    /// Where the key's text starts, when its opening quote is written.
    quoted_from: Option<usize>,
    /// The keys written before it in its object.
    written: Vec<String>,
}

/// The keys around `cursor` when a key is due there.
fn key_path(text: &str, cursor: usize) -> Option<KeyPath> {
    let (stack, string) = open_at(text, cursor);
    // A key is due where the innermost object awaits one (the one being typed included).
    let written = match stack.last() {
        Some(Container::Object {
            key_due: true,
            keys,
            ..
        }) => keys.clone(),
        _ => return None,
    };
    let path = keys(&stack[..stack.len() - 1]);
    Some(KeyPath {
        path,
        quoted_from: string,
        written,
    })
}

/// The keys of the objects in `stack` whose value is open, outermost first.
fn keys(stack: &[Container]) -> Vec<String> {
    stack
        .iter()
        .filter_map(|c| match c {
            Container::Object { key, .. } => key.clone(),
            Container::Array => None,
        })
        .collect()
}

/// When `cursor` is in a string that is a value (of a property, or an element of an
/// array in one): the keys around it, outermost first (the property's last), and where
/// the string's text starts.
fn value_path(text: &str, cursor: usize) -> Option<(Vec<String>, usize)> {
    let (stack, string) = open_at(text, cursor);
    let start = string?;
    match stack.last()? {
        Container::Object {
            key: Some(_),
            key_due: false,
            ..
        }
        | Container::Array => Some((keys(&stack), start)),
        Container::Object { .. } => None,
    }
}

/// The containers open at `cursor`, outermost first, and the start of the string the
/// cursor is in (after its quote), if it is in one.
fn open_at(text: &str, cursor: usize) -> (Vec<Container>, Option<usize>) {
    let mut stack: Vec<Container> = Vec::new();
    // The start of the string being read (after its quote).
    let mut string: Option<usize> = None;
    let mut escaped = false;
    for (i, c) in text[..cursor].char_indices() {
        if let Some(start) = string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    string = None;
                    if let Some(Container::Object { key, key_due, keys }) = stack.last_mut() {
                        if *key_due {
                            keys.push(text[start..i].to_string());
                            *key = Some(text[start..i].to_string());
                            *key_due = false;
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => string = Some(i + 1),
            '{' => stack.push(Container::Object {
                key: None,
                key_due: true,
                keys: Vec::new(),
            }),
            '[' => stack.push(Container::Array),
            '}' | ']' => {
                stack.pop();
            }
            ',' => {
                if let Some(Container::Object { key, key_due, .. }) = stack.last_mut() {
                    *key = None;
                    *key_due = true;
                }
            }
            _ => {}
        }
    }
    (stack, string)
}
