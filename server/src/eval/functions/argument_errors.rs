//! The failures of function implementations that are in Terraform's words, and which of
//! them go-cty reports as an `ArgError`, an error about one argument (HCL then reports
//! `Invalid function argument` at that argument rather than `Error in function call` at
//! the call). The implementations return only the reason; this is where each failure
//! recorded against Terraform 1.11 is written down. Other failures stay Strata's own.

use crate::eval::value::Value;
use crate::types::Type;

/// A failure recorded against Terraform: the function, how its reason starts, and the
/// argument it is about.
const RECORDED: &[(&str, &str, Option<usize>)] = &[
    (
        "element",
        "cannot use element function with an empty list",
        None,
    ),
    (
        "cidrsubnet",
        "insufficient address space to extend prefix",
        None,
    ),
    (
        "length",
        "argument must be a string, a collection type",
        None,
    ),
    ("keys", "must have map or object type", Some(0)),
    ("values", "must have map or object type", Some(0)),
    ("tonumber", "cannot convert \"", Some(0)),
    ("tolist", "cannot convert string to", Some(0)),
    ("toset", "cannot convert string to", Some(0)),
    ("tomap", "cannot convert string to", Some(0)),
    (
        "sum",
        "argument must be list, set, or tuple of number values",
        Some(0),
    ),
    ("flatten", "can only flatten lists, sets and tuples", None),
    (
        "coalescelist",
        "coalescelist arguments must be lists or tuples",
        None,
    ),
    ("slice", "start index", Some(1)),
    ("slice", "end index", Some(2)),
    ("zipmap", "number of keys (", None),
    ("index", "cannot search an empty list", None),
    ("one", "must be a list, set, or tuple value", Some(0)),
    ("sum", "cannot sum an empty list", Some(0)),
    ("reverse", "can only reverse list or tuple values", Some(0)),
    ("merge", "arguments must be maps or objects", None),
    ("cidrnetmask", "IPv6 addresses cannot have a netmask", None),
    ("tostring", "cannot convert", Some(0)),
    ("tobool", "cannot convert \"", Some(0)),
    ("parseint", "cannot parse \"", Some(0)),
    ("cidrsubnets", "invalid CIDR expression", Some(0)),
    ("timeadd", "not a valid RFC3339 timestamp", None),
    ("timeadd", "time: ", None),
    ("formatdate", "not a valid RFC3339 timestamp", Some(1)),
    ("formatdate", "invalid date format verb", Some(0)),
    ("formatdate", "unterminated literal", Some(0)),
    // The argument is the first timestamp that fails (`datetime::timecmp_argument`).
    ("timecmp", "not a valid RFC3339 timestamp", Some(0)),
    (
        "textencodebase64",
        "the given string contains characters",
        Some(0),
    ),
    (
        "textdecodebase64",
        "the given string contains symbols",
        Some(0),
    ),
    (
        "textdecodebase64",
        "the given value is has an invalid base64",
        Some(0),
    ),
    ("uuidv5", "uuidv5() doesn't support namespace", None),
    ("csvdecode", "CSV parse error", None),
    ("csvdecode", "missing header line", None),
    ("csvdecode", "duplicate column name", None),
    ("regex", "invalid regexp pattern", Some(0)),
    ("regexall", "invalid regexp pattern", Some(0)),
    ("templatestring", "invalid template value", Some(0)),
    ("templatestring", "invalid template variable name", Some(1)),
    ("templatestring", "vars map does not contain key", Some(1)),
    ("templatestring", "<templatestring argument>", None),
];

/// Whether a failure of `function` with `reason` is in Terraform's words, and if so the
/// argument (from 0) it is about, if any.
pub(super) fn terraform_failure(
    function: &str,
    reason: &str,
    args: &[Value],
) -> Option<Option<usize>> {
    let argument = RECORDED
        .iter()
        .find(|(f, start, _)| *f == function && reason.starts_with(start))
        .map(|(_, _, argument)| *argument)?;
    Some(match function {
        "timecmp" => Some(super::datetime::timecmp_argument(args)),
        _ => argument,
    })
}

/// A failure a function's return type reports from the types of its arguments alone, so
/// that an unknown argument of a known type fails as a known one would (`length` of a
/// number or a bool).
pub(super) fn type_failure(function: &str, args: &[Value]) -> Option<String> {
    match (function, args) {
        ("length", [Value::UnknownOf(Type::Number | Type::Bool, _)]) => {
            Some("argument must be a string, a collection type, or a structural type".into())
        }
        _ => None,
    }
}
