//! References to objects the module does not declare (Terraform reports these when it
//! validates): input variables, local values, resources, data sources and module calls,
//! with "Did you mean" when a close name exists, and data sources a `check` block
//! declares referred to from outside it (`Reference to scoped resource`), wherever the
//! validate walk evaluates an expression (`evaluated.rs`). References are found as
//! Terraform finds them; names a block binds (`dynamic` iterators, `for` variables) are
//! not references, and addresses that are not expressions (`moved`, `import`,
//! `removed`, `provider`, `ignore_changes`), `replace_triggered_by` (checked when
//! Terraform plans: an undeclared resource there is a plan-time error, recorded in
//! fixtures/validate/lifecycle-refs) and `depends_on` (read on its own, `depends_on.rs`)
//! are not looked at.

use std::collections::HashMap;

use super::evaluated::Walked;
use super::{at, Diagnostic, Role, Severity};
use crate::eval::Reference;
use crate::merge::{strip_instance_keys, MergedModule, Mode, Origin, ResourceKey};
use crate::text::names::CloseNames;

/// Code of a reference to something not declared.
pub const UNDECLARED: &str = "undeclared-reference";

pub(super) fn check(
    m: &MergedModule,
    children: super::ChildModules<'_>,
    walked: &Walked<'_>,
    role: Role<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let scoped = scoped_data(m);
    let names = Names::of(m);
    // Terraform walks a called module once per module path, each walk naming its own.
    // The walks differ only in that name, so the module is walked once with a stand-in
    // for it, and each path's diagnostics are that walk's with its name put in.
    let mut problems = Vec::new();
    {
        let mut objects = Objects {
            m,
            children: Some(children),
            scoped: &scoped,
            names: &names,
            check: None,
            module: MODULE_NAME,
        };
        for visit in walked.with_json() {
            let place = visit.place();
            objects.check = place.check;
            for r in visit.references_within() {
                let Some((summary, detail)) = objects.problem(r) else {
                    continue;
                };
                // A module's missing output is reported at its name (`.out`).
                let mut span = r.subject_span;
                if summary == "Unsupported attribute" {
                    let name = r.subject.rsplit('.').next().unwrap_or_default();
                    span.start = span
                        .end
                        .saturating_sub(name.len() as u32 + 1)
                        .max(span.start);
                }
                let origin = Origin {
                    file: place.file,
                    span,
                };
                problems.push((origin, summary, detail));
            }
        }
    }
    for module in module_names(role) {
        for (origin, summary, detail) in &problems {
            let detail = detail.replace(MODULE_NAME, &module);
            out.push(at(
                m,
                *origin,
                Severity::Error,
                UNDECLARED,
                summary.clone(),
                detail,
            ));
        }
    }
}

/// What stands for the module's name in the details of the one walk of
/// [`check`]: no identifier or string of a configuration holds a control character.
const MODULE_NAME: &str = "\u{1}module\u{1}";

/// How Terraform's messages name the module in each of its walks of it: "the root
/// module", or a called module's path (`module.a.module.b`). A called module with no
/// known path (a child walked only to learn which of its outputs fail, whose messages
/// are not reported) is named as the root module.
pub(super) fn module_names(role: Role<'_>) -> Vec<String> {
    match role {
        Role::Called(paths) if !paths.is_empty() => paths.to_vec(),
        Role::Root | Role::Called(_) => vec!["the root module".into()],
    }
}

/// Data sources declared inside `check` blocks (`data.TYPE.NAME`), each with the name of
/// its check block: references to them are valid only inside that block.
pub(super) fn scoped_data(m: &MergedModule) -> HashMap<String, String> {
    let mut scoped = HashMap::new();
    for c in &m.checks {
        for d in c.block.body.blocks_of("data") {
            if let (Some(t), Some(n), Some(check)) = (d.label(0), d.label(1), c.block.label(0)) {
                scoped.insert(format!("data.{t}.{n}"), check.to_string());
            }
        }
    }
    scoped
}

/// What the objects a reference may name are, seen from one place.
pub(super) struct Objects<'a> {
    /// The module.
    pub m: &'a MergedModule,
    /// Child modules whose outputs are checked, where Terraform checks them.
    pub children: Option<super::ChildModules<'a>>,
    /// [`scoped_data`].
    pub scoped: &'a HashMap<String, String>,
    /// The names a "Did you mean" is looked up among.
    pub names: &'a Names<'a>,
    /// The `check` block the reference is in, if any.
    pub check: Option<&'a str>,
    /// How the messages name the module ([`module_names`]).
    pub module: &'a str,
}

/// The declared names an undeclared one is compared with, for "Did you mean".
pub(super) struct Names<'a> {
    variables: CloseNames<'a>,
    locals: CloseNames<'a>,
    calls: CloseNames<'a>,
}

impl<'a> Names<'a> {
    /// The variables, locals and module calls of `m`.
    pub(super) fn of(m: &'a MergedModule) -> Self {
        Self {
            variables: CloseNames::new(m.variables.keys().map(String::as_str)),
            locals: CloseNames::new(m.locals.keys().map(String::as_str)),
            calls: CloseNames::new(m.module_calls.keys().map(String::as_str)),
        }
    }
}

impl Objects<'_> {
    /// Terraform's error for a reference to something not declared or not reachable
    /// from here, if it is one.
    pub(super) fn problem(&self, r: &Reference) -> Option<(String, String)> {
        let root = r.subject.split(['.', '[']).next().unwrap_or_default();
        let m = self.m;
        let object = r.container.as_deref().unwrap_or(&r.subject);
        let keyless = strip_instance_keys(object);
        let segments: Vec<&str> = keyless.split('.').collect();
        match root {
            "var" | "local" => undeclared_named_value(m, self.names, root, segments.get(1)?),
            "module" => {
                let name = segments.get(1)?;
                if let Some(call) = m.module_calls.get(*name) {
                    return self.child_output(call, &r.subject);
                }
                let hint = self
                    .names
                    .calls
                    .closest(name)
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default();
                Some((
                    "Reference to undeclared module".into(),
                    format!(
                        "No module call named \"{name}\" is declared in {}.{hint}",
                        self.module
                    ),
                ))
            }
            "count" | "each" | "path" | "terraform" | "self" => None,
            "data" | "ephemeral" => {
                let (t, n) = (segments.get(1)?, segments.get(2)?);
                let mode = if root == "data" {
                    Mode::Data
                } else {
                    Mode::Ephemeral
                };
                let adjective = if root == "data" { "data" } else { "ephemeral" };
                if let Some(check) = self.scoped.get(&keyless) {
                    return (self.check != Some(check.as_str())).then(|| (
                        "Reference to scoped resource".into(),
                        format!("The referenced {adjective} resource {t:?} {n:?} is not available from this context."),
                    ));
                }
                if self.declared(mode, t, n) {
                    return None;
                }
                Some((
                    "Reference to undeclared resource".into(),
                    format!(
                        "A {adjective} resource \"{t}\" \"{n}\" has not been declared in {}.",
                        self.module
                    ),
                ))
            }
            t => {
                let n = segments.get(1)?;
                if self.declared(Mode::Managed, t, n) {
                    return None;
                }
                let hint = if self.declared(Mode::Data, t, n) {
                    format!("\n\nDid you mean the data resource data.{t}.{n}?")
                } else {
                    String::new()
                };
                Some((
                    "Reference to undeclared resource".into(),
                    format!(
                        "A managed resource \"{t}\" \"{n}\" has not been declared in {}.{hint}",
                        self.module
                    ),
                ))
            }
        }
    }

    /// `module.m.out` where the child module (a local source Strata has read) declares no
    /// output `out`.
    fn child_output(
        &self,
        call: &crate::merge::ModuleCall,
        subject: &str,
    ) -> Option<(String, String)> {
        let keyless = strip_instance_keys(subject);
        let output = keyless.split('.').nth(2)?;
        let source = call
            .source
            .as_ref()
            .and_then(|s| crate::merge::literal_string(s.expr()))?;
        let child = (self.children?)(source)?;
        if child.outputs.contains_key(output) {
            return None;
        }
        Some((
            "Unsupported attribute".into(),
            format!("This object does not have an attribute named \"{output}\"."),
        ))
    }

    fn declared(&self, mode: Mode, t: &str, n: &str) -> bool {
        self.m.resources.contains_key(&ResourceKey {
            mode,
            type_name: t.to_string(),
            name: n.to_string(),
        })
    }
}

/// Terraform's error for `var.NAME` or `local.NAME` where the module declares no such
/// input variable or local value, with its suggestion.
pub(super) fn undeclared_named_value(
    m: &MergedModule,
    names: &Names<'_>,
    root: &str,
    name: &str,
) -> Option<(String, String)> {
    if root == "var" {
        if m.variables.contains_key(name) {
            return None;
        }
        let hint = match names.variables.closest(name) {
            Some(s) => format!(" Did you mean {s:?}?"),
            None => {
                format!(" This variable can be declared with a variable \"{name}\" {{}} block.")
            }
        };
        return Some((
            "Reference to undeclared input variable".into(),
            format!("An input variable with the name \"{name}\" has not been declared.{hint}"),
        ));
    }
    if m.locals.contains_key(name) {
        return None;
    }
    let hint = names
        .locals
        .closest(name)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    Some((
        "Reference to undeclared local value".into(),
        format!("A local value with the name \"{name}\" has not been declared.{hint}"),
    ))
}
