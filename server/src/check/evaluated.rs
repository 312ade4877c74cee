//! The expressions Terraform's validate walk evaluates, each with what its place may
//! refer to (instance keys, `self`), the kind of top-level block it is in, and the
//! evaluation it belongs to (a resource body is evaluated as one block, a local value, a
//! `count` or a condition on its own; see `stages.rs`). Addresses and settings that are
//! never evaluated (`depends_on`, `provider`, `source`, lifecycle arguments, `type`, ...)
//! are left out. Families that judge references read them here.
//!
//! The walk follows the merged model (`walk_parts.rs`), as Terraform evaluates the
//! configuration once override files are merged. It is made once per check
//! (`Walked::of`), with the references of each expression parsed once: every family
//! reads the same record instead of walking and parsing again.

use super::walk_parts::{self, In, Parts};
use crate::eval::{parse_traversals, RefError, Reference, Traversal};
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
    /// It is a resource's precondition or postcondition, which Terraform evaluates even
    /// when its references failed (`NodeValidatableResource.evaluateExpr`).
    pub resource_condition: bool,
    /// The name of the `check` block it is in, if any: the data sources declared there
    /// are available only inside it.
    pub check: Option<&'a str>,
}

/// One expression the walk evaluates, where it is, and its traversals.
pub struct Visit<'a> {
    /// The expression.
    pub expr: &'a Expr,
    file: u32,
    block: &'a str,
    scope: Scope,
    unit: u32,
    iterators: Vec<Box<str>>,
    resource_condition: bool,
    check: Option<&'a str>,
    /// Written in the JSON syntax, whose strings Strata does not yet read in context.
    json: bool,
    traversals: Vec<Traversal>,
}

impl Visit<'_> {
    /// Where the expression is.
    pub fn place(&self) -> Place<'_> {
        Place {
            file: self.file,
            block: self.block,
            scope: self.scope,
            unit: self.unit,
            resource_condition: self.resource_condition,
            check: self.check,
        }
    }

    /// Every reference of the expression, as `eval::references` lists them (the
    /// traversals the reference parser rejects left out).
    pub fn references(&self) -> impl Iterator<Item = &Reference> {
        self.traversals
            .iter()
            .filter_map(|t| t.parsed.as_ref().ok())
    }

    /// Every traversal read by the reference parser but those from the iterators of the
    /// enclosing `dynamic` blocks, as `eval::parse_references_within` lists them.
    pub fn parsed_within(&self) -> impl Iterator<Item = &Result<Reference, RefError>> {
        (self.traversals.iter())
            .filter(|t| !t.is_bound(&self.iterators))
            .map(|t| &t.parsed)
    }

    /// The references that are not the iterators of enclosing `dynamic` blocks.
    pub fn references_within(&self) -> impl Iterator<Item = &Reference> {
        self.parsed_within().filter_map(|p| p.as_ref().ok())
    }
}

/// Every expression the validate walk evaluates in a module, in walk order.
pub struct Walked<'a> {
    visits: Vec<Visit<'a>>,
}

impl<'a> Walked<'a> {
    /// The walk of `m`: every expression Terraform evaluates, after merging.
    pub fn of(m: &'a MergedModule) -> Self {
        let mut w = Walk {
            m,
            kind: "",
            unit: 0,
            iterators: Vec::new(),
            resource_condition: false,
            check: None,
            visits: Vec::new(),
        };
        for (fi, file) in m.files.iter().enumerate() {
            for block in &file.syntax.body.blocks {
                w.kind = &block.kind.name;
                w.check = (w.kind == "check").then(|| block.label(0)).flatten();
                w.top_level(fi as u32, block);
                w.next();
            }
        }
        Walked { visits: w.visits }
    }

    /// The visits of expressions in the native syntax, in walk order: JSON strings are
    /// read in context, which Strata does not yet do.
    pub fn iter(&self) -> impl Iterator<Item = &Visit<'a>> {
        self.visits.iter().filter(|v| !v.json)
    }

    /// Every visit, those in the JSON syntax too (where references are found in strings
    /// as templates), in walk order.
    pub fn with_json(&self) -> impl Iterator<Item = &Visit<'a>> {
        self.visits.iter()
    }
}

struct Walk<'a> {
    m: &'a MergedModule,
    kind: &'a str,
    unit: u32,
    iterators: Vec<Box<str>>,
    resource_condition: bool,
    check: Option<&'a str>,
    visits: Vec<Visit<'a>>,
}

impl<'a> Walk<'a> {
    fn top_level(&mut self, fi: u32, block: &'a Block) {
        let none = Scope::default();
        let written = |meta: &[&str]| walk_parts::written(fi, &block.body, meta);
        match &*block.kind.name {
            "resource" | "data" | "ephemeral" => {
                let meta = ["count", "for_each", "provider", "depends_on"];
                let Some(parts) = walk_parts::parts(self.m, fi, block, || written(&meta)) else {
                    return;
                };
                self.resource(block, &parts);
            }
            "check" => {
                for b in &block.body.blocks {
                    match &*b.kind.name {
                        "data" => {
                            let meta = ["count", "for_each", "provider", "depends_on"];
                            self.resource(b, &walk_parts::written(fi, &b.body, &meta));
                        }
                        _ => self.alone((fi, &b.body), none, &[]),
                    }
                }
            }
            "module" => {
                let skip = [
                    "source",
                    "version",
                    "providers",
                    "depends_on",
                    "count",
                    "for_each",
                ];
                let Some(parts) = walk_parts::parts(self.m, fi, block, || written(&skip)) else {
                    return;
                };
                // The validate walk evaluates a call's arguments with unknown instance
                // keys of both kinds, whatever the call sets (recorded in
                // fixtures/validate/walk-module-repetition).
                self.instances(&parts);
                let scope = Scope {
                    count: true,
                    each: true,
                    this: false,
                };
                self.alone_parts(&parts, scope, &skip);
            }
            "import" => {
                let skip = ["to", "provider", "for_each"];
                let parts = written(&skip);
                let scope = self.instances(&parts);
                self.alone_parts(&parts, scope, &skip);
            }
            // An output's postconditions are refused, not evaluated (conditions.rs).
            "output" => {
                let Some(parts) = walk_parts::parts(self.m, fi, block, || Parts {
                    conditions: (block.body.blocks_of("precondition"))
                        .map(|b| (fi, &**b))
                        .collect(),
                    ..written(&[])
                }) else {
                    return;
                };
                for &(file, a) in &parts.attributes {
                    if &*a.name.name != "depends_on" {
                        self.next();
                        self.expr(file, &a.expr, none);
                    }
                }
                for &(file, c) in &parts.conditions {
                    self.alone((file, &c.body), none, &[]);
                }
            }
            // A provider configuration is decoded as one block, and a variable's
            // validation rules are evaluated together.
            "provider" | "variable" => {
                let Some(parts) = walk_parts::parts(self.m, fi, block, || Parts {
                    blocks: block.body.blocks.iter().map(|b| (fi, &**b)).collect(),
                    ..written(&[])
                }) else {
                    return;
                };
                self.next();
                self.together_parts(&parts, none, &["depends_on", "type"]);
            }
            "locals" => {
                for a in &block.body.attributes {
                    if let Some((file, a)) = walk_parts::local(self.m, fi, a) {
                        if !["depends_on", "type"].contains(&&*a.name.name) {
                            self.next();
                            self.expr(file, &a.expr, none);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Starts the next evaluation.
    fn next(&mut self) {
        self.unit += 1;
    }

    /// The instance keys an object's `count` or `for_each` gives its expressions; the two
    /// expressions themselves are evaluated on their own, without any. Where merging
    /// left both, Terraform uses `count` (see `tests::count_wins_over_an_override_for_each`).
    fn instances(&mut self, parts: &Parts<'a>) -> Scope {
        let none = Scope::default();
        for &(file, a) in parts.count.iter().chain(&parts.for_each) {
            self.next();
            self.expr(file, &a.expr, none);
        }
        Scope {
            count: parts.count.is_some(),
            each: parts.for_each.is_some() && parts.count.is_none(),
            this: false,
        }
    }

    /// A resource's arguments and nested blocks are decoded as one block; each condition
    /// expression, each provisioner and the connection (when there is a provisioner) are
    /// evaluated on their own.
    fn resource(&mut self, block: &Block, parts: &Parts<'a>) {
        let scope = self.instances(parts);
        let with_self = Scope {
            this: true,
            ..scope
        };
        // Terraform finds the references of the arguments the schema has; those of
        // arguments it does not have are never looked at (`Unsupported argument`).
        let known = match (&*block.kind.name, block.label(0)) {
            ("resource", Some(t)) => super::schemas::arguments(t),
            _ => None,
        };
        let in_schema = |name: &str| known.is_none_or(|k| k.contains(&name));
        self.next();
        for &(file, a) in &parts.attributes {
            if in_schema(&a.name.name) {
                self.expr(file, &a.expr, scope);
            }
        }
        if known.is_none() {
            for &(file, b) in &parts.blocks {
                self.nested(b, |w, body, skip| w.together((file, body), scope, skip));
            }
        }
        // The conditions are evaluated per instance.
        self.resource_condition = true;
        for &(file, c) in &parts.conditions {
            let this = &*c.kind.name == "postcondition";
            self.alone((file, &c.body), Scope { this, ..scope }, &[]);
        }
        self.resource_condition = false;
        for &(file, p) in &parts.provisioners {
            self.next();
            self.together((file, &p.body), with_self, &["when", "on_failure"]);
        }
        // Merged into each provisioner's connection: never evaluated without one
        // (recorded in fixtures/validate/refs-small-gaps).
        if !parts.provisioners.is_empty() {
            for &(file, c) in &parts.connections {
                self.next();
                self.together((file, &c.body), with_self, &[]);
            }
        }
    }

    /// The arguments and nested blocks of `parts` but those in `skip`, in the current
    /// evaluation.
    fn together_parts(&mut self, parts: &Parts<'a>, scope: Scope, skip: &[&str]) {
        for &(file, a) in &parts.attributes {
            if !skip.contains(&&*a.name.name) {
                self.expr(file, &a.expr, scope);
            }
        }
        for &(file, b) in &parts.blocks {
            self.nested(b, |w, body, skip| w.together((file, body), scope, skip));
        }
    }

    /// The arguments and nested blocks of `parts` but those in `skip`, each evaluated
    /// on its own.
    fn alone_parts(&mut self, parts: &Parts<'a>, scope: Scope, skip: &[&str]) {
        for &(file, a) in &parts.attributes {
            if !skip.contains(&&*a.name.name) {
                self.next();
                self.expr(file, &a.expr, scope);
            }
        }
        for &(file, b) in &parts.blocks {
            self.nested(b, |w, body, skip| w.alone((file, body), scope, skip));
        }
    }

    /// Every expression of `body` and its nested blocks, but the arguments in `skip`, in
    /// the current evaluation.
    fn together(&mut self, (file, body): In<'a, Body>, scope: Scope, skip: &[&str]) {
        for a in &body.attributes {
            if !skip.contains(&&*a.name.name) {
                self.expr(file, &a.expr, scope);
            }
        }
        for b in &body.blocks {
            self.nested(b, |w, body, skip| w.together((file, body), scope, skip));
        }
    }

    /// A nested block's body; a `dynamic` block's iterator names the current element
    /// inside it (its `iterator` argument is a name, not an expression).
    fn nested(&mut self, b: &'a Block, mut visit: impl FnMut(&mut Self, &'a Body, &[&str])) {
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
    fn alone(&mut self, (file, body): In<'a, Body>, scope: Scope, skip: &[&str]) {
        for a in &body.attributes {
            if !skip.contains(&&*a.name.name) {
                self.next();
                self.expr(file, &a.expr, scope);
            }
        }
        for b in &body.blocks {
            self.nested(b, |w, body, skip| w.alone((file, body), scope, skip));
        }
    }

    /// Records one expression of file `file`.
    fn expr(&mut self, file: u32, expr: &'a Expr, scope: Scope) {
        self.visits.push(Visit {
            json: self.m.file(file).syntax.syntax == Syntax::Json,
            expr,
            file,
            block: self.kind,
            scope,
            unit: self.unit,
            iterators: self.iterators.clone(),
            resource_condition: self.resource_condition,
            check: self.check,
            traversals: parse_traversals(expr),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::{merge, tests::module};
    use crate::module::Dialect;

    /// The walk of a module of `files`: each visited expression's text and scope.
    fn walked(files: &[(&str, &str)]) -> Vec<(String, &'static str, Scope)> {
        let m = merge(&module(files, Dialect::Terraform));
        let walked = Walked::of(&m);
        walked
            .iter()
            .map(|v| {
                let place = v.place();
                let text = &m.file(place.file).text;
                let span = v.expr.span;
                let file = if place.file == 0 { "main" } else { "override" };
                let expr = text[span.start as usize..span.end as usize].to_string();
                (expr, file, place.scope)
            })
            .collect()
    }

    #[test]
    fn replaced_arguments_and_blocks_are_not_walked() {
        let main = r#"
resource "terraform_data" "a" {
  input = "base"
  triggers_replace = "kept"
  provisioner "local-exec" { command = "base" }
}
locals { l = "base" }
output "o" {
  value = "base"
  description = "kept"
}
"#;
        let over = r#"
resource "terraform_data" "a" {
  input = "over"
  provisioner "local-exec" { command = "over" }
}
locals { l = "over" }
output "o" { value = "over" }
"#;
        let seen = walked(&[("main.tf", main), ("override.tf", over)]);
        let texts: Vec<(&str, &str)> = seen.iter().map(|(t, f, _)| (t.as_str(), *f)).collect();
        assert!(!texts.iter().any(|(t, _)| *t == "\"base\""), "{texts:?}");
        for (text, file) in [("\"over\"", "override"), ("\"kept\"", "main")] {
            assert!(texts.contains(&(text, file)), "{text} in {file}: {texts:?}");
        }
        assert_eq!(texts.iter().filter(|(t, _)| *t == "\"over\"").count(), 4);
    }

    /// The file and scope of the expression written `text` in the walk of a resource
    /// `terraform_data.a` whose body is `main` in main.tf and `over` in override.tf.
    fn scope_of(main: &str, over: &str, text: &str) -> (&'static str, Scope) {
        let block = |body: &str| format!("resource \"terraform_data\" \"a\" {{\n{body}\n}}\n");
        let seen = walked(&[("main.tf", &block(main)), ("override.tf", &block(over))]);
        let found = seen.iter().find(|(t, _, _)| t == text);
        found.map(|(_, file, scope)| (*file, *scope)).unwrap()
    }

    #[test]
    fn count_wins_over_an_override_for_each() {
        // Terraform 1.11.4 reports `Reference to "each" in context without for_each` at
        // `each.key` here; the warning meta::MERGED_COUNT_AND_FOR_EACH, which Terraform
        // does not give, keeps the case out of fixtures/validate.
        let (_, scope) = scope_of("count = 2\ninput = each.key", "for_each = {}", "each.key");
        assert!(scope.count && !scope.each);
    }

    #[test]
    fn an_override_count_gives_the_base_body_instance_keys() {
        let (file, scope) = scope_of("input = count.index", "count = 2", "count.index");
        assert_eq!(file, "main");
        assert!(scope.count);
        assert_eq!(scope_of("input = 1", "count = 2", "2").0, "override");
    }
}
