//! Conversion of hcl-edit's lossless tree into Strata's compact syntax model.
//!
//! hcl-edit parses a piece of a file at a time when the file is broken (see `recover`), so
//! every span is shifted by `base`, the offset of that piece in the file.

use std::sync::Arc;

use hcl_edit::expr::{BinaryOperator, Expression, ObjectKey, TraversalOperator, UnaryOperator};
use hcl_edit::structure::{self, BlockLabel, Structure};
use hcl_edit::template::{Directive, Element, Template};

use super::{
    Attribute, Block, Body, Expr, ExprKind, ForExpr, Ident, Span, TemplatePart, TraversalStep,
};

/// Converts hcl-edit values whose spans are relative to a piece starting at `base`.
pub(super) struct Converter {
    base: usize,
    /// Objects that stand for the object written at the same span (see
    /// `repeated_keys`: hcl-edit saw those blanked out).
    grafts: Vec<Expr>,
}

impl Converter {
    pub(super) fn new(base: usize) -> Self {
        Self::with_grafts(base, Vec::new())
    }

    /// A converter that puts each of `grafts` in place of the object at its span.
    pub(super) fn with_grafts(base: usize, grafts: Vec<Expr>) -> Self {
        Self { base, grafts }
    }

    fn span(&self, node: &impl hcl_edit::Span) -> Span {
        let r = node.span().unwrap_or(0..0);
        Span::new(r.start + self.base, r.end + self.base)
    }

    fn ident(&self, node: &hcl_edit::Decorated<hcl_edit::Ident>) -> Ident {
        Ident {
            name: node.value().as_str().into(),
            span: self.span(node),
        }
    }

    pub(super) fn body(&self, body: structure::Body) -> Body {
        let mut out = Body::default();
        for item in body {
            match item {
                Structure::Attribute(attr) => out.attributes.push(Arc::new(self.attribute(attr))),
                Structure::Block(block) => out.blocks.push(Arc::new(self.block(block))),
            }
        }
        out
    }

    pub(super) fn attribute(&self, attr: structure::Attribute) -> Attribute {
        let span = self.span(&attr);
        Attribute {
            name: self.ident(&attr.key),
            expr: self.expr(attr.value),
            span,
        }
    }

    pub(super) fn block(&self, block: structure::Block) -> Block {
        let span = self.span(&block);
        let labels = block
            .labels
            .iter()
            .map(|label| match label {
                BlockLabel::Ident(id) => self.ident(id),
                BlockLabel::String(s) => Ident {
                    name: s.value().as_str().into(),
                    span: self.span(s),
                },
            })
            .collect();
        Block {
            kind: self.ident(&block.ident),
            labels,
            body: self.body(block.body),
            span,
            json_open: None,
            stale: false,
        }
    }

    pub(super) fn expr(&self, expr: Expression) -> Expr {
        let span = self.span(&expr);
        if matches!(expr, Expression::Object(_)) {
            if let Some(graft) = self.grafts.iter().find(|g| g.span == span) {
                return graft.clone();
            }
        }
        let kind = match expr {
            Expression::Null(_) => ExprKind::Null,
            Expression::Bool(b) => ExprKind::Bool(*b.value()),
            Expression::Number(n) => ExprKind::Number(n.value().to_string().into()),
            Expression::String(s) => ExprKind::String(s.value().as_str().into()),
            Expression::Array(array) => {
                ExprKind::Tuple(array.into_iter().map(|e| self.expr(e)).collect())
            }
            Expression::Object(object) => ExprKind::Object(
                object
                    .into_iter()
                    .map(|(key, value)| {
                        let key = match key {
                            ObjectKey::Ident(id) => Expr {
                                span: self.span(&id),
                                kind: ExprKind::Variable(self.ident(&id)),
                            },
                            ObjectKey::Expression(e) => self.expr(e),
                        };
                        (key, self.expr(value.into_expr()))
                    })
                    .collect(),
            ),
            Expression::StringTemplate(t) => ExprKind::Template(self.template(t.into())),
            Expression::HeredocTemplate(h) => ExprKind::Template(self.template(h.template)),
            Expression::Parenthesis(p) => ExprKind::Parens(Box::new(self.expr(p.into_inner()))),
            Expression::Variable(v) => ExprKind::Variable(self.ident(&v)),
            Expression::Conditional(c) => ExprKind::Conditional(Box::new([
                self.expr(c.cond_expr),
                self.expr(c.true_expr),
                self.expr(c.false_expr),
            ])),
            Expression::FuncCall(call) => {
                let mut name: String = call
                    .name
                    .namespace
                    .iter()
                    .map(|n| format!("{}::", n.value().as_str()))
                    .collect();
                name.push_str(call.name.name.value().as_str());
                let name_start = call
                    .name
                    .namespace
                    .first()
                    .map(|n| self.span(n).start)
                    .unwrap_or_else(|| self.span(&call.name.name).start);
                let name_span = Span {
                    start: name_start,
                    end: self.span(&call.name.name).end,
                };
                let expand_final = call.args.expand_final();
                ExprKind::FuncCall {
                    name: Ident {
                        name: name.into(),
                        span: name_span,
                    },
                    args: call.args.into_iter().map(|e| self.expr(e)).collect(),
                    expand_final,
                }
            }
            Expression::Traversal(t) => {
                let steps = t
                    .operators
                    .into_iter()
                    .map(|op| {
                        let op_span = self.span(&op);
                        match op.into_value() {
                            TraversalOperator::AttrSplat(_) => TraversalStep::AttrSplat(op_span),
                            TraversalOperator::FullSplat(_) => TraversalStep::FullSplat(op_span),
                            TraversalOperator::GetAttr(id) => TraversalStep::Attr(self.ident(&id)),
                            TraversalOperator::Index(e) => TraversalStep::Index(self.expr(e)),
                            TraversalOperator::LegacyIndex(i) => {
                                TraversalStep::LegacyIndex(*i.value(), op_span)
                            }
                        }
                    })
                    .collect();
                ExprKind::Traversal {
                    root: Box::new(self.expr(t.expr)),
                    steps,
                }
            }
            Expression::UnaryOp(op) => ExprKind::Unary {
                op: match op.operator.value() {
                    UnaryOperator::Neg => "-",
                    UnaryOperator::Not => "!",
                },
                expr: Box::new(self.expr(op.expr)),
            },
            Expression::BinaryOp(op) => ExprKind::Binary {
                op: binary_operator(*op.operator.value()),
                operands: Box::new([self.expr(op.lhs_expr), self.expr(op.rhs_expr)]),
            },
            Expression::ForExpr(f) => {
                let f = *f;
                ExprKind::For(Box::new(ForExpr {
                    key_var: f.intro.key_var.as_ref().map(|k| self.ident(k)),
                    value_var: self.ident(&f.intro.value_var),
                    collection: self.expr(f.intro.collection_expr),
                    key: f.key_expr.map(|k| self.expr(k)),
                    value: self.expr(f.value_expr),
                    condition: f.cond.map(|c| self.expr(c.expr)),
                    grouping: f.grouping,
                }))
            }
        };
        Expr { span, kind }
    }

    /// An expression parsed on its own (a JSON string's content).
    pub(super) fn expression(&self, expr: Expression) -> Expr {
        self.expr(expr)
    }

    /// The parts of a template parsed on its own (a JSON string's content).
    pub(super) fn template_parts(&self, template: Template) -> Vec<TemplatePart> {
        self.template(template)
    }

    fn template(&self, template: Template) -> Vec<TemplatePart> {
        template
            .into_iter()
            .map(|element| match element {
                Element::Literal(s) => TemplatePart::Literal(s.value().as_str().into()),
                Element::Interpolation(i) => TemplatePart::Interpolation(self.expr(i.expr)),
                Element::Directive(d) => match *d {
                    Directive::If(d) => TemplatePart::If {
                        condition: self.expr(d.if_expr.cond_expr),
                        then: self.template(d.if_expr.template),
                        otherwise: d
                            .else_expr
                            .map(|e| self.template(e.template))
                            .unwrap_or_default(),
                    },
                    Directive::For(d) => TemplatePart::For {
                        key_var: d.for_expr.key_var.as_ref().map(|k| self.ident(k)),
                        value_var: self.ident(&d.for_expr.value_var),
                        collection: self.expr(d.for_expr.collection_expr),
                        body: self.template(d.for_expr.template),
                    },
                },
            })
            .collect()
    }
}

fn binary_operator(op: BinaryOperator) -> &'static str {
    match op {
        BinaryOperator::Eq => "==",
        BinaryOperator::NotEq => "!=",
        BinaryOperator::LessEq => "<=",
        BinaryOperator::GreaterEq => ">=",
        BinaryOperator::Less => "<",
        BinaryOperator::Greater => ">",
        BinaryOperator::Plus => "+",
        BinaryOperator::Minus => "-",
        BinaryOperator::Mul => "*",
        BinaryOperator::Div => "/",
        BinaryOperator::Mod => "%",
        BinaryOperator::And => "&&",
        BinaryOperator::Or => "||",
    }
}
