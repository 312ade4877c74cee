//! The references an expression makes, found the way Terraform finds them (HCL's
//! `Variables()` then `addrs.ParseRef`): a traversal from a root name, ended by a splat
//! or a computed index; names bound by `for` expressions are not references.

use crate::syntax::{
    json_string_template, Expr, ExprKind, JsonKind, JsonValue, Span, TemplatePart, TraversalStep,
};

/// One reference: the object referred to and the rest of the traversal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The referenced object, e.g. `var.x`, `aws_instance.a[0]`, `module.m.out`.
    pub subject: String,
    /// The same object without an instance key (`aws_instance.a`, `module.m`), when the
    /// subject has a key or is a module output.
    pub container: Option<String>,
    /// The attribute and index steps after the subject, rendered (`.id`, `[0]`).
    pub remaining: Vec<String>,
    /// The whole traversal in the source.
    pub span: Span,
}

impl Reference {
    /// The strings `terraform show -json` lists for this reference: the full traversal,
    /// then each shorter prefix down to the subject, then the container.
    pub fn json_strings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for n in (1..=self.remaining.len()).rev() {
            out.push(format!("{}{}", self.subject, self.remaining[..n].concat()));
        }
        out.push(self.subject.clone());
        out.extend(self.container.clone());
        out
    }
}

/// The reference whose traversal contains `offset`, among the expressions of `body` and
/// every block nested in it.
pub fn reference_at(body: &crate::syntax::Body, offset: usize) -> Option<Reference> {
    for a in &body.attributes {
        if a.expr.span.contains(offset) {
            return references(&a.expr)
                .into_iter()
                .find(|r| r.span.contains(offset));
        }
    }
    body.blocks
        .iter()
        .filter(|b| b.span.contains(offset))
        .find_map(|b| reference_at(&b.body, offset))
}

/// Every reference in `expr`, in source order.
pub fn references(expr: &Expr) -> Vec<Reference> {
    let mut walker = Walker::default();
    walker.expr(expr);
    walker.found
}

#[derive(Default)]
struct Walker {
    bound: Vec<String>,
    found: Vec<Reference>,
}

/// A step usable in a reference: `.name` or an index with a literal key.
enum Step {
    Attr(String),
    Key(String),
}

impl Walker {
    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Variable(id) => self.traversal(&id.name, &[], expr.span),
            ExprKind::Traversal { root, steps } => match &root.kind {
                ExprKind::Variable(id) => self.rooted(&id.name, steps, expr.span),
                _ => {
                    self.expr(root);
                    self.step_exprs(steps);
                }
            },
            ExprKind::Template(parts) => self.template(parts),
            ExprKind::FuncCall { args, .. } | ExprKind::Tuple(args) => {
                args.iter().for_each(|a| self.expr(a))
            }
            ExprKind::Object(items) => {
                for (k, v) in items {
                    // A bare name as an object key is a literal, not a reference.
                    if !matches!(k.kind, ExprKind::Variable(_)) {
                        self.expr(k);
                    }
                    self.expr(v);
                }
            }
            ExprKind::Conditional(parts) => parts.iter().for_each(|e| self.expr(e)),
            ExprKind::Binary { operands, .. } => operands.iter().for_each(|e| self.expr(e)),
            ExprKind::Unary { expr, .. } | ExprKind::Parens(expr) => self.expr(expr),
            ExprKind::For(f) => {
                self.expr(&f.collection);
                let names: Vec<String> = f
                    .key_var
                    .iter()
                    .chain([&f.value_var])
                    .map(|i| i.name.to_string())
                    .collect();
                let depth = self.bound.len();
                self.bound.extend(names);
                for e in [&f.key, &Some(f.value.clone()), &f.condition]
                    .into_iter()
                    .flatten()
                {
                    self.expr(e);
                }
                self.bound.truncate(depth);
            }
            ExprKind::Json(value) => self.json(value),
            ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Unanalysed => {}
        }
    }

    fn json(&mut self, value: &JsonValue) {
        match &value.kind {
            JsonKind::String(_) => {
                if let Some(template) = json_string_template(value) {
                    self.expr(&template);
                }
            }
            JsonKind::Array(items) => items.iter().for_each(|v| self.json(v)),
            JsonKind::Object(props) => props.iter().for_each(|(_, v)| self.json(v)),
            _ => {}
        }
    }

    fn template(&mut self, parts: &[TemplatePart]) {
        for part in parts {
            match part {
                TemplatePart::Literal(_) => {}
                TemplatePart::Interpolation(e) => self.expr(e),
                TemplatePart::If {
                    condition,
                    then,
                    otherwise,
                } => {
                    self.expr(condition);
                    self.template(then);
                    self.template(otherwise);
                }
                TemplatePart::For {
                    key_var,
                    value_var,
                    collection,
                    body,
                } => {
                    self.expr(collection);
                    let depth = self.bound.len();
                    self.bound.extend(
                        key_var
                            .iter()
                            .chain([value_var])
                            .map(|i| i.name.to_string()),
                    );
                    self.template(body);
                    self.bound.truncate(depth);
                }
            }
        }
    }

    /// A traversal from a root name: the reference ends at the first splat or computed
    /// index; what follows is walked for references of its own.
    fn rooted(&mut self, root: &str, steps: &[TraversalStep], span: Span) {
        let mut usable = Vec::new();
        let mut end = span.end;
        let mut rest = &steps[..0];
        for (i, step) in steps.iter().enumerate() {
            let literal = match step {
                TraversalStep::Attr(id) => Some(Step::Attr(id.name.to_string())),
                TraversalStep::LegacyIndex(n, _) => Some(Step::Key(n.to_string())),
                TraversalStep::Index(e) => literal_key(e).map(Step::Key),
                TraversalStep::AttrSplat(_) | TraversalStep::FullSplat(_) => None,
            };
            match literal {
                Some(s) => usable.push(s),
                None => {
                    end = step_start(step);
                    rest = &steps[i..];
                    break;
                }
            }
        }
        self.traversal(
            root,
            &usable,
            Span {
                start: span.start,
                end,
            },
        );
        self.step_exprs(rest);
    }

    fn step_exprs(&mut self, steps: &[TraversalStep]) {
        for step in steps {
            if let TraversalStep::Index(e) = step {
                self.expr(e);
            }
        }
    }

    fn traversal(&mut self, root: &str, steps: &[Step], span: Span) {
        if self.bound.iter().any(|b| b == root) {
            return;
        }
        if let Some(mut reference) = parse_ref(root, steps) {
            reference.span = span;
            self.found.push(reference);
        }
    }
}

fn step_start(step: &TraversalStep) -> u32 {
    match step {
        TraversalStep::Attr(id) => id.span.start.saturating_sub(1),
        TraversalStep::Index(e) => e.span.start.saturating_sub(1),
        TraversalStep::LegacyIndex(_, s)
        | TraversalStep::AttrSplat(s)
        | TraversalStep::FullSplat(s) => s.start,
    }
}

/// An index key written as a literal, rendered as Terraform prints keys: `0`, `"a"`.
fn literal_key(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Number(n) => Some(n.to_string()),
        ExprKind::String(s) => Some(format!("{s:?}")),
        ExprKind::Parens(inner) => literal_key(inner),
        _ => None,
    }
}

fn render(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|s| match s {
            Step::Attr(a) => format!(".{a}"),
            Step::Key(k) => format!("[{k}]"),
        })
        .collect()
}

fn attr(step: Option<&Step>) -> Option<&str> {
    match step? {
        Step::Attr(a) => Some(a),
        Step::Key(_) => None,
    }
}

fn key(step: Option<&Step>) -> Option<&str> {
    match step? {
        Step::Key(k) => Some(k),
        Step::Attr(_) => None,
    }
}

/// `addrs.ParseRef`: which object a traversal refers to. `None` where Terraform's parser
/// rejects the traversal (it then lists nothing for it).
fn parse_ref(root: &str, steps: &[Step]) -> Option<Reference> {
    let simple = |subject: String, used: usize| Reference {
        subject,
        container: None,
        remaining: render(&steps[used..]),
        span: Span::default(),
    };
    match root {
        "var" | "local" | "count" | "each" | "path" | "terraform" => {
            let name = attr(steps.first())?;
            Some(simple(format!("{root}.{name}"), 1))
        }
        "self" => Some(simple("self".into(), 0)),
        "module" => {
            let name = attr(steps.first())?;
            let call = format!("module.{name}");
            let (instance, used) = match key(steps.get(1)) {
                Some(k) => (format!("{call}[{k}]"), 2),
                None => (call.clone(), 1),
            };
            match attr(steps.get(used)) {
                Some(output) => Some(Reference {
                    subject: format!("{instance}.{output}"),
                    container: Some(instance),
                    remaining: render(&steps[used + 1..]),
                    span: Span::default(),
                }),
                None => Some(Reference {
                    container: (used == 2).then_some(call),
                    ..simple(instance, used)
                }),
            }
        }
        "data" | "ephemeral" => {
            let type_name = attr(steps.first())?;
            let name = attr(steps.get(1))?;
            resource_ref(format!("{root}.{type_name}.{name}"), steps, 2)
        }
        _ => {
            let name = attr(steps.first())?;
            resource_ref(format!("{root}.{name}"), steps, 1)
        }
    }
}

fn resource_ref(resource: String, steps: &[Step], used: usize) -> Option<Reference> {
    Some(match key(steps.get(used)) {
        Some(k) => Reference {
            subject: format!("{resource}[{k}]"),
            container: Some(resource),
            remaining: render(&steps[used + 1..]),
            span: Span::default(),
        },
        None => Reference {
            subject: resource,
            container: None,
            remaining: render(&steps[used..]),
            span: Span::default(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse, Syntax};

    fn refs(src: &str) -> Vec<String> {
        let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
        references(&file.body.attributes[0].expr)
            .iter()
            .flat_map(Reference::json_strings)
            .collect()
    }

    #[test]
    fn terraform_style_reference_lists() {
        assert_eq!(refs("var.x"), vec!["var.x"]);
        assert_eq!(
            refs("null_resource.a.id"),
            vec!["null_resource.a.id", "null_resource.a"]
        );
        assert_eq!(
            refs("aws_instance.a[0].id"),
            vec![
                "aws_instance.a[0].id",
                "aws_instance.a[0]",
                "aws_instance.a"
            ]
        );
        assert_eq!(
            refs("module.m.out.x"),
            vec!["module.m.out.x", "module.m.out", "module.m"]
        );
        assert_eq!(refs("module.m[\"k\"]"), vec!["module.m[\"k\"]", "module.m"]);
        assert_eq!(refs("data.t.n.a"), vec!["data.t.n.a", "data.t.n"]);
        assert_eq!(refs("local.a.b"), vec!["local.a.b", "local.a"]);
        assert_eq!(refs("count.index"), vec!["count.index"]);
    }

    #[test]
    fn splats_computed_indexes_and_for_variables() {
        assert_eq!(refs("aws_instance.a[*].id"), vec!["aws_instance.a"]);
        assert_eq!(
            refs("aws_instance.a[var.i].id"),
            vec!["aws_instance.a", "var.i"]
        );
        assert_eq!(refs("[for v in var.l : v.id if v.ok]"), vec!["var.l"]);
        assert_eq!(refs("\"${var.a}-${local.b}\""), vec!["var.a", "local.b"]);
        assert_eq!(refs("{ a = var.x }"), vec!["var.x"]);
        assert!(refs("upper(\"a\")").is_empty());
        assert!(
            refs("count").is_empty(),
            "a bare `count` is not a valid reference"
        );
    }

    #[test]
    fn json_strings_are_templates() {
        let file = parse(
            r#"{"output": {"o": {"value": "${var.a}"}}}"#,
            Syntax::Json,
            None,
        );
        let value = &file.body.blocks[0].body.attributes[0].expr;
        let found: Vec<String> = references(value)
            .iter()
            .flat_map(Reference::json_strings)
            .collect();
        assert_eq!(found, vec!["var.a"]);
    }
}
