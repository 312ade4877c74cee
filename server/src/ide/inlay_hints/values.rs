//! Values as hints: after `var.x` the value a root module's variable takes (its default,
//! a `.tfvars` file's or a `TF_VAR_` environment variable's, as a plan reads them), and
//! after `count` or `for_each` how many instances it makes, where that is known from
//! variables, local values and constants alone.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::Path;

use super::{one_line, touches, Hint, HintKind, Kinds};
use crate::eval::{evaluate, EvalError, Scope, Value};
use crate::merge::MergedModule;
use crate::module::SourceFile;
use crate::plan::{given_root_values, VariableInputs};
use crate::syntax::{Body, Expr, ExprKind, Span, TraversalStep};
use crate::workspace::Workspace;

/// How deeply local values may refer to each other before a hint gives up (a cycle is
/// an error `check` reports).
const MAX_DEPTH: u8 = 32;

/// The value and instance hints of `file` (of module `m` in `dir`) in `range`.
pub(super) fn hints(
    ws: &Workspace,
    dir: &Path,
    m: &MergedModule,
    file: &SourceFile,
    range: Span,
    kinds: Kinds,
) -> Vec<Hint> {
    let vars = variable_values(ws, dir, m);
    let scope = Known {
        m,
        vars: &vars,
        depth: Cell::new(0),
    };
    let mut out = Vec::new();
    walk(&file.syntax.body, range, &mut |name, expr| {
        if kinds.variables {
            expr.walk(&mut |e| out.extend(variable(&vars, e)));
        }
        // After the value of a `var.x` that ends the argument.
        if kinds.instances && matches!(name, "count" | "for_each") {
            out.extend(instances(&scope, name, expr));
        }
    });
    out
}

/// The values of a root module's variables, from the same sources as a plan's but not
/// validated; none for a module another one calls, whose values its callers give.
fn variable_values(ws: &Workspace, dir: &Path, m: &MergedModule) -> BTreeMap<String, Value> {
    if ws.module_roles().paths_of(dir).is_some() {
        return BTreeMap::new();
    }
    let inputs = VariableInputs {
        env: VariableInputs::from_environment(),
        ..Default::default()
    };
    // Not validated: a failed rule changes no value, and is the diagnostics' to report.
    given_root_values(m, dir, &inputs)
}

/// Calls `f` with the name and value of every argument of `body` and its blocks that
/// touches `range`.
fn walk(body: &Body, range: Span, f: &mut impl FnMut(&str, &Expr)) {
    for a in body.attributes.iter().filter(|a| touches(a.span, range)) {
        f(&a.name.name, &a.expr);
    }
    for b in body.blocks.iter().filter(|b| touches(b.span, range)) {
        walk(&b.body, range, f);
    }
}

/// `= VALUE` after `e` when it is `var.NAME` and the variable's value is known.
fn variable(vars: &BTreeMap<String, Value>, e: &Expr) -> Option<Hint> {
    let ExprKind::Traversal { root, steps } = &e.kind else {
        return None;
    };
    let (ExprKind::Variable(root), [TraversalStep::Attr(name)]) = (&root.kind, steps.as_slice())
    else {
        return None;
    };
    if &*root.name != "var" {
        return None;
    }
    let value = vars.get(&*name.name)?;
    Some(Hint {
        offset: e.span.end as usize,
        label: format!("= {}", one_line(&value.to_string())),
        kind: HintKind::Value,
    })
}

/// `N instances` after a `count` or `for_each` whose value is known.
fn instances(scope: &Known, name: &str, expr: &Expr) -> Option<Hint> {
    let value = evaluate(expr, scope).ok()?;
    let n = match (name, value.unmarked()) {
        ("count", Value::Number(n)) if n.fract() == 0.0 && *n >= 0.0 => *n as usize,
        ("for_each", Value::Map(m) | Value::Object(m)) => m.len(),
        ("for_each", Value::Set(items)) => items.len(),
        _ => return None,
    };
    Some(Hint {
        offset: expr.span.end as usize,
        label: match n {
            1 => "1 instance".to_string(),
            n => format!("{n} instances"),
        },
        kind: HintKind::Instances,
    })
}

/// A scope that knows the variables' values and evaluates local values; anything else is
/// not known before planning.
struct Known<'a> {
    m: &'a MergedModule,
    vars: &'a BTreeMap<String, Value>,
    depth: Cell<u8>,
}

impl Scope for Known<'_> {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let unknown = || EvalError::new("Not known before planning", "", span);
        let name = attrs.first().ok_or_else(unknown)?;
        match root {
            "var" => self
                .vars
                .get(*name)
                .map(|v| (v.clone(), 1))
                .ok_or_else(unknown),
            "local" => {
                let local = self.m.locals.get(*name).ok_or_else(unknown)?;
                let depth = self.depth.get();
                if depth >= MAX_DEPTH {
                    return Err(unknown());
                }
                self.depth.set(depth + 1);
                let value = evaluate(local.value.expr(), self);
                self.depth.set(depth);
                Ok((value?, 1))
            }
            _ => Err(unknown()),
        }
    }
}
