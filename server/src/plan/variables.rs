//! Values of the root module's input variables, from every source Terraform reads, in
//! increasing precedence: the declared default, `terraform.tfvars`,
//! `terraform.tfvars.json`, `*.auto.tfvars` and `*.auto.tfvars.json` in lexical order,
//! then `--var-file` and `--var` in the order given. Each value is converted to the
//! variable's type, with its optional-attribute defaults, then checked by the variable's
//! validation rules (`check::validations`), as Terraform's plan walk checks them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::PlanDiagnostic;
use crate::check::root_validations_at_plan;
use crate::eval::{evaluate, EvalError, Scope, Value};
use crate::merge::{MergedModule, Variable};
use crate::schema::ProviderSchemaSource;
use crate::syntax::{parse, Span, Syntax};
use crate::text::read::{read_bounded, ReadError, MAX_FILE_BYTES};
use crate::types::{apply_defaults, convert, parse_type_argument, Type};

/// Values given on the command line (or by the editor).
#[derive(Debug, Clone, Default)]
pub struct VariableInputs {
    /// `--var-file` paths, in order.
    pub files: Vec<PathBuf>,
    /// `--var NAME=VALUE`, in order.
    pub vars: Vec<(String, String)>,
}

/// Where a value came from, for messages.
enum Source {
    File(String),
    CommandLine,
}

/// A scope where nothing may be referenced: `.tfvars` files hold values only.
struct NoReferences;

impl Scope for NoReferences {
    fn lookup(&self, root: &str, _: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        Err(EvalError::new(
            "Variables not allowed",
            format!("Variables may not be used here (\"{root}\")."),
            span,
        ))
    }
}

/// The type of a variable (`any` when it has none or an invalid one).
pub fn variable_type(m: &MergedModule, v: &Variable) -> Type {
    v.type_constraint
        .as_ref()
        .and_then(|t| parse_type_argument(t.expr(), m.file(t.file).syntax.syntax, m.dialect))
        .and_then(Result::ok)
        .unwrap_or(Type::Dynamic)
}

/// The value of every root variable, checked by its validation rules; problems are
/// added to `diags`.
pub fn root_values(
    m: &MergedModule,
    dir: &Path,
    inputs: &VariableInputs,
    schemas: &dyn ProviderSchemaSource,
    diags: &mut Vec<PlanDiagnostic>,
    warnings: &mut Vec<PlanDiagnostic>,
) -> BTreeMap<String, Value> {
    let mut defaulted = BTreeSet::new();
    let values = given_values(m, dir, inputs, &mut defaulted, diags, warnings);
    if diags.is_empty() {
        // Terraform validates a value once it is converted; a value that failed to
        // convert stopped the plan already.
        let failed = root_validations_at_plan(m, schemas, &values, &|n| defaulted.contains(n));
        diags.extend(failed.into_iter().map(|d| {
            let place = (!d.is_placeless()).then(|| (d.path.clone(), d.span));
            PlanDiagnostic {
                summary: d.summary,
                detail: d.detail,
                place,
            }
        }));
    }
    values
}

/// The value of every root variable from its sources; the names of those that took
/// their declared default are added to `defaulted`.
fn given_values(
    m: &MergedModule,
    dir: &Path,
    inputs: &VariableInputs,
    defaulted: &mut BTreeSet<String>,
    diags: &mut Vec<PlanDiagnostic>,
    warnings: &mut Vec<PlanDiagnostic>,
) -> BTreeMap<String, Value> {
    let mut given: BTreeMap<String, (serde_json::Value, Source)> = BTreeMap::new();
    let mut files: Vec<PathBuf> = ["terraform.tfvars", "terraform.tfvars.json"]
        .iter()
        .map(|n| dir.join(n))
        // Present in any form: a FIFO or a directory is an error when read, not skipped.
        .filter(|p| p.symlink_metadata().is_ok())
        .collect();
    let mut auto: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"))
        })
        .collect();
    auto.sort();
    files.extend(auto);
    files.extend(inputs.files.iter().map(|f| {
        if f.is_absolute() {
            f.clone()
        } else {
            dir.join(f)
        }
    }));
    for file in &files {
        read_file(m, file, &mut given, diags, warnings);
    }
    for (name, raw) in &inputs.vars {
        let Some(v) = m.variables.get(name) else {
            diags.push(PlanDiagnostic::sourceless(
                "Value for undeclared variable",
                format!("A variable named \"{name}\" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration."),
            ));
            continue;
        };
        let ty = variable_type(m, v);
        let value = if ty.is_primitive() || ty == Type::Dynamic {
            Ok(serde_json::Value::String(raw.clone()))
        } else {
            let file = parse(&format!("v = {raw}\n"), Syntax::Native, None);
            match file.body.attributes.first() {
                Some(a) if !file.has_errors() => {
                    evaluate(&a.expr, &NoReferences).map(|v| v.to_json())
                }
                _ => Err(EvalError::new(
                    "Invalid expression",
                    format!("The value given for var.{name} on the command line is not a valid expression."),
                    Span::default(),
                )),
            }
        };
        match value {
            Ok(json) => {
                given.insert(name.clone(), (json, Source::CommandLine));
            }
            Err(e) => diags.push(PlanDiagnostic::sourceless(&e.summary, e.detail)),
        }
    }
    let mut values = BTreeMap::new();
    for (name, v) in &m.variables {
        let ty = variable_type(m, v);
        let value = match given.remove(name) {
            Some((json, source)) => match convert(&json, &ty) {
                Ok(converted) => Some(apply_defaults(&converted, &ty)),
                Err(e) => {
                    let from = match source {
                        Source::File(f) => format!(" in {f}"),
                        Source::CommandLine => " on the command line".into(),
                    };
                    diags.push(PlanDiagnostic::at(
                        m,
                        v.provenance.decl,
                        "Invalid value for input variable",
                        format!("The value given for var.{name}{from} is not suitable for this variable: {}.", e.with_path()),
                    ));
                    None
                }
            },
            None => match &v.default {
                Some(d) => {
                    defaulted.insert(name.clone());
                    crate::eval::constant(d.expr())
                        .and_then(|json| convert(&json, &ty).ok())
                        .map(|c| apply_defaults(&c, &ty))
                }
                None => {
                    diags.push(PlanDiagnostic::at(
                        m,
                        v.provenance.decl,
                        "No value for required variable",
                        format!("The root module input variable \"{name}\" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."),
                    ));
                    None
                }
            },
        };
        let value = value.map_or(Value::Unknown, |json| Value::from_typed_json(&json, &ty));
        values.insert(name.clone(), value);
    }
    values
}

fn read_file(
    m: &MergedModule,
    path: &Path,
    given: &mut BTreeMap<String, (serde_json::Value, Source)>,
    diags: &mut Vec<PlanDiagnostic>,
    warnings: &mut Vec<PlanDiagnostic>,
) {
    let shown = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let text = match read_bounded(path, MAX_FILE_BYTES).and_then(|b| {
        String::from_utf8(b).map_err(|_| ReadError::Io("it is not valid UTF-8".into()))
    }) {
        Ok(t) => t,
        Err(e) => {
            diags.push(PlanDiagnostic::sourceless(
                "Failed to read variables file",
                format!(
                    "Given variables file {} could not be read: {e}.",
                    path.display()
                ),
            ));
            return;
        }
    };
    let syntax = if shown.ends_with(".json") {
        Syntax::Json
    } else {
        Syntax::Native
    };
    let file = parse(&text, syntax, None);
    if let Some(d) = file.diagnostics.first() {
        diags.push(PlanDiagnostic::sourceless(
            &d.summary,
            format!("{shown}: {}", d.detail),
        ));
        return;
    }
    for a in &file.body.attributes {
        let name = a.name.name.to_string();
        if !m.variables.contains_key(&name) {
            warnings.push(PlanDiagnostic::sourceless(
                "Value for undeclared variable",
                format!("The root module does not declare a variable named \"{name}\" but a value was found in file \"{shown}\". If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."),
            ));
            continue;
        }
        match evaluate(&a.expr, &NoReferences) {
            Ok(v) => {
                given.insert(name, (v.to_json(), Source::File(shown.clone())));
            }
            Err(e) => diags.push(PlanDiagnostic::sourceless(
                &e.summary,
                format!("{shown}: {}", e.detail),
            )),
        }
    }
}
