//! The outline of one file: its blocks with their nested blocks and arguments, named as
//! Terraform names the objects they declare (`aws_vpc.this`, `var.name`, `module.vpc`,
//! `local.x`, `output.id`), with the blocks of an override file marked as overrides of
//! the block they change.

use crate::merge::{FileIndex, MergedModule};
use crate::module::SourceFile;
use crate::syntax::{Attribute, Block, Body, Span};

/// What a symbol of the outline declares; the LSP layer picks an icon for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    /// A `resource`, `data` or `ephemeral` block.
    Resource,
    /// A `variable` block.
    Variable,
    /// A `locals` block.
    Locals,
    /// One local value.
    Local,
    /// An `output` block.
    Output,
    /// A `module` block.
    ModuleCall,
    /// A `provider` block.
    Provider,
    /// Any other top-level block: `terraform`, `moved`, `import`, `removed`, `check`...
    Settings,
    /// A block nested in another.
    NestedBlock,
    /// An argument, or a variable's value in a `.tfvars` file.
    Argument,
}

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The name shown: the object's address for a top-level block.
    pub name: String,
    /// What it declares.
    pub kind: SymbolKind,
    /// A short description: the override it is, or what the block is.
    pub detail: Option<String>,
    /// The whole block or argument.
    pub span: Span,
    /// The part to select and reveal: the labels, or the argument's name.
    pub name_span: Span,
    /// Its nested blocks and arguments, in source order.
    pub children: Vec<Symbol>,
}

/// The outline of `file`. With the merged module it belongs to (and its index there),
/// each block of an override file says which declaration it overrides.
pub fn outline(file: &SourceFile, merged: Option<(&MergedModule, FileIndex)>) -> Vec<Symbol> {
    let body = &file.syntax.body;
    let overrides = merged.filter(|(m, fi)| m.is_override_file(*fi));
    let mut symbols: Vec<Symbol> = body
        .attributes
        .iter()
        .map(|a| argument(a, SymbolKind::Argument))
        .collect();
    for block in &body.blocks {
        let mut symbol = top_level(block);
        if let Some((m, fi)) = overrides {
            if symbol.kind == SymbolKind::Locals {
                for local in &mut symbol.children {
                    local.detail = Some(override_detail(m, fi, local.span.start));
                }
                symbol.detail = Some("override".to_string());
            } else {
                symbol.detail = Some(override_detail(m, fi, block.kind.span.start));
            }
        }
        symbols.push(symbol);
    }
    symbols.sort_by_key(|s| s.span.start);
    symbols
}

/// Writes into `name` how Terraform names what a top-level block declares, and says what
/// it declares. `name` is a buffer the caller reuses (the workspace symbols search names
/// every block of the workspace for each query).
pub fn name_block(block: &Block, name: &mut String) -> SymbolKind {
    use std::fmt::Write;
    name.clear();
    let label = |i: usize| block.label(i).unwrap_or("");
    let kind = &*block.kind.name;
    // Writing to a String cannot fail.
    let _ = match kind {
        "resource" => write!(name, "{}.{}", label(0), label(1)),
        "data" | "ephemeral" => write!(name, "{kind}.{}.{}", label(0), label(1)),
        "variable" => write!(name, "var.{}", label(0)),
        "output" => write!(name, "output.{}", label(0)),
        "module" => write!(name, "module.{}", label(0)),
        "provider" => write!(name, "{}", provider_name(block)),
        _ => write!(name, "{}", header(block)),
    };
    match kind {
        "resource" | "data" | "ephemeral" => SymbolKind::Resource,
        "variable" => SymbolKind::Variable,
        "output" => SymbolKind::Output,
        "module" => SymbolKind::ModuleCall,
        "provider" => SymbolKind::Provider,
        "locals" => SymbolKind::Locals,
        _ => SymbolKind::Settings,
    }
}

/// A top-level block, named as Terraform names what it declares.
fn top_level(block: &Block) -> Symbol {
    let mut name = String::new();
    let kind = name_block(block, &mut name);
    let child_kind = if kind == SymbolKind::Locals {
        SymbolKind::Local
    } else {
        SymbolKind::Argument
    };
    let mut symbol = Symbol {
        name,
        kind,
        detail: None,
        span: block.span,
        name_span: name_span(block),
        children: children(&block.body, child_kind),
    };
    if kind == SymbolKind::Locals {
        for local in &mut symbol.children {
            local.name = format!("local.{}", local.name);
        }
    }
    symbol
}

/// `provider.aws`, or `provider.aws.west` for a configuration with an alias.
fn provider_name(block: &Block) -> String {
    let name = block.label(0).unwrap_or("");
    let alias = block
        .body
        .attribute("alias")
        .and_then(|a| match &a.expr.kind {
            crate::syntax::ExprKind::String(s) => Some(s.to_string()),
            _ => None,
        });
    match alias {
        Some(alias) => format!("provider.{name}.{alias}"),
        None => format!("provider.{name}"),
    }
}

/// The arguments and nested blocks of a body, in source order.
fn children(body: &Body, argument_kind: SymbolKind) -> Vec<Symbol> {
    let mut out: Vec<Symbol> = body
        .attributes
        .iter()
        .map(|a| argument(a, argument_kind))
        .collect();
    out.extend(body.blocks.iter().map(|b| Symbol {
        name: header(b),
        kind: SymbolKind::NestedBlock,
        detail: None,
        span: b.span,
        name_span: name_span(b),
        children: children(&b.body, SymbolKind::Argument),
    }));
    out.sort_by_key(|s| s.span.start);
    out
}

fn argument(a: &Attribute, kind: SymbolKind) -> Symbol {
    Symbol {
        name: a.name.name.to_string(),
        kind,
        detail: None,
        span: a.span,
        name_span: a.name.span,
        children: Vec::new(),
    }
}

/// A block's type and labels as written: `dynamic "ingress"`, `moved`.
fn header(block: &Block) -> String {
    let mut out = block.kind.name.to_string();
    for label in &block.labels {
        out.push_str(&format!(" \"{}\"", label.name));
    }
    out
}

/// The block's labels (or its type when it has none): what an editor selects.
pub fn name_span(block: &Block) -> Span {
    match (block.labels.first(), block.labels.last()) {
        (Some(first), Some(last)) => Span {
            start: first.span.start,
            end: last.span.end,
        },
        _ => block.kind.span,
    }
}

/// "override of main.tf" for the override at `offset`, or "override without a base" when
/// no primary file declares the object.
fn override_detail(m: &MergedModule, fi: FileIndex, offset: u32) -> String {
    match m
        .object_at(fi, offset as usize)
        .map(|o| o.provenance().decl.file)
    {
        Some(decl) if decl != fi => format!("override of {}", m.file_name(decl)),
        _ => "override without a base".to_string(),
    }
}
