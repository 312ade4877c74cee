//! A schema file written byte for byte as `terraform providers schema -json` writes it:
//! Go's `encoding/json` of Terraform's `jsonprovider` structs. Struct fields come in
//! their declaration order (a map's keys sorted, as Go sorts them), on one line ended by
//! a newline, with Go's string escapes (`<`, `>` and `&` as `\u003c`, `\u003e`,
//! `\u0026`). The value itself is the one `SchemaStore::to_schema_file` builds.

use serde_json::{Map, Value};

/// What an object of the file is, which decides the order of its keys.
#[derive(Clone, Copy)]
enum Shape {
    /// A Go map of structs: keys sorted.
    Map,
    /// A type's JSON (`["object", {...}]`), written as cty writes it: keys sorted.
    Type,
    /// A `jsonfunction` parameter.
    Parameter,
    /// Any other struct (`Providers`, `Provider`, `Schema`, `Block`, `BlockType`,
    /// `Attribute`, `NestedType`, `FunctionSignature`).
    Struct,
}

/// The fields of the structs, in declaration order (one order serves them all: no two
/// share fields in different orders, the parameter's apart).
const STRUCT_FIELDS: &[&str] = &[
    "format_version",
    "provider_schemas",
    "provider",
    "resource_schemas",
    "data_source_schemas",
    "ephemeral_resource_schemas",
    "functions",
    "version",
    "type",
    "nested_type",
    "attributes",
    "block_types",
    "nesting_mode",
    "block",
    "min_items",
    "max_items",
    "description",
    "summary",
    "description_kind",
    "deprecated",
    "required",
    "optional",
    "computed",
    "sensitive",
    "write_only",
    "return_type",
    "parameters",
    "variadic_parameter",
];

/// A parameter's fields, in declaration order.
const PARAMETER_FIELDS: &[&str] = &["name", "description", "is_nullable", "type"];

/// Struct fields whose value is a Go map.
const MAP_FIELDS: &[&str] = &[
    "provider_schemas",
    "resource_schemas",
    "data_source_schemas",
    "ephemeral_resource_schemas",
    "functions",
    "attributes",
    "block_types",
];

/// The schema file `value` as Terraform writes it.
pub(super) fn terraform_text(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, Shape::Struct);
    out.push('\n');
    out
}

fn write(out: &mut String, value: &Value, shape: Shape) {
    match value {
        Value::Object(map) => object(out, map, shape),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item, shape);
            }
            out.push(']');
        }
        Value::String(s) => string(out, s),
        other => out.push_str(&other.to_string()),
    }
}

fn object(out: &mut String, map: &Map<String, Value>, shape: Shape) {
    let mut keys: Vec<&String> = map.keys().collect();
    let rank = |fields: &[&str], k: &str| fields.iter().position(|f| *f == k);
    match shape {
        Shape::Map | Shape::Type => keys.sort(),
        Shape::Parameter => keys.sort_by_key(|k| (rank(PARAMETER_FIELDS, k), k.to_string())),
        Shape::Struct => keys.sort_by_key(|k| (rank(STRUCT_FIELDS, k), k.to_string())),
    }
    out.push('{');
    for (i, key) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, key);
        out.push(':');
        let child = match (shape, key.as_str()) {
            (Shape::Struct | Shape::Parameter, "type" | "return_type") => Shape::Type,
            (Shape::Type, _) => Shape::Type,
            (Shape::Struct, "parameters" | "variadic_parameter") => Shape::Parameter,
            (Shape::Struct, k) if MAP_FIELDS.contains(&k) => Shape::Map,
            (Shape::Map, _) => Shape::Struct,
            (shape, _) => shape,
        };
        write(out, &map[key.as_str()], child);
    }
    out.push('}');
}

/// A string as Go's `encoding/json` writes it (HTML-safe).
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_in_declaration_order_and_html_escapes() {
        let value = serde_json::json!({
            "provider_schemas": {"b": {"provider": {"version": 0}}, "a": {}},
            "format_version": "1.0",
        });
        assert_eq!(
            terraform_text(&value),
            "{\"format_version\":\"1.0\",\"provider_schemas\":{\"a\":{},\"b\":{\"provider\":{\"version\":0}}}}\n"
        );
        let mut out = String::new();
        string(&mut out, "a<b & \"c\"\n");
        assert_eq!(out, "\"a\\u003cb \\u0026 \\\"c\\\"\\n\"");
    }
}
