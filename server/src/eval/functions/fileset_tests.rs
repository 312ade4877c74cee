//! `fileset` against the answers of `terraform console` (1.11.4) over the same tree.

use std::path::{Path, PathBuf};

use crate::eval::functions::tests::eval_in;
use crate::eval::Value;

/// A module directory like the one the answers were recorded in.
fn tree(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-fileset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for d in ["sub/deep", "d2", ".hid"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    for f in [
        "a.txt",
        "b.md",
        "sub/c.txt",
        "sub/deep/d.txt",
        ".hidden",
        ".hid/x.txt",
        "!x",
        "a-b",
        "main.tf",
    ] {
        std::fs::write(dir.join(f), "x\n").unwrap();
    }
    assert!(std::process::Command::new("mkfifo")
        .arg(dir.join("fifo"))
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("sub", dir.join("linkdir")).unwrap();
    std::os::unix::fs::symlink("a.txt", dir.join("link.txt")).unwrap();
    dir
}

/// The call's result: its elements, or `UNKNOWN`, or `ERROR: detail`.
fn fileset(dir: &Path, args: &str) -> String {
    match eval_in(&format!("fileset({args})"), Some(dir.to_path_buf())) {
        Ok(Value::Unknown) => "UNKNOWN".into(),
        Ok(Value::Set(items)) => items
            .iter()
            .map(|v| v.to_text().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" "),
        Ok(other) => format!("NOT A SET: {other:?}"),
        Err(e) => format!("ERROR: {}", e.detail),
    }
}

#[test]
fn matches_as_terraform_matches() {
    let dir = tree("answers");
    let cases = [
        ("\".\", \"*\"", "!x .hidden a-b a.txt b.md link.txt main.tf"),
        (
            "\".\", \"**\"",
            "!x .hid/x.txt .hidden a-b a.txt b.md link.txt linkdir/c.txt linkdir/deep/d.txt main.tf sub/c.txt sub/deep/d.txt",
        ),
        (
            "\".\", \"**/*.txt\"",
            ".hid/x.txt a.txt link.txt linkdir/c.txt linkdir/deep/d.txt sub/c.txt sub/deep/d.txt",
        ),
        ("\".\", \"[!a]*\"", "!x a-b a.txt"),
        ("\".\", \"[^a]*\"", "!x .hidden b.md link.txt main.tf"),
        ("\".\", \"a**\"", "a-b a.txt"),
        ("\".\", \"*{x,}\"", "!x"),
        ("\".\", \"{a,b}.*\"", "a.txt b.md"),
        ("\".\", \"sub/**\"", "sub/c.txt sub/deep/d.txt"),
        ("\".\", \"./sub/../a.txt\"", "a.txt"),
        ("\".\", \"*/*.txt\"", ".hid/x.txt linkdir/c.txt sub/c.txt"),
        ("\".\", \"\"", ""),
        ("\"\", \"*.txt\"", "a.txt link.txt"),
        ("\".\", \"/*.txt\"", "a.txt link.txt"),
        (
            "\".\", \"**/\"",
            "!x .hid/x.txt .hidden a-b a.txt b.md link.txt linkdir/c.txt linkdir/deep/d.txt main.tf sub/c.txt sub/deep/d.txt",
        ),
        ("\".\", \"?.txt\"", "a.txt"),
        ("\".\", \"fifo\"", ""),
        ("\".\", \"sub\"", ""),
        ("\".\", \"sub/deep/*\"", "sub/deep/d.txt"),
        ("\".\", \"**/deep/*\"", "linkdir/deep/d.txt sub/deep/d.txt"),
        ("\".\", \"*/deep/*\"", "linkdir/deep/d.txt sub/deep/d.txt"),
        ("\".\", \"linkdir/*\"", "linkdir/c.txt"),
        ("\"sub\", \"../*.txt\"", "../a.txt ../link.txt"),
        ("\"sub/deep\", \"../../*.md\"", "../../b.md"),
        ("\"sub\", \"**\"", "c.txt deep/d.txt"),
        ("\"nonexist\", \"[\"", ""),
        ("\".\", \"*.{md\"", ""),
        (
            "\".\", \"[a-]*\"",
            "ERROR: Call to function \"fileset\" failed: failed to glob pattern \"[a-]*\": syntax error in pattern.",
        ),
        (
            "\"sub\", \"**/[\"",
            "ERROR: Call to function \"fileset\" failed: failed to glob pattern \"sub/**/[\": syntax error in pattern.",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(fileset(&dir, args), expected, "fileset({args})");
    }
    // An absolute path inside the module, results relative to it.
    let absolute = format!("\"{}\", \"*.md\"", dir.display());
    assert_eq!(fileset(&dir, &absolute), "b.md");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dangling_symlink_that_matches_fails_the_call() {
    let dir = tree("dangling");
    std::os::unix::fs::symlink("nothere", dir.join("dangling")).unwrap();
    let error = "ERROR: Call to function \"fileset\" failed: failed to stat \"dangling\": stat dangling: no such file or directory.";
    assert_eq!(fileset(&dir, "\".\", \"*\""), error);
    assert_eq!(fileset(&dir, "\".\", \"dangl*\""), error);
    assert_eq!(fileset(&dir, "\".\", \"**/*\""), error);
    // `**` alone skips what it cannot stat.
    assert!(fileset(&dir, "\".\", \"**\"").starts_with("!x"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nothing_outside_the_module_is_listed() {
    let dir = tree("outside");
    let module = dir.join("sub");
    // Written out of the module, or through a symlink out of it: unknown.
    assert_eq!(fileset(&module, "\"..\", \"*\""), "UNKNOWN");
    assert_eq!(fileset(&module, "\".\", \"../*\""), "UNKNOWN");
    assert_eq!(fileset(&module, "\"/etc\", \"*\""), "UNKNOWN");
    std::os::unix::fs::symlink("/etc", module.join("etc")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", module.join("passwd")).unwrap();
    assert_eq!(fileset(&module, "\"etc\", \"*\""), "UNKNOWN");
    assert_eq!(fileset(&module, "\".\", \"etc/*\""), "UNKNOWN");
    assert_eq!(fileset(&module, "\".\", \"*\""), "UNKNOWN");
    assert_eq!(fileset(&module, "\".\", \"**\""), "UNKNOWN");
    // A pattern that reaches neither is answered.
    assert_eq!(fileset(&module, "\".\", \"*.txt\""), "c.txt");
    assert_eq!(fileset(&module, "\".\", \"deep/*\""), "deep/d.txt");
    // Back into the module from a parent named on the way is inside it.
    assert_eq!(fileset(&module, "\"..\", \"sub/*.txt\""), "sub/c.txt");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_symlink_loop_is_followed_as_far_as_linux_follows_it() {
    let dir = std::env::temp_dir().join(format!("strata-fileset-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.md"), "x").unwrap();
    std::os::unix::fs::symlink(".", dir.join("l")).unwrap();
    // Terraform 1.11.4 gives 41 paths, `a.md` to `l/l/.../l/a.md` with 40 links.
    let found = fileset(&dir, "\".\", \"**/*.md\"");
    let paths: Vec<&str> = found.split(' ').collect();
    assert_eq!(paths.len(), 41, "{found}");
    assert!(paths.contains(&format!("{}a.md", "l/".repeat(40)).as_str()));
    assert_eq!(fileset(&dir, "\".\", \"l/l/*\""), "l/l/a.md");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn walks_are_bounded() {
    let dir = tree("loops");
    // Two symlinks to the directory itself: 2^40 paths for Terraform.
    std::os::unix::fs::symlink(".", dir.join("l1")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("l2")).unwrap();
    let result = fileset(&dir, "\".\", \"**/*.md\"");
    assert!(result.contains("the pattern reaches more than"), "{result}");
    let exponential = format!("\".\", \"{}b\"", "*a".repeat(40));
    std::fs::write(dir.join("a".repeat(200)), "x").unwrap();
    let result = fileset(&dir, &exponential);
    assert!(result.contains("matching steps"), "{result}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_a_module_directory_the_set_is_unknown() {
    assert_eq!(
        eval_in("fileset(\".\", \"*\")", None).unwrap(),
        Value::Unknown
    );
}
