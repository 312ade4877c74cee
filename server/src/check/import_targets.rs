//! `import` blocks as the validate walk checks them, with the resource they import into
//! (`validateImportTargets`, `validateImportSelfRef`, `validateImportTargetExpansion` in
//! Terraform's `node_resource_validate.go`):
//!
//! - an import into a module call the module does not declare fails while Terraform
//!   builds the graph: `Configuration for import target does not exist`, and nothing
//!   else of the walk is reported;
//! - per resource, the import blocks are checked in order and the first error stops the
//!   rest: an `id` that refers to the resource being imported, an instance key its
//!   `count`/`for_each` does not take (`Invalid import 'to' expression`), an `id` whose
//!   value is null or "" (`Invalid import id argument`); the evaluation errors of the
//!   `for_each` and `id` expressions, which other families report, count as well;
//! - a resource without configuration (one `-generate-config-out` would write) takes no
//!   instance key and no `for_each`.
//!
//! `for_each` and `id` are evaluated as far as they are constant; unknown values (input
//! variables) check nothing, as in Terraform's validate walk.

use std::collections::BTreeMap;

use super::addresses::{parts, Part};
use super::{at, Diagnostic, Severity};
use crate::eval::{evaluate, references, EvalError, Scope, Value};
use crate::merge::{strip_instance_keys, MergedModule, Mode, Origin, ResourceKey};
use crate::syntax::{json_string_native, Block, Expr, ExprKind, Span, TraversalStep};

/// Code of an import block the validate walk rejects.
pub const IMPORT_TARGET: &str = "invalid-import-target";

/// What the import checks find, applied to `found` (the rest of the validate walk):
/// Terraform's errors added, and the evaluation errors of `for_each` and `id`
/// expressions it never reaches dropped.
pub(super) fn check(m: &MergedModule, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let imports = imports(m);
    let undeclared: Vec<Diagnostic> = imports
        .iter()
        .filter_map(|i| undeclared_module(m, i))
        .collect();
    if !undeclared.is_empty() {
        return undeclared;
    }
    // The import blocks of each resource, in order (a target without configuration is
    // a node of its own).
    let mut nodes: BTreeMap<String, Vec<&Import>> = BTreeMap::new();
    for i in imports.iter().filter(|i| i.module.is_none()) {
        let node = match i.config(m) {
            Some(_) => i.resource.clone(),
            None => format!("{}#{}", i.resource, i.file_span.start),
        };
        nodes.entry(node).or_default().push(i);
    }
    let mut added = Vec::new();
    let mut unreached: Vec<(u32, Span)> = Vec::new();
    for list in nodes.values() {
        let mut stopped = false;
        for i in list {
            if stopped {
                unreached.extend(i.regions());
                continue;
            }
            stopped = i.validate(m, &found, &mut added, &mut unreached);
        }
    }
    let mut out: Vec<Diagnostic> = found
        .into_iter()
        .filter(|d| {
            !unreached.iter().any(|(f, s)| {
                m.file(*f).path == d.path && s.start <= d.span.start && d.span.end <= s.end
            })
        })
        .collect();
    out.extend(added);
    out
}

/// One import block whose `to` is a static address.
struct Import<'a> {
    file: u32,
    block: &'a Block,
    /// Where the block is, to tell blocks apart.
    file_span: Span,
    /// The module call the target is in (the first one), if any.
    module: Option<String>,
    /// `TYPE.NAME` (after the module path).
    resource: String,
    type_name: String,
    name: String,
    /// The `to` expression.
    to: Expr,
    /// The index of `to`, if it has one.
    index: Option<Expr>,
    /// A legacy `.0` index.
    legacy_index: Option<u64>,
}

fn imports(m: &MergedModule) -> Vec<Import<'_>> {
    let mut out = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if m.is_override_file(fi as u32) {
            continue;
        }
        for block in file.syntax.body.blocks_of("import") {
            if let Some(i) = import(fi as u32, block) {
                out.push(i);
            }
        }
    }
    out
}

fn import(file: u32, block: &Block) -> Option<Import<'_>> {
    let to = &block.body.attribute("to")?.expr;
    // In the JSON syntax, `to` is a string holding the expression (`unwrapJSONRefExpr`;
    // one that does not parse is the loader's error).
    let to = match &to.kind {
        ExprKind::Json(value) => json_string_native(value)?.ok()?,
        _ => to.clone(),
    };
    let all = parts(&to)?;
    let names: Vec<&str> = all
        .iter()
        .map_while(|p| match p {
            Part::Name(n, _) => Some(n.as_str()),
            Part::Index(..) => None,
        })
        .collect();
    let (module, type_name, name) = match names[..] {
        ["module", call, ..] => (Some(call.to_string()), "", ""),
        ["resource", t, n] | [t, n] => (None, t, n),
        _ => return None,
    };
    let (index, legacy_index) = match &to.kind {
        ExprKind::Traversal { steps, .. } if module.is_none() => match steps.get(1..) {
            Some([TraversalStep::Index(e)]) => (Some(e.clone()), None),
            Some([TraversalStep::LegacyIndex(n, _)]) => (None, Some(*n)),
            Some([]) => (None, None),
            _ => return None,
        },
        _ => (None, None),
    };
    Some(Import {
        file,
        block,
        file_span: block.span,
        module,
        resource: format!("{type_name}.{name}"),
        type_name: type_name.to_string(),
        name: name.to_string(),
        to,
        index,
        legacy_index,
    })
}

/// `Configuration for import target does not exist` for an import into a module call
/// that is not declared.
fn undeclared_module(m: &MergedModule, i: &Import<'_>) -> Option<Diagnostic> {
    let call = i.module.as_ref()?;
    if m.module_calls.contains_key(call) {
        return None;
    }
    let names: Vec<String> = parts(&i.to)?
        .into_iter()
        .filter_map(|p| match p {
            Part::Name(n, _) => Some(n),
            Part::Index(..) => None,
        })
        .collect();
    let address = names.join(".");
    Some(i.error(
        m,
        i.to.span,
        "Configuration for import target does not exist",
        format!("The configuration for the given import target {address} does not exist. All target instances must have an associated configuration to be imported."),
    ))
}

/// The key of an instance address.
#[derive(Debug, Clone, PartialEq)]
enum Key {
    /// No index.
    None,
    Int,
    String,
    /// An index whose value is not known.
    Unknown,
}

impl Import<'_> {
    fn config<'m>(&self, m: &'m MergedModule) -> Option<&'m crate::merge::Resource> {
        m.resources.get(&ResourceKey {
            mode: Mode::Managed,
            type_name: self.type_name.clone(),
            name: self.name.clone(),
        })
    }

    fn error(&self, m: &MergedModule, span: Span, summary: &str, detail: String) -> Diagnostic {
        let origin = Origin {
            file: self.file,
            span,
        };
        at(
            m,
            origin,
            Severity::Error,
            IMPORT_TARGET,
            summary.into(),
            detail,
        )
    }

    /// The expressions whose evaluation errors other families report.
    fn regions(&self) -> Vec<(u32, Span)> {
        ["for_each", "id"]
            .iter()
            .filter_map(|a| self.block.body.attribute(a))
            .map(|a| (self.file, a.expr.span))
            .collect()
    }

    /// Checks this import block; whether it stopped the resource's checks.
    fn validate(
        &self,
        m: &MergedModule,
        found: &[Diagnostic],
        out: &mut Vec<Diagnostic>,
        unreached: &mut Vec<(u32, Span)>,
    ) -> bool {
        let id = self.block.body.attribute("id").map(|a| &a.expr);
        let failed_in = |expr: Option<&Expr>| {
            expr.is_some_and(|e| {
                found.iter().any(|d| {
                    d.severity == Severity::Error
                        && m.file(self.file).path == d.path
                        && e.span.start <= d.span.start
                        && d.span.end <= e.span.end
                })
            })
        };
        let before = out.len();
        // The id may not refer to the resource it imports.
        for r in id.map(references).unwrap_or_default() {
            if strip_instance_keys(&r.subject) == self.resource {
                out.push(self.error(
                    m,
                    r.subject_span,
                    "Invalid import id argument",
                    "The import ID cannot reference the resource being imported.".into(),
                ));
            }
        }
        if out.len() > before {
            unreached.extend(self.regions());
            return true;
        }
        let config = self.config(m);
        let Some(for_each) = self.block.body.attribute("for_each").map(|a| &a.expr) else {
            let key = match (&self.index, self.legacy_index) {
                (None, None) => Key::None,
                (_, Some(_)) => Key::Int,
                (Some(e), _) => key_of(&evaluate(e, &Constants { m, each: None })),
            };
            if self.instance(m, config, key, out) {
                unreached.extend(id.map(|e| (self.file, e.span)));
                return true;
            }
            return failed_in(id) || self.id_value(m, id, None, out);
        };
        if config.is_none() && self.index.is_none() && self.legacy_index.is_none() {
            out.push(self.config_generation(m));
            unreached.extend(self.regions());
            return true;
        }
        if failed_in(Some(for_each)) {
            unreached.extend(id.map(|e| (self.file, e.span)));
            return true;
        }
        let each = match evaluate(for_each, &Constants { m, each: None }) {
            Ok(v) => for_each_elements(&v),
            Err(_) => Vec::new(),
        };
        if each.is_empty() {
            // Nothing to import: the id is never evaluated.
            unreached.extend(id.map(|e| (self.file, e.span)));
            return false;
        }
        for (n, pair) in each.iter().enumerate() {
            let scope = Constants {
                m,
                each: Some(pair),
            };
            let key = match &self.index {
                Some(e) => key_of(&evaluate(e, &scope)),
                None => Key::None,
            };
            if self.instance(m, config, key, out) {
                if n == 0 {
                    unreached.extend(id.map(|e| (self.file, e.span)));
                }
                return true;
            }
            if failed_in(id) || self.id_value(m, id, Some(pair), out) {
                return true;
            }
        }
        false
    }

    /// `validateImportTargetExpansion`, or the configuration-generation error for a
    /// resource without configuration; whether it failed.
    fn instance(
        &self,
        m: &MergedModule,
        config: Option<&crate::merge::Resource>,
        key: Key,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(config) = config else {
            if key != Key::None && self.block.body.attribute("for_each").is_none() {
                out.push(self.config_generation(m));
                return true;
            }
            // With for_each, a key on a resource without configuration is refused as
            // one its (missing) count/for_each does not take.
            return self.expansion(m, key, false, false, out);
        };
        self.expansion(
            m,
            key,
            config.count.is_some(),
            config.for_each.is_some(),
            out,
        )
    }

    fn expansion(
        &self,
        m: &MergedModule,
        key: Key,
        count: bool,
        for_each: bool,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let problem = match key {
            Key::String if !for_each => "The target resource does not use for_each.",
            Key::Int if !count => "The target resource does not use count.",
            Key::None if for_each => "The target resource is using for_each.",
            Key::None if count => "The target resource is using count.",
            _ => return false,
        };
        out.push(self.error(
            m,
            self.to.span,
            "Invalid import 'to' expression",
            problem.into(),
        ));
        true
    }

    fn config_generation(&self, m: &MergedModule) -> Diagnostic {
        self.error(
            m,
            self.to.span,
            "Configuration for import target does not exist",
            "The given import block is not compatible with config generation. The -generate-config-out option cannot be used with import blocks which use for_each, or resources which use for_each or count.".into(),
        )
    }

    /// `evalImportID`: a null or empty id, where its value is known; whether it failed.
    fn id_value(
        &self,
        m: &MergedModule,
        id: Option<&Expr>,
        each: Option<&(Value, Value)>,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(id) = id else { return false };
        let detail = match evaluate(id, &Constants { m, each }) {
            Ok(Value::Null) => "The import ID cannot be null.",
            Ok(Value::String(s)) if s.is_empty() => {
                "The import ID value evaluates to an empty string, please provide a non-empty value."
            }
            _ => return false,
        };
        out.push(self.error(m, id.span, "Invalid import id argument", detail.into()));
        true
    }
}

/// The key an evaluated index gives an instance address.
fn key_of(v: &Result<Value, EvalError>) -> Key {
    match v {
        Ok(Value::String(_)) => Key::String,
        Ok(Value::Number(_)) => Key::Int,
        _ => Key::Unknown,
    }
}

/// `each.key` and `each.value` for every element of a known `for_each` value (a map or
/// object by key, a set by element, a list or tuple by index).
pub fn for_each_elements(v: &Value) -> Vec<(Value, Value)> {
    match v {
        Value::Map(items) | Value::Object(items) => items
            .iter()
            .map(|(k, v)| (Value::string(k.clone()), v.clone()))
            .collect(),
        Value::Set(items) => items.iter().map(|v| (v.clone(), v.clone())).collect(),
        Value::List(items) | Value::Tuple(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Number(i as f64), v.clone()))
            .collect(),
        _ => Vec::new(),
    }
}

/// What the validate walk knows when it evaluates an import: local values as far as
/// they are constant, `each` of the current element, and nothing else.
struct Constants<'a> {
    m: &'a MergedModule,
    each: Option<&'a (Value, Value)>,
}

impl Scope for Constants<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], _: Span) -> Result<(Value, usize), EvalError> {
        let value = match (root, attrs.first(), self.each) {
            ("each", Some(&"key"), Some((k, _))) => k.clone(),
            ("each", Some(&"value"), Some((_, v))) => v.clone(),
            ("local", Some(name), _) => match self.m.locals.get(*name) {
                // Locals of locals are left unknown: no cycle to guard.
                Some(l) => evaluate(
                    l.value.expr(),
                    &Constants {
                        m: self.m,
                        each: None,
                    },
                )
                .ok()
                .filter(|_| references(l.value.expr()).is_empty())
                .unwrap_or(Value::Unknown),
                None => Value::Unknown,
            },
            _ => Value::Unknown,
        };
        Ok((value, attrs.len().min(1)))
    }
}
