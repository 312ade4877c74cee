//! Functions at the edges of sizes and numbers: each answers as Terraform 1.11 does
//! (checked with `terraform console`), or fails with a size-limit error where Terraform
//! would build a value of gigabytes, panic or run out of memory; and no call with
//! extreme arguments panics.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::tests::{eval, eval_in};
use crate::module::Dialect;
use crate::schema::functions;

const WHOLE: &str =
    "ERROR: Call to function \"substr\" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.";

fn size_limited(result: &str) -> bool {
    result.starts_with("ERROR:") && result.contains("the most Strata builds for one value")
}

#[test]
fn substr_follows_go_cty() {
    assert_eq!(eval("substr(\"abc\", 1, 9223372036854775807)"), "\"bc\"");
    assert_eq!(eval("substr(\"abc\", -9223372036854775808, 1)"), "\"a\"");
    assert_eq!(eval("substr(\"abc\", 4, 1)"), "\"\"");
    assert_eq!(eval("substr(\"abc\", 3, 1)"), "\"\"");
    assert_eq!(eval("substr(\"abc\", -4, 1)"), "\"a\"");
    assert_eq!(eval("substr(\"abc\", -2, 0)"), "\"bc\"");
    assert_eq!(eval("substr(\"abc\", 1, 0)"), "\"\"");
    assert_eq!(eval("substr(\"abc\", 1e19, 1)"), WHOLE);
    assert_eq!(eval("substr(\"abc\", 1, 1.5)"), WHOLE);
}

#[test]
fn indent_is_bounded() {
    assert!(size_limited(&eval("indent(1e18, \"a\\nb\")")));
    assert!(eval("indent(-1, \"a\\nb\")").contains("must not be negative"));
    assert_eq!(eval("indent(1e18, \"ab\")"), "\"ab\"");
    assert_eq!(eval("indent(0, \"a\\nb\")"), "\"a\\nb\"");
}

#[test]
fn format_widths_and_precisions_as_go_prints_them() {
    // Go's fmt refuses a width or precision past about ten million.
    assert_eq!(
        eval("format(\"%999999999d\", 1)"),
        "\"%!(NOVERB)%!(EXTRA *big.Int=1)\""
    );
    assert_eq!(
        eval("format(\"%.10000010f\", 1)"),
        "\"%!(NOVERB)%!(EXTRA *big.Float=1)\""
    );
    let wide = eval_in("format(\"%10000009d\", 1)", None).unwrap();
    assert_eq!(wide.as_str().map(str::len), Some(10_000_009));
    let precise = eval_in("format(\"%.70000f\", 1)", None).unwrap();
    let precise = precise.as_str().unwrap();
    assert_eq!(precise.len(), 70_002);
    assert!(precise.starts_with("1.000") && precise.ends_with("000"));
    // Strings are padded by go-cty itself: past the limit, a size-limit error.
    assert!(size_limited(&eval("format(\"%999999999s\", \"a\")")));
    assert!(size_limited(&eval(
        "format(\"%99999999999999999999999v\", 1)"
    )));
}

#[test]
fn format_numbers_as_big_numbers() {
    for (src, want) in [
        ("format(\"%d\", 9007199254740992)", "9007199254740992"),
        ("format(\"%d\", -9007199254740992)", "-9007199254740992"),
        ("format(\"%d\", 1e30)", "1000000000000000000000000000000"),
        ("format(\"%x\", 1e30)", "c9f2c9cd04674edea40000000"),
        ("format(\"%x\", -1e30)", "-c9f2c9cd04674edea40000000"),
        (
            "format(\"%b\", 1e20)",
            "1010110101111000111010111100010110101100011000100000000000000000000",
        ),
        ("format(\"%b\", -5)", "-101"),
        ("format(\"%v\", 1000000)", "1e+06"),
        ("format(\"%v\", 123456)", "123456"),
        ("format(\"%.3g\", 1234567)", "1.23e+06"),
        ("format(\"%.0g\", 5)", "5"),
        ("format(\"%G\", 0.000001)", "1E-06"),
        ("format(\"%g\", 0.00001)", "1e-05"),
        ("format(\"%.3e\", 1234.5678)", "1.235e+03"),
        ("format(\"%e\", 0)", "0.000000e+00"),
        ("format(\"%e\", 1e300)", "1.000000e+300"),
        ("format(\"[%08.2f]\", 3.14159)", "[00003.14]"),
        ("format(\"[%-08.2f]\", 3.14159)", "[00003.14]"),
        ("format(\"%010.3f\", -3.14159)", "-00003.142"),
        ("format(\"%+.2f\", 3)", "+3.00"),
        ("format(\"[%#x]\", 255)", "[0xff]"),
        ("format(\"[%#o]\", 8)", "[010]"),
        ("format(\"[%.5d]\", 42)", "[00042]"),
        ("format(\"[%8.5d]\", -42)", "[  -00042]"),
        ("format(\"[%.0d]\", 0)", "[]"),
        ("format(\"[%-8d]\", 3)", "[3       ]"),
        ("format(\"[% d]\", 5)", "[ 5]"),
        ("format(\"[%08s]\", \"ab\")", "[000000ab]"),
        ("format(\"[%5t]\", true)", "[true]"),
        ("format(\"[%5.1s]\", \"héllo\")", "[    h]"),
        ("format(\"[%.0s]\", \"abc\")", "[abc]"),
        ("format(\"%[2]s %[1]s\", \"a\", \"b\")", "b a"),
        ("format(\"%f\", pow(10, 400))", "+Inf"),
        ("format(\"[%08f]\", pow(10, 400))", "[    +Inf]"),
    ] {
        assert_eq!(eval(src), format!("\"{want}\""), "{src}");
    }
    for (src, want) in [
        (
            "format(\"%d\", 1.5)",
            "unsupported value for \"%d\" at 0: an integer is required",
        ),
        (
            "format(\"%d\", pow(10, 400))",
            "unsupported value for \"%d\" at 0: an integer is required",
        ),
        (
            "format(\"%*d\", 3, 1)",
            "unrecognized format character '*' at offset 1",
        ),
        (
            "format(\"%c\", 65)",
            "unsupported format verb 'c' in \"%c\" at offset 0",
        ),
        (
            "format(\"%s\")",
            "not enough arguments for \"%s\" at 0: need index 1 but have 0 total",
        ),
        (
            "format(\"%[3]s\", \"a\")",
            "not enough arguments for \"%[3]s\" at 0: need index 3 but have 1 total",
        ),
        (
            "format(\"%-\", 1)",
            "invalid format string starting at offset 2",
        ),
        (
            "format(\"abc %\", 1)",
            "invalid format string starting at offset 5",
        ),
    ] {
        assert_eq!(
            eval(src),
            format!("ERROR: Call to function \"format\" failed: {want}."),
            "{src}"
        );
    }
}

#[test]
fn cidrhost_spans_all_128_bits() {
    for (src, want) in [
        ("cidrhost(\"::/0\", 1)", "::1"),
        (
            "cidrhost(\"::/0\", -1)",
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        ),
        (
            "cidrhost(\"::/0\", 170141183460469231731687303715884105727)",
            "8000::",
        ),
        (
            "cidrhost(\"::/0\", -170141183460469231731687303715884105728)",
            "8000::",
        ),
        ("cidrhost(\"10.0.0.0/30\", -1)", "10.0.0.3"),
        ("cidrhost(\"10.0.0.0/30\", -4)", "10.0.0.0"),
        ("cidrsubnet(\"::/0\", 0, 0)", "::/0"),
        ("cidrsubnet(\"::/0\", 128, 5)", "::5/128"),
        (
            "cidrsubnet(\"::/0\", 64, 9223372036854775807)",
            "7fff:ffff:ffff:ffff::/64",
        ),
    ] {
        assert_eq!(eval(src), format!("\"{want}\""), "{src}");
    }
    assert_eq!(
        eval("cidrhost(\"10.0.0.0/30\", -5)"),
        "ERROR: Call to function \"cidrhost\" failed: prefix of 30 does not accommodate a host numbered -1."
    );
    assert_eq!(
        eval("cidrhost(\"10.0.0.0/30\", 4)"),
        "ERROR: Call to function \"cidrhost\" failed: prefix of 30 does not accommodate a host numbered 4."
    );
    assert!(eval("cidrsubnets(\"10.0.0.0/8\", 9223372036854775807)")
        .contains("may not extend prefix by more than 32 bits"));
    assert!(eval("cidrsubnets(\"::/0\", 128, 128)")
        .contains("may not extend prefix by more than 32 bits"));
}

#[test]
fn collections_and_strings_are_bounded() {
    assert!(eval("range(0, 1e9, 1e-9)").contains("more than 1024 values were generated"));
    assert!(size_limited(&eval(
        "setproduct(range(1024), range(1024), range(1024))"
    )));
    assert!(size_limited(&eval("setproduct(range(1024), range(1024))")));
    assert_eq!(
        eval("length(setproduct(range(1000), range(500)))"),
        "500000"
    );
    let two_mb = "format(\"%2000000s\", \"\")";
    let forty = "x".repeat(40);
    assert!(size_limited(&eval(&format!(
        "replace({two_mb}, \" \", \"{forty}\")"
    ))));
    let dollars = "$0".repeat(40);
    assert!(size_limited(&eval(&format!(
        "replace({two_mb}, \"/ +/\", \"{dollars}\")"
    ))));
    let ten_mb = "format(\"%10000000s\", \"\")";
    assert!(size_limited(&eval(&format!("join({ten_mb}, range(10))"))));
    assert!(size_limited(&eval("formatlist(\"%10000000s\", range(10))")));
    assert_eq!(
        eval("chunklist([1, 2, 3], 9223372036854775807)"),
        "[[1,2,3]]"
    );
    assert_eq!(eval("element([1, 2, 3], 9223372036854775807)"), "2");
    assert_eq!(eval("formatlist(\"%s\", [])"), "[]");
    let months = "format(\"%12000000s\", \"\")";
    assert!(size_limited(&eval(&format!(
        "formatdate(replace({months}, \" \", \"MMMM \"), \"2018-09-02T00:00:00Z\")"
    ))));
    assert!(size_limited(&eval(&format!(
        "textencodebase64(replace({months}, \" \", \"abc\"), \"UTF-16\")"
    ))));
}

#[test]
fn a_long_cutset_trims_in_linear_time() {
    // Each character was looked up in the cutset's text: a million characters against a
    // cutset of a million were 10^12 comparisons.
    let xs = "replace(format(\"%1000000s\", \"\"), \" \", \"x\")";
    let ys = "replace(format(\"%1000000s\", \"\"), \" \", \"y\")";
    assert_eq!(eval(&format!("length(trim({xs}, \"${{{ys}}}x\"))")), "0");
    assert_eq!(eval(&format!("length(trim({xs}, {ys}))")), "1000000");
}

#[test]
fn numbers_at_the_edges() {
    assert_eq!(eval("pow(10, 400) > 1e300"), "true");
    assert!(eval("pow(-8, 0.5)").contains("not a number"));
    assert!(eval("log(-1, 10)").contains("not a number"));
    assert_eq!(
        eval("parseint(\"ffffffffffffffffffffffff\", 16) > 7.9e28"),
        "true"
    );
    assert_eq!(eval("parseint(\"-ff\", 16)"), "-255");
    assert_eq!(eval("parseint(\"+ff\", 16)"), "255");
}

/// A small deterministic generator (xorshift), so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as usize
    }
}

/// Every function, called with extreme and ill-typed arguments, returns a value or an
/// error: it never panics.
#[test]
fn no_function_panics_on_extreme_arguments() {
    let pool = [
        "0",
        "-1",
        "1.5",
        "1e18",
        "-1e18",
        "1e308",
        "-1e308",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551616",
        "pow(10, 400)",
        "\"\"",
        "\"a\\nb\"",
        "\"héllo\"",
        "\"%999999999d %.99999999f %[9]s %\"",
        "\"%10000000s\"",
        "\"/(a*)*$/\"",
        "\"::/0\"",
        "\"10.0.0.0/8\"",
        "\"0.0.0.0/32\"",
        "\"ffffffffffffffffffffffffffffffffffff\"",
        "[]",
        "[[]]",
        "range(1024)",
        "[\"a\", 1, null]",
        "{a = 1, b = [\"x\"]}",
        "{}",
        "null",
        "true",
        "toset([\"a\", \"b\"])",
        "format(\"%100000s\", \"\")",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let names: std::collections::BTreeSet<&str> = functions(Dialect::Terraform)
        .chain(functions(Dialect::OpenTofu))
        .map(|f| f.name.as_str())
        .collect();
    assert!(names.len() > 100, "{} functions", names.len());
    for name in names {
        for arity in 0..=4 {
            for _ in 0..6 {
                let args: Vec<&str> = (0..arity).map(|_| pool[rng.next() % pool.len()]).collect();
                let src = format!("{name}({})", args.join(", "));
                let result = catch_unwind(AssertUnwindSafe(|| eval(&src)));
                assert!(result.is_ok(), "{src} panicked");
            }
        }
    }
}

/// File functions read regular files inside the module only: a symlink out of it is
/// unknown like a `../` path, a FIFO is an error instead of a hang.
#[cfg(unix)]
#[test]
fn file_functions_refuse_what_is_not_a_module_file() {
    use crate::eval::Value;
    let dir = std::env::temp_dir().join(format!("strata-fn-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/real.txt"), "hello").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero")).unwrap();
    std::os::unix::fs::symlink(dir.join("sub/real.txt"), dir.join("inside")).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(dir.join("fifo"))
        .status()
        .unwrap()
        .success());
    let run = |src: &str| match eval_in(src, Some(dir.clone())) {
        Ok(Value::Unknown) => "UNKNOWN".to_string(),
        Ok(v) => v.to_json().to_string(),
        Err(e) => format!("ERROR: {}", e.detail),
    };
    let big = std::fs::File::create(dir.join("big")).unwrap();
    big.set_len(super::MAX_STRING_BYTES as u64 + 1).unwrap();
    for f in [
        "file",
        "filebase64",
        "filemd5",
        "filesha1",
        "filesha256",
        "filesha512",
        "filebase64sha256",
        "filebase64sha512",
        "fileexists",
    ] {
        assert_eq!(run(&format!("{f}(\"passwd\")")), "UNKNOWN", "{f}");
        assert_eq!(run(&format!("{f}(\"zero\")")), "UNKNOWN", "{f}");
        if f != "fileexists" {
            // A file larger than a value may be is not read at all.
            assert_eq!(
                run(&format!("{f}(\"big\")")),
                format!("ERROR: Call to function \"{f}\" failed: cannot read \"big\": it is 67108865 bytes, larger than the 67108864 bytes Strata reads."),
            );
        }
    }
    assert_eq!(
        run("templatefile(\"big\", {})"),
        "ERROR: Call to function \"templatefile\" failed: cannot read \"big\": it is 67108865 bytes, larger than the 67108864 bytes Strata reads."
    );
    assert_eq!(run("templatefile(\"passwd\", {})"), "UNKNOWN");
    assert_eq!(run("file(\"inside\")"), "\"hello\"");
    assert_eq!(
        run("filemd5(\"sub/real.txt\")"),
        "\"5d41402abc4b2a76b9719d911017c592\""
    );
    assert_eq!(
        run("file(\"fifo\")"),
        "ERROR: Call to function \"file\" failed: cannot read \"fifo\": it is a FIFO (named pipe), not a regular file."
    );
    assert_eq!(
        run("fileexists(\"fifo\")"),
        "ERROR: Call to function \"fileexists\" failed: \"fifo\" is a named pipe, not a regular file."
    );
    assert_eq!(
        run("fileexists(\"sub\")"),
        "ERROR: Call to function \"fileexists\" failed: \"sub\" is a directory, not a file."
    );
    assert_eq!(run("fileexists(\"nope\")"), "false");
    assert_eq!(run("fileexists(\"inside\")"), "true");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_evaluation_of_a_cancelled_analysis_stops_and_try_does_not_swallow_it() {
    let cancel = crate::cancel::Cancel::new();
    cancel.cancel();
    let err = cancel.run(|| eval_in("1 + 1", None)).unwrap_err();
    assert_eq!(err.summary, crate::eval::EVALUATION_CANCELLED);
    // Cancelled while it runs: a `try` around the work does not turn it into its fallback.
    let cancel = crate::cancel::Cancel::new();
    let later = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        later.cancel();
    });
    let long = "try([for i in range(1024) : [for j in range(64) : \
                sha512(join(\"\", [for k in range(256) : \"0123456789abcdef\"]))]], 0)";
    let err = cancel.run(|| eval_in(long, None)).unwrap_err();
    assert_eq!(err.summary, crate::eval::EVALUATION_CANCELLED);
    canceller.join().unwrap();
    assert_eq!(eval("try([for i in range(2) : i], 0)"), "[0,1]");
}
