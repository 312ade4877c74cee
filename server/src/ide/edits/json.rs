//! Edits of the JSON syntax: properties added at the end of an object and taken out of
//! it (with the comma JSON wants between them), and a block added to a file as the
//! nested properties that stand for it.

use super::{indentation_at, remove_item, FileEdit};
use crate::module::SourceFile;
use crate::syntax::Span;

/// `properties` (each a JSON key and value, `"name": value`) added at the end of the JSON
/// object that closes at byte `close` of `source` (where HCL places what an object
/// lacks), after its last property (with the comma JSON wants between them), each on a
/// line of its own indented one level deeper than the line of its `{`. `None` when no
/// object closes there.
pub fn append_to_object(
    source: &SourceFile,
    close: usize,
    properties: &[String],
) -> Option<FileEdit> {
    let text = &*source.text;
    let open = opening_brace(text, close)?;
    let indent = indentation_at(text, open);
    let inner = format!("{indent}  ");
    let added = properties
        .iter()
        .map(|p| format!("{inner}{p}"))
        .collect::<Vec<_>>()
        .join(",\n");
    let written = text[open + 1..close].trim_end();
    let (span, new_text) = match written.trim_start().is_empty() {
        true => (Span::new(open + 1, close), format!("\n{added}\n{indent}")),
        // After the last property, before the space that leads to the `}`.
        false => {
            let end = open + 1 + written.len();
            (Span::new(end, end), format!(",\n{added}"))
        }
    };
    Some(FileEdit {
        path: source.path.clone(),
        span,
        new_text,
    })
}

/// A closing bracket of a JSON text, outside strings.
struct Closing {
    /// Where it is.
    at: usize,
    /// Where its opening bracket is.
    open: usize,
    /// Whether the two are an object's `{` and `}`.
    object: bool,
}

/// The closing brackets of the JSON `text`, in order, each with its opening one
/// (strings skipped, with their escapes); none after one that closes nothing.
fn closings(text: &str) -> impl Iterator<Item = Closing> + '_ {
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    text.char_indices()
        .map_while(move |(i, c)| {
            match (in_string, c) {
                (true, _) if escaped => escaped = false,
                (true, '\\') => escaped = true,
                (true, '"') => in_string = false,
                (true, _) => {}
                (false, '"') => in_string = true,
                (false, '{' | '[') => open.push((i, c)),
                (false, '}' | ']') => {
                    let (at, opener) = open.pop()?;
                    return Some(Some(Closing {
                        at: i,
                        open: at,
                        object: c == '}' && opener == '{',
                    }));
                }
                (false, _) => {}
            }
            Some(None)
        })
        .flatten()
}

/// The `{` that opens the JSON object closing at `close`, read from the start of the
/// text.
pub fn opening_brace(text: &str, close: usize) -> Option<usize> {
    closings(text.get(..=close)?)
        .find(|c| c.at == close)
        .filter(|c| c.object)
        .map(|c| c.open)
}

/// The `}` of the innermost JSON object around byte `offset` of `text`.
fn enclosing_object(text: &str, offset: usize) -> Option<usize> {
    closings(text)
        .find(|c| c.open < offset && offset <= c.at)
        .filter(|c| c.object)
        .map(|c| c.at)
}

/// The `}` of the object a JSON file is, when the text is one object.
fn outermost_close(text: &str) -> Option<usize> {
    let close = text.trim_end().len().checked_sub(1)?;
    let start = text.len() - text.trim_start().len();
    (opening_brace(text, close)? == start).then_some(close)
}

/// A block of type `kind` with `labels` and a body of `properties` (each `"name":
/// value`) added to the JSON file `source`: with one label, into the object that holds
/// the file's last block of that type (`"variable": {"a": {}}` gets `"b": {...}`) unless
/// a block there has the same label; otherwise as a property of the file's object (a
/// JSON body may repeat a block type's property: each is read). `None` when the file
/// does not parse.
pub fn append_json_block(
    source: &SourceFile,
    kind: &str,
    labels: &[&str],
    properties: &[String],
) -> Option<FileEdit> {
    if source.syntax.has_errors() {
        return None;
    }
    let text = &*source.text;
    let key = |s: &str| serde_json::Value::from(s).to_string();
    let body = format!("{{{}}}", properties.join(", "));
    if let [label] = labels {
        let of_kind = |b: &&std::sync::Arc<crate::syntax::Block>| {
            &*b.kind.name == kind && b.labels.len() == 1
        };
        let blocks = &source.syntax.body.blocks;
        // Never a second property of the same name in one object.
        let taken = blocks
            .iter()
            .filter(of_kind)
            .any(|b| &*b.labels[0].name == *label);
        let sibling = blocks.iter().rev().find(of_kind).filter(|_| !taken);
        if let Some(b) = sibling {
            let close = enclosing_object(text, b.labels[0].span.start as usize)?;
            return append_to_object(source, close, &[format!("{}: {body}", key(label))]);
        }
    }
    let nested = labels
        .iter()
        .rev()
        .fold(body, |inner, label| format!("{{{}: {inner}}}", key(label)));
    let close = outermost_close(text)?;
    append_to_object(source, close, &[format!("{}: {nested}", key(kind))])
}

/// The removal of the JSON property at `span` (`"name": value`) with the comma that
/// separates it from the next property, or from the one before when it is the last;
/// with its line when nothing else is written there.
pub fn remove_property(source: &SourceFile, span: Span) -> FileEdit {
    let text = &*source.text;
    let (start, end) = (span.start as usize, span.end as usize);
    let after = &text[end..];
    let gap = after.len() - after.trim_start().len();
    if after[gap..].starts_with(',') {
        // With the spaces after the comma, which led to the next property.
        let rest = &after[gap + 1..];
        let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        return remove_item(source, Span::new(start, end + gap + 1 + spaces));
    }
    let before = text[..start].trim_end();
    match before.strip_suffix(',') {
        Some(kept) => FileEdit {
            path: source.path.clone(),
            span: Span::new(kept.len(), end),
            new_text: String::new(),
        },
        None => remove_item(source, span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> SourceFile {
        SourceFile::parse("/m/main.tf.json".into(), text.into(), None, None)
    }

    fn applied(text: &str, edit: &FileEdit) -> String {
        let mut out = text.to_string();
        out.replace_range(edit.span.range(), &edit.new_text);
        out
    }

    fn json_added(text: &str) -> String {
        let s = source(text);
        let last = text.rfind('}').unwrap();
        let close = text[..last].rfind('}').unwrap();
        let props = ["\"a\": 1".to_string(), "\"b\": \"}\"".to_string()];
        applied(text, &append_to_object(&s, close, &props).unwrap())
    }

    #[test]
    fn json_properties_go_after_the_last_one_with_a_comma() {
        assert_eq!(
            json_added("{\n  \"o\": {\n    \"x\": \"{\"\n  }\n}\n"),
            "{\n  \"o\": {\n    \"x\": \"{\",\n    \"a\": 1,\n    \"b\": \"}\"\n  }\n}\n"
        );
        assert_eq!(
            json_added("{\"o\": {}}"),
            "{\"o\": {\n  \"a\": 1,\n  \"b\": \"}\"\n}}"
        );
    }

    fn removed(text: &str, property: &str) -> String {
        let start = text.find(property).unwrap();
        let span = Span::new(start, start + property.len());
        applied(text, &remove_property(&source(text), span))
    }

    #[test]
    fn a_property_is_removed_with_one_comma() {
        let text = "{\n  \"a\": 1,\n  \"d\": [\"x\"],\n  \"b\": 2\n}\n";
        assert_eq!(
            removed(text, "\"d\": [\"x\"]"),
            "{\n  \"a\": 1,\n  \"b\": 2\n}\n"
        );
        assert_eq!(
            removed(text, "\"b\": 2"),
            "{\n  \"a\": 1,\n  \"d\": [\"x\"]\n}\n"
        );
        assert_eq!(
            removed(text, "\"a\": 1"),
            "{\n  \"d\": [\"x\"],\n  \"b\": 2\n}\n"
        );
        assert_eq!(removed("{\"a\": 1, \"b\": 2}", "\"a\": 1"), "{\"b\": 2}");
        assert_eq!(removed("{\"a\": 1}", "\"a\": 1"), "{}");
    }

    fn with_block(text: &str, kind: &str, labels: &[&str]) -> String {
        let properties = ["\"type\": \"string\"".to_string()];
        let edit = append_json_block(&source(text), kind, labels, &properties).unwrap();
        let out = applied(text, &edit);
        serde_json::from_str::<serde_json::Value>(&out).expect("JSON");
        out
    }

    #[test]
    fn a_block_joins_the_object_of_its_type_or_the_file_s_object() {
        assert_eq!(
            with_block(
                "{\n  \"variable\": {\n    \"a\": {}\n  }\n}\n",
                "variable",
                &["b"]
            ),
            "{\n  \"variable\": {\n    \"a\": {},\n    \"b\": {\"type\": \"string\"}\n  }\n}\n"
        );
        assert_eq!(
            with_block("{\n  \"output\": {\"o\": {}}\n}\n", "resource", &["t", "n"]),
            "{\n  \"output\": {\"o\": {}},\n  \"resource\": {\"t\": {\"n\": {\"type\": \"string\"}}}\n}\n"
        );
        assert_eq!(
            with_block("{}", "locals", &[]),
            "{\n  \"locals\": {\"type\": \"string\"}\n}"
        );
        let broken = source("{\"variable\": ");
        assert_eq!(append_json_block(&broken, "variable", &["b"], &[]), None);
    }
}
