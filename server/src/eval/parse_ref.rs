//! Terraform's reference parser (`addrs.ParseRef`): which object a traversal refers to,
//! or the error Terraform reports for a traversal that names no object (`var` alone, an
//! index where a name is required, a reserved word, a key that is not a string or a
//! whole number).

use super::references::Reference;
use crate::syntax::Span;

/// A literal index key, as HCL keeps it in a traversal (`[0]`, `["a"]`, `[true]`).
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A number as written.
    Number(Box<str>),
    /// A string.
    String(Box<str>),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// One step of a traversal Terraform reads as a reference, with where it was written
/// (an attribute step from its dot, an index from its bracket).
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `.name`
    Attr(String, Span),
    /// `[key]` or the legacy `.0`
    Key(Key, Span),
}

impl Step {
    fn span(&self) -> Span {
        match self {
            Step::Attr(_, s) | Step::Key(_, s) => *s,
        }
    }

    fn attr(&self) -> Option<&str> {
        match self {
            Step::Attr(a, _) => Some(a),
            Step::Key(..) => None,
        }
    }

    fn rendered(&self) -> String {
        match self {
            Step::Attr(a, _) => format!(".{a}"),
            Step::Key(k, _) => format!("[{}]", key_text(k)),
        }
    }
}

/// A traversal Terraform's reference parser rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct RefError {
    /// Where Terraform reports it.
    pub span: Span,
    /// Terraform's summary.
    pub summary: &'static str,
    /// Terraform's detail.
    pub detail: String,
    /// For `var`, `local`, `count`, `each`, `path` and `terraform`, the root: Terraform's
    /// parser still returns a reference to the object of that kind with an empty name,
    /// which evaluation then looks up and reports a second time, without a place.
    pub unnamed: Option<&'static str>,
}

/// The roots whose objects are named by one attribute (`var.x`, `count.index`).
const SINGLE_ATTRIBUTE: &[&str] = &["count", "each", "local", "path", "terraform", "var"];

/// `addrs.ParseRef` on the traversal `root` (written at `root_span`) followed by `steps`.
pub fn parse_ref(root: &str, root_span: Span, steps: &[Step]) -> Result<Reference, RefError> {
    let whole = Span {
        start: root_span.start,
        end: steps.last().map_or(root_span.end, |s| s.span().end),
    };
    let error = |span: Span, detail: String| RefError {
        span,
        summary: "Invalid reference",
        detail,
        unnamed: None,
    };
    if let Some(kind) = SINGLE_ATTRIBUTE.iter().find(|k| **k == root) {
        let name = single_attribute(root, root_span, steps).map_err(|mut e| {
            e.unnamed = Some(kind);
            e
        })?;
        return Ok(simple(format!("{root}.{name}"), steps, 1, whole));
    }
    match root {
        "self" => Ok(Reference {
            subject_span: root_span,
            ..simple("self".into(), steps, 0, whole)
        }),
        "module" => module(root_span, steps, whole),
        "data" | "resource" | "ephemeral" => {
            if steps.len() < 2 {
                let what = match root {
                    "data" => "the data source type",
                    "ephemeral" => "the ephemeral resource type",
                    _ => "the resource type",
                };
                return Err(error(whole, format!("The {root:?} object must be followed by two attribute names: {what} and the resource name.")));
            }
            let prefix = if root == "resource" { "" } else { root };
            resource(prefix, steps, whole)
                .map_err(|e| e.unwrap_or_else(|| error(steps[0].span(), format!("The {root:?} object does not support this operation."))))
        }
        "template" | "lazy" | "arg" => Err(RefError {
            span: root_span,
            summary: "Reserved symbol name",
            detail: format!("The symbol name {root:?} is reserved for use in a future Terraform version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name."),
            unnamed: None,
        }),
        _ => {
            let mut all = vec![Step::Attr(root.to_string(), root_span)];
            all.extend_from_slice(steps);
            resource("", &all, whole).map_err(|e| e.unwrap_or_else(|| unreachable_root(root_span)))
        }
    }
}

/// A root step is always a name, so the "does not support this operation" case of a
/// resource reference cannot happen for it; kept total instead of panicking.
fn unreachable_root(span: Span) -> RefError {
    RefError {
        span,
        summary: "Invalid reference",
        detail: "The left operand does not support this operation.".into(),
        unnamed: None,
    }
}

/// `parseSingleAttrRef`: the name after `var.`, `local.`, ...
fn single_attribute<'a>(
    root: &str,
    root_span: Span,
    steps: &'a [Step],
) -> Result<&'a str, RefError> {
    let detail = match steps.first() {
        None => format!("The {root:?} object cannot be accessed directly. Instead, access one of its attributes."),
        Some(Step::Attr(name, _)) => return Ok(name),
        Some(Step::Key(..)) => format!("The {root:?} object does not support this operation."),
    };
    Err(RefError {
        span: steps.first().map_or(root_span, Step::span),
        summary: "Invalid reference",
        detail,
        unnamed: None,
    })
}

/// A reference whose subject is the root and the first `used` steps.
fn simple(subject: String, steps: &[Step], used: usize, span: Span) -> Reference {
    let used = used.min(steps.len());
    Reference {
        subject,
        container: None,
        remaining: steps[used..].iter().map(Step::rendered).collect(),
        span,
        subject_span: subject_span(span, steps, used),
    }
}

/// From the start of the traversal to the end of its first `used` steps; `span` is the
/// whole traversal.
fn subject_span(span: Span, steps: &[Step], used: usize) -> Span {
    let end = match used {
        0 => span.start,
        n => steps[n - 1].span().end,
    };
    Span {
        start: span.start,
        end: end.max(span.start),
    }
}

/// `module.NAME`, `module.NAME[KEY]`, `module.NAME.OUTPUT`, `module.NAME[KEY].OUTPUT`.
fn module(root_span: Span, steps: &[Step], whole: Span) -> Result<Reference, RefError> {
    let name = single_attribute("module", root_span, steps)?;
    let call = format!("module.{name}");
    let mut used = 1;
    let mut instance = call.clone();
    if let Some(Step::Key(key, span)) = steps.get(1) {
        instance_key(key, *span, "module instance")?;
        instance = format!("{call}[{}]", key_text(key));
        used = 2;
    }
    match steps.get(used) {
        None => Ok(Reference {
            container: (used == 2).then_some(call),
            ..simple(instance, steps, used, whole)
        }),
        Some(Step::Attr(output, _)) => Ok(Reference {
            subject: format!("{instance}.{output}"),
            container: Some(instance),
            ..simple(String::new(), steps, used + 1, whole)
        }),
        Some(step @ Step::Key(..)) => Err(RefError {
            span: step.span(),
            summary: "Invalid reference",
            detail: "Module instance objects do not support this operation.".into(),
            unnamed: None,
        }),
    }
}

/// `parseResourceRef` over `TYPE.NAME[KEY]...` (the steps after `data.` or `resource.`,
/// or from the root for a managed resource); `Err(None)` when the type is not a name.
fn resource(prefix: &str, steps: &[Step], whole: Span) -> Result<Reference, Option<RefError>> {
    let what = match prefix {
        "data" => "a data source",
        "ephemeral" => "an ephemeral resource type",
        _ => "a resource type",
    };
    let type_name = steps[0].attr().ok_or(None)?;
    let name = match steps.get(1) {
        Some(Step::Attr(name, _)) => name,
        other => {
            let span = other.map_or(
                Span {
                    start: steps[0].span().start,
                    end: steps[steps.len() - 1].span().end,
                },
                Step::span,
            );
            return Err(Some(RefError {
                span,
                summary: "Invalid reference",
                detail: format!("A reference to {what} must be followed by at least one attribute access, specifying the resource name."),
                unnamed: None,
            }));
        }
    };
    let address = match prefix {
        "" => format!("{type_name}.{name}"),
        _ => format!("{prefix}.{type_name}.{name}"),
    };
    Ok(match steps.get(2) {
        Some(Step::Key(key, span)) => {
            instance_key(key, *span, "resource instance").map_err(Some)?;
            Reference {
                subject: format!("{address}[{}]", key_text(key)),
                container: Some(address),
                ..simple(String::new(), steps, 3, whole)
            }
        }
        _ => simple(address, steps, 2, whole),
    })
}

/// `addrs.ParseInstanceKey`: a string, or a number that is a whole `int`.
fn instance_key(key: &Key, span: Span, what: &str) -> Result<(), RefError> {
    let problem = match key {
        Key::String(_) => return Ok(()),
        Key::Number(n) => match n.parse::<f64>() {
            Ok(v) if v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 => {
                return Ok(())
            }
            _ => {
                "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
            }
        },
        Key::Bool(_) | Key::Null => "either a string or an integer is required",
    };
    Err(RefError {
        span,
        summary: "Invalid index key",
        detail: format!("Invalid index for {what}: {problem}."),
        unnamed: None,
    })
}

/// A key as Terraform prints it in an address: `0`, `"a"`.
fn key_text(key: &Key) -> String {
    match key {
        Key::Number(n) => n.to_string(),
        Key::String(s) => format!("{s:?}"),
        Key::Bool(b) => b.to_string(),
        Key::Null => "null".into(),
    }
}
