//! The references an expression makes, found the way Terraform finds them (HCL's
//! `Variables()` then `addrs.ParseRef`): a traversal from a root name, ended by a splat
//! or a computed index; names bound by `for` expressions are not references.

use super::parse_ref::{parse_ref, Key, RefError, Step};
use crate::syntax::{
    json_string_template, Expr, ExprKind, Ident, JsonKind, JsonValue, Span, TemplatePart,
    TraversalStep,
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
    /// Where the subject is written: the range Terraform reports a reference's errors at
    /// (`var.x` of `var.x.y`, `aws_instance.a[0]` of `aws_instance.a[0].id`).
    pub subject_span: Span,
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

/// Every reference in `expr`, in source order (traversals Terraform's parser rejects
/// are left out; `parse_references` has them).
pub fn references(expr: &Expr) -> Vec<Reference> {
    parse_references(expr).into_iter().flatten().collect()
}

/// Every traversal of `expr` from a root name, in source order, read as Terraform's
/// reference parser reads it: the reference, or the parser's error.
pub fn parse_references(expr: &Expr) -> Vec<Result<Reference, RefError>> {
    parse_references_within(expr, &[])
}

/// `parse_references` inside `dynamic` blocks whose iterators are `bound`: traversals
/// from those names are the current element, not references.
pub fn parse_references_within(
    expr: &Expr,
    bound: &[Box<str>],
) -> Vec<Result<Reference, RefError>> {
    parse_traversals(expr)
        .into_iter()
        .filter(|t| !t.is_bound(bound))
        .map(|t| t.parsed)
        .collect()
}

/// One traversal from a root name (names bound by `for` expressions left out), with what
/// Terraform's reference parser makes of it: found once, then read by every rule that
/// looks at references (`check::evaluated`).
#[derive(Debug, Clone, PartialEq)]
pub struct Traversal {
    /// The root name (`var`, `aws_instance`, a `dynamic` block's iterator...).
    pub root: Box<str>,
    /// The reference, or the parser's error.
    pub parsed: Result<Reference, RefError>,
    /// The root's own span, then the literal steps HCL keeps after it (up to the first
    /// splat or computed index): what `hcl.Traversal` holds.
    pub root_span: Span,
    /// See `root_span`.
    pub steps: Vec<Step>,
}

impl Traversal {
    /// Whether the root is one of the `dynamic` iterators `bound`, which names the
    /// current element, not an object.
    pub fn is_bound(&self, bound: &[Box<str>]) -> bool {
        bound.contains(&self.root)
    }
}

/// Every traversal of `expr` from a root name, in source order.
pub fn parse_traversals(expr: &Expr) -> Vec<Traversal> {
    let mut walker = Walker::default();
    walker.expr(expr);
    walker.found
}

#[derive(Default)]
struct Walker {
    /// The names `for` expressions bind around the current expression.
    bound: Vec<String>,
    found: Vec<Traversal>,
}

impl Walker {
    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Variable(id) => self.traversal(id, &[], expr.span),
            ExprKind::Traversal { root, steps } => match &root.kind {
                ExprKind::Variable(id) => self.rooted(id, steps, expr.span),
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
            | ExprKind::Unanalysed
            | ExprKind::Missing => {}
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
    /// index (HCL's `Variables()`); what follows is walked for references of its own.
    fn rooted(&mut self, root: &Ident, steps: &[TraversalStep], span: Span) {
        let mut usable = Vec::new();
        let mut end = span.end;
        let mut rest = &steps[..0];
        for (i, step) in steps.iter().enumerate() {
            let literal = match step {
                TraversalStep::Attr(id) => Some(Step::Attr(
                    id.name.to_string(),
                    Span {
                        start: id.span.start.saturating_sub(1),
                        end: id.span.end,
                    },
                )),
                TraversalStep::LegacyIndex(n, s) => {
                    Some(Step::Key(Key::Number(n.to_string().into()), *s))
                }
                TraversalStep::Index(e) => literal_key(e).map(|k| {
                    Step::Key(
                        k,
                        Span {
                            start: e.span.start.saturating_sub(1),
                            end: e.span.end + 1,
                        },
                    )
                }),
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

    fn traversal(&mut self, root: &Ident, steps: &[Step], span: Span) {
        if self.bound.iter().any(|b| **b == *root.name) {
            return;
        }
        let root_span = Span {
            start: span.start,
            end: span.start + root.name.len() as u32,
        };
        self.found.push(Traversal {
            root: root.name.clone(),
            parsed: parse_ref(&root.name, root_span, steps),
            root_span,
            steps: steps.to_vec(),
        });
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

/// An index key HCL keeps in the traversal: a literal (a parenthesised or negated
/// number is an expression, which ends the traversal).
fn literal_key(e: &Expr) -> Option<Key> {
    match &e.kind {
        ExprKind::Number(n) => Some(Key::Number(n.clone())),
        ExprKind::String(s) => Some(Key::String(s.clone())),
        ExprKind::Bool(b) => Some(Key::Bool(*b)),
        ExprKind::Null => Some(Key::Null),
        _ => None,
    }
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

    fn errors(src: &str) -> Vec<(&'static str, String, Option<&'static str>)> {
        let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
        parse_references(&file.body.attributes[0].expr)
            .into_iter()
            .filter_map(Result::err)
            .map(|e| (e.summary, e.detail, e.unnamed))
            .collect()
    }

    #[test]
    fn traversals_the_parser_rejects() {
        let bare = errors("var");
        assert_eq!(bare.len(), 1);
        assert!(bare[0].1.contains("cannot be accessed directly"));
        assert_eq!(
            bare[0].2,
            Some("var"),
            "an unnamed variable is still looked up"
        );
        assert!(errors("var[0]")[0]
            .1
            .contains("does not support this operation"));
        assert!(errors("data.t")[0].1.contains("two attribute names"));
        assert_eq!(errors("terraform_data[0].x")[0].2, None);
        assert_eq!(errors("lazy.x")[0].0, "Reserved symbol name");
        assert_eq!(errors("a.b[true]")[0].0, "Invalid index key");
        assert!(errors("a.b[1.5]")[0].1.contains("whole number"));
        assert!(
            errors("a.b[(1.5)]").is_empty(),
            "an expression key is evaluated"
        );
        assert!(errors("[for var in x : var]").iter().all(|e| e.2.is_none()));
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
