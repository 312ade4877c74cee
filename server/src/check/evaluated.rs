//! The expressions Terraform's validate walk evaluates, each with what its place may
//! refer to (instance keys, `self`), the kind of top-level block it is in, and the
//! evaluation it belongs to (a resource body is evaluated as one block, a local value, a
//! `count` or a condition on its own; see `stages.rs`). Addresses and settings that are
//! never evaluated (`depends_on`, `provider`, `source`, lifecycle arguments, `type`, ...)
//! are left out. Families that judge references visit them here.

use crate::merge::MergedModule;
use crate::syntax::{Block, Body, Expr, Syntax};

/// What the expressions of a place may refer to.
#[derive(Debug, Clone, Copy, Default)]
pub struct Scope {
    /// `count.index` is available.
    pub count: bool,
    /// `each.key` and `each.value` are available.
    pub each: bool,
    /// `self` is available.
    pub this: bool,
}

/// Where an expression is.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The file.
    pub file: u32,
    /// The kind of the top-level block (`resource`, `locals`, `output`, ...).
    pub block: &'a str,
    /// What it may refer to.
    pub scope: Scope,
    /// The evaluation it is part of: expressions Terraform evaluates together (one
    /// `EvalBlock` or `EvalExpr`) share a number, unique in the module.
    pub unit: u32,
    /// The iterator names of the `dynamic` blocks it is in: not references there.
    pub iterators: &'a [Box<str>],
    /// It is a resource's precondition or postcondition, which Terraform evaluates even
    /// when its references failed (`NodeValidatableResource.evaluateExpr`).
    pub resource_condition: bool,
}

struct Walk<'a, F> {
    file: u32,
    kind: &'a str,
    unit: u32,
    iterators: Vec<Box<str>>,
    resource_condition: bool,
    visit: F,
}

/// Calls `visit` on every expression Terraform evaluates in the native-syntax files of
/// `m` (JSON strings are read in context; Strata does not yet).
pub fn walk(m: &MergedModule, mut visit: impl FnMut(&Expr, Place<'_>)) {
    let mut unit = 0;
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue;
        }
        for block in &file.syntax.body.blocks {
            let mut w = Walk {
                file: fi as u32,
                kind: &block.kind.name,
                unit,
                iterators: Vec::new(),
                resource_condition: false,
                visit: &mut visit,
            };
            w.top_level(block);
            unit = w.unit + 1;
        }
    }
}

impl<F: FnMut(&Expr, Place<'_>)> Walk<'_, F> {
    fn top_level(&mut self, block: &Block) {
        let none = Scope::default();
        match &*block.kind.name {
            "resource" | "data" | "ephemeral" => self.resource(block),
            "check" => {
                for b in &block.body.blocks {
                    match &*b.kind.name {
                        "data" => self.resource(b),
                        _ => self.alone(&b.body, none, &[]),
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
                self.alone(&block.body, scope, &skip);
            }
            "import" => {
                let scope = self.instances(block);
                self.alone(&block.body, scope, &["to", "provider", "for_each"]);
            }
            // An output's postconditions are refused, not evaluated (conditions.rs).
            "output" => {
                for a in &block.body.attributes {
                    if &*a.name.name != "depends_on" {
                        self.next();
                        self.expr(&a.expr, none);
                    }
                }
                for c in block.body.blocks_of("precondition") {
                    self.alone(&c.body, none, &[]);
                }
            }
            // A provider configuration is decoded as one block.
            "provider" => {
                self.next();
                self.together(&block.body, none, &["depends_on", "type"]);
            }
            // A variable's validation rules are evaluated together.
            "variable" => {
                self.next();
                self.together(&block.body, none, &["depends_on", "type"]);
            }
            "locals" => self.alone(&block.body, none, &["depends_on", "type"]),
            _ => {}
        }
    }

    /// Starts the next evaluation.
    fn next(&mut self) {
        self.unit += 1;
    }

    /// The instance keys a block's `count` or `for_each` gives its expressions; the two
    /// expressions themselves are evaluated on their own, without any.
    fn instances(&mut self, block: &Block) -> Scope {
        let none = Scope::default();
        for arg in ["count", "for_each"] {
            if let Some(a) = block.body.attribute(arg) {
                self.next();
                self.expr(&a.expr, none);
            }
        }
        Scope {
            count: block.body.attribute("count").is_some(),
            each: block.body.attribute("for_each").is_some(),
            this: false,
        }
    }

    /// A resource's arguments and nested blocks are decoded as one block; each condition
    /// expression, each provisioner and the connection (when there is a provisioner) are
    /// evaluated on their own.
    fn resource(&mut self, block: &Block) {
        let scope = self.instances(block);
        let with_self = Scope {
            this: true,
            ..scope
        };
        let skip = ["count", "for_each", "provider", "depends_on"];
        // Terraform finds the references of the arguments the schema has; those of
        // arguments it does not have are never looked at (`Unsupported argument`).
        let known = match (&*block.kind.name, block.label(0)) {
            ("resource", Some(t)) => super::schemas::arguments(t),
            _ => None,
        };
        let in_schema = |name: &str| known.is_none_or(|k| k.contains(&name));
        self.next();
        for a in &block.body.attributes {
            if !skip.contains(&&*a.name.name) && in_schema(&a.name.name) {
                self.expr(&a.expr, scope);
            }
        }
        let special = ["lifecycle", "provisioner", "connection"];
        for b in &block.body.blocks {
            if !special.contains(&&*b.kind.name) && known.is_none() {
                self.nested(b, |w, body, skip| w.together(body, scope, skip));
            }
        }
        for b in &block.body.blocks {
            match &*b.kind.name {
                // Static arguments; the conditions are evaluated per instance.
                "lifecycle" => {
                    self.resource_condition = true;
                    for c in &b.body.blocks {
                        let this = &*c.kind.name == "postcondition";
                        self.alone(&c.body, Scope { this, ..scope }, &[]);
                    }
                    self.resource_condition = false;
                }
                "provisioner" => {
                    self.next();
                    self.together(&b.body, with_self, &["when", "on_failure"]);
                }
                // Merged into each provisioner's connection: never evaluated without
                // one (recorded in fixtures/validate/refs-small-gaps).
                "connection" if block.body.blocks_of("provisioner").next().is_some() => {
                    self.next();
                    self.together(&b.body, with_self, &[]);
                }
                _ => {}
            }
        }
    }

    /// Every expression of `body` and its nested blocks, but the arguments in `skip`, in
    /// the current evaluation.
    fn together(&mut self, body: &Body, scope: Scope, skip: &[&str]) {
        for a in &body.attributes {
            if !skip.contains(&&*a.name.name) {
                self.expr(&a.expr, scope);
            }
        }
        for b in &body.blocks {
            self.nested(b, |w, body, skip| w.together(body, scope, skip));
        }
    }

    /// A nested block's body; a `dynamic` block's iterator names the current element
    /// inside it (its `iterator` argument is a name, not an expression).
    fn nested(&mut self, b: &Block, mut visit: impl FnMut(&mut Self, &Body, &[&str])) {
        if &*b.kind.name != "dynamic" {
            return visit(self, &b.body, &[]);
        }
        let iterator = match b.body.attribute("iterator").map(|a| &a.expr.kind) {
            Some(crate::syntax::ExprKind::Variable(id)) => Some(id.name.clone()),
            _ => b.labels.first().map(|l| l.name.clone()),
        };
        let depth = self.iterators.len();
        self.iterators.extend(iterator);
        visit(self, &b.body, &["iterator"]);
        self.iterators.truncate(depth);
    }

    /// Every expression of `body` and its nested blocks, but the arguments in `skip`,
    /// each evaluated on its own.
    fn alone(&mut self, body: &Body, scope: Scope, skip: &[&str]) {
        for a in &body.attributes {
            if !skip.contains(&&*a.name.name) {
                self.next();
                self.expr(&a.expr, scope);
            }
        }
        for b in &body.blocks {
            self.nested(b, |w, body, skip| w.alone(body, scope, skip));
        }
    }

    fn expr(&mut self, expr: &Expr, scope: Scope) {
        let place = Place {
            file: self.file,
            block: self.kind,
            scope,
            unit: self.unit,
            iterators: &self.iterators,
            resource_condition: self.resource_condition,
        };
        (self.visit)(expr, place);
    }
}
