//! The evaluator with random expressions and function calls: every argument of a native
//! file, at any depth of blocks, is evaluated in a scope with a few variables of each
//! kind (one unknown) and a module directory holding a few files, so that the file
//! functions read real files. Seeds and the dictionary (`corpus/eval.dict`) bring every
//! function name. The arguments of one input share one budget, as a module's do in
//! `check` and `plan`, so that an input is bounded as the product is.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use strata::eval::{evaluate, Budget, EvalError, Scope, Value};
use strata::syntax::{parse, Body, Span, Syntax};

struct FuzzScope {
    dir: &'static Path,
    budget: Budget,
}

impl Scope for FuzzScope {
    fn lookup(&self, root: &str, attrs: &[&str], span: Span) -> Result<(Value, usize), EvalError> {
        let value = match (root, attrs.first()) {
            ("var", Some(&"n")) => Value::Number(3.0),
            ("var", Some(&"s")) => Value::String("a,b,c".into()),
            ("var", Some(&"l")) => Value::List(vec![Value::Number(1.0), Value::Number(2.0)].into()),
            ("var", Some(&"m")) => Value::Map(
                [("a".to_string(), Value::String("x".into()))]
                    .into_iter()
                    .collect(),
            ),
            ("var", Some(&"b")) => Value::Bool(true),
            ("var", Some(&"z")) => Value::Null,
            ("var" | "local", Some(_)) => Value::Unknown,
            _ => return Err(EvalError::new("Reference to undeclared object", root, span)),
        };
        Ok((value, 1))
    }

    fn module_dir(&self) -> Option<&Path> {
        Some(self.dir)
    }

    fn budget(&self) -> Option<&Budget> {
        Some(&self.budget)
    }
}

/// A module directory with a file, a template and a subdirectory.
fn module_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("strata-fuzz-eval-{}", std::process::id()));
        let _ = std::fs::create_dir_all(dir.join("sub"));
        let _ = std::fs::write(dir.join("a.txt"), "hello\n");
        let _ = std::fs::write(dir.join("t.tpl"), "%{ for x in xs }${x}%{ endfor }");
        let _ = std::fs::write(dir.join("sub/b.json"), "{\"k\": [1, 2]}");
        dir
    })
}

fn evaluate_all(body: &Body, scope: &FuzzScope) {
    for attribute in &body.attributes {
        let _ = evaluate(&attribute.expr, scope);
    }
    for block in &body.blocks {
        evaluate_all(&block.body, scope);
    }
}

fuzz_target!(|data: &[u8]| {
    let file = parse(&strata_fuzz::text(data), Syntax::Native, None);
    let scope = FuzzScope {
        dir: module_dir(),
        budget: Budget::default(),
    };
    evaluate_all(&file.body, &scope);
});
