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
