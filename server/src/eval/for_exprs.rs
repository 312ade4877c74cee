//! `for` expressions, as HCL's `ForExpr` evaluates them: the pairs a collection iterates,
//! each element's key, value and condition, grouping (`...`), and the marks the result
//! carries (its collection's, conditions' and keys'; each element keeps its own).

use std::collections::BTreeMap;

use super::evaluate::{EvalError, Evaluator};
use super::marks::Marks;
use super::value::Value;
use crate::syntax::{ForExpr, Span};

impl Evaluator<'_> {
    /// The value of a `for` expression: a tuple, an object, or an object of groups.
    pub(super) fn for_expr(&mut self, f: &ForExpr, span: Span) -> Result<Value, EvalError> {
        let (collection, mut marks) = self.expr(&f.collection)?.unmark();
        let Some(pairs) = iteration_pairs(&collection, f.collection.span)? else {
            return Ok(Value::Unknown.mark(marks));
        };
        let mut tuple = Vec::new();
        let mut object: BTreeMap<String, Value> = BTreeMap::new();
        let mut grouped: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut unknown = false;
        for (k, v) in pairs {
            self.work.take(1, span)?;
            let depth = self.bindings.len();
            if let Some(key_var) = &f.key_var {
                self.bindings.push((key_var.name.to_string(), k));
            }
            self.bindings.push((f.value_var.name.to_string(), v));
            let result =
                self.for_item(f, &mut tuple, &mut object, &mut grouped, &mut unknown, span);
            self.bindings.truncate(depth);
            marks |= result?;
        }
        if unknown {
            return Ok(Value::Unknown.mark(marks));
        }
        Ok(match &f.key {
            None => Value::Tuple(tuple.into()),
            Some(_) if f.grouping => Value::Object(
                grouped
                    .into_iter()
                    .map(|(k, vs)| (k, Value::Tuple(vs.into())))
                    .collect(),
            ),
            Some(_) => Value::Object(object.into()),
        }
        .mark(marks))
    }

    /// One element of a `for` expression; returns the marks of its condition and key,
    /// which the whole result carries.
    fn for_item(
        &mut self,
        f: &ForExpr,
        tuple: &mut Vec<Value>,
        object: &mut BTreeMap<String, Value>,
        grouped: &mut BTreeMap<String, Vec<Value>>,
        unknown: &mut bool,
        span: Span,
    ) -> Result<Marks, EvalError> {
        let mut marks = Marks::NONE;
        if let Some(condition) = &f.condition {
            let c = self.expr(condition);
            let (c, condition_marks) = self.go_on(c)?.unmark_deep();
            marks = condition_marks;
            match c {
                c if !c.is_known() => {
                    *unknown = true;
                    return Ok(marks);
                }
                c => match c.to_bool() {
                    Some(true) => {}
                    Some(false) => return Ok(marks),
                    None => {
                        return Err(EvalError::new(
                            "Invalid 'for' condition",
                            "The 'if' clause value is invalid: bool required.",
                            condition.span,
                        ))
                    }
                },
            }
        }
        let value = self.expr(&f.value);
        let value = self.go_on(value)?;
        let Some(key_expr) = &f.key else {
            tuple.push(value);
            return Ok(marks);
        };
        let key = self.expr(key_expr);
        let (key, key_marks) = self.go_on(key)?.unmark_deep();
        marks |= key_marks;
        let key = match key {
            k if !k.is_known() => {
                *unknown = true;
                return Ok(marks);
            }
            k => k.to_text().ok_or_else(|| {
                EvalError::new(
                    "Invalid object key",
                    "The key expression produced an invalid result: string required.",
                    key_expr.span,
                )
            })?,
        };
        if f.grouping {
            grouped.entry(key).or_default().push(value);
        } else {
            match object.entry(key) {
                std::collections::btree_map::Entry::Occupied(e) => {
                    return Err(EvalError::new(
                        "Duplicate object key",
                        format!("Two different items produced the key \"{}\" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.", e.key()),
                        span,
                    ));
                }
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(value);
                }
            }
        }
        Ok(marks)
    }
}

/// The key/value pairs a `for` iterates; `None` when the collection is unknown.
pub(super) fn iteration_pairs(
    collection: &Value,
    span: Span,
) -> Result<Option<Vec<(Value, Value)>>, EvalError> {
    if let Some(map) = collection.attributes() {
        return Ok(Some(
            map.iter()
                .map(|(k, v)| (Value::string(k.clone()), v.clone()))
                .collect(),
        ));
    }
    match collection {
        c if !c.is_known() => Ok(None),
        Value::Set(items) => Ok(Some(items.iter().map(|v| (v.clone(), v.clone())).collect())),
        Value::Tuple(items) | Value::List(items) => Ok(Some(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| (Value::Number(i as f64), v.clone()))
                .collect(),
        )),
        Value::Null => Err(EvalError::new(
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.",
            span,
        )),
        other => Err(EvalError::new(
            "Iteration over non-iterable value",
            format!(
                "A value of type {} cannot be used as the collection in a 'for' expression.",
                other.type_name()
            ),
            span,
        )),
    }
}
