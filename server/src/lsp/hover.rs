//! Hover, answered from the cached merged model:
//! - on a block header (primary or override file): the effective block as HCL, every
//!   overridden piece marked with its origin, and the files that contribute to it;
//! - on an argument or nested block of a block: whether it is in effect, or what replaced
//!   it and where;
//! - on a reference (`var.x`, `local.y`, `module.m`, `data.t.n`, `t.n`): the effective
//!   definition it refers to.
//!
//! In a body a provider defines, the provider schema's documentation comes first: the
//! provider and where its schema came from on a block header, the type, requirement and
//! description of an argument or nested block type (`merge::SchemaItem`); in a module
//! several roots call, what each root's provider versions say (`hover_versions.rs`). On the name of
//! a provider-defined function (`provider::aws::arn_parse`): its signature, summary,
//! description and parameters, from the schema of the provider `required_providers`
//! names.
//!
//! Where there is no merged object (a syntax-only position), the node under the cursor is
//! shown as written.

use std::path::Path;

use ropey::Rope;
use tower_lsp_server::ls_types::{self as lsp, Hover, HoverContents, MarkupContent, MarkupKind};

use super::convert;
use super::hover_versions::schema_docs;
use super::navigation::referenced_object;
use crate::eval::reference_at;
use crate::merge::{
    effective_block_type, header_span, render::render_object, FileIndex, MergedModule, ObjectRef,
    Origin,
};
use crate::module::SourceFile;
use crate::schema::{provider_function_markdown, FunctionLookup, ProviderSchemaSource};
use crate::syntax::{Attribute, Block, Body, ExprKind, Ident, Span};
use crate::text::{self, PositionEncoding};
use crate::workspace::Workspace;

/// The hover at `position` in the file at `path`.
pub fn hover(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<Hover> {
    let merged = path.parent().and_then(|d| ws.merged(d));
    let in_module = merged
        .as_ref()
        .and_then(|m| Some((m.clone(), m.file_index(path)?)));
    let file = match &in_module {
        Some((m, fi)) => m.files[*fi as usize].clone(),
        None => ws.file(path)?,
    };
    let rope = Rope::from_str(&file.text);
    let offset = text::byte_offset(&rope, convert::position_in(position), encoding);
    let module = path.parent().and_then(|d| ws.module(d));
    let schemas = match path.parent() {
        Some(dir) => ws.provider_schemas_for(dir),
        None => ws.provider_schemas(),
    };
    let (span, markdown) = module
        .and_then(|module| core_version_hover(&module, &file, offset))
        .or_else(|| {
            in_module.and_then(|(m, fi)| {
                reference_hover(&m, &file, offset)
                    .or_else(|| function_hover(&m, &file, offset, &*schemas))
                    .or_else(|| {
                        let (span, status) = object_hover(&m, fi, &file, offset)?;
                        let docs = path
                            .parent()
                            .and_then(|dir| schema_docs(ws, &m, fi, offset, dir));
                        Some((span, with_schema(status, docs)))
                    })
            })
        })
        .or_else(|| tfvars_hover(ws, path, offset))
        .or_else(|| syntax_hover(&file, offset))?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(convert::range(&rope, span, encoding)),
    })
}

/// On `required_version`: the version it is checked against, and where that came from.
fn core_version_hover(
    module: &crate::module::Module,
    file: &SourceFile,
    offset: usize,
) -> Option<(Span, String)> {
    let attr = file
        .syntax
        .body
        .blocks_of("terraform")
        .filter_map(|t| t.body.attribute("required_version"))
        .find(|a| a.span.contains(offset))?;
    let tool = match module.dialect {
        crate::module::Dialect::Terraform => "Terraform",
        crate::module::Dialect::OpenTofu => "OpenTofu",
    };
    let v = &module.core_version;
    Some((
        attr.span,
        format!(
            "Checked against {tool} **{}**, from {}.\n\nA `.terraform-version`, `.opentofu-version` or `.tool-versions` file in the module or a parent directory sets it; otherwise the `strata.terraformVersion` setting.",
            v.version, v.source
        ),
    ))
}

/// The hover's text after the provider schema's documentation of what is under the
/// cursor, when a schema knows it (`hover_versions.rs`: each root's versions).
fn with_schema(status: String, docs: Option<(Span, String)>) -> String {
    match docs {
        Some((_, docs)) => format!("{docs}\n\n---\n\n{status}"),
        None => status,
    }
}

fn code(text: &str) -> String {
    format!("```hcl\n{}\n```", text.trim_end())
}

/// The documentation of the provider-defined function whose name is under the cursor.
fn function_hover(
    m: &MergedModule,
    file: &SourceFile,
    offset: usize,
    schemas: &dyn ProviderSchemaSource,
) -> Option<(Span, String)> {
    let name = function_name_at(&file.syntax.body, offset)?;
    let (provider, FunctionLookup::Found(f)) = m.provider_function(schemas, &name.name)? else {
        return None;
    };
    let origin = schemas.origin(&provider);
    let markdown = provider_function_markdown(&name.name, &f, &provider, origin.as_ref());
    Some((name.span, markdown))
}

/// The name of the function call under the cursor, in any expression of `body`.
fn function_name_at(body: &Body, offset: usize) -> Option<Ident> {
    let mut found = None;
    let in_expr = |expr: &crate::syntax::Expr, found: &mut Option<Ident>| {
        expr.walk(&mut |e| {
            if let ExprKind::FuncCall { name, .. } = &e.kind {
                if name.span.contains(offset) {
                    *found = Some(name.clone());
                }
            }
        })
    };
    for a in body.attributes.iter().filter(|a| a.span.contains(offset)) {
        in_expr(&a.expr, &mut found);
    }
    if found.is_none() {
        let block = body.blocks.iter().find(|b| b.span.contains(offset))?;
        return function_name_at(&block.body, offset);
    }
    found
}

/// The effective definition of the reference under the cursor.
fn reference_hover(m: &MergedModule, file: &SourceFile, offset: usize) -> Option<(Span, String)> {
    let reference = reference_at(&file.syntax.body, offset)?;
    let object = referenced_object(m, &reference)?;
    Some((reference.span, effective_block(m, object)))
}

/// On a variable's name in a variable definitions file: the effective variable block.
fn tfvars_hover(ws: &Workspace, path: &Path, offset: usize) -> Option<(Span, String)> {
    let (m, name, span) = crate::ide::tfvars::variable_at(ws, path, offset)?;
    let v = m.variables.get(&name)?;
    Some((span, effective_block(&m, ObjectRef::Variable(v))))
}

/// The effective block, under the list of the files it is assembled from (above it, so
/// that a long block does not push where it comes from out of the hover's view).
fn effective_block(m: &MergedModule, object: ObjectRef<'_>) -> String {
    let p = object.provenance();
    let mut out = format!("Declared in `{}`", m.describe(p.decl));
    if !p.overrides.is_empty() {
        let list: Vec<String> = p
            .overrides
            .iter()
            .map(|o| format!("`{}`", m.describe(*o)))
            .collect();
        out.push_str(&format!("; overridden by {}", list.join(", ")));
    }
    out.push_str("\n\n");
    out.push_str(&code(&render_object(m, object)));
    out
}

fn object_hover(
    m: &MergedModule,
    fi: FileIndex,
    file: &SourceFile,
    offset: usize,
) -> Option<(Span, String)> {
    let object = m.object_at(fi, offset)?;
    if let ObjectRef::Local(l) = object {
        let span = if l.provenance.decl.file == fi {
            l.provenance.decl_span
        } else {
            Span::new(offset, offset)
        };
        return Some((span, effective_block(m, object)));
    }
    let block = file
        .syntax
        .body
        .blocks
        .iter()
        .find(|b| b.span.contains(offset))?;
    // In JSON the labels are the keys of objects around the body.
    let label = block.labels.iter().find(|l| l.span.contains(offset));
    let header = label.map_or(header_span(block), |l| l.span);
    if header.contains(offset) {
        return Some((header, effective_block(m, object)));
    }
    piece_hover(m, object, fi, &block.body, offset, false)
}

/// An argument or nested block of one of the object's blocks: in effect, or replaced.
fn piece_hover(
    m: &MergedModule,
    object: ObjectRef<'_>,
    fi: FileIndex,
    body: &Body,
    offset: usize,
    in_lifecycle: bool,
) -> Option<(Span, String)> {
    if let Some(a) = body.attributes.iter().find(|a| a.span.contains(offset)) {
        return Some((a.span, attribute_status(m, object, fi, a, in_lifecycle)));
    }
    let nested = body.blocks.iter().find(|b| b.span.contains(offset))?;
    if &*nested.kind.name == "lifecycle" && !in_lifecycle {
        if let Some(inner) = piece_hover(m, object, fi, &nested.body, offset, true) {
            return Some(inner);
        }
    }
    Some((header_span(nested), block_status(m, object, fi, nested)))
}

fn attribute_status(
    m: &MergedModule,
    object: ObjectRef<'_>,
    fi: FileIndex,
    a: &Attribute,
    in_lifecycle: bool,
) -> String {
    let here = Origin {
        file: fi,
        span: a.span,
    };
    match object.effective_attribute(&a.name.name, in_lifecycle) {
        Some(eff) if eff.origin() == here => {
            format!("{}\n\nIn effect.", code(&source(m, here)))
        }
        Some(eff) => format!(
            "**Overridden.** The value in effect comes from `{}`:\n\n{}",
            m.describe(eff.origin()),
            code(&source(m, eff.origin()))
        ),
        None => format!(
            "{}\n\n**Not in effect**: Terraform does not apply this argument from an override file.",
            code(&source(m, here))
        ),
    }
}

fn block_status(m: &MergedModule, object: ObjectRef<'_>, fi: FileIndex, b: &Block) -> String {
    let kind = effective_block_type(b);
    let effective = object.effective_blocks(kind);
    if let (true, Some(argument)) = (
        effective.is_empty(),
        object.effective_attribute(kind, false),
    ) {
        // The provider schema read the name as an argument set elsewhere: this block is
        // left unread (a block type with the argument's name, or an argument that also
        // accepts blocks but is set as an argument).
        return format!(
            "**Not in effect.** The argument `{kind}` from `{}` is in effect:\n\n{}",
            m.describe(argument.origin()),
            code(&source(m, argument.origin()))
        );
    }
    if effective
        .iter()
        .any(|n| n.file == fi && n.block.span == b.span)
        || effective.is_empty()
    {
        return format!("{}\n\nIn effect.", code(&b.header()));
    }
    let origins: Vec<String> = effective
        .iter()
        .map(|n| format!("`{}`", m.describe(n.header_origin())))
        .collect();
    let texts: Vec<String> = effective
        .iter()
        .map(|n| {
            source(
                m,
                Origin {
                    file: n.file,
                    span: n.block.span,
                },
            )
        })
        .collect();
    format!(
        "**Replaced.** Every `{kind}` block here is replaced by the one(s) from {}:\n\n{}",
        origins.join(", "),
        code(&texts.join("\n"))
    )
}

fn source(m: &MergedModule, origin: Origin) -> String {
    m.file(origin.file)
        .text
        .get(origin.span.range())
        .unwrap_or_default()
        .to_string()
}

/// The attribute, or the header of the block, under the cursor, as written.
fn syntax_hover(file: &SourceFile, offset: usize) -> Option<(Span, String)> {
    fn node_at(body: &Body, text: &str, offset: usize) -> Option<(Span, String)> {
        for attr in &body.attributes {
            if attr.span.contains(offset) {
                return Some((
                    attr.span,
                    code(text.get(attr.span.range()).unwrap_or_default()),
                ));
            }
        }
        let block = body
            .blocks
            .iter()
            .find(|b| b.span.contains(offset) && !b.stale)?;
        node_at(&block.body, text, offset)
            .or_else(|| Some((header_span(block), code(&block.header()))))
    }
    let (span, text) = node_at(&file.syntax.body, &file.text, offset)?;
    Some((span, format!("{text}\n\n*{}*", file.name())))
}
