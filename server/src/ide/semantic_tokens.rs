//! Semantic tokens of a native-syntax file: block types, labels (a resource's type apart
//! from its name), argument names (meta-arguments apart), references by what they name,
//! functions, strings and templates, numbers, literals, operators and comments. An
//! argument of a primary file that an override file replaced carries `overridden`, so an
//! editor can dim or strike it; a name standing for something deprecated (`deprecated.rs`)
//! carries `deprecated`.

use std::collections::HashSet;

use super::deprecated::deprecated_names;
use super::overridden::overridden_arguments;
use crate::merge::{FileIndex, MergedModule};
use crate::module::SourceFile;
use crate::schema::ProviderSchemaSource;
use crate::syntax::{
    self, Attribute, Block, Body, Expr, ExprKind, Span, Syntax, TemplatePart, TraversalStep,
};

/// What a token is; the LSP layer's legend lists them in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TokenKind {
    /// A module call's name, `module.x`, a provider's local name.
    Namespace,
    /// A resource type.
    Type,
    /// A resource's, variable's or output's name; a reference to a resource.
    Class,
    /// A reference to an input variable (`var.x`).
    Parameter,
    /// A local value, or a name a `for` expression binds.
    Variable,
    /// An argument name, an attribute after a reference, an object key.
    Property,
    /// A function name.
    Function,
    /// A block type, a meta-argument, `each`/`count`/`self`/`path`/`terraform`, literals.
    Keyword,
    /// A string, a template's text, a label that names nothing.
    String,
    /// A number.
    Number,
    /// An operator.
    Operator,
    /// A comment.
    Comment,
}

/// The token declares what it names.
pub const DECLARATION: u32 = 1;
/// The value cannot change (local values).
pub const READONLY: u32 = 1 << 1;
/// An argument that an override file replaced: not in effect.
pub const OVERRIDDEN: u32 = 1 << 2;
/// What the name stands for is deprecated, by its schema or the language's.
pub const DEPRECATED: u32 = 1 << 3;

/// One token: a span on one or more lines (the LSP layer splits it per line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Where it is.
    pub span: Span,
    /// What it is.
    pub kind: TokenKind,
    /// `DECLARATION`, `READONLY`, `OVERRIDDEN`, `DEPRECATED`, or'ed.
    pub modifiers: u32,
}

/// Arguments that are Terraform's own, not the block type's (coloured as keywords).
const META_ARGUMENTS: [&str; 8] = [
    "count",
    "for_each",
    "depends_on",
    "provider",
    "providers",
    "source",
    "version",
    "lifecycle",
];

/// The tokens of `file`, in order and without overlaps; none for a JSON file. With the
/// merged module it belongs to, arguments an override replaced are marked, and names of
/// what the language or `schemas` mark deprecated.
pub fn semantic_tokens(
    file: &SourceFile,
    merged: Option<(&MergedModule, FileIndex)>,
    schemas: &dyn ProviderSchemaSource,
) -> Vec<Token> {
    if file.syntax.syntax != Syntax::Native {
        return Vec::new();
    }
    let overridden: HashSet<Span> = merged
        .map(|(m, fi)| overridden_arguments(m, fi).into_iter().collect())
        .unwrap_or_default();
    let deprecated = merged
        .map(|(m, _)| deprecated_names(&file.syntax, m, schemas))
        .unwrap_or_default();
    let mut walker = Walker {
        text: &file.text,
        out: Vec::new(),
        overridden,
        deprecated,
    };
    for comment in syntax::comments(&file.text) {
        walker.push(comment.span, TokenKind::Comment, 0);
    }
    walker.body(&file.syntax.body, None);
    let mut tokens = walker.out;
    tokens.sort_by_key(|t| (t.span.start, t.span.end));
    let mut last_end = 0;
    tokens.retain(|t| {
        let keep = t.span.start >= last_end && t.span.end > t.span.start;
        if keep {
            last_end = t.span.end;
        }
        keep
    });
    tokens
}

struct Walker<'a> {
    text: &'a str,
    out: Vec<Token>,
    overridden: HashSet<Span>,
    deprecated: HashSet<Span>,
}

impl Walker<'_> {
    fn push(&mut self, span: Span, kind: TokenKind, mut modifiers: u32) {
        if self.deprecated.contains(&span) {
            modifiers |= DEPRECATED;
        }
        self.out.push(Token {
            span,
            kind,
            modifiers,
        });
    }

    /// A body; `top` is the top-level block type it belongs to, if it is one's body.
    fn body(&mut self, body: &Body, top: Option<&str>) {
        for a in &body.attributes {
            self.attribute(a, top);
        }
        for b in &body.blocks {
            self.block(b, top);
        }
    }

    fn block(&mut self, block: &Block, parent: Option<&str>) {
        self.push(block.kind.span, TokenKind::Keyword, 0);
        let kind = &*block.kind.name;
        let top_level = parent.is_none();
        for (i, label) in block.labels.iter().enumerate() {
            let (token, modifiers) = match (top_level, kind, i) {
                (true, "resource" | "data" | "ephemeral", 0) => (TokenKind::Type, 0),
                (true, "resource" | "data" | "ephemeral" | "variable" | "output" | "check", _) => {
                    (TokenKind::Class, DECLARATION)
                }
                (true, "module" | "provider", _) => (TokenKind::Namespace, DECLARATION),
                _ => (TokenKind::String, 0),
            };
            self.push(label.span, token, modifiers);
        }
        // Only a top-level block's own arguments are read by its type (`locals`).
        self.body(&block.body, Some(if top_level { kind } else { "" }));
    }

    fn attribute(&mut self, a: &Attribute, top: Option<&str>) {
        let overridden = if self.overridden.contains(&a.span) {
            OVERRIDDEN
        } else {
            0
        };
        let (kind, modifiers) = match top {
            Some("locals") => (TokenKind::Variable, DECLARATION | READONLY),
            _ if META_ARGUMENTS.contains(&&*a.name.name) => (TokenKind::Keyword, 0),
            _ => (TokenKind::Property, 0),
        };
        self.push(a.name.span, kind, modifiers | overridden);
        self.expression(&a.expr);
    }

    fn expression(&mut self, expr: &Expr) {
        // Spans already coloured by their parent: object keys and traversal roots.
        let mut handled: HashSet<Span> = HashSet::new();
        let mut tokens = Vec::new();
        expr.walk(&mut |e| {
            if handled.contains(&e.span) {
                return;
            }
            match &e.kind {
                ExprKind::String(_) => tokens.push((e.span, TokenKind::String, 0)),
                ExprKind::Number(_) => tokens.push((e.span, TokenKind::Number, 0)),
                ExprKind::Bool(_) | ExprKind::Null => tokens.push((e.span, TokenKind::Keyword, 0)),
                ExprKind::Template(parts) => template(e.span, parts, &mut tokens),
                ExprKind::Variable(name) => tokens.push((name.span, root_kind(&name.name), 0)),
                ExprKind::Traversal { root, steps } => {
                    if let ExprKind::Variable(name) = &root.kind {
                        handled.insert(root.span);
                        traversal(&name.name, name.span, steps, &mut tokens);
                    }
                }
                ExprKind::FuncCall { name, .. } => tokens.push((name.span, TokenKind::Function, 0)),
                ExprKind::Object(items) => {
                    for (key, _) in items {
                        if let ExprKind::Variable(name) = &key.kind {
                            handled.insert(key.span);
                            tokens.push((name.span, TokenKind::Property, 0));
                        }
                    }
                }
                ExprKind::Binary { op, operands } => {
                    let between = Span::new(
                        operands[0].span.end as usize,
                        operands[1].span.start as usize,
                    );
                    tokens.extend(self.find(between, op).map(|s| (s, TokenKind::Operator, 0)));
                }
                ExprKind::Unary { op, expr } => {
                    let before = Span::new(e.span.start as usize, expr.span.start as usize);
                    tokens.extend(self.find(before, op).map(|s| (s, TokenKind::Operator, 0)));
                }
                ExprKind::Conditional(parts) => {
                    for (gap, op) in [
                        (
                            Span::new(parts[0].span.end as usize, parts[1].span.start as usize),
                            "?",
                        ),
                        (
                            Span::new(parts[1].span.end as usize, parts[2].span.start as usize),
                            ":",
                        ),
                    ] {
                        tokens.extend(self.find(gap, op).map(|s| (s, TokenKind::Operator, 0)));
                    }
                }
                _ => {}
            }
        });
        for (span, kind, modifiers) in tokens {
            self.push(span, kind, modifiers);
        }
    }

    /// Where `op` is written inside `gap` (between two operands: only spaces, comments
    /// and parentheses beside it).
    fn find(&self, gap: Span, op: &str) -> Option<Span> {
        let written = self.text.get(gap.range())?;
        let at = written.find(op)?;
        let start = gap.start as usize + at;
        Some(Span::new(start, start + op.len()))
    }
}

/// What a name that starts a reference stands for.
fn root_kind(name: &str) -> TokenKind {
    match name {
        "var" => TokenKind::Parameter,
        "local" => TokenKind::Variable,
        "module" => TokenKind::Namespace,
        "data" | "ephemeral" | "resource" => TokenKind::Keyword,
        "each" | "count" | "self" | "path" | "terraform" => TokenKind::Keyword,
        _ => TokenKind::Type,
    }
}

/// The root of a traversal and its attribute steps: the names that make the reference
/// (`var.x`, `module.m`, `data.t.n`, `t.n`) by what they name, what follows as properties.
fn traversal(
    root: &str,
    root_span: Span,
    steps: &[TraversalStep],
    out: &mut Vec<(Span, TokenKind, u32)>,
) {
    out.push((root_span, root_kind(root), 0));
    let naming: &[TokenKind] = match root {
        "var" => &[TokenKind::Parameter],
        "local" => &[TokenKind::Variable],
        "module" => &[TokenKind::Namespace],
        "data" | "ephemeral" | "resource" => &[TokenKind::Type, TokenKind::Class],
        "each" | "count" | "self" | "path" | "terraform" => &[],
        _ => &[TokenKind::Class],
    };
    let modifiers = if root == "local" { READONLY } else { 0 };
    let mut attributes = 0;
    for step in steps {
        if let TraversalStep::Attr(name) = step {
            let kind = naming
                .get(attributes)
                .copied()
                .unwrap_or(TokenKind::Property);
            let modifiers = if attributes < naming.len() {
                modifiers
            } else {
                0
            };
            out.push((name.span, kind, modifiers));
            attributes += 1;
        }
    }
}

/// A template's text: the pieces of its span between its interpolations and directives.
fn template(span: Span, parts: &[TemplatePart], out: &mut Vec<(Span, TokenKind, u32)>) {
    let mut inner = Vec::new();
    collect_template_exprs(parts, &mut inner);
    inner.sort_by_key(|s| s.start);
    let mut at = span.start;
    for s in inner {
        if s.start > at {
            out.push((
                Span {
                    start: at,
                    end: s.start,
                },
                TokenKind::String,
                0,
            ));
        }
        at = at.max(s.end);
    }
    if span.end > at {
        out.push((
            Span {
                start: at,
                end: span.end,
            },
            TokenKind::String,
            0,
        ));
    }
}

fn collect_template_exprs(parts: &[TemplatePart], out: &mut Vec<Span>) {
    for part in parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(e) => out.push(e.span),
            TemplatePart::If {
                condition,
                then,
                otherwise,
            } => {
                out.push(condition.span);
                collect_template_exprs(then, out);
                collect_template_exprs(otherwise, out);
            }
            TemplatePart::For {
                collection, body, ..
            } => {
                out.push(collection.span);
                collect_template_exprs(body, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn tokens(text: &str) -> Vec<(String, TokenKind, u32)> {
        let file = SourceFile::parse(PathBuf::from("main.tf"), text.into(), None, None);
        semantic_tokens(&file, None, &crate::schema::NoProviderSchemas)
            .into_iter()
            .map(|t| (text[t.span.range()].to_string(), t.kind, t.modifiers))
            .collect()
    }

    #[test]
    fn colours_blocks_labels_arguments_references_and_literals() {
        let found = tokens(
            "# c\nresource \"aws_vpc\" \"this\" {\n  count = var.n + 1\n  tags  = { Name = \"x-${local.y}\" }\n  id    = data.t.n.id\n}\n",
        );
        use TokenKind::{
            Class, Comment, Keyword, Number, Operator, Parameter, Property, Type, Variable,
        };
        let expected: Vec<(String, TokenKind, u32)> = [
            ("# c\n", Comment, 0),
            ("resource", Keyword, 0),
            ("\"aws_vpc\"", Type, 0),
            ("\"this\"", Class, DECLARATION),
            ("count", Keyword, 0),
            ("var", Parameter, 0),
            ("n", Parameter, 0),
            ("+", Operator, 0),
            ("1", Number, 0),
            ("tags", Property, 0),
            ("Name", Property, 0),
            ("\"x-${", TokenKind::String, 0),
            ("local", Variable, 0),
            ("y", Variable, READONLY),
            ("}\"", TokenKind::String, 0),
            ("id", Property, 0),
            ("data", Keyword, 0),
            ("t", Type, 0),
            ("n", Class, 0),
            ("id", Property, 0),
        ]
        .iter()
        .map(|(s, k, m)| (s.to_string(), *k, *m))
        .collect();
        assert_eq!(found, expected);
    }
}
