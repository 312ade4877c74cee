//! Signature help as plain data: the signature of the function whose arguments the
//! cursor is among (a built-in function from the recorded library, or a provider-defined
//! one from its provider's schema), with the parameter the cursor's argument fills.
//! The call is found by the completion context's walk over the tokens before the
//! cursor, so that it works while the call is still unclosed; in a `.tf.json` file, in a
//! string's `${ }`, as completion reads it.

use std::ops::Range;
use std::path::Path;

use super::completion::{context_in, Options, Position, Scope};
use crate::schema::{function, Function, FunctionLookup};
use crate::workspace::Workspace;

/// One function's signature with the parameter in effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    /// The signature: `join(separator string, lists... list(string)) string`.
    pub label: String,
    /// Each parameter's place in `label` (bytes), with its documentation.
    pub parameters: Vec<(Range<usize>, Option<String>)>,
    /// The parameter the cursor's argument fills (the variadic one for every argument
    /// after the fixed ones).
    pub active_parameter: Option<usize>,
    /// What the function does, when its schema says (provider-defined functions).
    pub documentation: Option<String>,
}

/// The signature help at byte `offset` of the file at `path`.
pub fn signature_help(ws: &Workspace, path: &Path, offset: usize) -> Option<SignatureHelp> {
    let file = ws.file(path)?;
    let offset = offset.min(file.text.len());
    let scope = Scope::new(ws, path, &file, offset, Options::default());
    let ctx = context_in(&scope, &file, offset);
    let Position::Value { place, .. } = ctx.position else {
        return None;
    };
    let call = place.call?;
    let dir = path.parent()?;
    let merged = ws.merged(dir);
    let dialect = merged.as_ref().map(|m| m.dialect).unwrap_or_default();
    if let Some(f) = function(&call.name, dialect) {
        return Some(help(f, call.argument, Vec::new(), None));
    }
    let schemas = ws.provider_schemas_for(dir);
    let (_, FunctionLookup::Found(f)) = merged?.provider_function(&*schemas, &call.name)? else {
        return None;
    };
    let docs = f
        .parameters
        .iter()
        .chain(f.variadic.as_ref())
        .map(|p| (!p.description.is_empty()).then(|| p.description.to_string()))
        .collect();
    let description = [&*f.summary, &*f.description]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let documentation = (!description.is_empty()).then_some(description);
    Some(help(
        &f.signature(&call.name),
        call.argument,
        docs,
        documentation,
    ))
}

/// The help for `f` with the cursor in argument `argument`; `docs` documents the
/// parameters in order (the variadic one last).
fn help(
    f: &Function,
    argument: usize,
    docs: Vec<Option<String>>,
    documentation: Option<String>,
) -> SignatureHelp {
    let mut label = format!("{}(", f.name);
    let mut parameters = Vec::new();
    let fixed = f.parameters.as_deref().unwrap_or_default();
    let variadic = f.variadic.iter().map(|v| (format!("{}...", v.name), &v.ty));
    let all = fixed
        .iter()
        .map(|p| (p.name.clone(), &p.ty))
        .chain(variadic);
    for (i, (name, ty)) in all.enumerate() {
        if i > 0 {
            label.push_str(", ");
        }
        let start = label.len();
        label.push_str(&format!("{name} {ty}"));
        parameters.push((start..label.len(), docs.get(i).cloned().flatten()));
    }
    label.push_str(&format!(") {}", f.return_type));
    let active_parameter = if argument < fixed.len() {
        Some(argument)
    } else if f.variadic.is_some() {
        Some(fixed.len())
    } else {
        None
    };
    SignatureHelp {
        label,
        parameters,
        active_parameter,
        documentation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn at(text: &str) -> Option<SignatureHelp> {
        in_file("main.tf", text)
    }

    fn in_file(name: &str, text: &str) -> Option<SignatureHelp> {
        let ws = Workspace::new();
        let path = PathBuf::from("/nonexistent-strata-signature").join(name);
        let offset = text.find('|').unwrap();
        ws.open_document(&path, &text.replacen('|', "", 1), 1);
        signature_help(&ws, &path, offset)
    }

    #[test]
    fn the_active_parameter_of_a_built_in_function() {
        let h = at("locals {\n  a = join(\",\", |\n}\n").unwrap();
        assert_eq!(
            h.label,
            "join(separator string, lists... list(string)) string"
        );
        assert_eq!(h.active_parameter, Some(1));
        assert_eq!(&h.label[h.parameters[0].0.clone()], "separator string");
        let h = at("locals {\n  a = join(\",\", [], [], |)\n}\n").unwrap();
        assert_eq!(
            h.active_parameter,
            Some(1),
            "every further list is the variadic one"
        );
        let h = at("locals {\n  a = upper(lower(|))\n}\n").unwrap();
        assert!(h.label.starts_with("lower("));
        let h = at("locals {\n  a = upper(\"x\", |)\n}\n").unwrap();
        assert_eq!(h.active_parameter, None, "upper takes one argument");
        assert!(at("locals {\n  a = upper(\"x\")|\n}\n").is_none());
        assert!(at("locals {\n  a = nosuch(|)\n}\n").is_none());
    }

    #[test]
    fn in_a_json_string_s_interpolation() {
        let h = in_file(
            "main.tf.json",
            "{\"locals\": {\"a\": \"${join(local.s, |\"}}",
        )
        .unwrap();
        assert_eq!(h.active_parameter, Some(1));
        assert!(in_file("main.tf.json", "{\"locals\": {\"a\": \"join(|\"}}").is_none());
    }
}
