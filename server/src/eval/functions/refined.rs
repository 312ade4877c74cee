//! The unknown result of a call whose arguments are not all known, as go-cty's
//! `function.Call` makes it: an unknown of the function's return type, refined by the
//! function's `RefineResult`. Every function listed below declares one that refines its
//! result as not null (go-cty 1.16's `stdlib`, Terraform 1.11's `lang/funcs`), so that
//! `jsonencode(x) == null` is known to be false. Strata types the result where the
//! function's return type is a primitive (`schema::function`). A collection's type would
//! let Strata judge conversions of values it derives from resources whose schema it may
//! not have, which Terraform never reaches when such a resource fails validation
//! (`split` into `compact` in the corpus's `cis-instances`), and a type that depends on
//! the arguments (`any`) is unknown: those results stay untyped unknowns, which cannot
//! be refined.

use crate::eval::refinement::not_null_unknown;
use crate::eval::value::Value;
use crate::schema::{function as builtin, Dialect};
use crate::types::Type;
use unicode_segmentation::UnicodeSegmentation;

/// The functions whose `RefineResult` refines their result as not null.
const NOT_NULL: &[&str] = &[
    "abs",
    "abspath",
    "alltrue",
    "anytrue",
    "base64decode",
    "base64encode",
    "base64gzip",
    "base64sha256",
    "base64sha512",
    "basename",
    "bcrypt",
    "ceil",
    "chomp",
    "chunklist",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "dirname",
    "distinct",
    "endswith",
    "file",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "fileexists",
    "filemd5",
    "fileset",
    "filesha1",
    "filesha256",
    "filesha512",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "join",
    "jsonencode",
    "keys",
    "length",
    "log",
    "lower",
    "matchkeys",
    "max",
    "md5",
    "merge",
    "min",
    "parseint",
    "pathexpand",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "rsadecrypt",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "startswith",
    "strrev",
    "substr",
    "sum",
    "textdecodebase64",
    "textencodebase64",
    "timecmp",
    "timestamp",
    "title",
    "transpose",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "upper",
    "urlencode",
    "uuid",
    "uuidv5",
    "values",
    "zipmap",
];

/// The unknown result of a call of `name` (`core::` or not) with unknown arguments.
pub(super) fn unknown_result(name: &str) -> Value {
    let bare = name.strip_prefix("core::").unwrap_or(name);
    let ty = builtin(bare, Dialect::Terraform).and_then(|f| static_type(&f.return_type));
    match ty {
        Some(ty) if NOT_NULL.contains(&bare) => not_null_unknown(ty),
        _ => Value::Unknown,
    }
}

/// `length` of an unknown value (Terraform's `length`, which takes unknown values, and
/// go-cty's `Value.Length`, `Strlen`): a tuple's or an object's length is its type's; a
/// collection's lies within its refined bounds, a string's is at least its known
/// prefix's; never null.
pub(super) fn unknown_length(value: &Value) -> Value {
    let number = not_null_unknown(Type::Number).refine();
    match value.unmarked() {
        Value::UnknownOf(Type::Tuple(items), _) => Value::Number(items.len() as f64),
        Value::UnknownOf(Type::Object(attributes), _) => Value::Number(attributes.len() as f64),
        Value::UnknownOf(Type::String, _) => {
            let prefix = value.range().string_prefix().graphemes(true).count();
            number.number_lower(prefix as f64, true).value()
        }
        Value::UnknownOf(Type::List(_) | Type::Set(_) | Type::Map(_), _) => {
            let range = value.range();
            let number = number.number_lower(range.length_lower() as f64, true);
            match range.length_upper() {
                Some(max) => number.number_upper(max as f64, true),
                None => number,
            }
            .value()
        }
        _ => number.value(),
    }
}

/// `length` of a known set holding `stored` elements, some of which hold unknown values
/// (go-cty's `Value.Length`): they may yet coalesce, so one element is one, more are
/// between one and as many.
pub(super) fn set_length(stored: usize) -> Value {
    match stored {
        1 => Value::Number(1.0),
        n => not_null_unknown(Type::Number)
            .refine()
            .number_lower(1.0, true)
            .number_upper(n as f64, true)
            .value(),
    }
}

/// A primitive return type as Terraform writes it (`string`).
fn static_type(written: &str) -> Option<Type> {
    Some(match written {
        "string" => Type::String,
        "number" => Type::Number,
        "bool" => Type::Bool,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_return_types_are_refined_as_not_null() {
        let refined = |name| unknown_result(name).range().definitely_not_null();
        assert!(refined("jsonencode"));
        assert!(refined("core::upper"));
        assert!(refined("length"));
        // A collection stays untyped: `fileset` returns a set(string).
        assert_eq!(unknown_result("fileset"), Value::Unknown);
        // A type that depends on the arguments stays unknown, and so unrefined.
        assert_eq!(unknown_result("concat"), Value::Unknown);
        // Functions without a refinement: `one`, `lookup`, `strcontains`.
        assert!(!refined("strcontains"));
        assert_eq!(unknown_result("lookup"), Value::Unknown);
    }

    #[test]
    fn lengths_of_unknown_values_as_go_cty_bounds_them() {
        use crate::eval::Refinement;
        let tuple = Value::UnknownOf(Type::Tuple(vec![Type::String; 3]), Refinement::NONE);
        assert_eq!(unknown_length(&tuple), Value::Number(3.0));
        let list = Value::UnknownOf(Type::List(Box::new(Type::String)), Refinement::NONE);
        let two = list
            .clone()
            .refine()
            .length_lower(2)
            .length_upper(2)
            .value();
        assert_eq!(unknown_length(&two), Value::Number(2.0));
        let some = unknown_length(&list.refine().length_lower(1).value());
        assert_eq!(some.range().number_lower().map(|b| b.value), Some(1.0));
        assert_eq!(some.range().number_upper(), None);
        let prefixed = not_null_unknown(Type::String)
            .refine()
            .string_prefix("ab-")
            .value();
        let at_least = unknown_length(&prefixed).range().number_lower();
        assert_eq!(at_least.map(|b| b.value), Some(3.0));
        assert!(unknown_length(&Value::Unknown)
            .range()
            .definitely_not_null());
        assert_eq!(set_length(1), Value::Number(1.0));
        assert_eq!(
            set_length(3).range().number_upper().map(|b| b.value),
            Some(3.0)
        );
    }
}
