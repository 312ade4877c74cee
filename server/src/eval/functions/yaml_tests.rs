//! `yamlencode` and `yamldecode` against Terraform's documented examples, and against
//! input that must fail within Strata's limits rather than exhaust it. Everything else
//! is compared with `terraform console`'s results in `results_tests.rs`
//! (`fixtures/functions/yaml-results.json`).

use super::tests::eval;
use crate::eval::value::Value;

#[test]
fn yamlencode_documented_examples() {
    assert_eq!(
        eval(r#"yamlencode({"a":"b", "c":"d"})"#),
        r#""\"a\": \"b\"\n\"c\": \"d\"\n""#
    );
    assert_eq!(
        eval(r#"yamlencode({"foo":[1, 2, 3], "bar": "baz"})"#),
        r#""\"bar\": \"baz\"\n\"foo\":\n- 1\n- 2\n- 3\n""#
    );
    assert_eq!(
        eval(r#"yamlencode({"foo":[1, {"a":"b","c":"d"}, 3], "bar": "baz"})"#),
        r#""\"bar\": \"baz\"\n\"foo\":\n- 1\n- \"a\": \"b\"\n  \"c\": \"d\"\n- 3\n""#
    );
}

#[test]
fn yamlencode_layout() {
    // A plain root scalar ends an open-ended document; empty collections are flow.
    assert_eq!(eval("yamlencode(1.5)"), r#""1.5\n...\n""#);
    assert_eq!(eval("yamlencode(null)"), r#""null\n...\n""#);
    assert_eq!(
        eval("yamlencode({a = [], b = {}})"),
        r#""\"a\": []\n\"b\": {}\n""#
    );
    // Multi-line strings are literal, with their chomping hint; keys stay quoted.
    assert_eq!(
        eval(r#"yamlencode({k = "a\nb", l = "c\n", m = "d\n\n"})"#),
        r#""\"k\": |-\n  a\n  b\n\"l\": |\n  c\n\"m\": |+\n  d\n\n""#
    );
    // Characters beyond the BMP and controls are escaped.
    assert_eq!(
        eval(r#"yamlencode("\u0001 😀")"#),
        r#""\"\\x01 \\U0001F600\"\n""#
    );
    assert_eq!(eval("yamlencode(var.unknown)"), "UNKNOWN");
}

#[test]
fn yamldecode_documented_examples() {
    assert_eq!(
        eval(r#"yamldecode("hello: world")"#),
        r#"{"hello":"world"}"#
    );
    assert_eq!(eval(r#"yamldecode("true")"#), "true");
    assert_eq!(
        eval(r#"yamldecode("{a: &foo [1, 2, 3], b: *foo}")"#),
        r#"{"a":[1,2,3],"b":[1,2,3]}"#
    );
    assert_eq!(
        eval(r#"yamldecode("{a: &foo [1, *foo, 3]}")"#),
        r#"ERROR: Call to function "yamldecode" failed: cannot refer to anchor "foo" from inside its own definition."#
    );
    assert_eq!(
        eval(r#"yamldecode("{a: !not-supported foo}")"#),
        r#"ERROR: Call to function "yamldecode" failed: unsupported tag "!not-supported"."#
    );
}

#[test]
fn yamldecode_resolves_as_cty_yaml() {
    // YAML 1.1's booleans and nulls, YAML 1.2's numbers, timestamps as RFC 3339.
    assert_eq!(
        eval(r#"yamldecode("[yes, off, ~, 0x1F, 0o17, 1_000, 2001-12-14]")"#),
        r#"[true,false,null,31,15,"1_000","2001-12-14T00:00:00Z"]"#
    );
    // A block scalar is a string, resolved first; merge keys merge mappings; keys are
    // resolved too (`y` is YAML 1.1's true).
    assert_eq!(eval(r#"yamldecode("|-\n  yes")"#), r#""true""#);
    assert_eq!(
        eval(r#"yamldecode("b: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3")"#),
        r#"{"b":{"true":2,"x":1},"d":{"true":3,"x":1}}"#
    );
    // Positions: a 0-based line and 1-based column, none on the first line.
    assert_eq!(
        eval(r#"yamldecode("x: 1\n<<: 1")"#),
        r#"ERROR: Call to function "yamldecode" failed: on line 1, column 1: cannot merge number into mapping."#
    );
}

#[test]
fn yamldecode_reads_past_the_ends_libyaml_safer_panicked_at() {
    // vendor/libyaml-safer/STRATA-PATCH.md.
    assert_eq!(eval(r#"yamldecode("|\n  a")"#), r#""a""#);
    // go-yaml reads the `,` into the tag (vendor/libyaml-safer/STRATA-PATCH.md).
    assert_eq!(
        eval(r#"yamldecode("[!!str, a]")"#),
        r#"ERROR: Call to function "yamldecode" failed: unsupported tag "tag:yaml.org,2002:str,"."#
    );
    assert_eq!(
        eval(r#"yamldecode("x: \"a\\")"#),
        r#"ERROR: Call to function "yamldecode" failed: found unknown escape character."#
    );
}

#[test]
fn yamldecode_stays_within_limits() {
    // Nesting deeper than Strata's values go fails, without recursion.
    let deep = format!(r#"yamldecode("{}")"#, "[".repeat(100_000));
    assert!(eval(&deep).contains("levels deep"), "{}", eval(&deep));
    // Aliases of aliases grow exponentially: the evaluation budget stops them.
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\\n");
    for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        let items = vec![format!("*{previous}"); 10].join(", ");
        bomb.push_str(&format!("{name}: &{name} [{items}]\\n"));
    }
    assert!(eval(&format!(r#"yamldecode("{bomb}")"#)).starts_with("ERROR: "));
}

#[test]
fn yamlencode_stays_within_limits() {
    // Indentation grows the text past the value: 200,000 numbers 200 levels deep are
    // written 400 columns in, more than the 64 MiB one value may hold.
    let mut value = Value::Tuple(vec![Value::Number(1.0); 200_000].into());
    for _ in 0..200 {
        value = Value::Tuple(vec![value].into());
    }
    let result = super::yaml_emitter::encode(&value);
    assert!(result.is_err_and(|e| e.contains("64 MiB")));
}
