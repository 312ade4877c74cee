//! Every built-in function against hostile arguments (issue 12, item 2), deterministically:
//! each function of the library, at each arity its signature allows (and one more or
//! less), gets each hostile value at each argument position (the other positions holding
//! a plain value of the parameter's type), and then at every position at once. Hostile
//! values are huge and negative numbers, infinities, zero, long strings and collections,
//! values nested almost as deeply as a value may, unknown, null and sensitive values, and
//! values of the wrong type. A second pass gives each function, once per parameter that
//! takes one, a string and a list just past half the size limits, so that whatever
//! doubles its input must stop at the limit.
//!
//! Each call must end within a bound with a value or an error worded as Terraform words a
//! failed call (or an evaluation-limit error of Strata's); no value may be larger than the
//! size limits, and no number may be NaN (cty has none).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use super::{MAX_ELEMENTS, MAX_STRING_BYTES};
use crate::eval::{evaluate, EvalError, Scope, Value, EVALUATION_LIMIT};
use crate::limits::MAX_VALUE_DEPTH;
use crate::module::Dialect;
use crate::schema::{functions, Function};
use crate::syntax::{parse, Span, Syntax};

/// The longest one call with the values of [`HOSTILE`] may take in a debug build (release
/// builds are many times faster).
const BOUND: Duration = Duration::from_secs(1);

/// The longest one call with a value past half the size limits may take in a debug build,
/// where hashing 32 MiB alone takes seconds (its work is linear; a release build does it
/// in a tenth of a second).
const NEAR_LIMIT_BOUND: Duration = Duration::from_secs(60);

/// The summaries a failed call may have: HCL's and Terraform's for a call, and the
/// evaluation limit's.
const CALL_SUMMARIES: &[&str] = &[
    "Invalid function argument",
    "Error in function call",
    "Not enough function arguments",
    "Too many function arguments",
    "Invalid expanding argument value",
    EVALUATION_LIMIT,
    // Strata's placeholder for a count of written arguments, never shown:
    // `check/functions.rs` reports that count from the syntax, in HCL's words, first.
    "Incorrect number of function arguments",
];

/// Words that would show a Rust value or a Rust failure instead of Terraform's wording.
const NOT_TERRAFORM: &[&str] = &[
    "Some(",
    "None",
    "Err(",
    "Ok(",
    "panicked",
    "overflow",
    "missing argument",
    "String(",
    "Number(",
];

/// How many bytes a long string of [`HOSTILE`] has, and elements a long collection.
/// (Sizes whose linear work a debug build does within [`BOUND`] on a busy machine; the
/// second pass takes the sizes to the limits.)
const LONG: usize = 1 << 16;
const MANY: usize = 1 << 12;

/// The hostile values that are variables (`var.NAME`): those no literal can write, or
/// only at a cost that would be counted against the call.
fn variables() -> BTreeMap<&'static str, Value> {
    let mut deep_list = Value::string("a");
    let mut deep_object = Value::Number(1.0);
    for _ in 0..MAX_VALUE_DEPTH - 2 {
        deep_list = Value::List(vec![deep_list].into());
        deep_object = Value::Object(BTreeMap::from([("a".to_string(), deep_object)]).into());
    }
    let map: BTreeMap<String, Value> = (0..MANY)
        .map(|i| (format!("k{i}"), Value::Number(i as f64)))
        .collect();
    BTreeMap::from([
        ("long", Value::string("a\n".repeat(LONG / 2))),
        ("wide", Value::string("é".repeat(LONG / 2))),
        ("numbers", numbers(MANY)),
        ("strings", strings(MANY)),
        ("map", Value::Map(map.into())),
        ("deep_list", deep_list),
        ("deep_object", deep_object),
        ("unknown", Value::Unknown),
        ("unknown_in_list", Value::List(vec![Value::Unknown].into())),
        // Past half the limits: [`near_limit_calls`] only.
        (
            "half_string",
            Value::string("a\n".repeat(MAX_STRING_BYTES / 4 + 1)),
        ),
        ("half_list", strings(MAX_ELEMENTS / 2 + 1)),
    ])
}

/// A list of `n` numbers.
fn numbers(n: usize) -> Value {
    Value::List((0..n).map(|i| Value::Number(i as f64)).collect())
}

/// A list of `n` different short strings.
fn strings(n: usize) -> Value {
    Value::List((0..n).map(|i| Value::string(format!("k{i}"))).collect())
}

/// The hostile arguments, as written in the call.
const HOSTILE: &[&str] = &[
    // Numbers: huge, negative, past int64, infinite, zero, fractional.
    "1e308",
    "-1e308",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "pow(10, 400)",
    "-pow(10, 400)",
    "log(0, 10)",
    "0",
    "-1",
    "0.5",
    // Strings: empty, multibyte, format verbs and regular expressions that blow up.
    "\"\"",
    "\"héllo\\n\"",
    "\"%999999999d %.99999999f %[9]s %\"",
    "\"/(a*)*$/\"",
    "\"::/0\"",
    // Long values.
    "var.long",
    "var.wide",
    "var.numbers",
    "var.strings",
    "var.map",
    // Nesting almost as deep as a value may be.
    "var.deep_list",
    "var.deep_object",
    // Unknown, null and sensitive.
    "var.unknown",
    "var.unknown_in_list",
    "null",
    "[null]",
    "sensitive(\"secret\")",
    "sensitive([1, 2])",
    "sensitive({a = \"b\"})",
    // Other types.
    "true",
    "[]",
    "{}",
    "[\"a\", 1, [true]]",
    "{a = [1], b = {c = null}}",
    "toset([\"a\", \"b\"])",
    "tomap({a = \"b\"})",
];

/// A scope holding [`variables`].
struct Hostile(BTreeMap<&'static str, Value>);

impl Scope for Hostile {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        match (root, attrs.first().and_then(|a| self.0.get(a))) {
            ("var", Some(v)) => Ok((v.clone(), 1)),
            _ => Err(EvalError::new(
                "Reference to undeclared input variable",
                root,
                span,
            )),
        }
    }
}

/// A plain argument of the type `ty` (as signatures write types).
fn plain(ty: &str) -> &'static str {
    match ty.split('(').next().unwrap_or(ty) {
        "number" => "2",
        "bool" => "true",
        "list" | "set" | "tuple" => "[\"a\", \"b\"]",
        "map" | "object" => "{a = \"b\"}",
        _ => "\"a\"",
    }
}

/// The plain arguments of `f` at each arity its signature allows (and one more or less).
fn plain_calls(f: &Function) -> Vec<Vec<&'static str>> {
    let Some(fixed) = &f.parameters else {
        return (0..=3).map(|n| vec!["\"a\""; n]).collect();
    };
    let mut args: Vec<&'static str> = fixed.iter().map(|p| plain(&p.ty)).collect();
    let mut calls = vec![args.clone()];
    if let Some(more) = &f.variadic {
        args.push(plain(&more.ty));
        calls.push(args.clone());
        args.push(plain(&more.ty));
        calls.push(args.clone());
    } else {
        args.push("\"a\"");
        calls.push(args);
    }
    if let Some(fewer) = fixed.len().checked_sub(1) {
        calls.push(calls[0][..fewer].to_vec());
    }
    calls
}

/// What is wrong with the outcome of `src`, if anything.
fn judge(src: &str, outcome: &Result<Value, EvalError>) -> Option<String> {
    match outcome {
        Ok(v) => oversized(v).map(|why| format!("{src}: {why}")),
        Err(e) => {
            let worded = (CALL_SUMMARIES.contains(&e.summary.as_str())
                || e.summary == "Call to unknown function" && unevaluated(src))
                && !e.detail.is_empty()
                && !NOT_TERRAFORM.iter().any(|w| e.detail.contains(w));
            (!worded).then(|| format!("{src}: {} / {}", e.summary, e.detail))
        }
    }
}

/// Whether `src` calls a function Strata does not evaluate.
fn unevaluated(src: &str) -> bool {
    let name = src.split('(').next().unwrap_or(src);
    let name = name.strip_prefix("core::").unwrap_or(name);
    super::lookup(name).is_none() && !SPECIAL.contains(&name)
}

/// Why `v` is larger than a value may be, or holds NaN.
fn oversized(v: &Value) -> Option<String> {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.len() > MAX_STRING_BYTES => {
                return Some(format!("a string of {} bytes", s.len()))
            }
            Value::Number(n) if n.is_nan() => return Some("NaN".to_string()),
            Value::Marked(inner, _) => stack.push(inner),
            v => {
                if let Some(items) = v.elements() {
                    if items.len() > MAX_ELEMENTS {
                        return Some(format!("{} elements", items.len()));
                    }
                    stack.extend(items);
                } else if let Some(attrs) = v.attributes() {
                    if attrs.len() > MAX_ELEMENTS {
                        return Some(format!("{} attributes", attrs.len()));
                    }
                    stack.extend(attrs.values());
                }
            }
        }
    }
    None
}

/// The functions `functions::call` answers itself, before the function table.
const SPECIAL: &[&str] = &["try", "can", "timestamp", "uuid", "plantimestamp"];

/// Every function of the library (`core::NAME` is `NAME`, called once), after asserting
/// that the function table evaluates all but the few it is known not to.
fn library() -> Vec<&'static Function> {
    let names: BTreeMap<&str, &Function> = functions(Dialect::Terraform)
        .chain(functions(Dialect::OpenTofu))
        .map(|f| (f.name.as_str(), f))
        .collect();
    assert!(names.len() > 100, "{} functions", names.len());
    let missing: Vec<&str> = names
        .keys()
        .copied()
        .filter(|name| unevaluated(name))
        .collect();
    // Functions whose value depends on the machine (`abspath`, `pathexpand`), and
    // OpenTofu's own: Strata does not evaluate them, and says so.
    assert_eq!(
        missing,
        [
            "abspath",
            "base64gunzip",
            "cidrcontains",
            "core::abspath",
            "core::base64gunzip",
            "core::cidrcontains",
            "core::pathexpand",
            "core::urldecode",
            "pathexpand",
            "urldecode"
        ]
    );
    names
        .into_iter()
        .filter(|(name, _)| !name.starts_with("core::"))
        .map(|(_, f)| f)
        .collect()
}

/// The calls of the first pass: [`HOSTILE`] at every position of every arity.
fn hostile_calls() -> Vec<String> {
    let mut calls = Vec::new();
    for f in library() {
        let name = &f.name;
        for plain in plain_calls(f) {
            for hostile in HOSTILE {
                for at in 0..plain.len() {
                    let mut args = plain.clone();
                    args[at] = hostile;
                    calls.push(format!("{name}({})", args.join(", ")));
                }
                if plain.len() > 1 {
                    let all = vec![*hostile; plain.len()];
                    calls.push(format!("{name}({})", all.join(", ")));
                }
            }
        }
    }
    calls
}

/// The calls of the second pass: a value past half the limits at each parameter whose
/// type takes it (a string, a list, or any value), the others plain.
fn near_limit_calls() -> Vec<String> {
    let mut calls = Vec::new();
    for f in library() {
        let Some(fixed) = &f.parameters else { continue };
        let params: Vec<&str> = fixed
            .iter()
            .chain(&f.variadic)
            .map(|p| p.ty.as_str())
            .collect();
        let plain: Vec<&str> = params.iter().map(|ty| plain(ty)).collect();
        for (at, ty) in params.iter().enumerate() {
            let kind = ty.split('(').next().unwrap_or(ty);
            let value = match kind {
                "string" => &["var.half_string"][..],
                "list" | "set" | "tuple" => &["var.half_list"],
                "any" | "dynamic" => &["var.half_string", "var.half_list"],
                _ => &[],
            };
            for value in value {
                let mut args = plain.clone();
                args[at] = value;
                calls.push(format!("{}({})", f.name, args.join(", ")));
            }
        }
    }
    calls
}

/// Runs every call of `calls`, each within `bound`, and asserts every outcome is sound.
fn audit(calls: Vec<String>, bound: Duration) {
    let scope = Hostile(variables());
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for src in calls {
        let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
        assert!(!file.has_errors(), "{src}: {:?}", file.diagnostics);
        let expr = &file.body.attributes[0].expr;
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| evaluate(expr, &scope)));
        let took = started.elapsed();
        if took > slowest.0 {
            slowest = (took, src.clone());
        }
        let failure = match outcome {
            Err(_) => Some(format!("{src}: panicked")),
            Ok(_) if took > bound => Some(format!("{src}: took {took:?}")),
            Ok(outcome) => judge(&src, &outcome),
        };
        failures.extend(failure);
    }
    eprintln!("slowest call: {:?} {}", slowest.0, slowest.1);
    assert!(
        failures.is_empty(),
        "{} calls failed the audit, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(300)].join("\n")
    );
}

// `regex`, `regexall` and `replace` search in time proportional to the pattern's size
// times the string's (a 64 KiB pattern against a 64 KiB string ran for minutes in a debug
// build): they count that work as they search (`patterns/search.rs`), so such a call ends in
// the budget's error.
#[test]
fn every_function_ends_quickly_with_a_bounded_value_or_terraforms_error() {
    audit(hostile_calls(), BOUND);
}

// Linear work on 32 MiB, once per function and parameter (hashing, encoding, parsing):
// 54 s of CPU in a debug build (4.7 minutes of wall time on a machine loaded 12 deep),
// the slowest call `yamldecode` at 28 s; a pattern of 32 MiB is refused before it is
// parsed (`patterns/mod.rs`). The sizes stay past half the limits, what the audit is for.
#[test]
fn every_function_stops_at_the_size_limits() {
    audit(near_limit_calls(), NEAR_LIMIT_BOUND);
}
