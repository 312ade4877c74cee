//! Evaluation that keeps every error HCL reports, for callers that print all of an
//! expression's diagnostics (Terraform does for a `.tfvars` value and a `-var` value).
//! HCL evaluates every element of a tuple, every key and value of an object, both
//! operands of an operator, every interpolation of a template, the collection and key of
//! an index and every element of a `for` expression, keeping their errors (and both
//! operands' when neither suits the operator) and going on
//! with an unknown value (its `DynamicVal`) in place of what failed; a conditional keeps
//! its condition's errors and those of the result it takes, none of the other result's
//! (nor either's when the condition is unknown). Plain `evaluate` stops at the first
//! error, which is what every other caller reports. A limit of Strata's always stops.
//! Not kept: a function's arguments after the first failed one (no caller of this
//! evaluation may call a function).

use super::evaluate::{evaluate_keeping, EvalError, Evaluator, Scope};
use super::operations::unsuitable_operands;
use super::value::Value;
use crate::syntax::{Expr, Span};

/// Evaluates `expr` in `scope`, reporting every error HCL reports for it, in the order
/// HCL finds them (at least one when it fails).
pub fn evaluate_every_error(expr: &Expr, scope: &dyn Scope) -> Result<Value, Vec<EvalError>> {
    let mut kept = Vec::new();
    let result = evaluate_keeping(expr, scope, Some(&mut kept));
    match result {
        Ok(value) if kept.is_empty() => Ok(value),
        Ok(_) => Err(kept),
        Err(e) => {
            kept.push(e);
            Err(kept)
        }
    }
}

impl Evaluator<'_> {
    /// `result` of a part HCL goes on after: when every error is kept, a failure (but a
    /// limit) is kept and the part is unknown; otherwise `result` as it is.
    pub(super) fn go_on(&mut self, result: Result<Value, EvalError>) -> Result<Value, EvalError> {
        match (result, self.kept.as_deref_mut()) {
            (Err(e), Some(kept)) if !e.is_limit() => {
                kept.push(e);
                Ok(Value::Unknown)
            }
            (result, _) => result,
        }
    }

    /// When every error is kept and neither operand of `op` suits it: the left one's
    /// error kept, the right one's returned (HCL reports both; `binary` the first).
    pub(super) fn keep_left_operand(
        &mut self,
        op: &str,
        a: &Value,
        b: &Value,
        spans: [Span; 2],
    ) -> Result<(), EvalError> {
        let Some(kept) = self.kept.as_deref_mut() else {
            return Ok(());
        };
        match <[EvalError; 2]>::try_from(unsuitable_operands(op, a, b, spans)) {
            Ok([left, right]) => {
                kept.push(left);
                Err(right)
            }
            Err(_) => Ok(()),
        }
    }

    /// A conditional's result, gone on after (`go_on`), with the errors it kept taken
    /// out until the condition says whether they count.
    pub(super) fn set_aside(
        &mut self,
        result: Result<Value, EvalError>,
    ) -> (Result<Value, EvalError>, Vec<EvalError>) {
        let before = self.kept.as_deref().map_or(0, |k| k.len());
        let result = self.go_on(result);
        let errors = self
            .kept
            .as_deref_mut()
            .map(|k| k.split_off(before))
            .unwrap_or_default();
        (result, errors)
    }

    /// The result the condition chose, its errors (from `set_aside`) kept again.
    pub(super) fn taken(
        &mut self,
        errors: Vec<EvalError>,
        result: Result<Value, EvalError>,
    ) -> Result<Value, EvalError> {
        if let Some(kept) = self.kept.as_deref_mut() {
            kept.extend(errors);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse, Syntax};

    /// HCL without a context: no name, no function.
    struct Nothing;

    impl Scope for Nothing {
        fn lookup(&self, root: &str, _: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
            let start = span.start as usize;
            let root = Span::new(start, start + root.len());
            Err(EvalError::new("Variables not allowed", "", root))
        }

        fn functions_allowed(&self) -> bool {
            false
        }
    }

    /// The errors of the value of `v = VALUE`, as (summary's first word, text at fault).
    fn errors(value: &str) -> Vec<(String, String)> {
        let text = format!("v = {value}\n");
        let file = parse(&text, Syntax::Native, None);
        let a = &file.body.attributes[0];
        match evaluate_every_error(&a.expr, &Nothing) {
            Ok(_) => Vec::new(),
            Err(errors) => errors
                .into_iter()
                .map(|e| {
                    let word = e.summary.split(' ').next().unwrap_or_default();
                    (word.to_string(), text[e.span.range()].to_string())
                })
                .collect(),
        }
    }

    fn found(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(w, t)| (w.to_string(), t.to_string()))
            .collect()
    }

    // Each expected list is what `terraform plan -json` 1.11.4 reported for the value in
    // a `.tfvars` file (fixtures/plan-recorded/variable-file-every-error).
    #[test]
    fn every_element_key_operand_and_interpolation_is_evaluated() {
        assert_eq!(
            errors(r#"[upper("a"), lower("b")]"#),
            found(&[("Function", r#"upper("a")"#), ("Function", r#"lower("b")"#)])
        );
        assert_eq!(
            errors(r#"{ x = var.one, y = max(1, 2) }"#),
            found(&[("Variables", "var"), ("Function", "max(1, 2)")])
        );
        assert_eq!(
            errors(r#"{ (var.key) = upper("v"), plain = var.w }"#),
            found(&[
                ("Variables", "var"),
                ("Function", r#"upper("v")"#),
                ("Variables", "var")
            ])
        );
        assert_eq!(
            errors(r#""${var.p}-${lower("q")}""#),
            found(&[("Variables", "var"), ("Function", r#"lower("q")"#)])
        );
        assert_eq!(
            errors("var.m + local.n"),
            found(&[("Variables", "var"), ("Variables", "local")])
        );
        assert_eq!(
            errors(r#""a" + "b""#),
            found(&[("Invalid", r#""a""#), ("Invalid", r#""b""#)])
        );
        assert_eq!(
            errors(r#"[var.l][upper("i")]"#),
            found(&[("Variables", "var"), ("Function", r#"upper("i")"#)])
        );
        assert_eq!(
            errors(r#"[for s in ["a", "b"] : upper(s)]"#),
            found(&[("Function", "upper(s)"), ("Function", "upper(s)")])
        );
    }

    #[test]
    fn a_conditional_keeps_the_errors_of_the_result_it_takes() {
        // An unknown condition (it failed) takes neither result.
        assert_eq!(
            errors(r#"var.c ? upper("x") : lower("y")"#),
            found(&[("Variables", "var")])
        );
        assert_eq!(
            errors(r#"true ? [var.t, upper("u")] : var.z"#),
            found(&[("Variables", "var"), ("Function", r#"upper("u")"#)])
        );
        assert_eq!(errors(r#"false ? upper("u") : 1"#), found(&[]));
        // A call's arguments are never evaluated.
        assert_eq!(
            errors("upper(var.k)"),
            found(&[("Function", "upper(var.k)")])
        );
    }

    #[test]
    fn plain_evaluation_still_stops_at_the_first_error() {
        let file = parse("v = [var.a, var.b]\n", Syntax::Native, None);
        let e = super::super::evaluate(&file.body.attributes[0].expr, &Nothing).unwrap_err();
        assert_eq!(e.span, Span::new(5, 8));
    }
}
