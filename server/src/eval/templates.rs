//! Templates and their directives, as HCL's `TemplateExpr` evaluates them: the string
//! built part by part under the budget, `%{if}` and `%{for}` directives, and the refined
//! unknown string a template gives when a part is unknown.

use super::budget::{bytes, string_too_long};
use super::evaluate::{EvalError, Evaluator};
use super::for_exprs::iteration_pairs;
use super::functions;
use super::marks::Marks;
use super::refinement::not_null_unknown;
use super::value::Value;
use crate::limits::MAX_STRING_BYTES;
use crate::syntax::{Span, TemplatePart};
use crate::types::Type;

impl Evaluator<'_> {
    /// The string a template makes, or its refined unknown when a part is unknown.
    pub(super) fn template(&mut self, parts: &[TemplatePart]) -> Result<Value, EvalError> {
        let mut out = String::new();
        let mut unknown = None;
        let mut marks = Marks::NONE;
        self.template_into(parts, &mut out, &mut unknown, &mut marks)?;
        self.work.take(bytes(out.len()), part_span(parts))?;
        Ok(match unknown {
            Some(known) => unknown_template(&out[..known]),
            None => Value::String(out),
        }
        .mark(marks))
    }

    /// Writes a template's parts into `out`, gathering the marks of every value it
    /// reads into `marks`. Once a part is unknown, `unknown` holds the length of the
    /// text before it: HCL's directives are parts of their own (a conditional, a join),
    /// so the outermost part that holds the unknown ends the known prefix.
    fn template_into(
        &mut self,
        parts: &[TemplatePart],
        out: &mut String,
        unknown: &mut Option<usize>,
        marks: &mut Marks,
    ) -> Result<(), EvalError> {
        for part in parts {
            if out.len() > MAX_STRING_BYTES {
                return Err(string_too_long(part_span(parts)));
            }
            let (start, known) = (out.len(), unknown.is_none());
            self.template_part(part, out, unknown, marks)?;
            if known && unknown.is_some() {
                *unknown = Some(start);
            }
        }
        Ok(())
    }

    /// Writes one part of a template into `out` (`template_into`).
    fn template_part(
        &mut self,
        part: &TemplatePart,
        out: &mut String,
        unknown: &mut Option<usize>,
        marks: &mut Marks,
    ) -> Result<(), EvalError> {
        match part {
            TemplatePart::Literal(s) => out.push_str(s),
            TemplatePart::Interpolation(e) => {
                let v = self.expr(e);
                let (v, value_marks) = self.go_on(v)?.unmark_deep();
                *marks |= value_marks;
                if v.is_null() {
                    return Err(EvalError::new(
                            "Invalid template interpolation value",
                            "The expression result is null. Cannot include a null value in a string template.",
                            e.span,
                        ));
                }
                if !v.is_known() {
                    unknown.get_or_insert(out.len());
                    return Ok(());
                }
                match functions::conversion_error(&v, &Type::String) {
                    None => out.push_str(&v.to_text().unwrap_or_default()),
                    Some(reason) => {
                        return Err(EvalError::new(
                            "Invalid template interpolation value",
                            format!(
                                "Cannot include the given value in a string template: {reason}."
                            ),
                            e.span,
                        ))
                    }
                }
            }
            TemplatePart::If {
                condition,
                then,
                otherwise,
            } => {
                let (c, condition_marks) = self.expr(condition)?.unmark_deep();
                *marks |= condition_marks;
                match c {
                    c if !c.is_known() => {
                        unknown.get_or_insert(out.len());
                    }
                    c => match c.to_bool() {
                        Some(true) => self.template_into(then, out, unknown, marks)?,
                        Some(false) => self.template_into(otherwise, out, unknown, marks)?,
                        None => {
                            return Err(EvalError::new(
                                "Invalid template if condition",
                                "The template if condition must be of type bool.",
                                condition.span,
                            ))
                        }
                    },
                }
            }
            TemplatePart::For {
                key_var,
                value_var,
                collection,
                body,
            } => {
                let (value, collection_marks) = self.expr(collection)?.unmark();
                *marks |= collection_marks;
                let Some(pairs) = iteration_pairs(&value, collection.span)? else {
                    unknown.get_or_insert(out.len());
                    return Ok(());
                };
                for (k, v) in pairs {
                    self.work.take(1, collection.span)?;
                    let depth = self.bindings.len();
                    if let Some(key_var) = key_var {
                        self.bindings.push((key_var.name.to_string(), k));
                    }
                    self.bindings.push((value_var.name.to_string(), v));
                    let result = self.template_into(body, out, unknown, marks);
                    self.bindings.truncate(depth);
                    result?;
                }
            }
        }
        Ok(())
    }
}

/// The value of a template some part of which is unknown, `known` the text before that
/// part (HCL's `TemplateExpr`): an unknown string, never null, starting with at most 128
/// bytes of `known`.
fn unknown_template(known: &str) -> Value {
    let mut end = known.len().min(128);
    // Go cuts the bytes mid-character; the partial character it leaves is a cluster of
    // its own that cty's safe prefix drops, leaving the whole characters before it.
    let whole = known.is_char_boundary(end);
    while !known.is_char_boundary(end) {
        end -= 1;
    }
    let refine = not_null_unknown(Type::String).refine();
    match (known.is_empty(), whole) {
        (true, _) => refine,
        (false, true) => refine.string_prefix(&known[..end]),
        (false, false) => refine.string_prefix_full(&known[..end]),
    }
    .value()
}

/// Where a template's string is reported as too long: its first expression.
fn part_span(parts: &[TemplatePart]) -> Span {
    parts
        .iter()
        .find_map(|part| match part {
            TemplatePart::Literal(_) => None,
            TemplatePart::Interpolation(e) => Some(e.span),
            TemplatePart::If { condition, .. } => Some(condition.span),
            TemplatePart::For { collection, .. } => Some(collection.span),
        })
        .unwrap_or_default()
}
