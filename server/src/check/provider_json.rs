//! A provider-defined body written in the JSON syntax, unfolded as HCL's JSON decoder
//! reads it with the provider's schema (`json.body.PartialContent` / `Content`): a
//! property named like one of the schema's nested block types stands for blocks (an
//! object is one block, an array one block per element, `null` none), every other
//! property is an argument. What the native syntax cannot write has errors of its own:
//! `Incorrect JSON value type` for a block property or a block's body of the wrong shape,
//! `Duplicate argument` for an argument written twice, and `Extraneous JSON object
//! property` in place of `Unsupported argument` (`provider_bodies.rs` reports these).

use crate::schema::{BlockSchema, Dialect};
use crate::syntax::json_start_range as start_range;
use crate::syntax::{
    deep_properties, json_block_elements, json_blocks, Attribute, Body, ExprKind, Ident, JsonKind,
    JsonValue, Span,
};

/// A JSON body's content under a provider's schema (HCL's `PartialContent`).
pub(super) struct Unfolded {
    /// The arguments (the first of each name the schema takes, and every property it
    /// does not take) and the blocks.
    pub body: Body,
    /// What each block of `body.blocks` holds besides its content, in the same order.
    pub shapes: Vec<BlockShape>,
    /// Errors of the body's own shape, with the place of each.
    pub errors: Vec<ShapeError>,
}

/// A block of a JSON body as HCL's decoder meets it.
#[derive(Default)]
pub(super) struct BlockShape {
    /// Where the block's missing items are reported (its body's `MissingItemRange`);
    /// `None` for the blocks the language already unfolded (`dynamic`), whose place is
    /// the usual one.
    pub brace: Option<Span>,
    /// The errors decoding the block's body reports about its shape (HCL's
    /// `collectDeepAttrs`, which `Content` runs twice: once in `PartialContent`).
    pub errors: Vec<ShapeError>,
}

/// One error about how a JSON body is written.
pub(super) enum ShapeError {
    /// `Incorrect JSON value type` at `span`.
    WrongType { span: Span, detail: String },
    /// `Duplicate argument`: the argument at `name` was first written at `first`.
    Duplicate { name: Ident, first: Span },
}

/// Unfolds `body`, written in the JSON syntax, against `schema`.
pub(super) fn unfold(schema: &BlockSchema, body: &Body, dialect: Dialect) -> Unfolded {
    let mut out = Unfolded {
        body: Body {
            attributes: Vec::new(),
            blocks: body.blocks.clone(),
        },
        shapes: body.blocks.iter().map(|_| BlockShape::default()).collect(),
        errors: Vec::new(),
    };
    for a in &body.attributes {
        let name = &*a.name.name;
        let ExprKind::Json(value) = &a.expr.kind else {
            out.body.attributes.push(a.clone());
            continue;
        };
        if schema.attribute(name, dialect).is_some() {
            match out.body.attribute(name) {
                Some(first) => out.errors.push(ShapeError::Duplicate {
                    name: a.name.clone(),
                    first: first.span,
                }),
                None => out.body.attributes.push(a.clone()),
            }
        } else if schema.block(name, dialect).is_some() {
            out.blocks(a, value);
        } else {
            out.body.attributes.push(a.clone());
        }
    }
    out
}

impl Unfolded {
    /// HCL's `unpackBlock` for a property standing for blocks of its name's type.
    fn blocks(&mut self, property: &Attribute, value: &JsonValue) {
        let (Some(elements), Some(blocks)) = (json_block_elements(value), json_blocks(property))
        else {
            self.errors.push(ShapeError::WrongType {
                span: start_range(value),
                detail: format!(
                    "Either a JSON object or a JSON array is required, representing the contents of one or more {:?} blocks.",
                    property.name.name
                ),
            });
            return;
        };
        for (element, block) in elements.into_iter().zip(blocks) {
            self.body.blocks.push(block);
            self.shapes.push(BlockShape {
                brace: Some(missing_item_range(element)),
                errors: body_errors(element),
            });
        }
    }
}

/// What decoding a block whose body is `value` reports of the body's shape: each value
/// that cannot hold properties, twice.
fn body_errors(value: &JsonValue) -> Vec<ShapeError> {
    let mut errors = Vec::new();
    for (at, required) in deep_properties(value).1 {
        let error = || ShapeError::WrongType {
            span: start_range(at),
            detail: format!("{required} required here, to define arguments and child blocks."),
        };
        errors.push(error());
        errors.push(error());
    }
    errors
}

/// HCL's `MissingItemRange` of a JSON body: an object's closing brace, an array's
/// opening bracket, any other value's start.
fn missing_item_range(value: &JsonValue) -> Span {
    match value.kind {
        JsonKind::Object(_) => {
            let end = value.span.end as usize;
            Span::new(end.saturating_sub(1), end)
        }
        _ => start_range(value),
    }
}
