//! Input variables (spec §2, §1.7): names, flags, type constraints, and whether the
//! default converts to the type, first block by block as Terraform decodes them, then
//! for the merged variable when an override file changed its type or default. Beyond
//! Terraform: a warning when an override's `type` and the base's optional-attribute
//! defaults part ways (Terraform keeps the base's defaults).

use serde_json::Value;

use super::literal::{deprecated, literal_bool, literal_string, not_constant};
use super::{at, Diagnostic, Severity};
use crate::eval::constant;
use crate::merge::{MergedModule, Origin, Variable};
use crate::module::Dialect;
use crate::syntax::{Block, Expr, Syntax};
use crate::types::{apply_defaults, convert, parse_type_argument, Type};

/// Code of an invalid variable name.
pub const NAME: &str = "variable-name";
/// Code of an invalid type constraint.
pub const TYPE: &str = "variable-type";
/// Code of a default that does not fit the variable.
pub const DEFAULT: &str = "variable-default";
/// Code of the warning about optional-attribute defaults lost to an override's type.
pub const OVERRIDE_TYPE_DEFAULTS: &str = "override-type-defaults";

/// Names a variable may not have: they mean something in `module` blocks.
const RESERVED: &[&str] = &[
    "source",
    "version",
    "count",
    "for_each",
    "depends_on",
    "providers",
    "ignore_nested_deprecations",
    "_",
    "lifecycle",
    "locals",
    "provider",
];

pub(super) fn check(m: &MergedModule, out: &mut Vec<Diagnostic>) {
    for (fi, file) in m.files.iter().enumerate() {
        let json = file.syntax.syntax == Syntax::Json;
        // A JSON property can name a local value anything (`decodeLocalsBlock`).
        for a in file
            .syntax
            .body
            .blocks_of("locals")
            .flat_map(|b| &b.body.attributes)
        {
            if !crate::schema::is_identifier(&a.name.name) {
                let origin = Origin {
                    file: fi as u32,
                    span: a.name.span,
                };
                out.push(at(
                    m,
                    origin,
                    Severity::Error,
                    NAME,
                    "Invalid local value name".into(),
                    super::decode::BAD_IDENTIFIER.into(),
                ));
            }
        }
        for block in file.syntax.body.blocks_of("variable") {
            decode(
                m,
                fi as u32,
                block,
                json,
                m.is_override_file(fi as u32),
                out,
            );
        }
    }
    for v in m.variables.values() {
        if !v.provenance.overrides.is_empty() {
            merged(m, v, out);
        }
    }
}

/// A variable's type constraint, read in its file's syntax.
fn type_of(
    m: &MergedModule,
    file: u32,
    expr: &Expr,
) -> Option<Result<Type, crate::types::TypeError>> {
    parse_type_argument(expr, m.file(file).syntax.syntax, m.dialect)
}

/// The checks Terraform makes while decoding one `variable` block.
fn decode(
    m: &MergedModule,
    file: u32,
    block: &Block,
    json: bool,
    is_override: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(name) = block.labels.first() else {
        return;
    };
    let label = Origin {
        file,
        span: name.span,
    };
    // HCL identifiers: a Unicode letter or `_`, then letters, digits, `_` and `-`.
    let valid = name
        .name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name
            .name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if !valid {
        out.push(at(m, label, Severity::Error, NAME, "Invalid variable name".into(),
            "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.".into()));
    } else if RESERVED.contains(&&*name.name) {
        out.push(at(m, label, Severity::Error, NAME, "Invalid variable name".into(),
            format!("The variable name \"{}\" is reserved due to its special meaning inside module blocks.", name.name)));
    }
    if let Some(a) = block.body.attribute("description") {
        out.extend(literal_string(m, file, a).0);
    }
    for flag in ["sensitive", "nullable", "ephemeral", "const"] {
        if let Some(a) = block.body.attribute(flag) {
            out.extend(literal_bool(m, file, a));
        }
    }
    let deprecated_arg = block.body.attribute("deprecated");
    if let Some(a) = deprecated_arg.filter(|_| m.dialect == Dialect::OpenTofu) {
        // OpenTofu's (named_values.go, decodeVariableBlock), at the variable's name.
        out.extend(deprecated(
            m,
            (file, a),
            label,
            false,
            ("value", "variable"),
        ));
    }
    let ty = match block
        .body
        .attribute("type")
        .and_then(|a| type_of(m, file, &a.expr))
    {
        Some(Ok(ty)) => Some(ty),
        Some(Err(e)) => {
            out.push(at(
                m,
                Origin { file, span: e.span },
                Severity::Error,
                TYPE,
                e.summary,
                e.detail,
            ));
            return;
        }
        None => None,
    };
    let Some(default) = block.body.attribute("default") else {
        return;
    };
    if !json {
        let problems = not_constant(m, file, &default.expr);
        if !problems.is_empty() {
            out.extend(problems);
            return;
        }
    }
    let Some(value) = constant(&default.expr) else {
        return;
    };
    let at_default = Origin {
        file,
        span: default.expr.span,
    };
    // An override block's default is checked here only when the block has its own type.
    if let Some(ty) = ty.filter(|_| !is_override || block.body.attribute("type").is_some()) {
        let value = if value.is_null() {
            value.clone()
        } else {
            apply_defaults(&value, &ty)
        };
        if let Err(e) = convert(&value, &ty) {
            out.push(at(
                m,
                at_default,
                Severity::Error,
                DEFAULT,
                "Invalid default value for variable".into(),
                format!(
                    "This default value is not compatible with the variable's type constraint: {}.",
                    e.with_path()
                ),
            ));
        }
    }
    let non_nullable = block
        .body
        .attribute("nullable")
        .and_then(|a| constant(&a.expr))
        == Some(Value::Bool(false));
    if non_nullable && value.is_null() {
        out.push(at(
            m,
            at_default,
            Severity::Error,
            DEFAULT,
            "Invalid default value for variable".into(),
            "A null default value is not valid when nullable=false.".into(),
        ));
    }
}

/// The checks Terraform makes after applying override blocks to a variable (spec §1.7),
/// reported at the last override block.
fn merged(m: &MergedModule, v: &Variable, out: &mut Vec<Diagnostic>) {
    let Some(&last) = v.provenance.overrides.last() else {
        return;
    };
    let header = Origin {
        file: last.file,
        span: last.span,
    };
    let type_attr = v.type_constraint.as_ref();
    let default_attr = v.default.as_ref();
    // Both set by one override block: already reported while decoding that block.
    let same_block = match (type_attr, default_attr) {
        (Some(t), Some(d)) => {
            t.file == d.file
                && m.is_override_file(t.file)
                && same_block_of(m, t.origin(), d.origin())
        }
        _ => false,
    };
    if let (Some(t), Some(d)) = (type_attr, default_attr) {
        if (v.type_overridden || v.default_overridden) && !same_block {
            if let (Some(Ok(ty)), Some(value)) = (type_of(m, t.file, t.expr()), constant(d.expr()))
            {
                if let Err(e) = convert(&value, &ty) {
                    let detail = match (v.type_overridden, v.default_overridden) {
                        (true, false) => format!("Overriding this variable's type constraint has made its default value invalid: {}.", e.bare()),
                        (false, true) => format!("The overridden default value for this variable is not compatible with the variable's type constraint: {}.", e.bare()),
                        _ => format!("This variable's default value is not compatible with its type constraint: {}.", e.bare()),
                    };
                    out.push(at(
                        m,
                        header,
                        Severity::Error,
                        DEFAULT,
                        "Invalid default value for variable".into(),
                        detail,
                    ));
                }
            }
        }
    }
    let non_nullable =
        v.nullable.as_ref().and_then(|a| constant(a.expr())) == Some(Value::Bool(false));
    let null_default = default_attr
        .and_then(|d| constant(d.expr()))
        .is_some_and(|d| d.is_null());
    let from_different_blocks = match (v.nullable.as_ref(), default_attr) {
        (Some(n), Some(d)) => !same_block_of(m, n.origin(), d.origin()),
        _ => false,
    };
    if non_nullable && null_default && from_different_blocks {
        out.push(at(
            m,
            header,
            Severity::Error,
            DEFAULT,
            "Invalid default value for variable".into(),
            "A null default value is not valid when nullable=false.".into(),
        ));
    }
    if v.type_overridden {
        type_defaults_warning(m, v, header, out);
    }
}

/// Whether two origins lie in the same top-level block.
fn same_block_of(m: &MergedModule, a: Origin, b: Origin) -> bool {
    a.file == b.file
        && m.file(a.file).syntax.body.blocks.iter().any(|blk| {
            blk.span.contains(a.span.start as usize) && blk.span.contains(b.span.start as usize)
        })
}

fn type_defaults_warning(
    m: &MergedModule,
    v: &Variable,
    header: Origin,
    out: &mut Vec<Diagnostic>,
) {
    let parse = |a: Option<&crate::merge::Attr>| {
        a.and_then(|a| type_of(m, a.file, a.expr()))
            .and_then(Result::ok)
    };
    let (Some(base), Some(effective)) = (
        parse(v.defaults_type.as_ref()),
        parse(v.type_constraint.as_ref()),
    ) else {
        return;
    };
    if (base.has_defaults() || effective.has_defaults()) && base != effective {
        let base_at = v
            .defaults_type
            .as_ref()
            .map(|a| m.describe(a.origin()))
            .unwrap_or_default();
        out.push(at(m, header, Severity::Warning, OVERRIDE_TYPE_DEFAULTS,
            "Override type keeps the base's optional defaults".into(),
            format!("This override replaces the type of variable \"{}\", but Terraform keeps the optional-attribute defaults of the base type at {base_at} and ignores any written here, so the defaults in effect may not be the ones you see.", v.name)));
    }
}
