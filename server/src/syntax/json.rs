//! Terraform's JSON syntax (`.tf.json`): the value HCL's JSON parser reads
//! (`json_parser`), unfolded into blocks and arguments as Terraform's configuration
//! loader decodes it.
//!
//! JSON has no blocks of its own: which properties are blocks, and how many levels of
//! labels they take, comes from the language schema (`crate::schema`): the top level and
//! the blocks Terraform itself defines (lifecycle, provisioner, validation, ...). Every
//! other property is an attribute whose value stays a [`JsonValue`] for later layers to
//! read (a provider-defined nested block among them, until provider schemas say so).
//!
//! HCL reports a JSON body's shape only when a decoder asks for its content, once per
//! request: the errors of `Incorrect JSON value type`, `Missing block label`,
//! `Duplicate argument` and `Duplicate attribute definition` are therefore repeated as
//! many times as Terraform's loader reads the body (see [`Read`]), as Terraform prints
//! them.

use std::sync::Arc;

use super::json_errors::{error, ROOT_NOT_OBJECT};
use super::json_parser;
use super::{
    Attribute, Block, Body, Expr, ExprKind, File, Ident, JsonKind, JsonValue, Span, Syntax,
    SyntaxDiagnostic,
};
use crate::schema::{file_schema, BlockRole, BlockSchema, Dialect};

/// Parses a JSON-syntax file.
pub(super) fn parse_json(text: &str) -> File {
    let parsed = json_parser::parse(text);
    let mut reader = Reader {
        diagnostics: parsed.diagnostics,
    };
    let root = match parsed.value.kind {
        JsonKind::Object(_) | JsonKind::Array(_) => parsed.value,
        _ => {
            let (summary, detail) = ROOT_NOT_OBJECT;
            reader.error(summary, detail, start_range(&parsed.value));
            // HCL decodes an empty object in its place.
            JsonValue {
                span: Span::default(),
                kind: JsonKind::Object(Vec::new()),
            }
        }
    };
    let body = reader.file(&root);
    let mut diagnostics = reader.diagnostics;
    for d in &mut diagnostics {
        d.span = shown(d.span, text.len());
    }
    diagnostics.sort_by_key(|d| d.span.start);
    File {
        syntax: Syntax::Json,
        body,
        diagnostics,
        unread: Vec::new(),
    }
}

/// A JSON file whose root object's properties are all arguments, as HCL's
/// `Body.JustAttributes` reads it: a variable definitions file (`.tfvars.json`), where
/// a property called `variable` or `locals` is a variable's value like any other. Only
/// the parser's errors are reported; a root that is not an object holds no arguments.
pub(super) fn parse_json_attributes(text: &str) -> File {
    let parsed = json_parser::parse(text);
    let attributes = match &parsed.value.kind {
        JsonKind::Object(properties) => properties.iter().map(|(k, v)| attribute(k, v)).collect(),
        _ => Vec::new(),
    };
    File {
        syntax: Syntax::Json,
        body: Body {
            attributes,
            blocks: Vec::new(),
        },
        diagnostics: parsed.diagnostics,
        unread: Vec::new(),
    }
}

/// A range as Terraform shows it: an empty one widened to the character after it,
/// except at the very end of the text (where `SourcePositions::range` widens it past
/// the text, as HCL's end-of-file token is).
fn shown(span: Span, len: usize) -> Span {
    let start = span.start as usize;
    if start >= len {
        Span::new(len, len)
    } else if span.start == span.end {
        Span::new(start, start + 1)
    } else {
        span
    }
}

/// Where HCL's start range of a value is: the opening brace or bracket of an object or
/// array, the whole token otherwise.
pub fn start_range(v: &JsonValue) -> Span {
    match v.kind {
        JsonKind::Object(_) | JsonKind::Array(_) => {
            Span::new(v.span.start as usize, v.span.start as usize + 1)
        }
        _ => v.span,
    }
}

/// How Terraform's configuration loader asks HCL for a block body's content, which
/// decides which of HCL's errors about the body it reports, and how many times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// `Body.Content`: HCL collects the properties twice (each time reporting a body
    /// that is not an object), looks each schema argument up once.
    Content,
    /// `Body.PartialContent`: properties collected once; the rest is left to a provider.
    Partial,
    /// `Body.JustAttributes`: the body must be one object; every property an argument.
    JustAttributes,
    /// The `terraform` block: read for `required_version`, then for `experiments` and
    /// `language` (both `PartialContent`), then with `Content`.
    Settings,
    /// Not decoded while loading (a backend's settings, a `connection`, the `_` block),
    /// or decoded only by the validate walk: no loader errors.
    Raw,
}

impl Read {
    /// How many times HCL collects the body's properties.
    fn collects(self) -> usize {
        match self {
            Read::Content => 2,
            Read::Partial => 1,
            Read::Settings => 4,
            Read::JustAttributes | Read::Raw => 0,
        }
    }

    /// How many times an argument called `name` is looked up (and a second definition
    /// of it reported).
    fn lookups(self, name: &str) -> usize {
        match self {
            Read::Settings if matches!(name, "required_version" | "experiments" | "language") => 2,
            Read::Raw => 0,
            _ => 1,
        }
    }
}

/// How Terraform 1.11's loader reads the body of a block at `path` (block types from the
/// top level), from its decoders in `internal/configs`.
fn read_of(path: &[Box<str>]) -> Read {
    let path: Vec<&str> = path.iter().map(|p| &**p).collect();
    match path.as_slice() {
        ["terraform"] => Read::Settings,
        ["locals"] | ["terraform", "required_providers" | "provider_meta"] => Read::JustAttributes,
        ["variable" | "output" | "moved" | "removed" | "import" | "check"]
        | ["variable", "validation"]
        | ["output", "precondition" | "postcondition"]
        | ["check", "assert"]
        | ["resource" | "data" | "ephemeral" | "removed", "lifecycle"]
        | ["check", "data", "lifecycle"]
        | ["resource" | "data" | "ephemeral", "lifecycle", "precondition" | "postcondition"]
        | ["check", "data", "lifecycle", "precondition" | "postcondition"] => Read::Content,
        ["provider" | "module" | "resource" | "data" | "ephemeral"]
        | ["check", "data"]
        | ["resource" | "removed", "provisioner"] => Read::Partial,
        _ => Read::Raw,
    }
}

/// Whether Terraform ignores a block at `path` whose arguments did not decode cleanly
/// (`required_providers` and `provider_meta` are then not declared at all).
fn dropped_when_unclean(path: &[Box<str>]) -> bool {
    matches!(
        path,
        [t, k] if &**t == "terraform" && matches!(&**k, "required_providers" | "provider_meta")
    )
}

/// The schema of the block at `path`, in either dialect (the file's dialect is not known
/// here); the file schema for the top level.
fn schema_at(path: &[Box<str>]) -> Option<&'static BlockSchema> {
    let mut schema = file_schema();
    for kind in path {
        schema = &schema.blocks.iter().find(|b| b.name == *kind)?.schema;
    }
    Some(schema)
}

struct Reader {
    diagnostics: Vec<SyntaxDiagnostic>,
}

impl Reader {
    fn error(&mut self, summary: &str, detail: &str, span: Span) {
        self.diagnostics.push(error(summary, detail, span));
    }

    /// The same error `times` times.
    fn errors(&mut self, times: usize, summary: &str, detail: &str, span: Span) {
        for _ in 0..times {
            self.error(summary, detail, span);
        }
    }

    /// The file's top level. Terraform reads it three times: for the `terraform` blocks
    /// alone twice (sniffing versions, then experiments), then with `Content`.
    fn file(&mut self, root: &JsonValue) -> Body {
        let mut path = Vec::new();
        self.body_with(
            &mut path,
            root,
            4,
            |name| if name == "terraform" { 3 } else { 1 },
        )
    }

    /// A block body read as `read` says.
    fn body(&mut self, path: &mut Vec<Box<str>>, val: &JsonValue, read: Read) -> Body {
        if read == Read::JustAttributes {
            return self.just_attributes(val).0;
        }
        let unpacks = if read == Read::Raw { 0 } else { 1 };
        self.body_with(path, val, read.collects(), |_| unpacks)
            .with_duplicates_dropped(self, read, path)
    }

    /// The properties of `val` unfolded into arguments and blocks; `collects` is how many
    /// times Terraform collects them, `unpacks` how many times it unpacks each nested
    /// block type its decoder asks for.
    fn body_with(
        &mut self,
        path: &mut Vec<Box<str>>,
        val: &JsonValue,
        collects: usize,
        unpacks: impl Fn(&str) -> usize,
    ) -> Body {
        let schema = schema_at(path);
        let mut out = Body::default();
        let mut once = Vec::new();
        for (key, value) in self.collect(val, None, collects) {
            if &*key.name == "//" {
                continue; // HCL's JSON syntax reserves "//" for comments.
            }
            let nested = schema.and_then(|s| s.blocks.iter().find(|b| b.name == key.name));
            match nested {
                Some(nested) => {
                    // Only the block types of the loader's own schema are unpacked while
                    // loading: `dynamic` blocks belong to the provider's part of the body.
                    let loader_block = nested.role != BlockRole::Dynamic
                        && nested.dialects.includes(Dialect::Terraform);
                    let times = if loader_block { unpacks(&key.name) } else { 0 };
                    path.push(key.name.clone());
                    let mut unpack = Unpack {
                        kind: key,
                        times,
                        once: nested.duplicate.is_some(),
                        labels: Vec::new(),
                    };
                    let left = nested.schema.labels.len();
                    self.unpack(&mut unpack, path, left, value, &mut out.blocks, &mut once);
                    path.pop();
                }
                None => out.attributes.push(attribute(key, value)),
            }
        }
        out
    }

    /// `Body.JustAttributes`: one object whose every property is an argument, the first
    /// of each name kept; and whether that went without errors.
    fn just_attributes(&mut self, val: &JsonValue) -> (Body, bool) {
        let JsonKind::Object(props) = &val.kind else {
            self.error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
                start_range(val),
            );
            return (Body::default(), false);
        };
        let mut clean = true;
        let mut out = Body::default();
        for (key, value) in props {
            if &*key.name == "//" {
                continue;
            }
            if let Some(first) = out.attribute(&key.name) {
                self.diagnostics
                    .push(duplicate("Duplicate attribute definition", key, first.span));
                clean = false;
                continue;
            }
            out.attributes.push(attribute(key, value));
        }
        (out, clean)
    }

    /// HCL's `collectDeepAttrs`: the properties of an object, or of every object of an
    /// array; anything else is reported `times` times (in the words for a label level
    /// when `label` names it).
    fn collect<'v>(
        &mut self,
        val: &'v JsonValue,
        label: Option<&str>,
        times: usize,
    ) -> Vec<(&'v Ident, &'v JsonValue)> {
        let (props, wrong) = deep_properties(val);
        for (at, required) in wrong {
            self.wrong_shape(times, required, label, at);
        }
        props
    }

    /// HCL's error for a value that cannot hold a body (or, with `label`, its labels).
    fn wrong_shape(&mut self, times: usize, required: &str, label: Option<&str>, at: &JsonValue) {
        let purpose = match label {
            Some(l) => format!("to specify {l} labels for this block"),
            None => "to define arguments and child blocks".into(),
        };
        let detail = format!("{required} required here, {purpose}.");
        self.errors(times, "Incorrect JSON value type", &detail, start_range(at));
    }

    /// HCL's `unpackBlock`: peels `left` levels of labels off `val`, then makes one block
    /// of an object, one per element of an array, none of `null`.
    fn unpack(
        &mut self,
        u: &mut Unpack<'_>,
        path: &mut Vec<Box<str>>,
        left: usize,
        val: &JsonValue,
        out: &mut Vec<Arc<Block>>,
        once: &mut Vec<Box<str>>,
    ) {
        let kind = &*u.kind.name;
        if left > 0 {
            let schema = schema_at(path);
            let label = schema
                .and_then(|s| s.labels.get(u.labels.len()))
                .map_or("name", |l| &*l.name)
                .to_string();
            let props = self.collect(val, Some(&label), u.times);
            if props.is_empty() {
                let detail = format!("At least one object property is required, whose name represents the {kind} block's {label}.");
                self.errors(u.times, "Missing block label", &detail, start_range(val));
                return;
            }
            for (name, inner) in props {
                u.labels.push(name.clone());
                self.unpack(u, path, left - 1, inner, out, once);
                u.labels.pop();
            }
            return;
        }
        let bodies: Vec<&JsonValue> = match &val.kind {
            JsonKind::Null => Vec::new(),
            JsonKind::Object(_) => vec![val],
            JsonKind::Array(items) => items.iter().collect(),
            _ => {
                let detail = format!("Either a JSON object or a JSON array is required, representing the contents of one or more {kind:?} blocks.");
                self.errors(
                    u.times,
                    "Incorrect JSON value type",
                    &detail,
                    start_range(val),
                );
                return;
            }
        };
        for item in bodies {
            // A block type allowed once is decoded only the first time.
            let repeated = u.once && once.iter().any(|k| **k == *kind);
            if u.once && !repeated {
                once.push(kind.into());
            }
            let read = if u.times == 0 || repeated {
                Read::Raw
            } else {
                read_of(path)
            };
            let body = if read == Read::JustAttributes && dropped_when_unclean(path) {
                match self.just_attributes(item) {
                    (body, true) => body,
                    (_, false) => continue,
                }
            } else {
                self.body(path, item, read)
            };
            out.push(Arc::new(Block {
                kind: u.kind.clone(),
                labels: u.labels.clone(),
                body,
                span: Span {
                    start: u.labels.last().map_or(u.kind.span.start, |l| l.span.start),
                    end: item.span.end,
                },
                json_open: Some(Span::new(
                    val.span.start as usize,
                    val.span.start as usize + 1,
                )),
                stale: false,
            }));
        }
    }
}

/// A block property being unpacked.
struct Unpack<'a> {
    kind: &'a Ident,
    /// How many times Terraform unpacks it (0: not while loading).
    times: usize,
    /// Whether the block type may appear once (a second one is not decoded).
    once: bool,
    /// The labels peeled so far.
    labels: Vec<Ident>,
}

impl Body {
    /// The body without second definitions of the arguments its decoder looks up,
    /// each reported as HCL reports it, once per lookup.
    fn with_duplicates_dropped(
        mut self,
        reader: &mut Reader,
        read: Read,
        path: &[Box<str>],
    ) -> Body {
        let Some(schema) = schema_at(path) else {
            return self;
        };
        let mut kept: Vec<Arc<Attribute>> = Vec::new();
        for a in self.attributes {
            let name = &*a.name.name;
            let looked_up = if schema.attribute(name, Dialect::Terraform).is_some() {
                read.lookups(name)
            } else {
                0
            };
            if looked_up > 0 {
                if let Some(first) = kept.iter().find(|k| *k.name.name == *name) {
                    let d = duplicate("Duplicate argument", &a.name, first.span);
                    reader.diagnostics.extend(std::iter::repeat_n(d, looked_up));
                    continue;
                }
            }
            kept.push(a);
        }
        self.attributes = kept;
        self
    }
}

/// A property of a JSON object: its key and value.
pub type Property<'v> = (&'v Ident, &'v JsonValue);

/// HCL's `collectDeepAttrs`: the properties of an object, or of each object of an array
/// (none of `null`); and each value that cannot hold properties, with the start of HCL's
/// words for what is required there ("A JSON object is").
#[allow(clippy::type_complexity)]
pub fn deep_properties(val: &JsonValue) -> (Vec<Property<'_>>, Vec<(&JsonValue, &'static str)>) {
    let mut props = Vec::new();
    let mut wrong = Vec::new();
    match &val.kind {
        JsonKind::Null => {}
        JsonKind::Object(p) => props.extend(p.iter().map(|(k, v)| (k, v))),
        JsonKind::Array(items) => {
            for item in items {
                match &item.kind {
                    JsonKind::Object(p) => props.extend(p.iter().map(|(k, v)| (k, v))),
                    _ => wrong.push((item, "A JSON object is")),
                }
            }
        }
        _ => wrong.push((val, "Either a JSON object or JSON array of objects is")),
    }
    (props, wrong)
}

/// HCL's error for a second definition of an argument, naming where the first is.
fn duplicate(summary: &str, second: &Ident, first: Span) -> SyntaxDiagnostic {
    let mut d = error(
        summary,
        &format!(
            "The argument {:?} was already set at {{range}}.",
            second.name
        ),
        second.span,
    );
    d.cited = Some(first);
    d
}

/// The argument a JSON property stands for: its value stays JSON for later layers.
pub fn attribute(key: &Ident, val: &JsonValue) -> Arc<Attribute> {
    Arc::new(Attribute {
        span: Span {
            start: key.span.start,
            end: val.span.end,
        },
        expr: Expr {
            span: val.span,
            kind: ExprKind::Json(val.clone()),
        },
        name: key.clone(),
    })
}

/// The values standing for one block each in a property that holds blocks: an object,
/// each element of an array, none for null; `None` for any other value.
pub fn json_block_elements(value: &JsonValue) -> Option<Vec<&JsonValue>> {
    match &value.kind {
        JsonKind::Null => Some(Vec::new()),
        JsonKind::Object(_) => Some(vec![value]),
        JsonKind::Array(items) => Some(items.iter().collect()),
        _ => None,
    }
}

/// The nested blocks a JSON property stands for when a provider schema makes its name a
/// block type: the JSON syntax leaves the properties of provider-defined bodies as
/// arguments, since only the provider's schema tells. As HCL's `unpackBlock` reads it,
/// an object is one block and an array one block per element (null stands for none);
/// each block's arguments are its body's deep properties (`deep_properties`: an element
/// that cannot hold properties gives a block without any, whose error is the decoder's).
/// `None` when the property is not written in the JSON syntax or holds something else.
pub fn json_blocks(attribute: &Attribute) -> Option<Vec<Arc<Block>>> {
    let ExprKind::Json(value) = &attribute.expr.kind else {
        return None;
    };
    let items = json_block_elements(value)?;
    let open = Span::new(value.span.start as usize, value.span.start as usize + 1);
    let block = |item: &JsonValue| {
        let mut body = Body::default();
        for (key, inner) in deep_properties(item).0 {
            if &*key.name != "//" {
                body.attributes.push(self::attribute(key, inner));
            }
        }
        Arc::new(Block {
            kind: attribute.name.clone(),
            labels: Vec::new(),
            body,
            // The element itself: the merged text shows `name = {...}` for it.
            span: item.span,
            json_open: Some(open),
            stale: false,
        })
    };
    Some(items.into_iter().map(block).collect())
}
