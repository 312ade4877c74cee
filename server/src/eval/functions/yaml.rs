//! `yamlencode` and `yamldecode`, as Terraform 1.11 has them from cty-yaml 1.1.
//!
//! Decoding reads libyaml's events (`libyaml-safer`, a port of the libyaml that go-yaml,
//! and so cty-yaml, is itself a port of: the same events, marks and error texts) and
//! builds cty-yaml's values from them: one document, mappings as objects (keys resolved
//! then made strings; a later key wins), sequences as tuples, scalars resolved as
//! `yaml_resolve.rs` says, anchors and aliases (never inside their own definition), and
//! `<<` merging a mapping. Errors carry cty-yaml's positions: a 0-based line and 1-based
//! column, none at all on the first line. The walk keeps its own stack, so that a deeply
//! nested text cannot overflow Strata's.

use std::collections::{BTreeMap, HashMap};

use libyaml_safer::{ErrorKind, Event, EventData, Mark, Parser, ScalarStyle};

use super::yaml_resolve::{resolve, Resolved};
use super::{arg, text, Function};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::{format_number, Value};
use crate::limits::MAX_VALUE_DEPTH;
use crate::text::go_quote::go_quote;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "yamlencode" => |a, _| super::yaml_emitter::encode(arg(a, 0)?).map(Value::String),
        "yamldecode" => |a, ev| decode(&text(a, 0)?, ev),
        _ => return None,
    })
}

/// cty-yaml's `Unmarshal` of `src` (its `ImpliedType` first, whose errors come first).
fn decode(src: &str, ev: &Evaluator) -> Result<Value, String> {
    let src = if src.is_empty() { "\n" } else { src };
    let mut decoder = Decoder {
        parser: Parser::new(),
        anchors: HashMap::new(),
        pending: HashMap::new(),
    };
    decoder.parser.set_input(src.as_bytes());
    let first = decoder.next()?;
    if !matches!(first.data, EventData::StreamStart { .. }) {
        return Err(at(first.start_mark, "missing stream start token"));
    }
    let start = decoder.next()?;
    if !matches!(start.data, EventData::DocumentStart { .. }) {
        return Err(at(start.start_mark, "missing start of document"));
    }
    let value = decoder.document(ev)?;
    let end = decoder.next()?;
    match end.data {
        EventData::DocumentEnd { .. } => {}
        EventData::DocumentStart { .. } => {
            return Err(at(end.start_mark, "only a single document is allowed"))
        }
        ref other => {
            let kind = event_name(other);
            return Err(at(
                end.start_mark,
                &format!("unexpected extra content ({kind}) after value"),
            ));
        }
    }
    let last = decoder.next()?;
    if !matches!(last.data, EventData::StreamEnd) {
        return Err(at(last.start_mark, "unexpected extra content after value"));
    }
    Ok(value)
}

struct Decoder<'a> {
    parser: Parser<&'a [u8]>,
    /// The values of the anchors defined so far.
    anchors: HashMap<String, Value>,
    /// Anchors whose node is still being read, with how many times over.
    pending: HashMap<String, usize>,
}

/// A collection being read.
enum Frame {
    Sequence {
        anchor: Option<String>,
        items: Vec<Value>,
    },
    Mapping {
        anchor: Option<String>,
        entries: BTreeMap<String, Value>,
        /// The key whose value comes next, if any.
        key: Option<Key>,
    },
}

/// A mapping key read: a name, or the merge key with where it was written.
enum Key {
    Name(String),
    Merge(Mark),
}

impl Decoder<'_> {
    /// The next event, or cty-yaml's report of the parser's error.
    fn next(&mut self) -> Result<Event, String> {
        self.parser.parse().map_err(|e| {
            let cause = match e.problem() {
                "" => "invalid YAML syntax",
                problem => problem,
            };
            let problem = e.problem_mark().filter(|m| m.line != 0);
            let context = e.context_mark().filter(|m| m.line != 0);
            match (problem, context) {
                // A scanner's error is reported on the line after its mark.
                (Some(m), _) if e.kind() == ErrorKind::Scanner => {
                    format!("on line {}, column 1: {cause}", m.line + 1)
                }
                (Some(m), _) | (None, Some(m)) => positioned(m, cause),
                (None, None) => cause.to_string(),
            }
        })
    }

    /// The document's root node, read event by event.
    fn document(&mut self, ev: &Evaluator) -> Result<Value, String> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            let event = self.next()?;
            let mark = event.start_mark;
            if let Some(Frame::Mapping {
                key: key @ None, ..
            }) = stack.last_mut()
            {
                match event.data {
                    EventData::MappingEnd => {}
                    _ => {
                        *key = Some(mapping_key(event)?);
                        continue;
                    }
                }
            }
            let done = match event.data {
                EventData::Scalar { .. } => self.scalar(event)?,
                EventData::Alias { ref anchor } => match self.pending.contains_key(anchor) {
                    true => {
                        let reason = format!(
                            "cannot refer to anchor {} from inside its own definition",
                            go_quote(anchor)
                        );
                        return Err(at(mark, &reason));
                    }
                    false => match self.anchors.get(anchor) {
                        Some(v) => {
                            // Each alias is a copy: bound the work of repeated ones.
                            ev.spend_copies(v, 1)?;
                            v.clone()
                        }
                        None => {
                            let reason =
                                format!("reference to undefined anchor {}", go_quote(anchor));
                            return Err(at(mark, &reason));
                        }
                    },
                },
                EventData::SequenceStart { anchor, tag, .. } => {
                    let items = Vec::new();
                    self.open(&mut stack, Frame::Sequence { anchor, items }, tag, mark)?;
                    continue;
                }
                EventData::MappingStart { anchor, tag, .. } => {
                    let (entries, key) = (BTreeMap::new(), None);
                    let frame = Frame::Mapping {
                        anchor,
                        entries,
                        key,
                    };
                    self.open(&mut stack, frame, tag, mark)?;
                    continue;
                }
                EventData::SequenceEnd | EventData::MappingEnd => match stack.pop() {
                    Some(Frame::Sequence { anchor, items }) => {
                        self.complete(anchor, Value::Tuple(items.into()))
                    }
                    Some(Frame::Mapping {
                        anchor, entries, ..
                    }) => self.complete(anchor, Value::Object(entries.into())),
                    None => return Err(at(mark, "unexpected parser event")),
                },
                EventData::DocumentStart { .. } => {
                    return Err(at(mark, "only a single document is allowed"))
                }
                EventData::StreamEnd => {
                    return Err(at(mark, "expecting value but found end of stream"))
                }
                ref other => {
                    let kind = event_name(other);
                    return Err(at(mark, &format!("unexpected parser event {kind}")));
                }
            };
            match stack.last_mut() {
                None => return Ok(done),
                Some(Frame::Sequence { items, .. }) => {
                    super::element_limit(items.len() + 1)?;
                    items.push(done);
                }
                Some(Frame::Mapping { entries, key, .. }) => match key.take() {
                    Some(Key::Name(name)) => {
                        super::element_limit(entries.len() + 1)?;
                        entries.insert(name, done);
                    }
                    Some(Key::Merge(key_mark)) => match done {
                        Value::Object(merged) => {
                            super::element_limit(entries.len() + merged.len())?;
                            entries.extend(merged);
                        }
                        other => {
                            let reason = format!("cannot merge {} into mapping", type_name(&other));
                            return Err(at(key_mark, &reason));
                        }
                    },
                    None => return Err(at(mark, "unexpected parser event")),
                },
            }
        }
    }

    /// A scalar in a value's place. An untagged quoted or block scalar is a string to
    /// `ImpliedType`; a block one is still resolved by `Unmarshal`, then made a string
    /// (`|-\n  yes` is `"true"`).
    fn scalar(&mut self, event: Event) -> Result<Value, String> {
        let mark = event.start_mark;
        let EventData::Scalar {
            anchor,
            tag,
            value,
            plain_implicit,
            style,
            ..
        } = &event.data
        else {
            return Err(at(mark, "unexpected parser event"));
        };
        self.begin(anchor);
        let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
        let resolved = match tag {
            None if !plain_implicit && quoted => Value::String(value.clone()),
            _ => match resolve(tag.as_deref().unwrap_or(""), value, *style) {
                Ok(Resolved::Merge) => Value::String("<<".into()),
                Ok(Resolved::Value(v)) if tag.is_none() && !plain_implicit => as_string(v),
                Ok(Resolved::Value(v)) => v,
                Err(reason) => return Err(at(mark, &reason)),
            },
        };
        Ok(self.complete(anchor.clone(), resolved))
    }

    /// Starts reading the collection `frame`, whose tag (if any) must be its own.
    fn open(
        &mut self,
        stack: &mut Vec<Frame>,
        frame: Frame,
        tag: Option<String>,
        mark: Mark,
    ) -> Result<(), String> {
        let (own, kind, anchor) = match &frame {
            Frame::Sequence { anchor, .. } => (libyaml_safer::SEQ_TAG, "sequence", anchor),
            Frame::Mapping { anchor, .. } => (libyaml_safer::MAP_TAG, "mapping", anchor),
        };
        if let Some(tag) = tag.filter(|t| t != own) {
            return Err(at(mark, &format!("can't interpret {kind} as {tag}")));
        }
        self.begin(anchor);
        stack.push(frame);
        self.deep(stack)
    }

    fn begin(&mut self, anchor: &Option<String>) {
        if let Some(name) = anchor {
            *self.pending.entry(name.clone()).or_default() += 1;
        }
    }

    fn complete(&mut self, anchor: Option<String>, value: Value) -> Value {
        if let Some(name) = anchor {
            if let Some(count) = self.pending.get_mut(&name) {
                *count -= 1;
                if *count == 0 {
                    self.pending.remove(&name);
                }
            }
            self.anchors.insert(name, value.clone());
        }
        value
    }

    /// Strata's limit on nesting (Terraform has none).
    fn deep(&self, stack: &[Frame]) -> Result<(), String> {
        if stack.len() > MAX_VALUE_DEPTH {
            return Err(format!(
                "the YAML nests collections more than {MAX_VALUE_DEPTH} levels deep, more than Strata decodes"
            ));
        }
        Ok(())
    }
}

/// A mapping's key: the merge key, or a scalar resolved then made a string (not null).
fn mapping_key(event: Event) -> Result<Key, String> {
    let mark = event.start_mark;
    let EventData::Scalar {
        tag, value, style, ..
    } = &event.data
    else {
        return Err(at(mark, "only strings are allowed as mapping keys"));
    };
    // A key's resolution error has no position in cty-yaml.
    match resolve(tag.as_deref().unwrap_or(""), value, *style)? {
        Resolved::Merge => Ok(Key::Merge(mark)),
        Resolved::Value(Value::Null) => Err(at(mark, "mapping key cannot be null")),
        Resolved::Value(v) => match as_string(v) {
            Value::String(name) => Ok(Key::Name(name)),
            _ => Err(at(mark, "only strings are allowed as mapping keys")),
        },
    }
}

/// A resolved scalar converted to a string as cty converts primitives.
fn as_string(value: Value) -> Value {
    match value {
        Value::Number(n) => Value::String(format_number(n)),
        Value::Bool(b) => Value::String(b.to_string()),
        other => other,
    }
}

/// cty's friendly name of a decoded value's type (null is of the dynamic type).
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "dynamic",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Tuple(_) => "tuple",
        _ => "object",
    }
}

/// go-yaml's name of an event type.
fn event_name(data: &EventData) -> &'static str {
    match data {
        EventData::StreamStart { .. } => "stream start",
        EventData::StreamEnd => "stream end",
        EventData::DocumentStart { .. } => "document start",
        EventData::DocumentEnd { .. } => "document end",
        EventData::Alias { .. } => "alias",
        EventData::Scalar { .. } => "scalar",
        EventData::SequenceStart { .. } => "sequence start",
        EventData::SequenceEnd => "sequence end",
        EventData::MappingStart { .. } => "mapping start",
        EventData::MappingEnd => "mapping end",
    }
}

/// `reason` at the event that starts at `mark`, as cty-yaml places it.
fn at(mark: Mark, reason: &str) -> String {
    match mark.line {
        0 => reason.to_string(),
        _ => positioned(mark, reason),
    }
}

fn positioned(mark: Mark, reason: &str) -> String {
    format!(
        "on line {}, column {}: {reason}",
        mark.line,
        mark.column + 1
    )
}
