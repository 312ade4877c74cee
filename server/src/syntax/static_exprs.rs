//! HCL's static analysis of expressions, the same in both syntaxes: `hcl.ExprList` (a
//! list written as a list), `hcl.AbsTraversalForExpr` (a reference written as one, or in
//! the JSON syntax a string holding one) and the JSON strings Terraform re-parses as
//! native expressions (`replace_triggered_by`, an import's `to`).
//!
//! The JSON syntax places what it parses out of a string as HCL does: the string's
//! content starts at its opening quote (not after it, as a template's does), and offsets
//! count the unescaped characters.

use super::{
    diagnose, native, Expr, ExprKind, JsonKind, JsonValue, Span, SyntaxDiagnostic, TraversalStep,
};

impl Expr {
    /// `hcl.ExprList`: the elements of a list written as one (a tuple, or a JSON array);
    /// `None` when it is not (HCL's `Invalid expression`, at `start_range`).
    pub fn static_list(&self) -> Option<Vec<Expr>> {
        match &self.kind {
            ExprKind::Tuple(items) => Some(items.clone()),
            ExprKind::Json(JsonValue {
                kind: JsonKind::Array(items),
                ..
            }) => Some(items.iter().map(json_expr).collect()),
            _ => None,
        }
    }

    /// `hcl.ExprMap`: the keys and values of a map written as one (an object, or a JSON
    /// object, whose keys are strings at their names); `None` when it is not.
    pub fn static_map(&self) -> Option<Vec<(Expr, Expr)>> {
        match &self.kind {
            ExprKind::Object(items) => Some(items.clone()),
            ExprKind::Json(JsonValue {
                kind: JsonKind::Object(props),
                ..
            }) => Some(
                props
                    .iter()
                    .map(|(name, value)| {
                        let key = JsonValue {
                            span: name.span,
                            kind: JsonKind::String(name.name.clone()),
                        };
                        (json_expr(&key), json_expr(value))
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    /// `hcl.AbsTraversalForExpr`: the reference this expression is, as a traversal
    /// expression (a native traversal itself, or a JSON string parsed as one); `None`
    /// when it is not one (HCL's `Invalid expression`, over the whole expression).
    pub fn static_traversal(&self) -> Option<Expr> {
        match &self.kind {
            // The native parser read `null`, `true` and `false` as literals; HCL's
            // `LiteralValueExpr.AsTraversal` gives the names back.
            ExprKind::Variable(_) | ExprKind::Null | ExprKind::Bool(_) => Some(self.clone()),
            ExprKind::Traversal { root, steps }
                if matches!(root.kind, ExprKind::Variable(_))
                    && steps.iter().all(|s| static_step(s, true)) =>
            {
                Some(self.clone())
            }
            ExprKind::Json(value) => json_string_traversal(value),
            _ => None,
        }
    }

    /// Whether this is a JSON-syntax value.
    pub fn is_json(&self) -> bool {
        matches!(self.kind, ExprKind::Json(_))
    }
}

/// A JSON value as an expression of its own.
fn json_expr(value: &JsonValue) -> Expr {
    Expr {
        span: value.span,
        kind: ExprKind::Json(value.clone()),
    }
}

/// A step of a static traversal: an attribute name, or an index by a literal (the
/// native parser folds `[true]` and the legacy `.0` into traversals too, `legacy`;
/// `hclsyntax.ParseTraversalAbs` takes only numbers and strings in brackets).
fn static_step(step: &TraversalStep, legacy: bool) -> bool {
    match step {
        TraversalStep::Attr(_) => true,
        TraversalStep::Index(key) => match &key.kind {
            // A sign is an operator to HCL's scanner, not part of the number literal.
            ExprKind::Number(n) => legacy || !n.starts_with('-'),
            ExprKind::String(_) => true,
            ExprKind::Bool(_) => legacy,
            _ => false,
        },
        TraversalStep::LegacyIndex(..) => legacy,
        TraversalStep::AttrSplat(_) | TraversalStep::FullSplat(_) => false,
    }
}

/// A JSON string read as `hclsyntax.ParseTraversalAbs` reads it (HCL's JSON
/// `AsTraversal`): a root name, then attribute names and literal indexes, nothing else;
/// `None` for anything else or any syntax error (whose words HCL drops).
pub fn json_string_traversal(value: &JsonValue) -> Option<Expr> {
    let JsonKind::String(s) = &value.kind else {
        return None;
    };
    let parsed = parse_placed(s, value.span.start as usize)?;
    match &parsed.kind {
        ExprKind::Variable(_) => Some(parsed),
        ExprKind::Traversal { root, steps }
            if matches!(root.kind, ExprKind::Variable(_))
                && steps.iter().all(|s| static_step(s, false)) =>
        {
            Some(parsed)
        }
        _ => None,
    }
}

/// A JSON string parsed as a native expression placed from its opening quote, as
/// `hclsyntax.ParseExpression(value, filename, srcRange.Start)` places it: the
/// expression, or HCL's syntax errors. `None` when the value is not a string (or is
/// one HCL accepts that hcl-edit cannot read).
pub fn json_string_native(value: &JsonValue) -> Option<Result<Expr, Vec<SyntaxDiagnostic>>> {
    let JsonKind::String(s) = &value.kind else {
        return None;
    };
    let start = value.span.start as usize;
    let errors = diagnose::expression(s);
    if !errors.is_empty() {
        // The end-of-text token is one byte wide when Terraform prints it.
        let widened = |span: Span| match span.start == span.end && span.end as usize == s.len() {
            true => Span::new(span.start as usize, span.end as usize + 1),
            false => span,
        };
        let placed = errors.into_iter().map(|d| SyntaxDiagnostic {
            span: widened(d.span).shifted(start),
            cited: d.cited.map(|c| c.shifted(start)),
            ..d
        });
        return Some(Err(placed.collect()));
    }
    parse_placed(s, start).map(Ok)
}

/// `text` parsed by hcl-edit as an expression whose first character is at offset
/// `start`. HCL's scanner skips white space (newlines too: a bare expression is read as
/// if in parentheses), which hcl-edit refuses around a whole expression.
fn parse_placed(text: &str, start: usize) -> Option<Expr> {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let trimmed = text.trim_start_matches(blank);
    let parsed = hcl_edit::parser::parse_expr(trimmed.trim_end_matches(blank)).ok()?;
    let start = start + (text.len() - trimmed.len());
    Some(native::Converter::new(start).expression(parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(s: &str, at: usize) -> JsonValue {
        JsonValue {
            span: Span::new(at, at + s.len() + 2),
            kind: JsonKind::String(s.into()),
        }
    }

    #[test]
    fn traversals_in_json_strings_start_at_the_quote() {
        let t = json_string_traversal(&string(" a.b[\"k\"] ", 10)).expect("a traversal");
        assert_eq!(t.span, Span::new(11, 19));
        let t = json_string_traversal(&string("a.b.0", 0));
        assert!(t.is_none(), "{t:?}");
        assert!(json_string_traversal(&string("a[-1]", 0)).is_none());
        assert!(json_string_traversal(&string("${a}", 0)).is_none());
        assert!(json_string_traversal(&string("a + 1", 0)).is_none());
        assert!(json_string_traversal(&string("", 0)).is_none());
        assert!(json_string_traversal(&string("a[0].b[\"x\"]", 0)).is_some());
        assert!(json_string_traversal(&string(" terraform_data.single ", 0)).is_some());
        assert!(json_string_traversal(&string("a ", 0)).is_some());
    }
}
