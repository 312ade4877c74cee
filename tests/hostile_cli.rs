//! Hostile inputs through the command line: files that are not what they claim to be
//! (a symlink out of the module, FIFOs, a sparse multi-gigabyte state, an invalid state
//! version) and function calls at the edges of sizes and numbers. Each must end quickly
//! with a clear error (or Terraform's answer), never hang, crash or leak.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{strata_bin, TempDir};

/// Runs `strata plan DIR [extra]`, failing the test if it takes more than 20 seconds.
fn plan(dir: &Path, extra: &[&str]) -> Output {
    let mut child = Command::new(strata_bin())
        .arg("plan")
        .arg(dir)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run strata");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("strata plan {} hung", dir.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// Everything the command printed, on one line: the text wraps diagnostics' prose at
/// spaces as Terraform does, and the assertions read the prose unwrapped.
fn all_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
    .replace('\n', " ")
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(ok.success());
}

fn module(tag: &str, main: &str) -> TempDir {
    let dir = TempDir::new(tag);
    dir.write("main.tf", main);
    dir
}

#[test]
fn a_symlink_out_of_the_module_is_not_read() {
    let dir = module(
        "hostile-symlink",
        "resource \"terraform_data\" \"a\" {\n  input = file(\"passwd\")\n}\n",
    );
    std::os::unix::fs::symlink("/etc/passwd", dir.path().join("passwd")).unwrap();
    let out = plan(dir.path(), &[]);
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("root:"), "{text}");
    assert!(text.contains("input  = (known after apply)"), "{text}");
    // The plan says why, once, at the call.
    let warning = "Strata does not read files outside the module: \"passwd\" resolves to \
                   /etc/passwd, outside";
    assert_eq!(text.matches(warning).count(), 1, "{text}");
    assert!(text.contains("File outside the module not read"), "{text}");
}

#[test]
fn a_path_out_of_the_module_is_not_read_and_the_plan_says_so() {
    let dir = module(
        "hostile-parent-path",
        "resource \"terraform_data\" \"a\" {\n  count = 3\n  input = fileexists(\"../x/../../etc/hostname\")\n}\n",
    );
    let out = plan(dir.path(), &[]);
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("input  = (known after apply)"), "{text}");
    assert_eq!(
        text.matches("\"../x/../../etc/hostname\" resolves to")
            .count(),
        1,
        "one warning for the three instances: {text}"
    );
}

#[test]
fn a_fifo_as_auto_tfvars_or_var_file_is_an_error_not_a_hang() {
    let dir = module(
        "hostile-tfvars",
        "variable \"v\" {\n  default = 1\n}\nresource \"terraform_data\" \"a\" {}\n",
    );
    mkfifo(&dir.path().join("x.auto.tfvars"));
    let text = all_text(&plan(dir.path(), &[]));
    assert!(
        text.contains("Given variables file")
            && text.contains(
                "x.auto.tfvars could not be read: it is a FIFO (named pipe), not a regular file."
            ),
        "{text}"
    );
    std::fs::remove_file(dir.path().join("x.auto.tfvars")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.tfvars")).unwrap();
    let text = all_text(&plan(dir.path(), &["--var-file", "zero.tfvars"]));
    assert!(
        text.contains("zero.tfvars could not be read: it is a device, not a regular file."),
        "{text}"
    );
}

#[test]
fn a_fifo_or_sparse_huge_state_is_refused_with_a_clear_error() {
    let dir = module("hostile-state", "resource \"terraform_data\" \"a\" {}\n");
    let state = dir.path().join("terraform.tfstate");
    mkfifo(&state);
    let out = plan(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        all_text(&out).contains("terraform.tfstate: it is a FIFO (named pipe), not a regular file"),
        "{out:?}"
    );
    std::fs::remove_file(&state).unwrap();
    std::fs::File::create(&state)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let out = plan(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        all_text(&out)
            .contains("it is 2147483648 bytes, larger than the 268435456 bytes Strata reads"),
        "{out:?}"
    );
}

#[test]
fn state_versions_that_are_not_whole_numbers_are_named() {
    let dir = module("hostile-version", "resource \"terraform_data\" \"a\" {}\n");
    for (version, shown) in [("4.0", "number 4.0"), ("\"4\"", "string")] {
        dir.write(
            "terraform.tfstate",
            &format!("{{\"version\": {version}, \"serial\": 1, \"lineage\": \"x\"}}"),
        );
        let out = plan(dir.path(), &[]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(
            all_text(&out).contains(&format!(
                "Unsupported state file format: The version in the state file is {shown}. A positive whole number is required."
            )),
            "{out:?}"
        );
    }
}

#[test]
fn functions_at_the_edges_answer_as_terraform_or_hit_the_size_limit() {
    let dir = module(
        "hostile-functions",
        r#"resource "terraform_data" "substr" { input = substr("abc", 1, 9223372036854775807) }
resource "terraform_data" "cidr" { input = cidrhost("::/0", 1) }
resource "terraform_data" "noverb" { input = format("%999999999d", 1) }
resource "terraform_data" "precise" { input = length(format("%.70000f", 1)) }
"#,
    );
    let out = plan(dir.path(), &[]);
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    for want in [
        r#"input  = "bc""#,
        r#"input  = "::1""#,
        r#"input  = "%!(NOVERB)%!(EXTRA *big.Int=1)""#,
        "input  = 70002",
    ] {
        assert!(text.contains(want), "{want} not in {text}");
    }
    for (expr, detail) in [
        (
            r#"indent(1e18, "a\nb")"#,
            "Call to function \"indent\" failed: the result would be larger than 67108864 bytes (64 MiB), the most Strata builds for one value.",
        ),
        (
            r#"format("%999999999s", "a")"#,
            "Call to function \"format\" failed: the result would be larger than 67108864 bytes (64 MiB), the most Strata builds for one value.",
        ),
        (
            "setproduct(range(1024), range(1024), range(1024))",
            "Call to function \"setproduct\" failed: the result would have more than 1048576 elements, the most Strata builds for one value.",
        ),
    ] {
        dir.write(
            "main.tf",
            &format!("resource \"terraform_data\" \"a\" {{\n  input = {expr}\n}}\n"),
        );
        let out = plan(dir.path(), &[]);
        let text = all_text(&out);
        assert_eq!(out.status.code(), Some(1), "{expr}: {text}");
        assert!(text.contains("Error in function call"), "{expr}: {text}");
        assert!(text.contains(detail), "{expr}: {text}");
    }
}
