//! Where HCL says an expression starts (`Expression.StartRange` in hclsyntax), the place
//! its diagnostics about one argument point at: a quoted string's first literal part
//! (inside the quotes), a lone interpolation's whole template, a binary operation's or
//! conditional's first operand, a call's name and opening parenthesis, the opening
//! bracket of a collection, `for` or index, a unary operator's symbol, and the whole of
//! a literal or a static traversal.

use super::{Expr, ExprKind, JsonKind, Span, TemplatePart, TraversalStep};

impl Expr {
    /// HCL's `StartRange` of this expression.
    pub fn start_range(&self) -> Span {
        let one = |at: u32| Span::new(at as usize, at as usize + 1);
        let start = self.span.start as usize;
        match &self.kind {
            // An empty string's one literal part is placed, as HCL places it, just after
            // the closing quote.
            ExprKind::String(s) if s.is_empty() => one(self.span.end),
            // A string without interpolations is one literal part between the quotes.
            ExprKind::String(_) if self.span.end as usize >= start + 2 => {
                Span::new(start + 1, self.span.end as usize - 1)
            }
            ExprKind::Template(parts) => match parts.as_slice() {
                // `"${x}"` alone is HCL's template wrapper, which starts where it is written.
                [TemplatePart::Interpolation(_)] => self.span,
                [TemplatePart::Literal(text), ..] => Span::new(start + 1, start + 1 + text.len()),
                [TemplatePart::Interpolation(inner), ..] => inner.start_range(),
                _ => one(self.span.start),
            },
            ExprKind::FuncCall { name, .. } => {
                Span::new(name.span.start as usize, name.span.end as usize + 1)
            }
            ExprKind::Binary { operands, .. } => operands[0].start_range(),
            ExprKind::Conditional(parts) => parts[0].start_range(),
            ExprKind::Traversal { steps, .. } => match steps.last() {
                // `x[var.k]` is an index expression, which starts at its bracket.
                Some(TraversalStep::Index(key)) if !is_literal(key) => {
                    one(key.span.start.saturating_sub(1))
                }
                Some(TraversalStep::AttrSplat(s) | TraversalStep::FullSplat(s)) => *s,
                _ => self.span,
            },
            ExprKind::Tuple(_)
            | ExprKind::Object(_)
            | ExprKind::For(_)
            | ExprKind::Parens(_)
            | ExprKind::Unary { .. } => one(self.span.start),
            // A JSON object or array starts at its opening brace or bracket.
            ExprKind::Json(v) if matches!(v.kind, JsonKind::Object(_) | JsonKind::Array(_)) => {
                one(self.span.start)
            }
            _ => self.span,
        }
    }
}

/// A key HCL folds into a static traversal step.
fn is_literal(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::String(_) | ExprKind::Number(_) | ExprKind::Bool(_)
    )
}
