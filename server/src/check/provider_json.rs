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
    deep_properties, json_property, Block, Body, ExprKind, Ident, JsonKind, JsonProperty,
    JsonValue, Span,
};
use std::sync::Arc;

/// A JSON body's content under a provider's schema.
pub(super) struct Unfolded {
    /// The arguments (the first of each name the schema takes, and every property it
    /// does not take) and the blocks.
    pub body: Body,
    /// Where each block's missing items are reported (its body's `MissingItemRange`),
    /// parallel to `body.blocks`; `None` for the blocks the language already unfolded
    /// (`dynamic`), whose place is the usual one.
    pub braces: Vec<Option<Span>>,
    /// Errors of the body's shape, with the place of each.
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
        braces: vec![None; body.blocks.len()],
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
            out.blocks(&a.name, value);
        } else {
            out.body.attributes.push(a.clone());
        }
    }
    out
}

impl Unfolded {
    /// HCL's `unpackBlock` for a property standing for blocks of type `kind`.
    fn blocks(&mut self, kind: &Ident, value: &JsonValue) {
        let open = start_range(value);
        match &value.kind {
            JsonKind::Null => {}
            JsonKind::Object(_) => self.block(kind, value, open),
            JsonKind::Array(items) => {
                for item in items {
                    self.block(kind, item, open);
                }
            }
            _ => self.errors.push(ShapeError::WrongType {
                span: start_range(value),
                detail: format!(
                    "Either a JSON object or a JSON array is required, representing the contents of one or more {:?} blocks.",
                    kind.name
                ),
            }),
        }
    }

    /// One block whose body is `value` and whose definition is at `open` (the object's
    /// brace, or the bracket of the array it is an element of).
    fn block(&mut self, kind: &Ident, value: &JsonValue, open: Span) {
        let mut body = Body::default();
        for (key, inner) in self.properties(value) {
            body.attributes.push(json_property(key, inner));
        }
        self.body.blocks.push(Arc::new(Block {
            kind: kind.clone(),
            labels: Vec::new(),
            body,
            span: value.span,
            json_open: Some(open),
            stale: false,
        }));
        self.braces.push(Some(missing_item_range(value)));
    }

    /// HCL's `collectDeepAttrs` of a block's body, as `Content` runs it twice (once
    /// in `PartialContent`), each time reporting what cannot hold properties.
    fn properties<'v>(&mut self, value: &'v JsonValue) -> Vec<JsonProperty<'v>> {
        let (mut props, wrong) = deep_properties(value);
        for (at, required) in wrong {
            let error = || ShapeError::WrongType {
                span: start_range(at),
                detail: format!("{required} required here, to define arguments and child blocks."),
            };
            self.errors.push(error());
            self.errors.push(error());
        }
        props.retain(|(k, _)| &*k.name != "//");
        props
    }
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
