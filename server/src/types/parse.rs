//! Type-constraint expressions, decoded without evaluation as HCL's `typeexpr` does
//! (spec §2.3), with its exact `Invalid type specification` details.

use std::collections::BTreeMap;

use super::{convert::convert, Attribute, Type};
use crate::eval::constant;
use crate::module::Dialect;
use crate::syntax::{json_string_expression, Expr, ExprKind, Span, Syntax};

/// Why a type expression is not a valid type constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    /// Terraform's summary.
    pub summary: String,
    /// Terraform's detail.
    pub detail: String,
    /// The offending expression.
    pub span: Span,
}

fn invalid(span: Span, detail: impl Into<String>) -> TypeError {
    TypeError {
        summary: "Invalid type specification".into(),
        detail: detail.into(),
        span,
    }
}

/// Parses the `type` argument of a variable. `quoted_is_legacy` is true in the native
/// syntax, where `type = "string"` is the deprecated 0.11 form.
pub fn parse_type(
    expr: &Expr,
    dialect: Dialect,
    quoted_is_legacy: bool,
) -> Result<Type, TypeError> {
    if quoted_is_legacy {
        if let ExprKind::String(s) = &expr.kind {
            return Err(legacy_quoted(s, expr.span, dialect));
        }
    }
    type_expr(expr)
}

/// A variable's `type` argument read as its file's syntax writes it: a native expression
/// (where a quoted string is the deprecated 0.11 form), or a JSON string holding a type
/// expression. `None` for a JSON value that is not such a string.
pub fn parse_type_argument(
    expr: &Expr,
    syntax: Syntax,
    dialect: Dialect,
) -> Option<Result<Type, TypeError>> {
    match (&expr.kind, syntax) {
        (ExprKind::Json(value), _) => {
            Some(parse_type(&json_string_expression(value)?, dialect, false))
        }
        (_, Syntax::Json) => None,
        (_, Syntax::Native) => Some(parse_type(expr, dialect, true)),
    }
}

fn legacy_quoted(s: &str, span: Span, dialect: Dialect) -> TypeError {
    let tool = match dialect {
        Dialect::Terraform => "Terraform",
        Dialect::OpenTofu => "OpenTofu",
    };
    let intro = format!(
        "{tool} 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of {tool}."
    );
    let detail = match s {
        "string" | "number" | "bool" => format!("{intro} Remove the quotes around \"{s}\"."),
        "list" | "map" => format!(
            "{intro} Remove the quotes around \"{s}\" and write {s}(string) instead to explicitly indicate that the {s} elements are strings."
        ),
        _ => {
            return TypeError {
                summary: "Invalid legacy variable type hint".into(),
                detail: "To provide a full type expression, remove the surrounding quotes and give the type expression directly.".into(),
                span,
            }
        }
    };
    TypeError {
        summary: "Invalid quoted type constraints".into(),
        detail,
        span,
    }
}

fn type_expr(expr: &Expr) -> Result<Type, TypeError> {
    match &expr.kind {
        ExprKind::Parens(inner) => type_expr(inner),
        ExprKind::Variable(id) => keyword(&id.name, expr.span),
        ExprKind::FuncCall { name, args, .. } => {
            // HCL's `ArgsRange`, from the parenthesis on: the tree keeps no position for
            // it, so it is taken right after the name (where `terraform fmt` puts it).
            let args_range = Span::new(name.span.end as usize, expr.span.end as usize);
            constructor(&name.name, args, (name.span, args_range))
        }
        _ => Err(invalid(
            expr.span,
            "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).",
        )),
    }
}

fn keyword(name: &str, span: Span) -> Result<Type, TypeError> {
    Ok(match name {
        "string" => Type::String,
        "number" => Type::Number,
        "bool" => Type::Bool,
        "any" => Type::Dynamic,
        // Legacy shorthands from Terraform 0.11.
        "list" => Type::List(Box::new(Type::Dynamic)),
        "map" => Type::Map(Box::new(Type::Dynamic)),
        "set" => return Err(needs_element("set", span)),
        "object" => return Err(invalid(span, "The object type constructor requires one argument specifying the attribute types and values as a map.")),
        "tuple" => return Err(invalid(span, "The tuple type constructor requires one argument specifying the element types as a list.")),
        "optional" => return Err(optional_misplaced(span)),
        other => return Err(invalid(span, format!("The keyword \"{other}\" is not a valid type specification."))),
    })
}

fn needs_element(kind: &str, span: Span) -> TypeError {
    invalid(
        span,
        format!("The {kind} type constructor requires one argument specifying the element type."),
    )
}

fn optional_misplaced(span: Span) -> TypeError {
    invalid(
        span,
        "Keyword \"optional\" is valid only as a modifier for object type attributes.",
    )
}

/// A type constructor call, its errors where HCL's `typeexpr` puts them: a wrong number
/// of arguments at the arguments (the extra ones when there are too many), a keyword that
/// takes none at the arguments, a misplaced `optional` at its name.
fn constructor(
    name: &str,
    args: &[Expr],
    (name_span, args_range): (Span, Span),
) -> Result<Type, TypeError> {
    let span = match args {
        [_, second, .., last] => Span::new(second.span.start as usize, last.span.end as usize),
        [_, second] => second.span,
        _ => args_range,
    };
    match name {
        "list" | "set" | "map" => {
            let [element] = args else {
                return Err(needs_element(name, span));
            };
            let element = Box::new(type_expr(element)?);
            Ok(match name {
                "list" => Type::List(element),
                "set" => Type::Set(element),
                _ => Type::Map(element),
            })
        }
        "tuple" => match args {
            [Expr { kind: ExprKind::Tuple(items), .. }] => {
                items.iter().map(type_expr).collect::<Result<_, _>>().map(Type::Tuple)
            }
            [other] => Err(invalid(other.span, "Tuple type constructor requires a list of element types.")),
            _ => Err(invalid(span, "The tuple type constructor requires one argument specifying the element types as a list.")),
        },
        "object" => match args {
            [Expr { kind: ExprKind::Object(items), .. }] => object(items),
            [other] => Err(invalid(
                other.span,
                "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
            )),
            _ => Err(invalid(span, "The object type constructor requires one argument specifying the attribute types and values as a map.")),
        },
        "string" | "number" | "bool" => Err(invalid(args_range, format!("Primitive type keyword \"{name}\" does not expect arguments."))),
        "any" => Err(invalid(args_range, "Type constraint keyword \"any\" does not expect arguments.")),
        "optional" => Err(optional_misplaced(name_span)),
        other => {
            let call = Span::new(name_span.start as usize, args_range.end as usize);
            Err(invalid(call, format!("Keyword \"{other}\" is not a valid type constructor.")))
        }
    }
}

fn object(items: &[(Expr, Expr)]) -> Result<Type, TypeError> {
    let mut attrs = BTreeMap::new();
    for (key, value) in items {
        let ExprKind::Variable(name) = &key.kind else {
            return Err(invalid(
                key.span,
                "Object constructor map keys must be attribute names.",
            ));
        };
        if attrs.contains_key(&*name.name) {
            return Err(invalid(
                key.span,
                "Object constructor map keys must be unique.",
            ));
        }
        attrs.insert(name.name.to_string(), attribute(value)?);
    }
    Ok(Type::Object(attrs))
}

fn attribute(value: &Expr) -> Result<Attribute, TypeError> {
    let ExprKind::FuncCall { name, args, .. } = &value.kind else {
        return Ok(Attribute {
            ty: type_expr(value)?,
            optional: false,
            default: None,
        });
    };
    if &*name.name != "optional" {
        return Ok(Attribute {
            ty: type_expr(value)?,
            optional: false,
            default: None,
        });
    }
    let (ty_expr, default_expr) = match args.as_slice() {
        [] => return Err(invalid(value.span, "Optional attribute modifier requires the attribute type as its argument.")),
        [t] => (t, None),
        [t, d] => (t, Some(d)),
        _ => return Err(invalid(value.span, "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.")),
    };
    let ty = type_expr(ty_expr)?;
    let default = match default_expr {
        None => None,
        Some(d) => {
            // Evaluated with no variables or functions: anything else is not constant.
            let raw = constant(d).unwrap_or(serde_json::Value::Null);
            match convert(&raw, &ty) {
                Ok(v) => Some(v),
                Err(e) => {
                    return Err(TypeError {
                        summary: "Invalid default value for optional attribute".into(),
                        detail: format!("This default value is not compatible with the attribute's type constraint: {}.", e.bare()),
                        span: d.span,
                    })
                }
            }
        }
    };
    Ok(Attribute {
        ty,
        optional: true,
        default,
    })
}
