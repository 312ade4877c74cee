//! The arguments Terraform decodes as constants while it loads an `output` block
//! (`decodeOutputBlock` in `internal/configs/named_values.go`): `description` as a
//! string, `sensitive` and `ephemeral` as booleans, and in OpenTofu `deprecated`, a
//! string that must not be blank.

use super::literal::{deprecated, literal_bool, literal_string};
use super::Diagnostic;
use crate::merge::{MergedModule, Origin};
use crate::module::Dialect;

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        let fi = fi as u32;
        for block in file.syntax.body.blocks_of("output") {
            let before = out.len();
            if let Some(a) = block.body.attribute("description") {
                out.extend(literal_string(m, fi, a).0);
            }
            if let Some(a) = block.body.attribute("sensitive") {
                out.extend(literal_bool(m, fi, a));
            }
            let deprecated_arg = block.body.attribute("deprecated");
            if let Some(a) = deprecated_arg.filter(|_| m.dialect == Dialect::OpenTofu) {
                let subject = Origin {
                    file: fi,
                    span: a.expr.span,
                };
                let earlier = out.len() > before;
                let kind = ("attribute", "output value");
                out.extend(deprecated(m, (fi, a), subject, earlier, kind));
            }
            if let Some(a) = block.body.attribute("ephemeral") {
                out.extend(literal_bool(m, fi, a));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::test_support::merged;
    use crate::module::Dialect;

    fn errors(text: &str, dialect: Dialect) -> Vec<(String, u32)> {
        let m = merged(text, dialect);
        let mut out = Vec::new();
        super::check(&m, &mut out);
        super::super::variables::check(&m, &mut out);
        out.into_iter().map(|d| (d.summary, d.span.start)).collect()
    }

    #[test]
    fn opentofu_refuses_a_blank_deprecation_as_its_named_values_go_does() {
        let text = "output \"o\" {\n  value = 1\n  deprecated = \" \"\n}\n\
                    variable \"v\" {\n  deprecated = \"\"\n}\n\
                    output \"p\" {\n  value = 1\n  sensitive = 2\n  deprecated = \"\"\n}\n";
        // An output's error at the expression, a variable's at its name; none after an
        // earlier error of the same output block.
        assert_eq!(
            errors(text, Dialect::OpenTofu),
            vec![
                ("Invalid `deprecated` attribute".to_string(), 40),
                ("Unsuitable value type".to_string(), 120),
                ("Invalid `deprecated` value".to_string(), 55),
            ]
        );
        // Terraform has no such argument (the schema reports it as unsupported).
        assert_eq!(
            errors(text, Dialect::Terraform),
            vec![("Unsuitable value type".to_string(), 120)]
        );
    }
}
