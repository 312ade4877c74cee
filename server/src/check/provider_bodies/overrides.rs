//! A resource (or a provider configuration) an override file changes, decoded as
//! Terraform decodes its merged body (`configs.mergeBody`, spec §1.5; recorded in
//! aws-overrides and json-overrides, and for provider configurations, which Terraform
//! decodes only when it plans, in the plan fixtures provider-config-overrides*): each
//! layer (the declaration, then every override) is read with `PartialContent`, so what
//! the type does not have is never reported (`schemas.rs` warns of it) while the errors
//! of a JSON layer's own shape are; the declaration alone answers for required
//! arguments; the merged arguments are checked for their values; the merged blocks (an
//! override's blocks of a type replace the layers' before it) are decoded in full, a
//! JSON block with the errors of its body's shape.

use super::{missing_item, provider_content, unfold, Decoder, Item};
use crate::check::provider_json::{BlockShape, Unfolded};
use crate::check::Diagnostic;
use crate::merge::{MergedBody, MergedModule, Nested, Origin};
use crate::schema::BlockSchema;
use crate::syntax::{Block, Body, Span, Syntax};

/// One layer of the merge: the provider's part of a declaration or override body, as
/// the schema reads it.
struct Layer<'a> {
    file: u32,
    block: &'a Block,
    /// The layer's content; unfolded with the schema when written in JSON.
    content: Content,
}

enum Content {
    Native(Body),
    Json(Unfolded),
}

impl Content {
    fn body(&self) -> &Body {
        match self {
            Content::Native(body) => body,
            Content::Json(unfolded) => &unfolded.body,
        }
    }
}

/// Decodes an object whose declaration at least one override changes against `schema`:
/// `bodies` are its declaration and overrides, `merged` their provider-defined part
/// merged as the schema reads it (`merge_with`); `language` is the schema of its block,
/// whose meta-arguments are not the provider's.
pub(in crate::check) fn decode(
    m: &MergedModule,
    schema: &BlockSchema,
    language: &BlockSchema,
    bodies: &[Nested],
    merged: &MergedBody,
    out: &mut Vec<Diagnostic>,
) {
    let mut layers: Vec<Layer> = bodies
        .iter()
        .map(|n| {
            let body = provider_content(language, &n.block.body, m);
            let content = match m.file(n.file).syntax.syntax {
                Syntax::Json => Content::Json(unfold(schema, &body, m.dialect)),
                Syntax::Native => Content::Native(body),
            };
            Layer {
                file: n.file,
                block: &n.block,
                content,
            }
        })
        .collect();
    let Some(declaration) = layers.first() else {
        return;
    };
    let (file, place) = (
        declaration.file,
        missing_item(m, declaration.file, declaration.block),
    );
    let mut decoder = Decoder { m, file, out };
    decoder.missing(schema, declaration.content.body(), place);
    for layer in &mut layers {
        if let Content::Json(unfolded) = &mut layer.content {
            decoder.file = layer.file;
            decoder.shape_errors(std::mem::take(&mut unfolded.errors));
        }
    }
    for a in &merged.attributes {
        let Some(s) = schema.attribute(&a.attr.name.name, m.dialect) else {
            continue;
        };
        // A JSON layer that writes an argument twice keeps the first (HCL's
        // `PartialContent`); the merged body holds the last.
        let written = layer_of(&layers, a.file, a.attr.span)
            .and_then(|l| l.content.body().attribute(&a.attr.name.name))
            .unwrap_or(&a.attr);
        decoder.file = a.file;
        decoder.value(s, written);
    }
    let mut blocks = Vec::new();
    for b in &merged.blocks {
        let shape = json_shape(&mut layers, b.file, &b.block);
        decoder.file = b.file;
        decoder.shape_errors(shape.errors);
        blocks.push(Item::json(m, b.file, &b.block, shape.brace));
    }
    let has_argument = |n: &str| merged.attributes.iter().any(|a| &*a.attr.name.name == n);
    decoder.blocks(schema, &has_argument, &blocks, Origin { file, span: place });
}

/// The layer of file `file` whose block holds `span`.
fn layer_of<'l, 'a>(layers: &'l [Layer<'a>], file: u32, span: Span) -> Option<&'l Layer<'a>> {
    layers.get(layer_index(layers, file, span)?)
}

fn layer_index(layers: &[Layer], file: u32, span: Span) -> Option<usize> {
    let holds = |outer: Span| outer.start <= span.start && span.end <= outer.end;
    layers
        .iter()
        .position(|l| l.file == file && holds(l.block.span))
}

/// What unfolding its layer found of `block`, a merged block from file `file` (nothing
/// for a native one); taken once, as each block is decoded once.
fn json_shape(layers: &mut [Layer], file: u32, block: &Block) -> BlockShape {
    let layer = layer_index(layers, file, block.span).and_then(|i| layers.get_mut(i));
    let Some(Layer {
        content: Content::Json(unfolded),
        ..
    }) = layer
    else {
        return BlockShape::default();
    };
    let found = unfolded
        .body
        .blocks
        .iter()
        .position(|b| b.span == block.span && b.kind.name == block.kind.name);
    match found.and_then(|i| unfolded.shapes.get_mut(i)) {
        Some(shape) => std::mem::take(shape),
        None => BlockShape::default(),
    }
}
