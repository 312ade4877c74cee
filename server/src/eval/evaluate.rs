//! Evaluation of an expression to a `Value` in a scope, as HCL evaluates it for Terraform:
//! operators, conditionals, templates and directives, `for` expressions, splats, indexes
//! and function calls. Unknown values propagate; nothing is guessed. Marks (`marks.rs`)
//! travel as HCL carries them: an operation's result carries its operands' marks, an
//! index or attribute of a marked collection carries the collection's, a conditional's
//! result its condition's, a template's string every interpolated value's, and a `for`
//! expression's result its collection's, conditions' and keys' marks (each element
//! keeps its own).

use std::collections::BTreeMap;
use std::path::Path;

use thiserror::Error;

use super::budget::{bytes, Budget, Steps};
use super::functions;
use super::marks::Marks;
use super::operations::{binary, get_attr, inconsistent_results, index, unary, unknown_choice};
use super::value::Value;
use crate::schema::ProviderFunction;
use crate::syntax::{
    json_string_template, Expr, ExprKind, JsonKind, JsonValue, Span, TemplatePart, TraversalStep,
};

/// An evaluation error, in HCL's words.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{summary}: {detail}")]
pub struct EvalError {
    /// HCL's summary, e.g. `Invalid index`.
    pub summary: String,
    /// What exactly is wrong.
    pub detail: String,
    /// The expression at fault.
    pub span: Span,
    /// The function whose call failed, for `Invalid function argument` and `Error in
    /// function call` in Terraform's words (not set where the reason is Strata's own).
    pub function: Option<String>,
}

impl EvalError {
    /// An error at `span`.
    pub fn new(summary: &str, detail: impl Into<String>, span: Span) -> Self {
        Self {
            summary: summary.to_string(),
            detail: detail.into(),
            span,
            function: None,
        }
    }
}

/// What names mean where an expression is evaluated: Terraform's `var`, `local`,
/// `module`, `data`, resources, `count`, `each`, `path`, `self`, `terraform`.
pub trait Scope {
    /// The value of the reference starting with `root` followed by the attribute names
    /// `attrs` (as many leading `.name` steps as the traversal has, at most three), and how
    /// many of those names the reference used (`var.x` uses one, `data.t.n` two).
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError>;

    /// The module's directory, for `file` and `templatefile`; `None` where files may not
    /// be read.
    fn module_dir(&self) -> Option<&Path> {
        None
    }

    /// The steps this evaluation shares with others (those of a whole plan); `None` when
    /// only the limit of one evaluation applies.
    fn budget(&self) -> Option<&Budget> {
        None
    }

    /// Told that the file function called at `span` did not read `path`, because it
    /// resolves to `real`, outside [`Scope::module_dir`]: the call's value is unknown.
    /// Where that is worth saying (a plan), the scope says it; by default nothing.
    fn file_outside(&self, path: &str, real: &Path, span: Span) {
        let _ = (path, real, span);
    }

    /// The signature of the provider-defined function called `name`
    /// (`provider::aws::arn_parse`) where the scope knows it: its arguments are then
    /// checked against it and the call is an unknown value of its return type (Strata
    /// never calls a provider). `None` (the default): the call is an unknown value.
    fn provider_function(&self, name: &str) -> Option<ProviderFunction> {
        let _ = name;
        None
    }

    /// Whether functions may be called: HCL evaluates without a context (a `.tfvars`
    /// file, a `-var` value) with no functions at all, and a call is an error there.
    fn functions_allowed(&self) -> bool {
        true
    }

    /// Whether a string of the JSON syntax is a template: HCL reads it as one only when
    /// it evaluates with a context; without one (a `.tfvars.json` file) it is the text.
    fn json_templates(&self) -> bool {
        true
    }
}

/// Evaluates `expr` in `scope`, within the evaluation budget (see `budget`).
pub fn evaluate(expr: &Expr, scope: &dyn Scope) -> Result<Value, EvalError> {
    evaluate_keeping(expr, scope, None)
}

/// [`evaluate`], keeping in `kept` (when given) every error HCL goes on after, as
/// `Evaluator::go_on` says.
pub(super) fn evaluate_keeping(
    expr: &Expr,
    scope: &dyn Scope,
    kept: Option<&mut Vec<EvalError>>,
) -> Result<Value, EvalError> {
    let budget = scope.budget();
    if budget.is_some_and(Budget::is_spent) {
        return Err(Budget::spent_error(expr.span));
    }
    let work = Steps::new();
    work.go_on(expr.span)?;
    let mut evaluator = Evaluator {
        scope,
        bindings: Vec::new(),
        work,
        call: expr.span,
        kept,
    };
    let result = evaluator.expr(expr);
    if let Some(budget) = budget {
        budget.spend(evaluator.work.taken());
    }
    result
}

/// The evaluation of one expression: the scope plus the names bound by enclosing `for`
/// expressions and template directives.
pub(super) struct Evaluator<'a> {
    scope: &'a dyn Scope,
    /// The names bound by enclosing `for` expressions and template directives, innermost
    /// last.
    pub(super) bindings: Vec<(String, Value)>,
    /// The steps taken so far.
    pub(super) work: Steps,
    /// The innermost function call being evaluated.
    pub(super) call: Span,
    /// The errors kept so far when the caller reports every error of the expression
    /// (`every_error.rs`); `None` when evaluation stops at the first.
    pub(super) kept: Option<&'a mut Vec<EvalError>>,
}

impl Evaluator<'_> {
    /// The module directory, for the filesystem functions.
    pub(super) fn module_dir(&self) -> Option<&Path> {
        self.scope.module_dir()
    }

    /// The signature of the provider-defined function `name`, where the scope knows it.
    pub(super) fn provider_function(&self, name: &str) -> Option<ProviderFunction> {
        self.scope.provider_function(name)
    }

    /// Tells the scope that the file function being called did not read `path`, which
    /// resolves to `real`, outside the module directory.
    pub(super) fn file_outside(&self, path: &str, real: &Path) {
        self.scope.file_outside(path, real, self.call);
    }

    /// Evaluates a template file's text with `vars` as its only names (`templatefile`).
    pub(super) fn template_with(
        &self,
        parts: &[TemplatePart],
        vars: Vec<(String, Value)>,
    ) -> Result<Value, EvalError> {
        struct Isolated;
        impl Scope for Isolated {
            fn lookup(
                &self,
                root: &str,
                _: &[&str],
                span: Span,
            ) -> Result<(Value, usize), EvalError> {
                Err(EvalError::new(
                    "Invalid reference",
                    format!("The template file can refer only to the variables passed to templatefile; \"{root}\" is not one of them."),
                    span,
                ))
            }
        }
        // The template file's steps count as this call's: one budget for both.
        let mut nested = Evaluator {
            scope: &Isolated,
            bindings: vars,
            work: self.work.nested(),
            call: self.call,
            kept: None,
        };
        let result = nested.template(parts);
        self.work.settle(&nested.work);
        match &result {
            // `templatefile` fails with a reason string; the call must fail with this.
            Err(limit) if limit.is_limit() => self.work.stop(limit.clone()),
            _ => {}
        }
        result
    }

    pub(super) fn expr(&mut self, expr: &Expr) -> Result<Value, EvalError> {
        let span = expr.span;
        self.work.take(1, span)?;
        match &expr.kind {
            ExprKind::Null => Ok(Value::Null),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Number(n) => n.parse::<f64>().map(Value::Number).map_err(|_| {
                EvalError::new(
                    "Invalid number literal",
                    format!("{n} is not a number."),
                    span,
                )
            }),
            ExprKind::String(s) => {
                self.work.take(bytes(s.len()), span)?;
                Ok(Value::String(s.to_string()))
            }
            // A lone interpolation is HCL's template wrapper: its value as it is.
            ExprKind::Template(parts) => match parts.as_slice() {
                [TemplatePart::Interpolation(inner)] => self.expr(inner),
                _ => self.template(parts),
            },
            ExprKind::Variable(id) => self.traversal_from_name(&id.name, &[], span),
            ExprKind::Traversal { root, steps } => match &root.kind {
                ExprKind::Variable(id) => self.traversal_from_name(&id.name, steps, span),
                _ => {
                    let value = self.expr(root);
                    let value = self.go_on(value)?;
                    self.steps(value, steps)
                }
            },
            ExprKind::FuncCall {
                name,
                args,
                expand_final,
            } => {
                if !self.scope.functions_allowed() {
                    // HCL reports the whole call and evaluates none of its arguments.
                    return Err(EvalError::new(
                        "Function calls not allowed",
                        "Functions may not be called here.",
                        span,
                    ));
                }
                let outer = std::mem::replace(&mut self.call, span);
                let value = functions::call(self, &name.name, args, *expand_final, span);
                self.call = outer;
                let value = value?;
                self.work.read(&value, span)?;
                Ok(value)
            }
            ExprKind::Tuple(items) => Ok(Value::Tuple(
                items
                    .iter()
                    .map(|i| {
                        let item = self.expr(i);
                        self.go_on(item)
                    })
                    .collect::<Result<_, _>>()?,
            )),
            ExprKind::Object(items) => {
                let mut map = BTreeMap::new();
                let mut unknown_key = false;
                // A key cannot carry a mark: the object does.
                let mut marks = Marks::NONE;
                for (k, v) in items {
                    let key = match &k.kind {
                        ExprKind::Variable(id) => Value::String(id.name.to_string()),
                        _ => {
                            let key = self.expr(k);
                            self.go_on(key)?
                        }
                    };
                    let (key, key_marks) = key.unmark_deep();
                    marks |= key_marks;
                    let value = self.expr(v);
                    let value = self.go_on(value)?;
                    match key {
                        key if !key.is_known() => unknown_key = true,
                        key => {
                            let key = key.to_text().ok_or_else(|| {
                                EvalError::new(
                                    "Incorrect key type",
                                    "Can't use this value as a key: a string is required.",
                                    k.span,
                                )
                            })?;
                            map.insert(key, value);
                        }
                    }
                }
                Ok(if unknown_key {
                    Value::Unknown
                } else {
                    Value::Object(map.into())
                }
                .mark(marks))
            }
            ExprKind::Conditional(parts) => self.conditional(parts),
            ExprKind::Unary { op, expr } => {
                let (v, marks) = self.expr(expr)?.unmark_deep();
                // go-cty's `Not` and `Negate` take no unknown operand: their unknown
                // result is unmarked (recorded with `terraform validate`).
                let marks = if v.is_known() { marks } else { Marks::NONE };
                unary(op, v, expr.span, span).map(|r| r.mark(marks))
            }
            ExprKind::Binary { op, operands } => {
                let a = self.expr(&operands[0]);
                let (a, a_marks) = self.go_on(a)?.unmark_deep();
                let b = self.expr(&operands[1]);
                let (b, b_marks) = self.go_on(b)?.unmark_deep();
                // So do `And` and `Or`; the other operators keep the marks.
                let spans = [operands[0].span, operands[1].span];
                self.keep_left_operand(op, &a, &b, spans)?;
                let short_circuit = matches!(&**op, "&&" | "||") && !(a.is_known() && b.is_known());
                let marks = if short_circuit {
                    Marks::NONE
                } else {
                    a_marks | b_marks
                };
                binary(op, a, b, spans, span).map(|r| r.mark(marks))
            }
            ExprKind::Parens(inner) => self.expr(inner),
            ExprKind::For(f) => self.for_expr(f, span),
            ExprKind::Json(value) => self.json(value),
            ExprKind::Unanalysed | ExprKind::Missing => Ok(Value::Unknown),
        }
    }

    /// `c ? a : b` as HCL evaluates it: both results first (their types must unify),
    /// then the condition; only the chosen result's errors count, and none when the
    /// condition is unknown.
    fn conditional(&mut self, parts: &[Expr; 3]) -> Result<Value, EvalError> {
        let when_true = self.expr(&parts[1]);
        let (when_true, true_errors) = self.set_aside(when_true);
        let when_false = self.expr(&parts[2]);
        let (when_false, false_errors) = self.set_aside(when_false);
        if let (Ok(t), Ok(f)) = (&when_true, &when_false) {
            if let Some(why) = inconsistent_results(&t.ty(), &f.ty()) {
                return Err(EvalError::new(
                    "Inconsistent conditional result types",
                    format!(
                        "The true and false result expressions must have consistent types. {why}."
                    ),
                    Span::new(parts[1].span.start as usize, parts[2].span.end as usize),
                ));
            }
        }
        let condition = self.expr(&parts[0]);
        let (condition, marks) = self.go_on(condition)?.unmark_deep();
        if condition.is_null() {
            return Err(EvalError::new(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                parts[0].span,
            ));
        }
        if !condition.is_known() {
            // Neither result's errors count; the value is what both results allow.
            return Ok(match (when_true, when_false) {
                (Ok(t), Ok(f)) => unknown_choice(t, f).mark(marks),
                _ => Value::Unknown.mark(marks),
            });
        }
        match condition.to_bool() {
            Some(true) => self.taken(true_errors, when_true).map(|v| v.mark(marks)),
            Some(false) => self.taken(false_errors, when_false).map(|v| v.mark(marks)),
            None => Err(EvalError::new(
                "Incorrect condition type",
                "The condition expression must be of type bool.",
                parts[0].span,
            )),
        }
    }

    fn json(&mut self, value: &JsonValue) -> Result<Value, EvalError> {
        self.work.take(1, value.span)?;
        Ok(match &value.kind {
            JsonKind::Null => Value::Null,
            JsonKind::Bool(b) => Value::Bool(*b),
            JsonKind::Number(n) => Value::Number(n.parse().unwrap_or(0.0)),
            JsonKind::String(s) => {
                match json_string_template(value).filter(|_| self.scope.json_templates()) {
                    Some(template) => self.expr(&template)?,
                    None => {
                        self.work.take(bytes(s.len()), value.span)?;
                        Value::String(s.to_string())
                    }
                }
            }
            JsonKind::Array(items) => Value::Tuple(
                items
                    .iter()
                    .map(|i| self.json(i))
                    .collect::<Result<_, _>>()?,
            ),
            JsonKind::Object(props) => {
                let mut map = BTreeMap::new();
                for (k, v) in props {
                    map.insert(k.name.to_string(), self.json(v)?);
                }
                Value::Object(map.into())
            }
            // HCL evaluates a value that did not parse as unknown.
            JsonKind::Invalid => Value::Unknown,
        })
    }

    fn traversal_from_name(
        &mut self,
        root: &str,
        steps: &[TraversalStep],
        span: Span,
    ) -> Result<Value, EvalError> {
        if let Some((_, value)) = self.bindings.iter().rev().find(|(n, _)| n == root) {
            let value = value.clone();
            self.work.read(&value, span)?;
            return self.steps(value, steps);
        }
        let attrs: Vec<&str> = steps
            .iter()
            .take(3)
            .map_while(|s| match s {
                TraversalStep::Attr(id) => Some(&*id.name),
                _ => None,
            })
            .collect();
        let (value, used) = self.scope.lookup(root, &attrs, span)?;
        self.work.read(&value, span)?;
        self.steps(value, &steps[used.min(steps.len())..])
    }

    fn steps(&mut self, mut value: Value, steps: &[TraversalStep]) -> Result<Value, EvalError> {
        for (i, step) in steps.iter().enumerate() {
            value = match step {
                // HCL's step ranges: `.name` from its dot, `[key]` with its brackets.
                TraversalStep::Attr(id) => {
                    let step = Span::new(
                        id.span.start.saturating_sub(1) as usize,
                        id.span.end as usize,
                    );
                    let (value, marks) = value.unmark();
                    get_attr(value, &id.name, step)?.mark(marks)
                }
                TraversalStep::Index(e) => {
                    let key = self.expr(e);
                    let (key, key_marks) = self.go_on(key)?.unmark_deep();
                    let step = Span::new(
                        e.span.start.saturating_sub(1) as usize,
                        e.span.end as usize + 1,
                    );
                    let (value, marks) = value.unmark();
                    index(value, &key, step)?.mark(marks | key_marks)
                }
                TraversalStep::LegacyIndex(n, span) => {
                    let (value, marks) = value.unmark();
                    index(value, &Value::Number(*n as f64), *span)?.mark(marks)
                }
                TraversalStep::AttrSplat(_) | TraversalStep::FullSplat(_) => {
                    let rest = &steps[i + 1..];
                    let (value, marks) = value.unmark();
                    let result = match value {
                        v @ (Value::Unknown | Value::UnknownOf(..)) => {
                            super::splat::over_unknown(&v, |item| self.steps(item, rest))
                        }
                        Value::Null => Ok(Value::Tuple(Vec::new().into())),
                        v => match v.elements() {
                            Some(items) => {
                                let items = items.to_vec();
                                let out = items
                                    .into_iter()
                                    .map(|item| self.steps(item, rest))
                                    .collect::<Result<Vec<_>, _>>()?;
                                Ok(match v {
                                    Value::List(_) | Value::Set(_) => Value::List(out.into()),
                                    _ => Value::Tuple(out.into()),
                                })
                            }
                            None => Ok(Value::Tuple(vec![self.steps(v, rest)?].into())),
                        },
                    };
                    return result.map(|v| v.mark(marks));
                }
            };
        }
        Ok(value)
    }
}
