//! The expressions Terraform's validate walk evaluates, each with what its place may
//! refer to (instance keys, `self`) and the kind of top-level block it is in. Addresses
//! and settings that are never evaluated (`depends_on`, `provider`, `source`, lifecycle
//! arguments, `type`, ...) are left out. Families that judge references visit them here.

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
}

struct Walk<'a, F> {
    file: u32,
    kind: &'a str,
    visit: F,
}

/// Calls `visit` on every expression Terraform evaluates in the native-syntax files of
/// `m` (JSON strings are read in context; Strata does not yet).
pub fn walk(m: &MergedModule, mut visit: impl FnMut(&Expr, Place<'_>)) {
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json {
            continue;
        }
        for block in &file.syntax.body.blocks {
            let mut w = Walk {
                file: fi as u32,
                kind: &block.kind.name,
                visit: &mut visit,
            };
            w.top_level(block);
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
            // An output's postconditions are refused, not evaluated (conditions.rs).
            "output" => {
                for a in &block.body.attributes {
                    if &*a.name.name != "depends_on" {
                        self.expr(&a.expr, none);
                    }
                }
                for c in block.body.blocks_of("precondition") {
                    self.body(&c.body, none, &[]);
                }
            }
            "locals" | "provider" | "variable" => {
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
        let place = Place {
            file: self.file,
            block: self.kind,
            scope,
        };
        (self.visit)(expr, place);
    }
}
