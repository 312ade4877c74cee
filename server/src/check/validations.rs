//! A variable's validation rules as the validate walk runs them (`evalVariableValidations`
//! in `internal/terraform/eval_variable.go`): each rule's condition and error message are
//! evaluated with the names the walk gives (`walk_scope.rs`), except that the variable
//! itself has its final value. A root module's variables are unknown at validate time, so
//! only a condition known without the value can fail there; a local child module's
//! variable has the value its caller gives it (or its default), and its rules see it.
//!
//! A rule whose condition is known to be false is `Invalid value for variable` at the
//! value (the caller's argument, the root variable's declaration, or no place for a
//! default), with the error message, or the reason it cannot be shown: an unknown message
//! skips the rule at validate time, one that is not a string is `Invalid error message`,
//! one carrying a sensitive or ephemeral value (`marks.rs`; the value given to the
//! variable counts as ephemeral, not as sensitive) is `Error message refers to ...`. The
//! evaluation errors of the condition and message (`evaluation.rs`'s) are reported for a
//! child's rules when the value causes them: those the rule has with an unknown value are
//! the child's own, reported when it is checked.
//!
//! A rule written in JSON whose error message (a string) does not evaluate has it read as
//! written, with the `Validation error message expression is invalid` warning quoting
//! the first error (HCL quotes every one; Strata's evaluation stops at the first).
//!
//! At plan time (`root_at_plan`) the root module's rules run again with the values the
//! plan gives every root variable, so a rule may fail on a value from a `.tfvars` file,
//! the command line or the environment.
//!
//! Left out: values Strata does not know wholly, and calls in modules other than the root.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::evaluation::reportable;
use super::functions::call_problem;
use super::marks::{Mark, Marks};
use super::module_arguments::{final_value, in_caller_terms, local_calls};
use super::walk_scope::WalkScope;
use super::{at, range_text, ChildModules, Diagnostic, Severity};
use crate::eval::{evaluate, expression_values, Causes, ExpressionValue, Value};
use crate::merge::{MergedModule, Nested, Origin, Variable};
use crate::schema::ProviderSchemaSource;
use crate::syntax::{json_string_template, Expr, ExprKind, JsonKind, JsonValue, Span, Syntax};
use crate::types::{type_mismatch, Type};

/// Code of a value a variable's validation rule refuses.
pub const VARIABLE_VALIDATION: &str = "variable-validation";

/// Where the value being validated comes from, for the diagnostic's place.
#[derive(Clone, Copy)]
enum ValueAt<'a> {
    /// An argument of the caller (or a root variable's declaration), in `module`.
    Written(Origin),
    /// A root variable's value in a variables file: the file and the value's range.
    File(&'a Path, Span),
    /// A default: Terraform gives no place.
    Nowhere,
}

/// One variable's rules, evaluated with one value.
struct Rules<'a> {
    /// The module declaring the variable.
    module: &'a MergedModule,
    variable: &'a Variable,
    /// The module the value's place is in (the caller, or the module itself).
    place_module: &'a MergedModule,
    value_at: ValueAt<'a>,
    /// How the rule's place is written in messages: relative to the root module.
    rule_path: &'a dyn Fn(Origin) -> String,
    /// Whether the value is known (a child's), so that evaluation errors it causes are
    /// reported.
    given: bool,
    /// The provider schemas, for provider-defined functions.
    schemas: &'a dyn ProviderSchemaSource,
}

pub(super) fn check(
    m: &MergedModule,
    children: ChildModules<'_>,
    scope: &WalkScope<'_>,
    out: &mut Vec<Diagnostic>,
) {
    // The root module's own variables: unknown values of their types.
    let own = |o: Origin| range_text(m, o);
    for variable in m.variables.values() {
        let value = scope.variable(&variable.name);
        let rules = Rules {
            module: m,
            variable,
            place_module: m,
            value_at: ValueAt::Written(variable.provenance.decl),
            rule_path: &own,
            given: false,
            schemas: scope.schemas(),
        };
        rules.run(value, out);
    }
    // The values the root module gives its local children.
    for (call, source, child) in local_calls(m, children) {
        let child_path = |o: Origin| in_caller_terms(source, range_text(&child, o));
        for variable in child.variables.values() {
            if variable.validations.is_empty() {
                continue;
            }
            let Some((value, argument)) = final_value(scope, call, &child, variable) else {
                continue;
            };
            let value_at = match argument {
                Some(a) => ValueAt::Written(a.expr_origin()),
                None => ValueAt::Nowhere,
            };
            let rules = Rules {
                module: &child,
                variable,
                place_module: m,
                value_at,
                rule_path: &child_path,
                given: true,
                schemas: scope.schemas(),
            };
            rules.run(value, out);
        }
    }
}

/// The root module's rules at plan time (`evalVariableValidations` in the plan walk), with
/// the value the plan gives each variable: `values`, every root variable's. A value from
/// a variables file is reported at its attribute there (`in_files`); any other (the
/// default, `-var`, `TF_VAR_`) at the declaration, as Terraform reports it (recorded in
/// fixtures/plan-recorded/variable-validation-sources).
pub(crate) fn root_at_plan(
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
    values: &BTreeMap<String, Value>,
    in_files: &BTreeMap<String, (PathBuf, Span)>,
) -> Vec<(Diagnostic, Vec<ExpressionValue>)> {
    let mut out = Vec::new();
    let mut notes = BTreeMap::new();
    let own = |o: Origin| range_text(m, o);
    let scope = WalkScope::with_values(m, schemas, values);
    for variable in m.variables.values() {
        let value_at = match in_files.get(&variable.name) {
            Some((path, span)) => ValueAt::File(path, *span),
            None => ValueAt::Written(variable.provenance.decl),
        };
        let rules = Rules {
            module: m,
            variable,
            place_module: m,
            value_at,
            rule_path: &own,
            given: true,
            schemas,
        };
        notes.extend(rules.run_in(&scope, &mut out));
    }
    out.into_iter()
        .enumerate()
        .map(|(i, d)| (d, notes.remove(&i).unwrap_or_default()))
        .collect()
}

impl Rules<'_> {
    fn run(&self, value: Value, out: &mut Vec<Diagnostic>) {
        let name = &self.variable.name;
        let scope = WalkScope::with_variable(self.module, self.schemas, name, value);
        self.run_in(&scope, out);
    }

    /// The rules, with the names `scope` gives. Returns, for each failed rule, the index
    /// of its diagnostic in `out` and the values of its condition's references (what
    /// Terraform prints under it: the condition is the diagnostic's expression).
    fn run_in(
        &self,
        scope: &WalkScope<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Vec<(usize, Vec<ExpressionValue>)> {
        let mut failed = Vec::new();
        let unknown = WalkScope::new(self.module, self.schemas);
        for rule in &self.variable.validations {
            let json = self.module.file(rule.file).syntax.syntax == Syntax::Json;
            let (Some(condition), Some(message)) = (
                rule.block.body.attribute("condition"),
                rule.block.body.attribute("error_message"),
            ) else {
                continue;
            };
            let condition_value = self.evaluate(&condition.expr, rule, scope, &unknown, out);
            let message_value = match json_string(&message.expr).filter(|_| json) {
                Some(literal) => self.json_message((&message.expr, literal), rule, scope, out),
                None => self.evaluate(&message.expr, rule, scope, &unknown, out),
            };
            let Some(Value::Bool(false)) = condition_value.map(|c| match c.to_bool() {
                Some(b) if c.is_known() => Value::Bool(b),
                _ => Value::Unknown,
            }) else {
                continue;
            };
            let message = match message_value {
                Some(v) if !v.is_known() => continue,
                Some(v) => self.message(&v, &message.expr, rule, out),
                None => None,
            };
            self.invalid(rule, message, out);
            let values = expression_values(&condition.expr, scope, Causes::default());
            failed.push((out.len() - 1, values));
        }
        failed
    }

    /// The value of a rule's expression, or `None` when it fails (its error reported
    /// when the value given causes it).
    fn evaluate(
        &self,
        expr: &Expr,
        rule: &Nested,
        scope: &WalkScope<'_>,
        unknown: &WalkScope<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Value> {
        let error = match evaluate(expr, scope) {
            Ok(v) => return Some(v),
            Err(e) => e,
        };
        if self.given && evaluate(expr, unknown).is_ok() {
            if let Some(code) = reportable(&error) {
                out.push(self.in_rule(rule, error.span, code, error.summary, error.detail));
            }
        }
        None
    }

    /// The value of an error message written in JSON: a string that does not evaluate
    /// is taken as it is written, with the `Validation error message expression is
    /// invalid` warning quoting the error (Terraform's compatibility with rules written
    /// before messages were templates).
    fn json_message(
        &self,
        (expr, literal): (&Expr, &str),
        rule: &Nested,
        scope: &WalkScope<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Value> {
        let error = match evaluate(expr, scope) {
            Ok(v) => return Some(v),
            Err(e) => e,
        };
        // A call HCL rejects is its first error; otherwise evaluation's.
        let mut call = None;
        if let ExprKind::Json(value) = &expr.kind {
            if let Some(template) = json_string_template(value) {
                template.walk(&mut |e| {
                    if call.is_none() {
                        call = call_problem(self.module, self.schemas, e);
                    }
                });
            }
        }
        let (span, summary, detail) = match call {
            Some((span, summary, detail)) => (span, summary.to_string(), detail),
            None => (error.span, error.summary, error.detail),
        };
        let origin = Origin {
            file: rule.file,
            span,
        };
        // HCL's `Diagnostics.Error()`: the subject, summary and detail of the first error.
        let quoted = format!("{}: {summary}; {detail}", (self.rule_path)(origin));
        let mut warning = self.in_rule(
            rule,
            expr.span,
            VARIABLE_VALIDATION,
            "Validation error message expression is invalid".into(),
            format!("The error message provided could not be evaluated as an expression, so Terraform is interpreting it as a string literal.\n\nIn future versions of Terraform, this will be considered an error. Please file a GitHub issue if this would break your workflow.\n\n{quoted}"),
        );
        warning.severity = Severity::Warning;
        out.push(warning);
        Some(Value::String(literal.to_string()))
    }

    /// The text of a known error message, or `None` (reported) when it cannot be shown.
    fn message(
        &self,
        value: &Value,
        expr: &Expr,
        rule: &Nested,
        out: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        if value.is_null() {
            return None;
        }
        if let Some(reason) = type_mismatch(&value.ty(), &Type::String) {
            out.push(self.in_rule(
                rule,
                expr.span,
                VARIABLE_VALIDATION,
                "Invalid error message".into(),
                format!("Unsuitable value for error message: {reason}."),
            ));
            return None;
        }
        let mut marks = Marks::default();
        // The value given to the variable is not marked sensitive at this point.
        marks.assume_unmarked(&format!("var.{}", self.variable.name), Mark::Sensitive);
        let hidden = "The error message included a sensitive value, so it will not be displayed.";
        for (mark, noun, function) in [
            (Mark::Sensitive, "sensitive", "nonsensitive"),
            (Mark::Ephemeral, "ephemeral", "ephemeralasnull"),
        ] {
            if marks.carries(self.module, expr, mark) {
                out.push(self.in_rule(
                    rule,
                    expr.span,
                    VARIABLE_VALIDATION,
                    format!("Error message refers to {noun} values"),
                    format!("The error expression used to explain this condition refers to {noun} values. Terraform will not display the resulting message.\n\nYou can correct this by removing references to {noun} values, or by carefully using the {function}() function if the expression will not reveal the {noun} data."),
                ));
                return Some(hidden.into());
            }
        }
        Some(value.to_text()?.trim().to_string())
    }

    /// `Invalid value for variable` at the value.
    fn invalid(&self, rule: &Nested, message: Option<String>, out: &mut Vec<Diagnostic>) {
        let message = message
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "Failed to evaluate condition error message.".into());
        let detail = format!(
            "{message}\n\nThis was checked by the validation rule at {}.",
            (self.rule_path)(rule.header_origin())
        );
        let summary = "Invalid value for variable".to_string();
        out.push(match self.value_at {
            ValueAt::Written(origin) => at(
                self.place_module,
                origin,
                Severity::Error,
                VARIABLE_VALIDATION,
                summary,
                detail,
            ),
            ValueAt::File(path, span) => Diagnostic {
                path: path.to_path_buf(),
                span,
                ..Diagnostic::without_range(Severity::Error, VARIABLE_VALIDATION, summary, detail)
            },
            ValueAt::Nowhere => {
                Diagnostic::without_range(Severity::Error, VARIABLE_VALIDATION, summary, detail)
                    .at_zero_range()
            }
        });
    }

    /// A diagnostic in the rule's module.
    fn in_rule(
        &self,
        rule: &Nested,
        span: Span,
        code: &'static str,
        summary: String,
        detail: String,
    ) -> Diagnostic {
        let origin = Origin {
            file: rule.file,
            span,
        };
        at(self.module, origin, Severity::Error, code, summary, detail)
    }
}

/// The text of a JSON string value, as written.
fn json_string(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Json(JsonValue {
            kind: JsonKind::String(s),
            ..
        }) => Some(s),
        _ => None,
    }
}
