//! The work of a function counts against the evaluation budget in proportion to what it
//! handles: the bytes of strings read, made and read from files, the copies it makes, the
//! states of the regular expressions it compiles, the evaluation of a template file, the
//! directory entries it walks. Each test measures the steps one call takes with a plan's
//! [`Budget`] of a given size (spent once an evaluation takes at least that many), or runs
//! a loop that only such counting ends.

use std::path::{Path, PathBuf};

use super::tests::eval;
use crate::eval::{evaluate, Budget, EvalError, Scope, Value, EVALUATION_LIMIT};
use crate::syntax::{parse, Span, Syntax};

/// A scope of no names, with files under `dir` and the steps of a `budget`.
struct Metered<'a> {
    dir: Option<&'a Path>,
    budget: &'a Budget,
}

impl Scope for Metered<'_> {
    fn lookup(&self, root: &str, _: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        Err(EvalError::new("Reference to undeclared object", root, span))
    }

    fn module_dir(&self) -> Option<&Path> {
        self.dir
    }

    fn budget(&self) -> Option<&Budget> {
        Some(self.budget)
    }
}

/// Whether evaluating `src` (in `dir`) takes at least `steps` steps.
fn takes_at_least(src: &str, dir: Option<&Path>, steps: u64) -> bool {
    let file = parse(&format!("x = {src}\n"), Syntax::Native, None);
    assert!(!file.has_errors(), "{src}: {:?}", file.diagnostics);
    let budget = Budget::new(steps);
    let result = evaluate(
        &file.body.attributes[0].expr,
        &Metered {
            dir,
            budget: &budget,
        },
    );
    assert!(result.is_ok(), "{src}: {result:?}");
    budget.is_spent()
}

/// Asserts that `src` takes at least `low` steps and fewer than `high`.
fn costs(src: &str, dir: Option<&Path>, low: u64, high: u64) {
    assert!(
        takes_at_least(src, dir, low),
        "{src}: fewer than {low} steps"
    );
    assert!(
        !takes_at_least(src, dir, high),
        "{src}: {high} steps or more"
    );
}

/// Whether `result` is the budget's error.
fn limited(result: &str) -> bool {
    result.starts_with("ERROR: Evaluating this expression took more than 2000000 steps")
}

/// A module directory for this test, emptied.
fn directory(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-work-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn strings_count_their_bytes_where_they_are_read_or_made() {
    const MIB: &str = "format(\"%1048576s\", \"\")";
    // A 1 MiB string is 16,384 steps of 64 bytes: made by a function, a template, or read
    // through a name.
    costs(MIB, None, 16_384, 17_000);
    costs(&format!("\"${{{MIB}}}.\""), None, 2 * 16_384, 2 * 17_000);
    costs(
        &format!("[for s in [{MIB}] : s]"),
        None,
        2 * 16_384,
        2 * 17_000,
    );
    // Short strings cost as they did: one step per expression.
    costs("\"abc\"", None, 1, 2);
    // So comparing a 64 KiB string in a loop of a million ends in the budget's error
    // (each read is a copy), where it ran for minutes.
    let result = eval(
        "[for s in [format(\"%65536s\", \"\")] : \
         [for i in range(1000) : [for j in range(1000) : s == \"\"]]]",
    );
    assert!(limited(&result), "{result}");
}

#[test]
fn copies_are_counted_before_they_are_made() {
    // setproduct copies its one 64 KiB string into 250,000 rows (16 GB): refused before
    // it builds any, with the budget's error.
    let result = eval("setproduct([format(\"%65536s\", \"\")], range(500), range(500))");
    assert!(limited(&result), "{result}");
    // The same number of rows of numbers is a result the budget holds.
    assert_eq!(
        eval("length(setproduct(range(1000), range(500)))"),
        "500000"
    );
    // formatlist copies an argument that is not a list into every row.
    costs(
        "length(formatlist(\"%.1s%s\", format(\"%65536s\", \"\"), range(100)))",
        None,
        100 * 1024,
        110 * 1024,
    );
}

#[test]
fn compiling_a_regular_expression_counts_its_states() {
    // \pL is 827 UTF-8 sequences, each compiled once per repetition: 8,270 states of 8
    // steps.
    costs("regexall(\"\\\\pL{10}\", \"\")", None, 66_000, 67_000);
    costs("regexall(\"[a-z]+\", \"abc\")", None, 1, 100);
    // One that compiling would take half a second on is refused before it is compiled.
    let result = eval("regexall(\"\\\\pL{400}\", \"\")");
    assert!(limited(&result), "{result}");
    let result = eval("replace(\"a\", \"/(\\\\pL{200}){3}/\", \"\")");
    assert!(limited(&result), "{result}");
    // An invalid pattern is Go's error, as Terraform gives it.
    assert!(eval("regex(\"(\", \"\")").contains("invalid regexp pattern: missing closing ) in ("));
    // A pattern of megabytes is refused before it is parsed, one state a byte.
    let result = eval("regex(format(\"%1048576s\", \"\"), \"\")");
    assert!(limited(&result), "{result}");
}

#[test]
fn searching_counts_the_pattern_s_positions_times_the_string_s_bytes() {
    const SPACES: &str = "format(\"%1048576s\", \"\")";
    // Making the 1 MiB string is 16,384 steps; searching it for one position is 262,144
    // (four bytes a step), whether the function is regex, regexall or replace (whose
    // result, 1 MiB again, `try` reads and copies: twice 16,384 more).
    for f in [
        "regex(\"x\", S)",
        "regexall(\"x\", S)",
        "replace(S, \"/x/\", \"\")",
    ] {
        let src = f.replace('S', SPACES);
        let result = if f.starts_with("replace") {
            2 * 16_384
        } else {
            0
        };
        let low = 16_384 + 262_144 + result;
        costs(&format!("try({src}, \"\")"), None, low, low + 1_000);
    }
    // A capture group is two positions more (its slots weigh only where the PikeVM
    // finds the groups of a match, and there is none).
    let low = 16_384 + 3 * 262_144;
    costs(
        &format!("regexall(\"(x)\", {SPACES})"),
        None,
        low,
        low + 1_000,
    );
    // An ordinary search of a long string holds in the budget: 262,144 words of 1 MiB.
    let words = "replace(format(\"%1048576s\", \"\"), \"    \", \"abc \")";
    assert_eq!(
        eval(&format!("length(regexall(\"[a-z]+\", {words}))")),
        "262144"
    );
    // A hostile one ends with the budget's error as it searches: a short pattern of
    // 4,001 positions (RE2 counts to 1,000 at most) against 16 KiB, a 64 KiB pattern
    // against itself (7 s in a release build before searches were charged), 256 groups
    // against 4 KiB.
    let a = |n: u32| format!("replace(format(\"%{n}s\", \"\"), \" \", \"a\")");
    const A4000: &str = "join(\"\", [for i in range(4) : \"(?:a+){1000}\"], [\"|\"])";
    for src in [
        format!("regex({A4000}, {})", a(16_384)),
        format!("regexall({}, {})", a(65_536), a(65_536)),
        format!(
            "regexall(join(\"\", [for i in range(256) : \"(a*)\"]), {})",
            a(4_096)
        ),
        format!("try(regex({A4000}, {}), \"\")", a(16_384)),
    ] {
        let result = eval(&src);
        assert!(limited(&result), "{src}: {result}");
    }
    // Without the groups, the same search is 256 positions: 262,144 steps.
    let src = format!(
        "length(regexall(join(\"\", [for i in range(256) : \"(?:a*)\"]), {}))",
        a(4_096)
    );
    assert_eq!(eval(&src), "1");
}

#[test]
fn files_count_the_bytes_read_and_template_files_their_evaluation() {
    let dir = directory("files");
    std::fs::write(dir.join("big"), vec![b'x'; 1 << 20]).unwrap();
    std::fs::write(
        dir.join("loop.tpl"),
        "%{ for i in n }%{ for j in n }%{ for k in n }.%{ endfor }%{ endfor }%{ endfor }",
    )
    .unwrap();
    for f in ["filesha256", "filemd5", "filebase64sha512"] {
        costs(&format!("{f}(\"big\")"), Some(&dir), 16_384, 17_000);
    }
    // The template's thousand iterations are steps of the call.
    costs(
        "templatefile(\"loop.tpl\", { n = range(10) })",
        Some(&dir),
        1_000,
        5_000,
    );
    // A template file over a billion items ends in the budget's error, which neither the
    // function's failure nor `try` hides.
    let run = |src: &str| match super::tests::eval_in(src, Some(dir.clone())) {
        Ok(v) => v.to_json().to_string(),
        Err(e) => {
            assert_eq!(e.summary, EVALUATION_LIMIT, "{src}: {e:?}");
            format!("ERROR: {}", e.detail)
        }
    };
    assert!(limited(&run(
        "templatefile(\"loop.tpl\", { n = range(1000) })"
    )));
    assert!(limited(&run(
        "try(templatefile(\"loop.tpl\", { n = range(1000) }), \"\")"
    )));
    // A thousand template files of a million steps each: one budget for them all.
    assert!(limited(&run(
        "[for i in range(1000) : templatefile(\"loop.tpl\", { n = range(100) })]"
    )));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fileset_counts_the_directory_entries_it_reads() {
    let dir = directory("fileset");
    for i in 0..300 {
        std::fs::write(dir.join(format!("f{i}.txt")), "").unwrap();
    }
    costs("length(fileset(\".\", \"*.txt\"))", Some(&dir), 300, 700);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn set_functions_and_distinct_take_n_log_n_time() {
    // 40,000 different elements: comparing every pair would take minutes.
    let many = "flatten([for i in range(200) : [for j in range(200) : i * 200 + j]])";
    assert_eq!(eval(&format!("length(distinct({many}))")), "40000");
    assert_eq!(
        eval(&format!("length(setintersection({many}, {many}))")),
        "40000"
    );
    assert_eq!(eval(&format!("length(setsubtract({many}, {many}))")), "0");
    assert_eq!(
        eval(&format!("length(matchkeys({many}, {many}, {many}))")),
        "40000"
    );
    // distinct keeps the first of equal elements, in order.
    assert_eq!(eval("distinct([3, 1, 3, 2, 1])"), "[3,1,2]");
    assert_eq!(
        eval("distinct([[1], [1], {a = 1}, {a = 1}])"),
        "[[1],{\"a\":1}]"
    );
    assert_eq!(eval("setsubtract([1, 2, 3], [2])"), "[1,3]");
    assert_eq!(
        eval("matchkeys([\"a\", \"b\", \"c\"], [1, 2, 1], [1])"),
        "[\"a\",\"c\"]"
    );
}

#[test]
fn split_counts_its_parts_first_and_splits_characters_as_go_does() {
    // Terraform 1.11: split("", "abc") is ["a", "b", "c"].
    assert_eq!(eval("split(\"\", \"abc\")"), "[\"a\",\"b\",\"c\"]");
    assert_eq!(eval("split(\"\", \"é€\")"), "[\"é\",\"€\"]");
    assert_eq!(eval("split(\",\", \"\")"), "[\"\"]");
    let result = eval("split(\"\", format(\"%2000000s\", \"\"))");
    assert!(
        result.contains("the result would have more than 1048576 elements"),
        "{result}"
    );
    let result = eval("regexall(\"\", format(\"%2000000s\", \"\"))");
    assert!(
        result.contains("the result would have more than 1048576 elements"),
        "{result}"
    );
}
