//! `import` blocks as Terraform decodes them (`internal/configs/import.go`, `module.go`):
//! `to` is the address of a managed resource instance, read as `addrs` parses resource
//! addresses; `provider` only where the resource is in this module; one import block
//! per resource instance.

use super::{at, range_text, Diagnostic, Severity};
use crate::merge::{header_span, MergedModule, Origin};
use crate::syntax::{Block, Expr, ExprKind, Span, Syntax, TraversalStep};

/// Code of an import block Terraform rejects.
pub const IMPORT: &str = "invalid-import";

/// One step of a static address: a name, or an index (with its literal key, if any).
#[derive(Debug, Clone)]
enum Part {
    Name(String, Span),
    Index(Option<String>, Span),
}

impl Part {
    fn span(&self) -> Span {
        match self {
            Part::Name(_, s) | Part::Index(_, s) => *s,
        }
    }
}

/// A parsed `to` address.
struct Target {
    /// The resource without instance keys: `module.m.terraform_data.b`.
    resource: String,
    /// The whole address with literal keys, `None` when a key is not a literal.
    instance: Option<String>,
    in_module: bool,
    managed: bool,
}

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(String, u32, Span)> = Vec::new();
    for (fi, file) in m.files.iter().enumerate() {
        if file.syntax.syntax == Syntax::Json || m.is_override_file(fi as u32) {
            continue;
        }
        for block in file.syntax.body.blocks_of("import") {
            import(m, fi as u32, block, &mut seen, out);
        }
    }
}

fn import(
    m: &MergedModule,
    file: u32,
    block: &Block,
    seen: &mut Vec<(String, u32, Span)>,
    out: &mut Vec<Diagnostic>,
) {
    let mut push = |span: Span, summary: String, detail: String| {
        out.push(at(
            m,
            Origin { file, span },
            Severity::Error,
            IMPORT,
            summary,
            detail,
        ));
    };
    let Some(to) = block.body.attribute("to") else {
        return;
    };
    let target = match parse(&to.expr) {
        Ok(t) => t,
        Err((span, detail)) => {
            push(span, "Invalid address".into(), detail);
            None
        }
    };
    if !target.as_ref().is_some_and(|t| t.managed) {
        push(
            to.span,
            "Invalid import address".into(),
            "Only managed resources can be imported.".into(),
        );
    }
    let Some(target) = target else { return };
    if let Some(p) = block.body.attribute("provider") {
        if target.in_module {
            push(
                p.span,
                "Invalid import provider argument".into(),
                "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.".into(),
            );
        }
    }
    let Some(instance) = target.instance else {
        return;
    };
    if let Some((_, first_file, first_span)) = seen.iter().find(|(i, _, _)| *i == instance) {
        let first = range_text(
            m,
            Origin {
                file: *first_file,
                span: *first_span,
            },
        );
        let resource = &target.resource;
        push(
            to.expr.span,
            format!("Duplicate import configuration for {resource:?}"),
            format!("An import block for the resource {resource:?} was already declared at {first}. A resource can have only one import block."),
        );
    } else {
        seen.push((instance, file, header_span(block)));
    }
}

/// The static steps of a reference expression; `None` for anything else.
fn parts(expr: &Expr) -> Option<Vec<Part>> {
    let (root, steps): (_, &[TraversalStep]) = match &expr.kind {
        ExprKind::Variable(id) => (id, &[]),
        ExprKind::Traversal { root, steps } => match &root.kind {
            ExprKind::Variable(id) => (id, steps),
            _ => return None,
        },
        _ => return None,
    };
    let mut out = vec![Part::Name(root.name.to_string(), root.span)];
    let mut end = root.span.end;
    for step in steps {
        let part = match step {
            TraversalStep::Attr(id) => Part::Name(id.name.to_string(), id.span),
            TraversalStep::Index(e) => {
                let key = match &e.kind {
                    ExprKind::Number(n) => Some(n.to_string()),
                    ExprKind::String(s) => Some(format!("{s:?}")),
                    _ => None,
                };
                Part::Index(key, Span::new(end as usize, e.span.end as usize + 1))
            }
            TraversalStep::LegacyIndex(n, s) => Part::Index(Some(n.to_string()), *s),
            TraversalStep::AttrSplat(_) | TraversalStep::FullSplat(_) => return None,
        };
        end = part.span().end;
        out.push(part);
    }
    Some(out)
}

/// Reads a resource instance address as `addrs.ParseAbsResourceInstance` does; the
/// error is its subject and detail.
fn parse(expr: &Expr) -> Result<Option<Target>, (Span, String)> {
    let Some(all) = parts(expr) else {
        return Ok(None); // Not a reference at all: Terraform's message is HCL's.
    };
    let mut rest = &all[..];
    let mut module = String::new();
    let mut instance_prefix = String::new();
    let mut keys_static = true;
    while let [Part::Name(word, _), Part::Name(name, _), tail @ ..] = rest {
        if word != "module" {
            break;
        }
        module.push_str(&format!("module.{name}."));
        instance_prefix.push_str(&format!("module.{name}"));
        rest = tail;
        if let [Part::Index(key, _), tail @ ..] = rest {
            match key {
                Some(k) => instance_prefix.push_str(&format!("[{k}]")),
                None => keys_static = false,
            }
            rest = tail;
        }
        instance_prefix.push('.');
    }
    let span_of = |parts: &[Part]| match (parts.first(), parts.last()) {
        (Some(a), Some(b)) => Span::new(a.span().start as usize, b.span().end as usize),
        _ => expr.span,
    };
    let mut managed = true;
    if let [Part::Name(word, _), tail @ ..] = rest {
        match word.as_str() {
            "data" | "ephemeral" => {
                managed = false;
                rest = tail;
            }
            "resource" => rest = tail,
            "count" | "each" | "local" | "module" | "path" | "self" | "terraform" | "var"
            | "template" | "lazy" | "arg" => {
                return Err((
                    span_of(rest),
                    format!("The keyword {word:?} is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with \"resource.\"."),
                ))
            }
            _ => {}
        }
    }
    let (type_name, name, tail) = match rest {
        [Part::Name(t, _), Part::Name(n, _), tail @ ..] => (t, n, tail),
        [_, Part::Index(..), ..] => {
            return Err((rest[1].span(), "A resource name is required.".into()))
        }
        [Part::Index(..), _, ..] => {
            return Err((rest[0].span(), "A resource type name is required.".into()))
        }
        _ => {
            return Err((
                span_of(rest),
                "Resource specification must include a resource type and name.".into(),
            ))
        }
    };
    let resource = format!("{module}{type_name}.{name}");
    let instance = match tail {
        [] => Some(format!("{instance_prefix}{type_name}.{name}")),
        [Part::Index(Some(k), _)] => Some(format!("{instance_prefix}{type_name}.{name}[{k}]")),
        _ => None,
    };
    Ok(Some(Target {
        resource,
        instance: instance.filter(|_| keys_static),
        in_module: !module.is_empty(),
        managed,
    }))
}
