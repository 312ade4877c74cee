//! The bodies of resources, data sources and ephemeral resources decoded against their
//! provider's schema, as the validate walk decodes them (`EvaluateBlock`: HCL's `hcldec`
//! with the schema's decoder spec, after `dynblock` expansion and `blocktoattr`'s fix-up):
//! `Unsupported argument`, `Unsupported block type`, `Missing required argument`,
//! `Too many X blocks` / `Insufficient X blocks` (a nested block type's `max_items` /
//! `min_items`), `Duplicate X block` and `Missing X block` (single and group nesting),
//! nested blocks recursively, `dynamic` blocks (their `content` once per known element of
//! `for_each`, once when `for_each` is not known until apply), attributes of a list or set
//! of objects written as blocks, and literal values of the wrong type
//! (`attribute_values.rs`). The meta-arguments the language schema takes out of the body
//! first (`count`, `lifecycle`, ...) are not the provider's; an escaping `_` block's
//! content is.
//!
//! A body in the JSON syntax is first unfolded with the schema (`provider_json.rs`: which
//! properties are blocks, and the errors only JSON has); an unknown property is then an
//! `Extraneous JSON object property`. A resource an override file changes is decoded as
//! Terraform decodes its merged body, without its unknown arguments (spec §1.5;
//! `provider_bodies/overrides.rs`): `schemas.rs` warns about those instead. Provider
//! configurations are decoded the same way (`provider_configs.rs`).

use super::decode::{
    extraneous_property_detail, missing_item, unsupported_argument_detail, unsupported_block_detail,
};
use super::provider_json::{unfold, ShapeError};

pub(super) mod overrides;
use super::provider_lookup::{declarations, resource_schema};
use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Origin};
use crate::schema::{
    file_schema, AttributeSchema, BlockSchema, Nesting, ProviderSchemaSource, Requirement,
    SchemaLookup, ValueType,
};
use crate::syntax::{Attribute, Block, Body, Span, Syntax};
use std::sync::Arc;

/// Code of a body item the provider's schema does not take.
pub const UNSUPPORTED: &str = "provider-unsupported-item";
/// Code of a required argument or block left out.
pub const MISSING: &str = "provider-missing-item";
/// Code of too many or too few blocks of a nested type.
pub const BLOCK_COUNT: &str = "provider-block-count";

pub(super) fn check(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    out: &mut Vec<Diagnostic>,
) {
    for d in declarations(m) {
        let Some(resource) = d.resource else {
            continue;
        };
        // The first declaration is the one Terraform decodes.
        let first = resource.provenance.decl.file == d.file
            && resource.provenance.decl_span == d.block.span;
        if !first {
            continue;
        }
        let SchemaLookup::Found(schema) = resource_schema(m, schemas, resource) else {
            continue;
        };
        let Some(language) = file_schema().block(d.mode.keyword(), m.dialect) else {
            continue;
        };
        if resource.provenance.overrides.is_empty() {
            let content = provider_content(&language.schema, &d.block.body, m);
            decode(m, d.file, &schema.block, &content, d.block, out);
        } else {
            let (bodies, merged) = (&resource.bodies, &resource.config);
            overrides::decode(m, &schema.block, &language.schema, bodies, merged, out);
        }
    }
}

/// Decodes `content`, the provider's part of `block`'s body in file `file`, against
/// `schema`.
pub(super) fn decode(
    m: &MergedModule,
    file: u32,
    schema: &BlockSchema,
    content: &Body,
    block: &Block,
    out: &mut Vec<Diagnostic>,
) {
    let mut decoder = Decoder { m, file, out };
    decoder.body(schema, content, missing_item(m, file, block));
}

/// What of `body` is the provider's: every item the language schema of its block does
/// not name (its meta-arguments), with the content of escaping `_` blocks.
pub(super) fn provider_content(language: &BlockSchema, body: &Body, m: &MergedModule) -> Body {
    let escape = |b: &Block| {
        language
            .block(&b.kind.name, m.dialect)
            .is_some_and(|n| n.role == crate::schema::BlockRole::Escape)
    };
    let dynamic = |b: &Block| {
        language
            .block(&b.kind.name, m.dialect)
            .is_some_and(|n| n.role == crate::schema::BlockRole::Dynamic)
    };
    let mut content = Body {
        attributes: body
            .attributes
            .iter()
            .filter(|a| language.attribute(&a.name.name, m.dialect).is_none())
            .cloned()
            .collect(),
        blocks: body
            .blocks
            .iter()
            .filter(|b| dynamic(b) || language.block(&b.kind.name, m.dialect).is_none())
            .cloned()
            .collect(),
    };
    for e in body.blocks.iter().filter(|b| escape(b)) {
        content.attributes.extend(e.body.attributes.iter().cloned());
        content.blocks.extend(e.body.blocks.iter().cloned());
    }
    content
}

/// One block of a body: where its missing items go (`MissingItemRange`) and where it is
/// defined (`DefRange`), which the JSON syntax places differently.
struct Item<'b> {
    file: u32,
    block: &'b Block,
    brace: Span,
    header: Span,
}

impl<'b> Item<'b> {
    fn native(m: &MergedModule, file: u32, block: &'b Block) -> Self {
        Item {
            file,
            block,
            brace: missing_item(m, file, block),
            header: header_span(block),
        }
    }

    /// A block of a JSON body, whose missing items go to `brace` where unfolding the
    /// body placed them.
    fn json(m: &MergedModule, file: u32, block: &'b Block, brace: Option<Span>) -> Self {
        let item = Item::native(m, file, block);
        Item {
            brace: brace.unwrap_or(item.brace),
            ..item
        }
    }
}

/// The blocks a body gives one nested block type: where each body's missing items go
/// and where each header is, and whether a `dynamic` block makes their number unknown.
#[derive(Default)]
struct Instances {
    braces: Vec<Origin>,
    headers: Vec<Origin>,
    unknown: bool,
}

struct Decoder<'a, 'o> {
    m: &'a MergedModule,
    /// The file of the item being decoded.
    file: u32,
    out: &'o mut Vec<Diagnostic>,
}

impl Decoder<'_, '_> {
    fn error(&mut self, code: &'static str, span: Span, summary: String, detail: String) {
        let origin = Origin {
            file: self.file,
            span,
        };
        self.error_at(code, origin, summary, detail);
    }

    fn error_at(&mut self, code: &'static str, origin: Origin, summary: String, detail: String) {
        self.out
            .push(at(self.m, origin, Severity::Error, code, summary, detail));
    }

    /// Whether the current file is written in the JSON syntax.
    fn json(&self) -> bool {
        self.m.file(self.file).syntax.syntax == Syntax::Json
    }

    /// Decodes `body` of the current file against `schema`; `place` is where its
    /// missing items are reported.
    fn body(&mut self, schema: &BlockSchema, body: &Body, place: Span) {
        let file = self.file;
        if self.json() {
            let mut unfolded = unfold(schema, body, self.m.dialect);
            self.shape_errors(std::mem::take(&mut unfolded.errors));
            let body = &unfolded.body;
            self.attributes(schema, body);
            self.missing(schema, body, place);
            let mut blocks = Vec::new();
            for (b, shape) in body.blocks.iter().zip(unfolded.shapes) {
                self.shape_errors(shape.errors);
                blocks.push(Item::json(self.m, file, b, shape.brace));
            }
            let place = Origin { file, span: place };
            self.blocks(schema, &|n| body.attribute(n).is_some(), &blocks, place);
            return;
        }
        self.attributes(schema, body);
        self.missing(schema, body, place);
        let blocks: Vec<Item> = body
            .blocks
            .iter()
            .map(|b| Item::native(self.m, file, b))
            .collect();
        let place = Origin { file, span: place };
        self.blocks(schema, &|n| body.attribute(n).is_some(), &blocks, place);
    }

    /// The errors of a JSON body's shape.
    fn shape_errors(&mut self, errors: Vec<ShapeError>) {
        for e in errors {
            match e {
                ShapeError::WrongType { span, detail } => self.error(
                    UNSUPPORTED,
                    span,
                    "Incorrect JSON value type".into(),
                    detail,
                ),
                ShapeError::Duplicate { name, first } => {
                    let origin = Origin {
                        file: self.file,
                        span: first,
                    };
                    let detail = format!(
                        "The argument {:?} was already set at {}.",
                        name.name,
                        range_text(self.m, origin)
                    );
                    self.error(UNSUPPORTED, name.span, "Duplicate argument".into(), detail);
                }
            }
        }
    }

    /// Decodes `blocks` (each with its file) of a body whose arguments `has_argument`
    /// tells, and checks how many of each type there are; `place` is where the body's
    /// missing blocks are reported.
    fn blocks(
        &mut self,
        schema: &BlockSchema,
        has_argument: &dyn Fn(&str) -> bool,
        blocks: &[Item],
        place: Origin,
    ) {
        let mut counts: Vec<(&str, Instances)> = Vec::new();
        for item in blocks {
            let (file, block) = (item.file, item.block);
            self.file = file;
            let (name, dynamic) = match (&*block.kind.name, block.labels.first()) {
                ("dynamic", Some(label)) => (&*label.name, Some(label.span)),
                ("dynamic", None) => continue, // The loader reported the missing label.
                (name, _) => (name, None),
            };
            let Some(target) = self.target(schema, has_argument, name) else {
                match dynamic {
                    Some(label) => self.error(
                        UNSUPPORTED,
                        label,
                        "Unsupported block type".into(),
                        format!("Blocks of type {name:?} are not expected here."),
                    ),
                    None => self.unsupported_block(schema, block),
                }
                continue;
            };
            let generated = match dynamic {
                Some(_) => self.generated(block),
                None => vec![Generated {
                    body: &block.body,
                    brace: item.brace,
                    header: item.header,
                    unknown: false,
                }],
            };
            let index = match counts.iter().position(|(n, _)| *n == name) {
                Some(i) => i,
                None => {
                    counts.push((name, Instances::default()));
                    counts.len() - 1
                }
            };
            for g in generated {
                let instances = &mut counts[index].1;
                instances.unknown |= g.unknown;
                if !g.unknown {
                    instances.braces.push(Origin {
                        file,
                        span: g.brace,
                    });
                    instances.headers.push(Origin {
                        file,
                        span: g.header,
                    });
                }
                self.body(&target, g.body, g.brace);
                self.file = file;
            }
        }
        self.file = place.file;
        self.counts(schema, &counts, place);
    }

    /// What blocks of type `name` decode as in `body`: a nested block type of the
    /// schema, or (`blocktoattr`) the elements of a list or set of objects attribute
    /// the body does not set as an argument.
    fn target(
        &self,
        schema: &BlockSchema,
        has_argument: &dyn Fn(&str) -> bool,
        name: &str,
    ) -> Option<Arc<BlockSchema>> {
        if let Some(nested) = schema.block(name, self.m.dialect) {
            return Some(nested.schema.clone());
        }
        let a = schema.attribute(name, self.m.dialect)?;
        if has_argument(name) {
            return None;
        }
        object_elements(a.value_type.as_ref()?)
    }

    fn attributes(&mut self, schema: &BlockSchema, body: &Body) {
        for a in &body.attributes {
            let name = &*a.name.name;
            match schema.attribute(name, self.m.dialect) {
                Some(s) => self.value(s, a),
                None if self.json() => self.error(
                    UNSUPPORTED,
                    a.name.span,
                    "Extraneous JSON object property".into(),
                    extraneous_property_detail(schema, body, name, self.m.dialect),
                ),
                None => self.error(
                    UNSUPPORTED,
                    a.name.span,
                    "Unsupported argument".into(),
                    unsupported_argument_detail(schema, body, name, self.m.dialect),
                ),
            }
        }
    }

    /// `Incorrect attribute value type` for a literal value that does not convert.
    fn value(&mut self, schema: &AttributeSchema, a: &Attribute) {
        if let Some(detail) = super::attribute_values::mismatch(schema, &a.expr) {
            self.error(
                super::attribute_values::VALUE_TYPE,
                a.expr.span,
                "Incorrect attribute value type".into(),
                detail,
            );
        }
    }

    /// `Missing required argument` for each required argument left out (one given as
    /// blocks, `blocktoattr`, is not left out).
    fn missing(&mut self, schema: &BlockSchema, body: &Body, place: Span) {
        for a in &schema.attributes {
            let given = body.attribute(&a.name).is_some()
                || body.blocks.iter().any(|b| {
                    *b.kind.name == *a.name
                        || (&*b.kind.name == "dynamic" && b.label(0) == Some(&a.name))
                });
            if a.requirement == Requirement::Required && !given {
                self.error(
                    MISSING,
                    place,
                    "Missing required argument".into(),
                    format!(
                        "The argument \"{}\" is required, but no definition was found.",
                        a.name
                    ),
                );
            }
        }
    }

    /// The number of blocks of each nested type against its nesting and limits, as
    /// `hcldec`'s block specs check them once every block is known.
    fn counts(&mut self, schema: &BlockSchema, counts: &[(&str, Instances)], place: Origin) {
        let none = Instances::default();
        for nested in &schema.blocks {
            let name = &*nested.name;
            let found = counts
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(&none, |(_, i)| i);
            match nested.nesting {
                Nesting::Single | Nesting::Group => {
                    if let [first, second, ..] = found.headers[..] {
                        let detail = format!(
                            "Only one block of type {name:?} is allowed. Previous definition was at {}.",
                            range_text(self.m, first)
                        );
                        self.error_at(
                            BLOCK_COUNT,
                            second,
                            format!("Duplicate {name} block"),
                            detail,
                        );
                    } else if nested.nesting == Nesting::Single // a group defaults to empty
                        && nested.min_items == 1
                        && found.braces.is_empty()
                        && !found.unknown
                    {
                        self.error_at(
                            MISSING,
                            place,
                            format!("Missing {name} block"),
                            format!("A block of type {name:?} is required here."),
                        );
                    }
                }
                Nesting::List | Nesting::Set | Nesting::Map if !found.unknown => {
                    let n = found.braces.len() as u64;
                    if nested.max_items > 0 && n > nested.max_items {
                        let span = found.braces[nested.max_items as usize];
                        self.error_at(
                            BLOCK_COUNT,
                            span,
                            format!("Too many {name} blocks"),
                            format!(
                                "No more than {} {name:?} blocks are allowed",
                                nested.max_items
                            ),
                        );
                    } else if n < nested.min_items {
                        self.error_at(
                            BLOCK_COUNT,
                            place,
                            format!("Insufficient {name} blocks"),
                            format!(
                                "At least {} {name:?} blocks are required.",
                                nested.min_items
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// The blocks a `dynamic` block generates: its `content` once per element of a literal
    /// `for_each`, or once, of unknown number, when `for_each` is known only later.
    fn generated<'b>(&self, block: &'b Block) -> Vec<Generated<'b>> {
        let Some(content) = block.body.blocks_of("content").next() else {
            return Vec::new(); // The loader reported it.
        };
        // A generated block is defined where the `dynamic` block is (`dynblock`).
        let header = header_span(block);
        let known = block
            .body
            .attribute("for_each")
            .and_then(|a| crate::eval::constant(&a.expr))
            .and_then(|v| match v {
                serde_json::Value::Array(items) => Some(items.len()),
                serde_json::Value::Object(items) => Some(items.len()),
                _ => None,
            });
        let brace = missing_item(self.m, self.file, content);
        let one = |unknown| Generated {
            body: &content.body,
            brace,
            header,
            unknown,
        };
        match known {
            Some(n) => (0..n).map(|_| one(false)).collect(),
            None => vec![one(true)],
        }
    }

    fn unsupported_block(&mut self, schema: &BlockSchema, block: &Block) {
        let detail = unsupported_block_detail(schema, &block.kind.name, self.m.dialect);
        self.error(
            UNSUPPORTED,
            block.kind.span,
            "Unsupported block type".into(),
            detail,
        );
    }
}

/// One block a body holds, or a `dynamic` block generates.
struct Generated<'a> {
    body: &'a Body,
    brace: Span,
    header: Span,
    unknown: bool,
}

/// The schema `blocktoattr` gives the blocks standing for the elements of an attribute
/// of type `list(object)` or `set(object)`: every attribute optional.
fn object_elements(t: &ValueType) -> Option<Arc<BlockSchema>> {
    let (ValueType::List(e) | ValueType::Set(e)) = t else {
        return None;
    };
    let ValueType::Object { attributes, .. } = &**e else {
        return None;
    };
    let attributes = attributes
        .iter()
        .map(|(name, t)| {
            let mut a = crate::schema::arg(name, &t.to_string(), "");
            a.value_type = Some(t.clone());
            a
        })
        .collect();
    Some(Arc::new(BlockSchema {
        attributes,
        ..BlockSchema::default()
    }))
}
