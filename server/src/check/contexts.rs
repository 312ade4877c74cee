//! The objects only some places may refer to, as Terraform's validate walk evaluates
//! them (`internal/terraform/evaluate.go`, `evaluate_valid.go`): `count.index` where
//! `count` is set, `each.key` and `each.value` where `for_each` is set, `self` in
//! provisioners, connections and postconditions, and the attributes `path` and
//! `terraform` have.

use super::{at, Diagnostic, Severity};
use crate::eval::references;
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Block, Body, Expr, Span, Syntax};

/// Code of a reference to an object not available where it is made.
pub const CONTEXT: &str = "reference-out-of-context";

/// What the expressions of a place may refer to.
#[derive(Debug, Clone, Copy, Default)]
struct Scope {
    count: bool,
    each: bool,
    this: bool,
}

struct Walk<'a> {
    m: &'a MergedModule,
    file: u32,
    out: &'a mut Vec<Diagnostic>,
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue; // JSON strings are read in context; Strata does not yet.
        }
        let mut w = Walk {
            m,
            file: fi as u32,
            out,
        };
        for block in &file.syntax.body.blocks {
            w.top_level(block);
        }
    }
}

impl Walk<'_> {
    fn top_level(&mut self, block: &Block) {
        let none = Scope::default();
        match &*block.kind.name {
            "resource" | "data" | "ephemeral" => self.resource(block),
            "check" => {
                for b in &block.body.blocks {
                    match &*b.kind.name {
                        "data" => self.resource(b),
                        _ => self.body(&b.body, none, &[]),
                    }
                }
            }
            "module" => {
                let scope = self.instances(block);
                let skip = [
                    "source",
                    "version",
                    "providers",
                    "depends_on",
                    "count",
                    "for_each",
                ];
                self.body(&block.body, scope, &skip);
            }
            "import" => {
                let scope = self.instances(block);
                self.body(&block.body, scope, &["to", "provider", "for_each"]);
            }
            "locals" | "output" | "provider" | "variable" => {
                self.body(&block.body, none, &["depends_on", "type"])
            }
            _ => {}
        }
    }

    /// The instance keys a block's `count` or `for_each` gives its expressions; the two
    /// expressions themselves are evaluated without any.
    fn instances(&mut self, block: &Block) -> Scope {
        let none = Scope::default();
        for arg in ["count", "for_each"] {
            if let Some(a) = block.body.attribute(arg) {
                self.expr(&a.expr, none);
            }
        }
        Scope {
            count: block.body.attribute("count").is_some(),
            each: block.body.attribute("for_each").is_some(),
            this: false,
        }
    }

    fn resource(&mut self, block: &Block) {
        let scope = self.instances(block);
        let with_self = Scope {
            this: true,
            ..scope
        };
        let skip = ["count", "for_each", "provider", "depends_on"];
        for a in &block.body.attributes {
            if !skip.contains(&&*a.name.name) {
                self.expr(&a.expr, scope);
            }
        }
        for b in &block.body.blocks {
            match &*b.kind.name {
                // Static arguments; the conditions are evaluated per instance.
                "lifecycle" => {
                    for c in &b.body.blocks {
                        let this = &*c.kind.name == "postcondition";
                        self.body(&c.body, Scope { this, ..scope }, &[]);
                    }
                }
                "provisioner" => self.body(&b.body, with_self, &["when", "on_failure"]),
                "connection" => self.body(&b.body, with_self, &[]),
                _ => self.body(&b.body, scope, &[]),
            }
        }
    }

    /// Every expression of `body` and its nested blocks, but the arguments in `skip`.
    fn body(&mut self, body: &Body, scope: Scope, skip: &[&str]) {
        for a in &body.attributes {
            if !skip.contains(&&*a.name.name) {
                self.expr(&a.expr, scope);
            }
        }
        for b in &body.blocks {
            self.body(&b.body, scope, &[]);
        }
    }

    fn expr(&mut self, expr: &Expr, scope: Scope) {
        for r in references(expr) {
            let at_subject = Span::new(
                r.span.start as usize,
                (r.span.start as usize + r.subject.len()).min(r.span.end as usize),
            );
            let (root, name) = r.subject.split_once('.').unwrap_or((&r.subject, ""));
            let problem = match (root, name) {
                ("self", _) if !scope.this => Some((
                    "Invalid \"self\" reference".to_string(),
                    "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.".to_string(),
                )),
                ("count", "index") if !scope.count => Some((
                    "Reference to \"count\" in non-counted context".into(),
                    "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.".into(),
                )),
                ("count", "index") => None,
                ("count", other) => Some((
                    "Invalid \"count\" attribute".into(),
                    format!("The \"count\" object does not have an attribute named {other:?}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set."),
                )),
                ("each", "key") if !scope.each => Some((
                    "Reference to \"each\" in context without for_each".into(),
                    "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.".into(),
                )),
                ("each", "value") if !scope.each => Some((
                    "each.value cannot be used in this context".into(),
                    "A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error.".into(),
                )),
                ("each", "key" | "value") => None,
                ("each", other) => Some((
                    "Invalid \"each\" attribute".into(),
                    format!("The \"each\" object does not have an attribute named {other:?}. The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set."),
                )),
                ("path", "module" | "root" | "cwd") => None,
                ("path", other) => Some((
                    "Invalid \"path\" attribute".into(),
                    format!("The \"path\" object does not have an attribute named {other:?}."),
                )),
                ("terraform", "workspace" | "applying") => None,
                ("terraform", other) => Some((
                    "Invalid \"terraform\" attribute".into(),
                    format!("The \"terraform\" object does not have an attribute named {other:?}. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply."),
                )),
                _ => None,
            };
            if let Some((summary, detail)) = problem {
                let origin = Origin {
                    file: self.file,
                    span: at_subject,
                };
                self.out.push(at(
                    self.m,
                    origin,
                    Severity::Error,
                    CONTEXT,
                    summary,
                    detail,
                ));
            }
        }
    }
}
