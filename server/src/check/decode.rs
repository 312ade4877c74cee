//! Every file's bodies decoded against the language schema, as HCL decodes a body
//! against a body schema: `Unsupported argument` and `Unsupported block type` (with HCL's
//! "Did you mean"), `Missing required argument`, label counts, reserved names, blocks
//! that may appear once, and JSON's `Extraneous JSON object property`. A body whose
//! remaining content belongs to a provider is left to the provider's schema
//! (`schemas.rs` for the types Strata knows).

use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Origin};
use crate::schema::{
    file_schema, is_identifier, BlockRole, BlockSchema, Dialect, Form, Requirement, Rest,
};
use crate::syntax::{Block, Body, Span, Syntax};
use crate::text::names::first_close_name;

/// Code of a body item its block's schema does not take.
pub const UNSUPPORTED: &str = "unsupported-body-item";
/// Code of a required argument left out.
pub const MISSING_ARGUMENT: &str = "missing-required-argument";
/// Code of a block with the wrong number of labels.
pub const LABELS: &str = "block-labels";
/// Code of a label that must be a name and is not.
pub const NAME: &str = "invalid-name";
/// Terraform's detail for a name that is not an identifier.
pub const BAD_IDENTIFIER: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";
/// Code of a name reserved for a future version.
pub const RESERVED: &str = "reserved-name";
/// Code of a second block where only one is allowed.
pub const DUPLICATE_BLOCK: &str = "duplicate-block";

struct Decoder<'a> {
    m: &'a MergedModule,
    file: u32,
    text: &'a str,
    json: bool,
    overriding: bool,
    dialect: Dialect,
    out: &'a mut Vec<Diagnostic>,
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        let mut d = Decoder {
            m,
            file: fi as u32,
            text: &file.text,
            json: file.syntax.syntax == Syntax::Json,
            overriding: m.is_override_file(fi as u32),
            dialect: m.dialect,
            out,
        };
        d.body(file_schema(), &file.syntax.body, None, None);
    }
}

impl Decoder<'_> {
    fn error(&mut self, code: &'static str, span: Span, summary: String, detail: String) {
        let origin = Origin {
            file: self.file,
            span,
        };
        self.out
            .push(at(self.m, origin, Severity::Error, code, summary, detail));
    }

    /// Decodes `body` of a block of type `kind` (`None` at the top level), whose whole
    /// block is `whole` (for the place of a missing argument).
    fn body(
        &mut self,
        schema: &BlockSchema,
        body: &Body,
        kind: Option<&str>,
        whole: Option<&Block>,
    ) {
        self.attributes(schema, body, kind);
        if let Some(block) = whole {
            self.missing(schema, body, block);
        }
        self.blocks(schema, body, kind);
    }

    fn attributes(&mut self, schema: &BlockSchema, body: &Body, kind: Option<&str>) {
        for a in &body.attributes {
            let name = &*a.name.name;
            match schema.attribute(name, self.dialect) {
                Some(s) if s.requirement == Requirement::Reserved => {
                    let parent = kind.unwrap_or("top-level");
                    self.error(
                        RESERVED,
                        a.name.span,
                        format!("Reserved argument name in {parent} block"),
                        format!("The {parent} argument name {name:?} is reserved for use by {} in a future version.", tool(self.dialect)),
                    );
                }
                Some(s) if s.form == Form::VersionConstraint => {
                    super::versions::check(self.m, self.file, a, self.out);
                }
                Some(_) => {}
                None if schema.rest != Rest::Closed => {}
                None if self.json => self.error(
                    UNSUPPORTED,
                    a.name.span,
                    "Extraneous JSON object property".into(),
                    extraneous_property_detail(schema, body, name, self.dialect),
                ),
                None => self.error(
                    UNSUPPORTED,
                    a.name.span,
                    "Unsupported argument".into(),
                    unsupported_argument_detail(schema, body, name, self.dialect),
                ),
            }
        }
    }

    /// `Missing required argument` for each required argument `body` leaves out.
    fn missing(&mut self, schema: &BlockSchema, body: &Body, block: &Block) {
        if self.overriding {
            return;
        }
        let place = missing_item(self.m, self.file, block);
        for a in &schema.attributes {
            let wanted =
                a.requirement == Requirement::Required && a.dialects.includes(self.dialect);
            if wanted && body.attribute(&a.name).is_none() {
                self.error(
                    MISSING_ARGUMENT,
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

    fn blocks(&mut self, schema: &BlockSchema, body: &Body, kind: Option<&str>) {
        let mut firsts: Vec<(&str, &Block)> = Vec::new();
        let mut reported_unexpected = false;
        for block in &body.blocks {
            let name = &*block.kind.name;
            let Some(nested) = schema.block(name, self.dialect) else {
                match schema.rest {
                    Rest::Closed => self.unsupported_block(schema, block),
                    Rest::Attributes if !reported_unexpected => {
                        reported_unexpected = true;
                        self.error(
                            UNSUPPORTED,
                            block.kind.span,
                            format!("Unexpected {name:?} block"),
                            "Blocks are not allowed here.".into(),
                        );
                    }
                    _ => {}
                }
                continue;
            };
            if !self.json && !self.labels_fit(&nested.schema, block) {
                continue;
            }
            self.label_names(&nested.schema, block);
            if nested.role == BlockRole::Reserved {
                let parent = kind.unwrap_or("top-level");
                self.error(
                    RESERVED,
                    block.kind.span,
                    format!("Reserved block type name in {parent} block"),
                    format!("The block type name {name:?} is reserved for use by {} in a future version.", tool(self.dialect)),
                );
                continue;
            }
            if let Some(rule) = &nested.duplicate {
                if let Some((_, first)) = firsts.iter().find(|(n, _)| *n == name) {
                    let first = Origin {
                        file: self.file,
                        span: header_span(first),
                    };
                    let detail = rule.detail.replace("{range}", &range_text(self.m, first));
                    self.error(
                        DUPLICATE_BLOCK,
                        header_span(block),
                        rule.summary.to_string(),
                        detail,
                    );
                    continue;
                }
                firsts.push((name, block));
            }
            self.body(&nested.schema, &block.body, Some(name), Some(block));
            if name == "provisioner" {
                self.provisioner(block);
            }
        }
    }

    /// A built-in provisioner's own arguments (its `connection` and meta-arguments were
    /// decoded with the block).
    fn provisioner(&mut self, block: &Block) {
        let Some(schema) = block.label(0).and_then(crate::schema::provisioner_schema) else {
            return;
        };
        let mut own = Body {
            attributes: block
                .body
                .attributes
                .iter()
                .filter(|a| !matches!(&*a.name.name, "when" | "on_failure"))
                .cloned()
                .collect(),
            blocks: Vec::new(),
        };
        for escape in block.body.blocks_of("_") {
            own.attributes
                .extend(escape.body.attributes.iter().cloned());
        }
        self.attributes(&schema, &own, Some("provisioner"));
        self.missing(&schema, &own, block);
    }

    fn unsupported_block(&mut self, schema: &BlockSchema, block: &Block) {
        let detail = unsupported_block_detail(schema, &block.kind.name, self.dialect);
        self.error(
            UNSUPPORTED,
            block.kind.span,
            "Unsupported block type".into(),
            detail,
        );
    }

    /// Labels that must be identifiers and are not.
    fn label_names(&mut self, schema: &BlockSchema, block: &Block) {
        for (label, written) in schema.labels.iter().zip(&block.labels) {
            let Some(summary) = label.invalid_summary(self.dialect) else {
                continue;
            };
            if !is_identifier(&written.name) {
                self.error(NAME, written.span, summary.into(), BAD_IDENTIFIER.into());
            }
        }
    }

    /// Whether a native block has as many labels as its schema names; HCL's error and
    /// `false` when not (HCL then skips the block).
    fn labels_fit(&mut self, schema: &BlockSchema, block: &Block) -> bool {
        let name = &*block.kind.name;
        let want = schema.labels.len();
        let have = block.labels.len();
        if have > want {
            let detail = if want == 0 {
                format!("No labels are expected for {name} blocks.")
            } else {
                format!(
                    "Only {want} labels ({}) are expected for {name} blocks.",
                    schema.label_names()
                )
            };
            self.error(
                LABELS,
                block.labels[want].span,
                format!("Extraneous label for {name}"),
                detail,
            );
            return false;
        }
        if have < want {
            self.error(
                LABELS,
                missing_item_range(self.text, false, header_span(block), block.span),
                format!("Missing {} for {name}", schema.labels[have].name),
                format!(
                    "All {name} blocks must have {want} labels ({}).",
                    schema.label_names()
                ),
            );
            return false;
        }
        true
    }
}

/// Where HCL places an item missing from a block's body: its opening brace (native
/// syntax) or closing brace (JSON). HCL's range is empty there; Terraform widens an empty
/// range to the character it stands on, as here.
pub(super) fn missing_item(m: &MergedModule, file: u32, block: &Block) -> Span {
    let source = m.file(file);
    let json = source.syntax.syntax == Syntax::Json;
    missing_item_range(&source.text, json, header_span(block), block.span)
}

/// HCL's `MissingItemRange` of the body of the block written at `block` with its header
/// at `header`: one byte at its `{` in the native syntax, at its last byte in JSON.
pub(crate) fn missing_item_range(text: &str, json: bool, header: Span, block: Span) -> Span {
    let at = if json {
        (block.end as usize).saturating_sub(1)
    } else {
        let header_end = header.end as usize;
        text.get(header_end..block.end as usize)
            .and_then(|rest| rest.find('{'))
            .map_or(header_end, |i| header_end + i)
    };
    Span::new(at, at + 1)
}

/// HCL's detail for an argument `name` that `schema` does not take in `body`: a
/// suggestion among the arguments it takes and the body leaves unused, else a hint when
/// a block type has the name.
pub(super) fn unsupported_argument_detail(
    schema: &BlockSchema,
    body: &Body,
    name: &str,
    dialect: Dialect,
) -> String {
    let unused: Vec<&str> = unused_arguments(schema, body, dialect).collect();
    let hint = match first_close_name(name, &unused) {
        Some(s) => format!(" Did you mean {s:?}?"),
        None if schema.block(name, dialect).is_some() => {
            format!(" Did you mean to define a block of type {name:?}?")
        }
        None => String::new(),
    };
    format!("An argument named {name:?} is not expected here.{hint}")
}

/// The arguments of `schema` that `body` does not set (HCL suggests only those).
fn unused_arguments<'s>(
    schema: &'s BlockSchema,
    body: &'s Body,
    dialect: Dialect,
) -> impl Iterator<Item = &'s str> {
    schema
        .attribute_names(dialect)
        .filter(move |n| body.attribute(n).is_none())
}

/// HCL's detail for a JSON property `name` that is neither an argument nor a block type
/// of `schema` (`json.body.Content`): a suggestion among the arguments `body` leaves
/// unused and every block type.
pub(super) fn extraneous_property_detail(
    schema: &BlockSchema,
    body: &Body,
    name: &str,
    dialect: Dialect,
) -> String {
    let unused: Vec<&str> = unused_arguments(schema, body, dialect)
        .chain(suggestable_blocks(schema, dialect))
        .collect();
    let hint = first_close_name(name, &unused)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    format!("No argument or block type is named {name:?}.{hint}")
}

/// HCL's detail for a block type `name` that `schema` does not take: a suggestion among
/// its block types, else a hint when an argument has the name.
pub(super) fn unsupported_block_detail(
    schema: &BlockSchema,
    name: &str,
    dialect: Dialect,
) -> String {
    let candidates: Vec<&str> = suggestable_blocks(schema, dialect).collect();
    let hint = match first_close_name(name, &candidates) {
        Some(s) => format!(" Did you mean {s:?}?"),
        None if schema.attribute(name, dialect).is_some() => format!(
            " Did you mean to define argument {name:?}? If so, use the equals sign to assign it a value."
        ),
        None => String::new(),
    };
    format!("Blocks of type {name:?} are not expected here.{hint}")
}

/// The tool's name as its messages write it.
fn tool(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Terraform => "Terraform",
        Dialect::OpenTofu => "OpenTofu",
    }
}

/// The nested block types HCL would suggest: every one the schema lists, in its order.
fn suggestable_blocks(schema: &BlockSchema, dialect: Dialect) -> impl Iterator<Item = &str> {
    schema
        .blocks
        .iter()
        .filter(move |b| b.dialects.includes(dialect) && b.role != BlockRole::Dynamic)
        .map(|b| &*b.name)
}
