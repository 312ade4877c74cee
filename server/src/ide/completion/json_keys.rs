//! The cursor's context in the JSON syntax (`.tf.json`), where only property names are
//! completed: the keys of the objects around the cursor are read from the text before it
//! (arrays of objects stand for several blocks and are passed through), then unfolded as
//! Terraform's JSON syntax unfolds them with the schema: a block type's key, then one key
//! per label, then its body's keys. A key position in a body is `Position::Body`, in the
//! labels `Position::Label`; anywhere else, nothing is offered.

use super::context::{floor_char_boundary, BlockFrame, Context, Position};
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

/// The context at byte `cursor` of the JSON `text`.
pub fn context_at(scope: &Scope, text: &str, cursor: usize) -> Context {
    let cursor = floor_char_boundary(text, cursor.min(text.len()));
    let nothing = Context {
        blocks: Vec::new(),
        position: Position::Nothing,
        prefix: cursor..cursor,
    };
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
        // A key that names no block type is an argument: its object is a value.
        let Some(labels) = language.or(provider) else {
            return nothing;
        };
        let written = &path[i + 1..];
        if written.len() < labels {
            return Context {
                position: Position::Label {
                    kind: kind.clone(),
                    index: written.len(),
                    before: written.to_vec(),
                    quoted: quoted_from.is_some(),
                },
                blocks,
                prefix,
            };
        }
        blocks.push(BlockFrame {
            kind: kind.clone(),
            labels: written[..labels].to_vec(),
            written: Vec::new(),
        });
        i += 1 + labels;
    }
    if let Some(innermost) = blocks.last_mut() {
        innermost.written = in_body;
    }
    Context {
        blocks,
        position: Position::Body,
        prefix,
    }
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
    // A key is due where the innermost object awaits one (the one being typed included).
    let written = match stack.last() {
        Some(Container::Object {
            key_due: true,
            keys,
            ..
        }) => keys.clone(),
        _ => return None,
    };
    let path = stack[..stack.len() - 1]
        .iter()
        .filter_map(|c| match c {
            Container::Object { key, .. } => key.clone(),
            Container::Array => None,
        })
        .collect();
    Some(KeyPath {
        path,
        quoted_from: string,
        written,
    })
}
