//! Values of the root module's input variables, from every source Terraform reads, in
//! increasing precedence: the declared default, `TF_VAR_name` environment variables,
//! `terraform.tfvars`, `terraform.tfvars.json`, `*.auto.tfvars` and `*.auto.tfvars.json`
//! in lexical order, then `--var-file` and `--var` in the order given. Each value is
//! converted to the variable's type, with its optional-attribute defaults (a null given
//! to a variable that is not nullable is its default), then checked by the variable's
//! validation rules (`check::validations`), as Terraform's plan walk checks them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::PlanDiagnostic;
use crate::check::{range_text, root_validations_at_plan};
use crate::eval::{evaluate_every_error, EvalError, Scope, Value};
use crate::merge::{MergedModule, Variable};
use crate::schema::ProviderSchemaSource;
use crate::syntax::{parse, Span, Syntax};
use crate::text::read::{read_bounded, ReadError, MAX_FILE_BYTES};
use crate::types::{apply_defaults, convert, parse_type_argument, Type};

/// Values given on the command line (or by the editor).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VariableInputs {
    /// `--var-file` paths, in order.
    pub files: Vec<PathBuf>,
    /// `--var NAME=VALUE`, in order.
    pub vars: Vec<(String, String)>,
    /// The `TF_VAR_NAME=VALUE` environment variables, as (NAME, VALUE).
    pub env: Vec<(String, String)>,
}

impl VariableInputs {
    /// The `TF_VAR_` variables of this process's environment (those that are Unicode).
    pub fn from_environment() -> Vec<(String, String)> {
        std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter_map(|(k, v)| Some((k.strip_prefix("TF_VAR_")?.to_string(), v)))
            .collect()
    }
}

/// Where a value came from, for messages.
enum Source {
    /// A `.tfvars` file, and where the value is written there.
    File(PathBuf, Span),
    CommandLine,
    /// A `TF_VAR_name` environment variable.
    Environment,
}

impl Source {
    /// Where Terraform places an error about the value: at the value in its file;
    /// otherwise at the variable's declaration.
    fn place(&self, m: &MergedModule, v: &Variable) -> Option<(PathBuf, Span)> {
        match self {
            Source::File(path, span) => Some((path.clone(), *span)),
            _ => Some((
                m.file(v.provenance.decl.file).path.clone(),
                v.provenance.decl.span,
            )),
        }
    }

    /// The detail of a value that does not suit `v` (`reason`), naming where it was set
    /// as Terraform names it; `verb` is the word Terraform uses after a file's value
    /// ("declared" for a type error, "defined" for a null).
    fn unsuitable(&self, m: &MergedModule, v: &Variable, verb: &str, reason: &str) -> String {
        let name = &v.name;
        match self {
            Source::File(..) => file_unsuitable(m, v, verb, reason),
            Source::CommandLine => {
                format!("Unsuitable value for var.{name} set using -var=\"{name}=...\": {reason}.")
            }
            Source::Environment => format!(
                "Unsuitable value for var.{name} set using the TF_VAR_{name} environment variable: {reason}."
            ),
        }
    }
}

/// A scope where nothing may be referenced and no function called: `.tfvars` files and
/// values given on the command line or in the environment hold values only (HCL
/// evaluates them without a context, and says so in the same words for all of them;
/// a `.tfvars.json` file's strings are then plain text, never templates).
struct NoReferences;

impl Scope for NoReferences {
    fn lookup(&self, root: &str, _: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let detail = "Variables may not be used here.";
        // HCL points at the root name (the traversal's first step) alone.
        let start = span.start as usize;
        let root = Span::new(start, (start + root.len()).min(span.end as usize));
        Err(EvalError::new("Variables not allowed", detail, root))
    }

    fn functions_allowed(&self) -> bool {
        false
    }

    fn json_templates(&self) -> bool {
        false
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

/// The value of every root variable from its sources, as [`root_values`] finds it but
/// not checked by its validation rules (which change no value): what an editor shows
/// beside `var.x`. Every value is unknown when a source has a problem.
pub fn given_root_values(
    m: &MergedModule,
    dir: &Path,
    inputs: &VariableInputs,
) -> BTreeMap<String, Value> {
    let (mut diags, mut warnings) = (Vec::new(), Vec::new());
    let mut in_files = BTreeMap::new();
    given_values(m, dir, inputs, &mut in_files, &mut diags, &mut warnings)
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
    let mut in_files = BTreeMap::new();
    let values = given_values(m, dir, inputs, &mut in_files, diags, warnings);
    if diags.is_empty() {
        // Terraform validates a value once it is converted; a value that failed to
        // convert stopped the plan already.
        let failed = root_validations_at_plan(m, schemas, &values, &in_files);
        diags.extend(failed.into_iter().map(|(d, values)| {
            let place = (!d.is_placeless()).then(|| (d.path.clone(), d.span));
            PlanDiagnostic {
                summary: d.summary,
                detail: d.detail,
                place,
                values,
                address: None,
                function_call: None,
            }
        }));
    }
    values
}

/// The value of every root variable from its sources; where those from files are
/// written is added to `in_files`.
fn given_values(
    m: &MergedModule,
    dir: &Path,
    inputs: &VariableInputs,
    in_files: &mut BTreeMap<String, (PathBuf, Span)>,
    diags: &mut Vec<PlanDiagnostic>,
    warnings: &mut Vec<PlanDiagnostic>,
) -> BTreeMap<String, Value> {
    let mut given: BTreeMap<String, (serde_json::Value, Source)> = BTreeMap::new();
    let mut files: Vec<PathBuf> = ["terraform.tfvars", "terraform.tfvars.json"]
        .iter()
        .map(|n| dir.join(n))
        // Present in any form: a FIFO or a directory is an error when read, not skipped.
        .filter(|p| {
            crate::reads::record(p);
            p.symlink_metadata().is_ok()
        })
        .collect();
    // Listed: an `.auto.tfvars` file added or removed changes the directory.
    crate::reads::record(dir);
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
    // The environment comes after the defaults and before every file; a variable the
    // module does not declare is ignored (`collectVariableValues`).
    for (name, raw) in &inputs.env {
        let Some(v) = m.variables.get(name) else {
            continue;
        };
        if let Some(json) = raw_value(m, v, raw, diags) {
            given.insert(name.clone(), (json, Source::Environment));
        }
    }
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
        if let Some(json) = raw_value(m, v, raw, diags) {
            given.insert(name.clone(), (json, Source::CommandLine));
        }
    }
    // A required variable no source set is reported with the errors of reading the
    // sources, and any of them stops Terraform before a value is converted
    // (`checkInputVariables` runs before the plan walk).
    for (name, v) in &m.variables {
        if v.default.is_none() && !given.contains_key(name) {
            diags.push(PlanDiagnostic::at(
                m,
                v.provenance.decl,
                "No value for required variable",
                format!("The root module input variable \"{name}\" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."),
            ));
        }
    }
    if !diags.is_empty() {
        return m
            .variables
            .keys()
            .map(|name| (name.clone(), Value::Unknown))
            .collect();
    }
    let mut values = BTreeMap::new();
    for (name, v) in &m.variables {
        let ty = variable_type(m, v);
        let default = v.default.as_ref().map(|d| {
            crate::eval::constant(d.expr())
                .and_then(|json| convert(&json, &ty).ok())
                .map(|c| apply_defaults(&c, &ty))
        });
        if let Some((_, Source::File(path, span))) = given.get(name) {
            in_files.insert(name.clone(), (path.clone(), *span));
        }
        let value = match given.remove(name) {
            // A null given to a variable that is not nullable is its default
            // (`prepareFinalInputVariableValue`).
            Some((json, source)) if json.is_null() && !nullable(v) => match default {
                Some(d) => d,
                None => {
                    diags.push(PlanDiagnostic {
                        summary: "Required variable not set".into(),
                        detail: source.unsuitable(
                            m,
                            v,
                            "defined",
                            "required variable may not be set to null",
                        ),
                        place: source.place(m, v),
                        values: Vec::new(),
                        address: None,
                        function_call: None,
                    });
                    None
                }
            },
            Some((json, source)) => match convert(&json, &ty) {
                Ok(converted) => Some(apply_defaults(&converted, &ty)),
                Err(e) => {
                    diags.push(PlanDiagnostic {
                        summary: "Invalid value for input variable".into(),
                        // Printed without its path, as go-cty's path errors print themselves.
                        detail: source.unsuitable(m, v, "declared", &e.bare()),
                        place: source.place(m, v),
                        values: Vec::new(),
                        address: None,
                        function_call: None,
                    });
                    None
                }
            },
            // Set by no source: its default (a required one was reported above).
            None => default.flatten(),
        };
        let value = value.map_or(Value::Unknown, |json| Value::from_typed_json(&json, &ty));
        values.insert(name.clone(), value);
    }
    values
}

/// Whether a variable may be null: unless `nullable = false`.
fn nullable(v: &Variable) -> bool {
    v.nullable
        .as_ref()
        .is_none_or(|a| crate::eval::constant(a.expr()) != Some(serde_json::Value::Bool(false)))
}

/// A value given on the command line or in the environment, as Terraform parses it
/// (`ParseVariableValue`): the text itself for a variable without a type or of a
/// primitive type, otherwise an HCL expression that may refer to nothing. `None` (the
/// error reported) when it does not parse or evaluate: the variable is then unset.
fn raw_value(
    m: &MergedModule,
    v: &Variable,
    raw: &str,
    diags: &mut Vec<PlanDiagnostic>,
) -> Option<serde_json::Value> {
    let ty = variable_type(m, v);
    if v.type_constraint.is_none() || ty.is_primitive() {
        return Some(serde_json::Value::String(raw.to_string()));
    }
    const PREFIX: &str = "v = ";
    let file = parse(&format!("{PREFIX}{raw}\n"), Syntax::Native, None);
    // Terraform parses the value as a file of its own, named for the variable (no
    // source to show from it).
    let place = |span: Span| {
        let at = |o: u32| o.saturating_sub(PREFIX.len() as u32);
        let name = format!("<value for var.{}>", v.name);
        Some((
            PathBuf::from(name),
            Span {
                start: at(span.start),
                end: at(span.end),
            },
        ))
    };
    if let Some(d) = file.diagnostics.first() {
        diags.push(PlanDiagnostic {
            summary: d.summary.clone(),
            detail: d.detail.clone(),
            place: place(d.span),
            values: Vec::new(),
            address: None,
            function_call: None,
        });
        return None;
    }
    let a = file.body.attributes.first()?;
    match evaluate_every_error(&a.expr, &NoReferences) {
        Ok(value) => Some(value.to_json()),
        Err(errors) => {
            diags.extend(errors.into_iter().map(|e| PlanDiagnostic {
                summary: e.summary,
                detail: e.detail,
                place: place(e.span),
                values: Vec::new(),
                address: None,
                function_call: None,
            }));
            None
        }
    }
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
    // Terraform places these problems in the file.
    let placed = |summary: String, detail: String, span: Span| PlanDiagnostic {
        summary,
        detail,
        place: Some((path.to_path_buf(), span)),
        values: Vec::new(),
        address: None,
        function_call: None,
    };
    let blocks = super::block_problems(&shown, &file.body);
    if !blocks.is_empty() {
        // Terraform reads no value of a file with blocks.
        diags.extend(
            blocks
                .into_iter()
                .map(|p| placed(p.summary, p.detail, p.span)),
        );
        return;
    }
    for (a, definition) in definitions(m, &shown, &file.body) {
        match definition {
            Definition::Value { name, value } => {
                let at = Source::File(path.to_path_buf(), a.expr.span);
                given.insert(name, (value, at));
            }
            Definition::Undeclared { detail, .. } => warnings.push(PlanDiagnostic::sourceless(
                "Value for undeclared variable",
                detail,
            )),
            Definition::Failed(errors) => diags.extend(
                errors
                    .into_iter()
                    .map(|e| placed(e.summary, e.detail, e.span)),
            ),
        }
    }
}

/// One argument of a variable definitions file, as Terraform reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Definition {
    /// The value of a declared variable (not yet converted to its type).
    Value {
        /// The variable.
        name: String,
        /// Its value.
        value: serde_json::Value,
    },
    /// A value for a variable the module does not declare: Terraform warns.
    Undeclared {
        /// The name.
        name: String,
        /// Terraform's detail.
        detail: String,
    },
    /// A value that does not evaluate (it refers to something, calls a function):
    /// every error Terraform reports of it, each at the part at fault.
    Failed(Vec<EvalError>),
}

/// What Terraform makes of each argument of `body`, a variable definitions file named
/// `shown`, for the root module `m`.
pub fn definitions<'b>(
    m: &MergedModule,
    shown: &str,
    body: &'b crate::syntax::Body,
) -> Vec<(&'b crate::syntax::Attribute, Definition)> {
    body.attributes
        .iter()
        .map(|a| {
            let name = a.name.name.to_string();
            let definition = if !m.variables.contains_key(&name) {
                Definition::Undeclared {
                    detail: format!("The root module does not declare a variable named \"{name}\" but a value was found in file \"{shown}\". If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."),
                    name,
                }
            } else {
                match evaluate_every_error(&a.expr, &NoReferences) {
                    Ok(v) => Definition::Value {
                        name,
                        value: v.to_json(),
                    },
                    Err(errors) => Definition::Failed(errors),
                }
            };
            (&**a, definition)
        })
        .collect()
}

/// The detail of `Invalid value for input variable` for a file's value of `v` that does
/// not convert to its type (`reason`, go-cty's error without its path).
pub fn unsuitable_in_file(m: &MergedModule, v: &Variable, reason: &str) -> String {
    file_unsuitable(m, v, "declared", reason)
}

/// [`Source::unsuitable`] for a value from a file.
fn file_unsuitable(m: &MergedModule, v: &Variable, verb: &str, reason: &str) -> String {
    format!(
        "The given value is not suitable for var.{} {verb} at {}: {reason}.",
        v.name,
        range_text(m, v.provenance.decl)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::NoProviderSchemas;
    use crate::workspace::Workspace;

    #[test]
    fn given_values_are_the_validated_values_without_the_rules() {
        let dir = Path::new("/nonexistent-strata-given-values");
        let ws = Workspace::new();
        let text = "variable \"a\" {\n  default = \"x\"\n  validation {\n    condition     = var.a == \"y\"\n    error_message = \"Not y.\"\n  }\n}\nvariable \"b\" {\n  type    = number\n  default = \"2\"\n}\n";
        ws.open_document(&dir.join("main.tf"), text, 1);
        let m = ws.merged(dir).expect("merged");
        let inputs = VariableInputs::default();
        let (mut diags, mut warnings) = (Vec::new(), Vec::new());
        let validated = root_values(
            &m,
            dir,
            &inputs,
            &NoProviderSchemas,
            &mut diags,
            &mut warnings,
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        let given = given_root_values(&m, dir, &inputs);
        assert_eq!(given, validated);
        assert_eq!(given.get("b"), Some(&Value::Number(2.0)));
    }
}
