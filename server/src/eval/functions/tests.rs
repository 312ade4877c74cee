//! Every function against values checked with Terraform's documentation examples.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::eval::{evaluate, EvalError, Scope, Value};
use crate::syntax::{parse, Span, Syntax};

/// A scope with `var.n = 3`, `var.unknown` unknown, and files under `dir`.
struct TestScope {
    dir: Option<PathBuf>,
}

impl Scope for TestScope {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        match (root, attrs.first()) {
            ("var", Some(&"n")) => Ok((Value::Number(3.0), 1)),
            ("var", Some(&"unknown")) => Ok((Value::Unknown, 1)),
            _ => Err(EvalError::new(
                "Reference to undeclared input variable",
                root,
                span,
            )),
        }
    }

    fn module_dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }
}

pub(super) fn eval_in(src: &str, dir: Option<PathBuf>) -> Result<Value, EvalError> {
    let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
    assert!(!file.has_errors(), "{src}: {:?}", file.diagnostics);
    evaluate(&file.body.attributes[0].expr, &TestScope { dir })
}

/// The value of `src` as JSON text, or `ERROR: detail`.
pub(super) fn eval(src: &str) -> String {
    match eval_in(src, None) {
        Ok(v) if !v.is_known() => "UNKNOWN".into(),
        Ok(v) => v.to_json().to_string(),
        Err(e) => format!("ERROR: {}", e.detail),
    }
}

#[test]
fn operators_conditionals_and_templates() {
    // Known results beside unknowns, as cty gives them.
    // cty's operations take no unknown operand (HCL 2.23 does not short-circuit).
    assert_eq!(eval("false && var.unknown"), "UNKNOWN");
    assert_eq!(eval("var.unknown || true"), "UNKNOWN");
    assert_eq!(eval("var.unknown && true"), "UNKNOWN");
    assert_eq!(eval("{a = var.unknown} != null"), "true");
    assert_eq!(eval("{a = var.unknown} == {a = 1}"), "UNKNOWN");
    assert_eq!(eval("compact(var.unknown)"), "UNKNOWN");
    assert_eq!(
        eval("null >= 1"),
        "ERROR: Error during operation: argument must not be null."
    );
    assert_eq!(
        eval("1 + \"a\""),
        "ERROR: Unsuitable value for right operand: a number is required."
    );
    assert_eq!(eval("1 + 2 * 3"), "7");
    assert_eq!(eval("\"5\" + 1"), "6");
    assert_eq!(eval("7 % 4 == 3 && !false"), "true");
    assert_eq!(eval("1 == \"1\""), "false");
    assert_eq!(eval("var.n > 2 ? \"big\" : \"small\""), "\"big\"");
    assert_eq!(
        eval("\"n=${var.n}%{ if var.n > 1 }s%{ endif }\""),
        "\"n=3s\""
    );
    assert_eq!(
        eval("\"%{ for i, v in [\"a\", \"b\"] }${i}${v},%{ endfor }\""),
        "\"0a,1b,\""
    );
    assert_eq!(
        eval("1 / 0"),
        "ERROR: Call to function \"divide\" failed: can't divide by zero."
    );
    assert_eq!(
        eval("\"a${null}\""),
        "ERROR: The expression result is null. Cannot include a null value in a string template."
    );
    // A lone interpolation is HCL's template wrapper: the value itself.
    assert_eq!(eval("\"${null}\""), "null");
}

#[test]
fn unknowns_propagate() {
    assert_eq!(eval("var.unknown + 1"), "UNKNOWN");
    assert_eq!(eval("\"a-${var.unknown}\""), "UNKNOWN");
    assert_eq!(eval("var.unknown ? 1 : 2"), "UNKNOWN");
    assert_eq!(eval("upper(var.unknown)"), "UNKNOWN");
    assert_eq!(eval("length([var.unknown, 1])"), "2");
    assert_eq!(eval("[var.unknown, 1][1]"), "1");
    assert_eq!(eval("{a = var.unknown}.a"), "UNKNOWN");
    assert_eq!(eval("[for x in var.unknown : x]"), "UNKNOWN");
    assert_eq!(eval("timestamp()"), "UNKNOWN");
    assert_eq!(eval("can(var.unknown)"), "UNKNOWN");
}

#[test]
fn for_expressions_splats_and_indexes() {
    assert_eq!(
        eval("[for s in [\"a\", \"b\"] : upper(s)]"),
        "[\"A\",\"B\"]"
    );
    assert_eq!(
        eval("{for k, v in {a = 1, b = 2} : v => k}"),
        "{\"1\":\"a\",\"2\":\"b\"}"
    );
    assert_eq!(eval("[for i, v in [5, 6, 7] : i if v > 5]"), "[1,2]");
    assert_eq!(
        eval("{for s in [\"a\", \"b\", \"a\"] : s => s...}"),
        "{\"a\":[\"a\",\"a\"],\"b\":[\"b\"]}"
    );
    assert!(eval("{for s in [\"a\", \"a\"] : s => s}")
        .starts_with("ERROR: Two different items produced the key \"a\""));
    assert_eq!(eval("[{a = 1}, {a = 2}][*].a"), "[1,2]");
    assert_eq!(eval("[{a = {b = 1}}].*.a.b"), "[1]");
    assert_eq!(eval("{a = 1}[\"a\"]"), "1");
    // HCL's length test words only an index equal to the length.
    assert_eq!(
        eval("[1, 2][5]"),
        "ERROR: The given key does not identify an element in this collection value."
    );
    assert_eq!(eval("[1, 2][2]"), "ERROR: The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.");
    assert_eq!(
        eval("{a = 1}.b"),
        "ERROR: This object does not have an attribute named \"b\"."
    );
}

#[test]
fn string_functions() {
    assert_eq!(eval("upper(\"hello\")"), "\"HELLO\"");
    assert_eq!(eval("title(\"hello world\")"), "\"Hello World\"");
    assert_eq!(eval("trimspace(\"  x \")"), "\"x\"");
    assert_eq!(eval("trim(\"?!hello?!\", \"!?\")"), "\"hello\"");
    assert_eq!(eval("trimprefix(\"helloworld\", \"hello\")"), "\"world\"");
    assert_eq!(eval("chomp(\"hello\\n\\n\")"), "\"hello\"");
    assert_eq!(eval("substr(\"hello world\", 1, 4)"), "\"ello\"");
    assert_eq!(eval("substr(\"hello world\", -5, -1)"), "\"world\"");
    assert_eq!(eval("join(\"-\", [\"a\", \"b\"], [\"c\"])"), "\"a-b-c\"");
    assert_eq!(eval("split(\",\", \"a,b\")"), "[\"a\",\"b\"]");
    assert_eq!(
        eval("replace(\"1 + 2 + 3\", \"+\", \"-\")"),
        "\"1 - 2 - 3\""
    );
    assert_eq!(
        eval("replace(\"hello world\", \"/w.*d/\", \"everybody\")"),
        "\"hello everybody\""
    );
    assert_eq!(
        eval("regex(\"[a-z]+\", \"53453453.345345aaabbbccc23454\")"),
        "\"aaabbbccc\""
    );
    assert_eq!(
        eval("regex(\"(\\\\d\\\\d\\\\d\\\\d)-(\\\\d\\\\d)\", \"2019-02\")"),
        "[\"2019\",\"02\"]"
    );
    assert_eq!(
        eval("regexall(\"[a-z]+\", \"1234abcd5678efgh9\")"),
        "[\"abcd\",\"efgh\"]"
    );
    assert_eq!(
        eval("format(\"Hello, %s! %d %.2f %5s|%-3s|%03d %t\", \"Ander\", 7, 3.14159, \"x\", \"y\", 5, true)"),
        "\"Hello, Ander! 7 3.14     x|y  |005 true\""
    );
    assert_eq!(eval("format(\"%q\", \"a\")"), r#""\"a\"""#);
    assert_eq!(
        eval("formatlist(\"%s-%s\", [\"a\", \"b\"], \"x\")"),
        "[\"a-x\",\"b-x\"]"
    );
    assert_eq!(eval("indent(2, \"a\\nb\")"), "\"a\\n  b\"");
    assert_eq!(eval("strrev(\"abc\")"), "\"cba\"");
    assert_eq!(eval("startswith(\"hello\", \"he\")"), "true");
    assert_eq!(eval("strcontains(\"hello\", \"z\")"), "false");
}

#[test]
fn collection_functions() {
    assert_eq!(eval("length({a = 1, b = 2})"), "2");
    assert_eq!(eval("length(\"héllo\")"), "5");
    assert_eq!(
        eval("concat([\"a\"], [\"b\", \"c\"])"),
        "[\"a\",\"b\",\"c\"]"
    );
    assert_eq!(eval("contains([\"a\", \"b\"], \"b\")"), "true");
    assert_eq!(eval("distinct([\"a\", \"b\", \"a\"])"), "[\"a\",\"b\"]");
    assert_eq!(eval("element([\"a\", \"b\", \"c\"], 3)"), "\"a\"");
    assert_eq!(
        eval("flatten([[\"a\", \"b\"], [], [\"c\", [\"d\"]]])"),
        "[\"a\",\"b\",\"c\",\"d\"]"
    );
    assert_eq!(eval("keys({b = 1, a = 2})"), "[\"a\",\"b\"]");
    assert_eq!(eval("values({b = 1, a = 2})"), "[2,1]");
    assert_eq!(eval("lookup({a = \"x\"}, \"b\", \"dflt\")"), "\"dflt\"");
    assert_eq!(
        eval("merge({a = 1, b = 2}, {b = 3}, null)"),
        "{\"a\":1,\"b\":3}"
    );
    assert_eq!(eval("range(3)"), "[0,1,2]");
    assert_eq!(eval("range(1, 8, 3)"), "[1,4,7]");
    assert_eq!(eval("range(4, 1)"), "[4,3,2]");
    assert_eq!(eval("reverse([1, 2])"), "[2,1]");
    assert_eq!(
        eval("slice([\"a\", \"b\", \"c\", \"d\"], 1, 3)"),
        "[\"b\",\"c\"]"
    );
    assert_eq!(eval("sort([\"e\", \"d\", \"a\"])"), "[\"a\",\"d\",\"e\"]");
    assert_eq!(eval("zipmap([\"a\", \"b\"], [1, 2])"), "{\"a\":1,\"b\":2}");
    assert_eq!(eval("coalesce(\"\", null, \"b\")"), "\"b\"");
    assert_eq!(eval("coalescelist([], [\"c\"])"), "[\"c\"]");
    assert_eq!(eval("compact([\"a\", \"\", null, \"b\"])"), "[\"a\",\"b\"]");
    assert_eq!(eval("index([\"a\", \"b\"], \"b\")"), "1");
    assert_eq!(eval("one([])"), "null");
    assert_eq!(eval("one([\"x\"])"), "\"x\"");
    assert_eq!(
        eval("setunion([\"b\", \"a\"], [\"c\", \"a\"])"),
        "[\"a\",\"b\",\"c\"]"
    );
    assert_eq!(
        eval("setintersection([\"a\", \"b\"], [\"b\", \"c\"])"),
        "[\"b\"]"
    );
    assert_eq!(
        eval("setsubtract([\"a\", \"b\", \"c\"], [\"a\", \"c\"])"),
        "[\"b\"]"
    );
    assert_eq!(
        eval("setproduct([\"a\", \"b\"], [1])"),
        "[[\"a\",1],[\"b\",1]]"
    );
    assert_eq!(eval("chunklist([1, 2, 3], 2)"), "[[1,2],[3]]");
    assert_eq!(
        eval("transpose({a = [\"1\", \"2\"], b = [\"2\"]})"),
        "{\"1\":[\"a\"],\"2\":[\"a\",\"b\"]}"
    );
    assert_eq!(eval("alltrue([true, \"true\"])"), "true");
    assert_eq!(eval("anytrue([])"), "false");
    assert_eq!(eval("sum([1, 2.5])"), "3.5");
    assert_eq!(
        eval("matchkeys([\"i1\", \"i2\"], [\"a\", \"b\"], [\"b\"])"),
        "[\"i2\"]"
    );
    assert_eq!(eval("toset([\"b\", \"a\", \"b\"])"), "[\"a\",\"b\"]");
    assert_eq!(eval("tomap({a = 1})"), "{\"a\":1}");
    assert_eq!(eval("max([1, 5, 2]...)"), "5");
}

#[test]
fn numeric_encoding_and_conversion_functions() {
    assert_eq!(eval("abs(-3)"), "3");
    assert_eq!(eval("ceil(1.2)"), "2");
    assert_eq!(eval("floor(1.8)"), "1");
    assert_eq!(eval("min(3, 1, 2)"), "1");
    assert_eq!(eval("pow(2, 10)"), "1024");
    assert_eq!(eval("signum(-4)"), "-1");
    assert_eq!(eval("parseint(\"FF\", 16)"), "255");
    assert_eq!(
        eval("jsonencode({a = [1, \"b\"]})"),
        "\"{\\\"a\\\":[1,\\\"b\\\"]}\""
    );
    assert_eq!(eval("jsondecode(\"{\\\"a\\\": true}\").a"), "true");
    assert_eq!(
        eval("base64encode(\"Hello World\")"),
        "\"SGVsbG8gV29ybGQ=\""
    );
    assert_eq!(
        eval("base64decode(\"SGVsbG8gV29ybGQ=\")"),
        "\"Hello World\""
    );
    assert_eq!(eval("urlencode(\"a b/c\")"), "\"a+b%2Fc\"");
    assert_eq!(eval("tostring(1)"), "\"1\"");
    assert_eq!(eval("tonumber(\"1.5\")"), "1.5");
    assert_eq!(eval("tobool(\"true\")"), "true");
    assert_eq!(eval("tolist([\"a\"])"), "[\"a\"]");
    assert_eq!(eval("try(tonumber(\"x\"), 7)"), "7");
    assert_eq!(eval("can({}.a)"), "false");
    assert_eq!(eval("can(1)"), "true");
    assert_eq!(
        eval("nosuch(1)"),
        "ERROR: There is no function named \"nosuch\"."
    );
}

#[test]
fn hashing_functions() {
    assert_eq!(
        eval("md5(\"hello world\")"),
        "\"5eb63bbbe01eeed093cb22bb8f5acdc3\""
    );
    assert_eq!(
        eval("sha1(\"hello world\")"),
        "\"2aae6c35c94fcfb415dbe95f408b9ce91ee846ed\""
    );
    assert_eq!(
        eval("sha256(\"hello world\")"),
        "\"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9\""
    );
    assert_eq!(
        eval("base64sha256(\"hello world\")"),
        "\"uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=\""
    );
    assert!(eval("sha512(\"hello world\")")
        .starts_with("\"309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f"));
}

#[test]
fn cidr_functions() {
    assert_eq!(eval("cidrhost(\"10.12.112.0/20\", 16)"), "\"10.12.112.16\"");
    assert_eq!(
        eval("cidrhost(\"10.12.112.0/20\", 268)"),
        "\"10.12.113.12\""
    );
    assert_eq!(
        eval("cidrhost(\"fd00:fd12:3456:7890:00a2::/72\", 34)"),
        "\"fd00:fd12:3456:7890::22\""
    );
    assert_eq!(eval("cidrnetmask(\"172.16.0.0/12\")"), "\"255.240.0.0\"");
    assert_eq!(
        eval("cidrsubnet(\"172.16.0.0/12\", 4, 2)"),
        "\"172.18.0.0/16\""
    );
    assert_eq!(
        eval("cidrsubnet(\"10.1.2.0/24\", 4, 15)"),
        "\"10.1.2.240/28\""
    );
    assert_eq!(
        eval("cidrsubnet(\"fd00:fd12:3456:7890::/56\", 16, 162)"),
        "\"fd00:fd12:3456:7800:a200::/72\""
    );
    assert_eq!(
        eval("cidrsubnets(\"10.1.0.0/16\", 4, 4, 8, 4)"),
        "[\"10.1.0.0/20\",\"10.1.16.0/20\",\"10.1.32.0/24\",\"10.1.48.0/20\"]"
    );
}

#[test]
fn file_functions_stay_inside_the_module() {
    let dir = std::env::temp_dir().join(format!("strata-fn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hello.txt"), "hi\n").unwrap();
    std::fs::write(
        dir.join("t.tpl"),
        "%{ for n in names }Hello ${n}!\n%{ endfor }",
    )
    .unwrap();
    let run = |src: &str| match eval_in(src, Some(dir.clone())) {
        Ok(v) => v.to_json().to_string(),
        Err(e) => format!("ERROR: {}", e.detail),
    };
    assert_eq!(run("file(\"hello.txt\")"), "\"hi\\n\"");
    assert_eq!(run("fileexists(\"nope.txt\")"), "false");
    assert_eq!(
        run("templatefile(\"t.tpl\", {names = [\"a\", \"b\"]})"),
        "\"Hello a!\\nHello b!\\n\""
    );
    // Outside the module, nothing is read: the contents are unknown.
    for outside in ["file(\"../../etc/passwd\")", "fileexists(\"../x\")"] {
        assert!(matches!(
            eval_in(outside, Some(dir.clone())),
            Ok(Value::Unknown)
        ));
    }
    assert_eq!(run("basename(\"a/b/c.txt\")"), "\"c.txt\"");
    assert_eq!(run("dirname(\"a/b/c.txt\")"), "\"a/b\"");
    // Without a module directory, what a file holds is unknown.
    assert_eq!(eval("file(\"hello.txt\")"), "UNKNOWN");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn collections_keep_their_kinds() {
    let v = eval_in("toset([\"b\", \"a\"])", None).unwrap();
    assert_eq!(
        v,
        Value::Set(vec![Value::string("a"), Value::string("b")].into())
    );
    let v = eval_in("tomap({a = 1})", None).unwrap();
    assert_eq!(
        v,
        Value::Map(BTreeMap::from([("a".to_string(), Value::Number(1.0))]).into())
    );
}

/// The error of `src` as `summary | detail | start-end` (offsets in `x = src`).
fn call_error(src: &str) -> String {
    match eval_in(src, None) {
        Ok(v) => format!("OK {v}"),
        Err(e) => format!(
            "{} | {} | {}-{}",
            e.summary, e.detail, e.span.start, e.span.end
        ),
    }
}

#[test]
fn arguments_convert_to_their_parameter_types_as_hcl_converts_them() {
    assert_eq!(
        call_error("upper([1])"),
        "Invalid function argument | Invalid value for \"str\" parameter: string required. | 10-11"
    );
    assert_eq!(
        call_error("join(\",\", [[1]])"),
        "Invalid function argument | Invalid value for \"lists\" parameter: element 0: string required. | 14-15"
    );
    assert_eq!(
        call_error("abs(\"x\")"),
        "Invalid function argument | Invalid value for \"num\" parameter: a number is required. | 9-10"
    );
    assert_eq!(
        call_error("upper(null)"),
        "Invalid function argument | Invalid value for \"str\" parameter: argument must not be null. | 10-14"
    );
    assert_eq!(
        call_error("distinct(1)"),
        "Invalid function argument | Invalid value for \"list\" parameter: list of any single type required. | 13-14"
    );
    // An unknown argument has no type Strata knows: it converts.
    assert_eq!(call_error("upper(var.unknown)"), "OK (known after apply)");
    assert_eq!(call_error("abs(\"-2\")"), "OK 2");
}

#[test]
fn failures_in_terraform_words_name_the_call_or_the_argument() {
    assert_eq!(
        call_error("element([], 0)"),
        "Error in function call | Call to function \"element\" failed: cannot use element function with an empty list. | 4-12"
    );
    assert_eq!(
        call_error("keys([1])"),
        "Invalid function argument | Invalid value for \"inputMap\" parameter: must have map or object type. | 9-10"
    );
    // A failure not recorded against Terraform is Strata's own: not attributed to a call.
    assert!(eval_in("range(1, 2, 0)", None).is_err_and(|e| e.function.is_none()));
    // try() and can() cannot tell what a function Strata lacks would do.
    assert_eq!(call_error("try(nosuch(1), 2)"), "OK (known after apply)");
    assert_eq!(call_error("can(nosuch(1))"), "OK (known after apply)");
}
