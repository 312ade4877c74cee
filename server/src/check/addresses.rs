//! Static addresses written as references (`module.a[0].aws_instance.b`), read step by
//! step as HCL's absolute traversals, for the blocks that name objects rather than
//! evaluate them: `import`, `moved`, `removed`.

use crate::syntax::{Expr, ExprKind, Span, TraversalStep};

/// One step of a static address: a name, or an index (with its literal key, if any).
#[derive(Debug, Clone)]
pub enum Part {
    /// `.name` (or the root name).
    Name(String, Span),
    /// `[key]`, with the key when it is a literal.
    Index(Option<String>, Span),
}

impl Part {
    /// Where the step is written.
    pub fn span(&self) -> Span {
        match self {
            Part::Name(_, s) | Part::Index(_, s) => *s,
        }
    }
}

/// The static steps of a reference expression; `None` for anything else.
pub fn parts(expr: &Expr) -> Option<Vec<Part>> {
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

/// A parsed `to` address.
pub struct Target {
    /// The resource without instance keys: `module.m.terraform_data.b`.
    pub resource: String,
    /// The whole address with literal keys, `None` when a key is not a literal.
    pub instance: Option<String>,
    /// Whether the address is inside a child module.
    pub in_module: bool,
    /// Whether it is a managed resource (not `data.` or `ephemeral.`).
    pub managed: bool,
}

/// Reads a resource instance address as `addrs.ParseAbsResourceInstance` does; the
/// error is its subject and detail.
pub fn parse_resource_instance(expr: &Expr) -> Result<Option<Target>, (Span, String)> {
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
