//! Documentation of provider schema items as Markdown, for hover: an argument's type,
//! whether it is required, optional or computed, sensitive, write-only or deprecated, and
//! the provider's description (plain text escaped, Markdown kept); a nested block type's
//! nesting and item limits; a provider's address and where its schema came from; a
//! provider-defined function's signature, summary, parameters and description.

use super::{
    AttributeSchema, BlockSchema, DescriptionKind, FunctionParameter, NestedBlock, Nesting,
    ProviderAddress, ProviderFunction, Requirement, SchemaOrigin,
};

/// The documentation of the argument `attribute`.
pub fn attribute_markdown(attribute: &AttributeSchema) -> String {
    let ty = match (&attribute.nested, &attribute.value_type) {
        (Some(nested), _) => nested.value_type().to_string(),
        (None, Some(t)) => t.to_string(),
        (None, None) => attribute.ty.to_string(),
    };
    let mut traits = vec![requirement(attribute).to_string()];
    if attribute.sensitive {
        traits.push("sensitive".into());
    }
    if attribute.write_only {
        traits.push("write-only".into());
    }
    if attribute.deprecated.is_some() {
        traits.push("**deprecated**".into());
    }
    let mut out = format!("`{}`: `{ty}` ({})", attribute.name, traits.join(", "));
    if attribute.accepts_blocks() {
        out.push_str("\n\nMay also be written as `");
        out.push_str(&attribute.name);
        out.push_str(" { ... }` blocks.");
    }
    push_description(
        &mut out,
        &attribute.doc,
        attribute.doc_kind,
        attribute.deprecated.as_deref(),
    );
    out
}

/// The documentation of the nested block type `block`.
pub fn nested_block_markdown(block: &NestedBlock) -> String {
    let nesting = match block.nesting {
        Nesting::List => "list of blocks",
        Nesting::Set => "set of blocks",
        Nesting::Map => "map of blocks (one label)",
        Nesting::Single => "single block",
        Nesting::Group => "single block (always present)",
    };
    let mut limits = Vec::new();
    if block.min_items > 0 {
        limits.push(format!("at least {}", block.min_items));
    }
    if block.max_items > 0 {
        limits.push(format!("at most {}", block.max_items));
    }
    let mut out = format!("`{}`: {nesting}", block.name);
    if !limits.is_empty() {
        out.push_str(&format!(" ({})", limits.join(", ")));
    }
    if block.schema.deprecated.is_some() {
        out.push_str(", **deprecated**");
    }
    push_description(
        &mut out,
        &block.schema.doc,
        block.schema.doc_kind,
        block.schema.deprecated.as_deref(),
    );
    out
}

/// The documentation of a block header whose body the provider at `provider` defines:
/// the provider, the version and place its schema came from, and the body's description.
pub fn provider_body_markdown(
    provider: &ProviderAddress,
    origin: Option<&SchemaOrigin>,
    body: &BlockSchema,
) -> String {
    let mut out = format!("Provider `{provider}`");
    if let Some(origin) = origin {
        if let Some(version) = &origin.version {
            out.push_str(&format!(" {version}"));
        }
        if !origin.from.is_empty() {
            out.push_str(&format!(", schema from `{}`", origin.from));
        }
    }
    if body.deprecated.is_some() {
        out.push_str("\n\n**Deprecated.**");
    }
    push_description(
        &mut out,
        &body.doc,
        body.doc_kind,
        body.deprecated.as_deref(),
    );
    out
}

/// The documentation of the provider-defined function `function`, called as `name`
/// (`provider::aws::arn_parse`): its signature, summary, deprecation, description and
/// parameters, then the provider it comes from.
pub fn provider_function_markdown(
    name: &str,
    function: &ProviderFunction,
    provider: &ProviderAddress,
    origin: Option<&SchemaOrigin>,
) -> String {
    let mut parameters: Vec<String> = function
        .parameters
        .iter()
        .map(|p| format!("{} {}", p.name, p.ty))
        .collect();
    if let Some(p) = &function.variadic {
        parameters.push(format!("{}... {}", p.name, p.ty));
    }
    let mut out = format!(
        "```hcl\n{name}({}) {}\n```",
        parameters.join(", "),
        function.return_type
    );
    if !function.summary.trim().is_empty() {
        out.push_str("\n\n");
        out.push_str(&as_markdown(
            function.summary.trim(),
            DescriptionKind::Plain,
        ));
    }
    push_description(
        &mut out,
        &function.description,
        function.description_kind,
        function.deprecation.as_deref(),
    );
    let variadic = function.variadic.iter().map(|p| (p, true));
    let all: Vec<(&FunctionParameter, bool)> = function
        .parameters
        .iter()
        .map(|p| (p, false))
        .chain(variadic)
        .collect();
    if !all.is_empty() {
        out.push_str("\n\nParameters:");
        for (p, variadic) in all {
            out.push_str(&parameter_markdown(p, variadic));
        }
    }
    out.push_str("\n\n");
    out.push_str(&provider_body_markdown(
        provider,
        origin,
        &BlockSchema::default(),
    ));
    out
}

/// One line of a function's parameter list.
fn parameter_markdown(p: &FunctionParameter, variadic: bool) -> String {
    let mut traits = Vec::new();
    if variadic {
        traits.push("any number");
    }
    if p.allow_null {
        traits.push("may be null");
    }
    let traits = if traits.is_empty() {
        String::new()
    } else {
        format!(", {}", traits.join(", "))
    };
    let mut out = format!("\n- `{}`: `{}`{traits}", p.name, p.ty);
    if !p.description.trim().is_empty() {
        out.push_str(" — ");
        out.push_str(&as_markdown(p.description.trim(), p.description_kind));
    }
    out
}

fn requirement(attribute: &AttributeSchema) -> &'static str {
    match (attribute.requirement, attribute.computed) {
        (Requirement::Required, _) => "required",
        (Requirement::Optional, true) => "optional, computed",
        (Requirement::Optional, false) => "optional",
        (Requirement::Computed, _) => "computed",
        (Requirement::Reserved, _) => "reserved",
    }
}

/// Appends the description, and a deprecation message when the schema gives one.
fn push_description(out: &mut String, doc: &str, kind: DescriptionKind, deprecated: Option<&str>) {
    if let Some(reason) = deprecated.filter(|r| !r.is_empty()) {
        out.push_str("\n\n**Deprecated:** ");
        out.push_str(&as_markdown(reason, DescriptionKind::Plain));
    }
    if !doc.trim().is_empty() {
        out.push_str("\n\n");
        out.push_str(&as_markdown(doc.trim(), kind));
    }
}

/// A description as Markdown: Markdown as given, plain text with Markdown's special
/// characters escaped so that it reads as written.
fn as_markdown(text: &str, kind: DescriptionKind) -> String {
    match kind {
        DescriptionKind::Markdown => text.to_string(),
        DescriptionKind::Plain => {
            let mut out = String::with_capacity(text.len());
            for c in text.chars() {
                if "\\`*_[]<>|~".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_descriptions_are_escaped_and_markdown_kept() {
        assert_eq!(
            as_markdown("a_b *c*", DescriptionKind::Plain),
            "a\\_b \\*c\\*"
        );
        assert_eq!(as_markdown("a_b *c*", DescriptionKind::Markdown), "a_b *c*");
    }

    #[test]
    fn a_function_shows_its_signature_summary_description_and_parameters() {
        let parameter = |name: &str, allow_null| FunctionParameter {
            name: name.into(),
            description: "The ARN_".into(),
            description_kind: DescriptionKind::Plain,
            ty: super::super::ValueType::String,
            allow_null,
            allow_unknown: false,
        };
        let f = ProviderFunction {
            summary: "Parses an ARN".into(),
            description: "Returns *parts*.".into(),
            description_kind: DescriptionKind::Markdown,
            deprecation: Some("Use another".into()),
            parameters: vec![parameter("arn", false)],
            variadic: Some(parameter("more", true)),
            return_type: super::super::ValueType::String,
        };
        let provider =
            ProviderAddress::parse("hashicorp/aws", super::super::Dialect::Terraform).unwrap();
        let origin = SchemaOrigin {
            version: Some("5.100.0".into()),
            from: "the cache".into(),
        };
        assert_eq!(
            provider_function_markdown("provider::aws::f", &f, &provider, Some(&origin)),
            "```hcl\nprovider::aws::f(arn string, more... string) string\n```\n\n\
             Parses an ARN\n\n**Deprecated:** Use another\n\nReturns *parts*.\n\n\
             Parameters:\n- `arn`: `string` — The ARN\\_\n\
             - `more`: `string`, any number, may be null — The ARN\\_\n\n\
             Provider `registry.terraform.io/hashicorp/aws` 5.100.0, schema from `the cache`"
        );
    }
}
