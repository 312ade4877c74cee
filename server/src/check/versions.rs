//! Version constraint arguments (`required_version`, a module call's `version`, a provider
//! block's deprecated `version`): the schema marks them with `Form::VersionConstraint`,
//! and Terraform reads each one as a constant string in go-version's constraint syntax.

use std::sync::LazyLock;

use regex::Regex;

use super::literal::{decoded, not_constant};
use super::{at, Diagnostic, Severity};
use crate::merge::{MergedModule, Origin};
use crate::syntax::{Attribute, ExprKind};

/// Code of a version constraint Terraform cannot read.
pub const VERSION_CONSTRAINT: &str = "invalid-version-constraint";

/// The diagnostics of one version constraint argument.
pub(super) fn check(m: &MergedModule, file: u32, a: &Attribute, out: &mut Vec<Diagnostic>) {
    let problems = not_constant(m, file, &a.expr);
    if !problems.is_empty() {
        out.extend(problems);
        return;
    }
    let origin = Origin {
        file,
        span: a.expr.span,
    };
    let invalid = |detail: String| {
        at(
            m,
            origin,
            Severity::Error,
            VERSION_CONSTRAINT,
            "Invalid version constraint".into(),
            detail,
        )
    };
    let text = match (&a.expr.kind, decoded(&a.expr)) {
        (ExprKind::Template(_), _) | (_, None) | (_, Some(serde_json::Value::Null)) => return,
        (_, Some(serde_json::Value::String(s))) => s,
        (_, Some(serde_json::Value::Number(n))) => n.to_string(),
        (_, Some(serde_json::Value::Bool(b))) => b.to_string(),
        _ => {
            out.push(invalid(format!(
                "A string value is required for {}.",
                a.name.name
            )));
            return;
        }
    };
    if !is_constraint(&text) {
        out.push(invalid(
            "This string does not use correct version constraint syntax.".into(),
        ));
    }
}

/// Whether `text` is a constraint go-version accepts: comma-separated versions, each
/// with an optional operator.
pub fn is_constraint(text: &str) -> bool {
    static ONE: LazyLock<Regex> = LazyLock::new(|| {
        let version = r"v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?";
        let operators = r"(=|!=|>|<|>=|<=|~>)?";
        Regex::new(&format!(r"^\s*{operators}\s*{version}\s*$"))
            .expect("the constraint pattern is valid")
    });
    text.split(',').all(|part| ONE.is_match(part))
}

#[cfg(test)]
mod tests {
    use super::is_constraint;

    #[test]
    fn constraints_are_read_as_go_version_reads_them() {
        for ok in [
            "1.0",
            ">= 1.2, < 2.0",
            "~> 5.0",
            "= 1.2.3-beta",
            "v1",
            "!=1.0.0+meta",
        ] {
            assert!(is_constraint(ok), "{ok}");
        }
        for bad in ["not a version", "", ">= ", "1.0,", "=> 1.0"] {
            assert!(!is_constraint(bad), "{bad}");
        }
    }
}
