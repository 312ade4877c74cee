//! One syntax model for both of Terraform's syntaxes: native HCL (`.tf`, `.tofu`, parsed
//! with hcl-edit) and JSON (`.tf.json`, `.tofu.json`, parsed as HCL's JSON parser
//! parses them). Every block, attribute, label and expression carries its byte span in the file.
//!
//! Parsing never fails: a broken file yields every block that could be understood plus
//! syntax diagnostics placed where the problem is (see `recover`).

mod bad_bytes;
mod comments;
mod depth;
mod diagnose;
mod incremental;
mod json;
mod json_context;
mod json_errors;
mod json_parser;
mod lexer;
mod native;
mod number_literal;
mod recover;
mod repeated_keys;
mod scan;
mod scanner_errors;
mod stale;
mod start_range;
mod static_exprs;
mod traversals;
mod unanalysed;
mod unread;

use std::fmt;
use std::sync::Arc;

pub use comments::{comments, Comment};
pub use depth::NESTED_TOO_DEEPLY;
pub use json::attribute as json_property;
pub use json::start_range as json_start_range;
pub use json::{deep_properties, Property as JsonProperty};
pub use json::{json_block_elements, json_blocks};
pub use json_context::json_context;
pub use lexer::{all_tokens, Tok, Token};
pub use recover::parse_native;
pub use scan::heredoc_bodies;
pub use static_exprs::{json_string_native, json_string_traversal};

/// A byte range in a file's text, stored compactly (files are far below 4 GiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Self {
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    /// The span moved `by` bytes further into the file.
    pub fn shifted(self, by: usize) -> Self {
        Self::new(self.start as usize + by, self.end as usize + by)
    }

    /// As a `Range` for slicing.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Whether `offset` lies inside, end included (a cursor after the last character counts).
    pub fn contains(self, offset: usize) -> bool {
        (self.start as usize..=self.end as usize).contains(&offset)
    }
}

/// Which of Terraform's two syntaxes a file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// Native HCL: `.tf`, `.tofu`.
    Native,
    /// HCL's JSON syntax: `.tf.json`, `.tofu.json`.
    Json,
}

/// A name with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: Box<str>,
    /// Where it was written.
    pub span: Span,
}

/// A parsed configuration file.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    /// The syntax it was written in.
    pub syntax: Syntax,
    /// Its top-level body.
    pub body: Body,
    /// Syntax errors and notes, in file order.
    pub diagnostics: Vec<SyntaxDiagnostic>,
    /// The parts of the text HCL's parser skips after an error (see `unread.rs`), in file
    /// order: Terraform reads no item written there, while the body holds them for the
    /// editor. Empty for a file without syntax errors and for the JSON syntax.
    pub unread: Vec<Span>,
}

impl File {
    /// Whether any syntax error was found (notes do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == SyntaxSeverity::Error)
    }
}

/// Attributes and blocks of a body, each list in source order. Items are shared (`Arc`)
/// so that the merged model can hold them without copying subtrees.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Body {
    /// `name = expr` items.
    pub attributes: Vec<Arc<Attribute>>,
    /// Nested blocks.
    pub blocks: Vec<Arc<Block>>,
}

impl Body {
    /// The first attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<&Arc<Attribute>> {
        self.attributes.iter().find(|a| &*a.name.name == name)
    }

    /// The blocks of type `kind`.
    pub fn blocks_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Arc<Block>> + 'a {
        self.blocks.iter().filter(move |b| &*b.kind.name == kind)
    }
}

/// `name = expr`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// The attribute name.
    pub name: Ident,
    /// Its value.
    pub expr: Expr,
    /// The whole item, name to end of value.
    pub span: Span,
}

/// `kind "label" ... { body }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The block type, e.g. `resource`.
    pub kind: Ident,
    /// The labels, unquoted.
    pub labels: Vec<Ident>,
    /// The contents.
    pub body: Body,
    /// The whole block, type keyword to closing brace.
    pub span: Span,
    /// Where Terraform places the block's declaration (HCL's `DefRange`) when it differs
    /// from its type and labels: in the JSON syntax, the `{` of its body, or the `[` of
    /// the array of bodies it is one of. `None` in the native syntax.
    pub json_open: Option<Span>,
    /// True when the block is broken in the current text and its contents were kept
    /// from the last text in which it parsed; its inner spans are then approximate.
    pub stale: bool,
}

impl Block {
    /// The label at `index`, if written.
    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(|l| &*l.name)
    }

    /// Type and labels, as a reader would name the block: `resource "a" "b"`.
    pub fn header(&self) -> String {
        let mut out = self.kind.name.to_string();
        for label in &self.labels {
            out.push_str(&format!(" \"{}\"", label.name));
        }
        out
    }
}

/// An expression with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// Where the expression is written.
    pub span: Span,
    /// What it is.
    pub kind: ExprKind,
}

impl Expr {
    /// Calls `f` on this expression and every expression nested in it, in source order.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Traversal { root, steps } => {
                root.walk(f);
                for step in steps {
                    if let TraversalStep::Index(e) = step {
                        e.walk(f);
                    }
                }
            }
            ExprKind::FuncCall { args, .. } | ExprKind::Tuple(args) => {
                args.iter().for_each(|e| e.walk(f))
            }
            ExprKind::Object(items) => items.iter().for_each(|(k, v)| {
                k.walk(f);
                v.walk(f);
            }),
            ExprKind::Conditional(parts) => parts.iter().for_each(|e| e.walk(f)),
            ExprKind::Binary { operands, .. } => operands.iter().for_each(|e| e.walk(f)),
            ExprKind::Unary { expr, .. } | ExprKind::Parens(expr) => expr.walk(f),
            ExprKind::Template(parts) => walk_template(parts, f),
            ExprKind::For(x) => {
                x.collection.walk(f);
                if let Some(k) = &x.key {
                    k.walk(f);
                }
                x.value.walk(f);
                if let Some(c) = &x.condition {
                    c.walk(f);
                }
            }
            ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Variable(_)
            | ExprKind::Json(_)
            | ExprKind::Unanalysed
            | ExprKind::Missing => {}
        }
    }
}

fn walk_template<'a>(parts: &'a [TemplatePart], f: &mut impl FnMut(&'a Expr)) {
    for part in parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(e) => e.walk(f),
            TemplatePart::If {
                condition,
                then,
                otherwise,
            } => {
                condition.walk(f);
                walk_template(then, f);
                walk_template(otherwise, f);
            }
            TemplatePart::For {
                collection, body, ..
            } => {
                collection.walk(f);
                walk_template(body, f);
            }
        }
    }
}

/// The forms of a native-syntax expression, and a JSON value for the JSON syntax (whose
/// meaning, literal or template or reference, depends on where it stands).
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number literal as written.
    Number(Box<str>),
    /// A quoted string without interpolation, unescaped.
    String(Box<str>),
    /// A string or heredoc with interpolations or directives.
    Template(Vec<TemplatePart>),
    /// A bare name: `var`, `each`, `aws_instance`.
    Variable(Ident),
    /// `expr.attr[index].*` and friends.
    Traversal {
        /// The expression being traversed.
        root: Box<Expr>,
        /// The steps, in order.
        steps: Vec<TraversalStep>,
    },
    /// `name(args...)`, `provider::p::f(...)` with the namespace joined by `::`.
    FuncCall {
        /// The function name.
        name: Ident,
        /// The arguments.
        args: Vec<Expr>,
        /// Whether the last argument is expanded with `...`.
        expand_final: bool,
    },
    /// `[a, b]`
    Tuple(Vec<Expr>),
    /// `{ k = v }`: key expression (a bare name is a `Variable`) and value.
    Object(Vec<(Expr, Expr)>),
    /// `cond ? a : b`
    Conditional(Box<[Expr; 3]>),
    /// `!x`, `-x`
    Unary {
        /// The operator as written.
        op: &'static str,
        /// The operand.
        expr: Box<Expr>,
    },
    /// `a + b` and every other binary operator.
    Binary {
        /// The operator as written.
        op: &'static str,
        /// The left and right operands.
        operands: Box<[Expr; 2]>,
    },
    /// `(expr)`
    Parens(Box<Expr>),
    /// `[for k, v in coll : value if cond]` or the `{ ... => ... }` form.
    For(Box<ForExpr>),
    /// A JSON-syntax value.
    Json(JsonValue),
    /// A native expression the parser could not analyse although Terraform accepts it;
    /// the surrounding file is fully understood.
    Unanalysed,
    /// HCL's placeholder for a value that is missing (`name =` with nothing after it, a
    /// syntax error): a value of unknown type, at the token where the value should start.
    Missing,
}

/// One step of a traversal.
#[derive(Debug, Clone, PartialEq)]
pub enum TraversalStep {
    /// `.name`
    Attr(Ident),
    /// `[expr]`
    Index(Expr),
    /// `.0` (the legacy index form)
    LegacyIndex(u64, Span),
    /// `.*`
    AttrSplat(Span),
    /// `[*]`
    FullSplat(Span),
}

/// A `for` expression.
#[derive(Debug, Clone, PartialEq)]
pub struct ForExpr {
    /// The key (or index) variable, when two are named.
    pub key_var: Option<Ident>,
    /// The value variable.
    pub value_var: Ident,
    /// What is iterated.
    pub collection: Expr,
    /// The key expression of an object `for`.
    pub key: Option<Expr>,
    /// The element or value expression.
    pub value: Expr,
    /// The `if` filter.
    pub condition: Option<Expr>,
    /// Whether `...` groups values by key.
    pub grouping: bool,
}

/// A piece of a template.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplatePart {
    /// Literal text (escapes already decoded).
    Literal(Box<str>),
    /// `${expr}`
    Interpolation(Expr),
    /// `%{ if cond }then%{ else }else%{ endif }`
    If {
        /// The condition.
        condition: Expr,
        /// The parts when true.
        then: Vec<TemplatePart>,
        /// The parts when false.
        otherwise: Vec<TemplatePart>,
    },
    /// `%{ for k, v in coll }body%{ endfor }`
    For {
        /// The key variable, when two are named.
        key_var: Option<Ident>,
        /// The value variable.
        value_var: Ident,
        /// What is iterated.
        collection: Expr,
        /// The repeated parts.
        body: Vec<TemplatePart>,
    },
}

/// A JSON value with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonValue {
    /// Where it is written.
    pub span: Span,
    /// What it is.
    pub kind: JsonKind,
}

/// The JSON value forms.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number as written.
    Number(Box<str>),
    /// A string, unescaped.
    String(Box<str>),
    /// `[...]`
    Array(Vec<JsonValue>),
    /// `{...}`, properties in order, duplicates kept.
    Object(Vec<(Ident, JsonValue)>),
    /// A value that does not parse (the syntax error says why); HCL evaluates it as an
    /// unknown value of any type.
    Invalid,
}

/// How serious a syntax diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxSeverity {
    /// Terraform rejects the file.
    Error,
    /// Terraform accepts the text, but Strata could not analyse part of it.
    Note,
}

/// A syntax problem at a place in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxDiagnostic {
    /// Error or note.
    pub severity: SyntaxSeverity,
    /// One-line summary, in the style of HCL's own messages.
    pub summary: String,
    /// What exactly is wrong.
    pub detail: String,
    /// Where.
    pub span: Span,
    /// A place the detail names, written `{range}` in it: the reader, who knows the
    /// file's name and lines, writes it as HCL writes ranges (`main.tf:3,1-17`).
    pub cited: Option<Span>,
}

impl fmt::Display for SyntaxDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.summary, self.detail)
    }
}

/// Parses the new text of a file after an edit: only the top-level items the edit touched
/// are parsed again when the previous text parsed cleanly (see `incremental`); otherwise
/// the whole file, exactly as `parse` does.
pub fn reparse(
    text: &str,
    syntax: Syntax,
    previous_text: &str,
    previous: &File,
    last_good: Option<&File>,
) -> File {
    if syntax == Syntax::Native && !text.starts_with('\u{feff}') {
        if let Some(file) = incremental::reparse(text, previous_text, previous, last_good) {
            return file;
        }
    }
    parse(text, syntax, last_good)
}

/// Parses `text` written in `syntax`. `previous` is the last tree of the same file that
/// parsed without errors: blocks broken in `text` are taken from it (marked `stale`) so
/// that a half-typed block does not vanish from the module while the user types.
pub fn parse(text: &str, syntax: Syntax, previous: Option<&File>) -> File {
    parse_invalid(text, &[], syntax, previous)
}

/// [`parse`] for a file whose bytes at `invalid` (in order) were not UTF-8, each held in
/// `text` as `text::encoding::PLACEHOLDER` (`text::encoding::decode_lossless`). The
/// JSON syntax reads them as the characters they stand for; HCL's JSON scanner, too,
/// takes any byte in a string and refuses one elsewhere.
pub fn parse_invalid(
    text: &str,
    invalid: &[usize],
    syntax: Syntax,
    previous: Option<&File>,
) -> File {
    let text = crate::text::without_bom(text);
    match syntax {
        Syntax::Native => bad_bytes::parse_native_invalid(&text, invalid, previous),
        Syntax::Json => json::parse_json(&text),
    }
}

/// Parses a JSON-syntax variable definitions file (`.tfvars.json`): every property of
/// its root object is an argument, none a block (`json::parse_json_attributes`).
pub fn parse_json_attributes(text: &str) -> File {
    json::parse_json_attributes(&crate::text::without_bom(text))
}

/// A JSON-syntax string read as HCL reads it in expression position: a template, whose
/// `${...}` interpolations are expressions. `None` for strings without any, or that do not
/// parse. Spans are offsets into the file, approximate where the string has escapes.
pub fn json_string_template(value: &JsonValue) -> Option<Expr> {
    let JsonKind::String(s) = &value.kind else {
        return None;
    };
    if !s.contains("${") && !s.contains("%{") {
        return None;
    }
    let template = hcl_edit::parser::parse_template(s).ok()?;
    let parts = native::Converter::new(value.span.start as usize + 1).template_parts(template);
    Some(Expr {
        span: value.span,
        kind: ExprKind::Template(parts),
    })
}

/// A whole text read as a template (the contents of a `templatefile` file); `None` when
/// it does not parse. Spans are offsets into `text`.
pub fn parse_template(text: &str) -> Option<Vec<TemplatePart>> {
    let template = hcl_edit::parser::parse_template(text).ok()?;
    Some(native::Converter::new(0).template_parts(template))
}

/// A JSON-syntax string read as an expression (as `type` and meta-arguments are read in
/// the JSON syntax). Spans are offsets into the file, approximate where the string has
/// escapes.
pub fn json_string_expression(value: &JsonValue) -> Option<Expr> {
    let JsonKind::String(s) = &value.kind else {
        return None;
    };
    let parsed = hcl_edit::parser::parse_expr(s).ok()?;
    Some(native::Converter::new(value.span.start as usize + 1).expression(parsed))
}

#[cfg(test)]
mod agreement_tests;
#[cfg(test)]
mod tests;
