//! Fixes that add what a diagnostic says is missing: the required arguments a block
//! leaves out (each with a placeholder of its type; JSON properties in a `.tf.json`
//! file), and the `variable` block of an undeclared input variable, with a type inferred
//! from how it is used (`inferred_types.rs`), in a primary file (a `variable` property
//! in the JSON syntax, with the type as a string).

use super::inferred_types::inferred_type;
use super::{file_name, primary_file, quoted, Fix, Place};
use crate::check::Diagnostic;
use crate::ide::completion::{context_in, Options, Scope};
use crate::ide::edits::{
    append_block, append_json_block, append_to_body, append_to_object, block_at, opening_brace,
};
use crate::module::SourceFile;
use crate::syntax::Syntax;

/// Terraform's summary for an argument a block leaves out.
const MISSING_ARGUMENT: &str = "Missing required argument";
/// Terraform's summary for `var.x` without a `variable "x"` block.
const UNDECLARED_VARIABLE: &str = "Reference to undeclared input variable";

/// The fixes that add what `d` (the `index`th diagnostic) says is missing.
pub(super) fn fixes(place: &Place, index: usize, d: &Diagnostic) -> Option<Fix> {
    match d.summary.as_str() {
        MISSING_ARGUMENT => missing_arguments(place, index, d),
        UNDECLARED_VARIABLE => declare_variable(place, d),
        _ => None,
    }
}

/// Every argument the block at `d`'s brace leaves out, added at the end of its body: one
/// fix for all of them, offered on the first of their diagnostics.
fn missing_arguments(place: &Place, index: usize, d: &Diagnostic) -> Option<Fix> {
    let same: Vec<usize> = place
        .diagnostics
        .iter()
        .enumerate()
        .filter(|(_, o)| o.summary == MISSING_ARGUMENT && o.path == d.path && o.span == d.span)
        .map(|(i, _)| i)
        .collect();
    if same.first() != Some(&index) {
        return None; // The first diagnostic of the block offers the fix.
    }
    // HCL places the problem at the body's `{` in the native syntax, at its `}` in JSON.
    let brace = d.span.start as usize;
    if place.text(d.span) != Some(if place.native() { "{" } else { "}" }) {
        return None;
    }
    // Inside the body, where a name is due: after the `{`.
    let inside = match place.native() {
        true => brace,
        false => opening_brace(&place.file.text, brace)?,
    } + 1;
    let scope = Scope::new(
        place.ws,
        &place.file.path,
        &place.file,
        inside,
        Options::default(),
    );
    let ctx = context_in(&scope, &place.file, inside);
    let names: Vec<&str> = same
        .iter()
        .filter_map(|&i| quoted(&place.diagnostics[i].detail).into_iter().next())
        .collect();
    let values = names.iter().map(|name| {
        let ty = argument_type(&scope, &ctx.blocks, name);
        (name, placeholder(ty.as_deref().unwrap_or("any")))
    });
    // Every placeholder is also a JSON value: in a `.tf.json` file, a property of the
    // block's object.
    let edit = match place.native() {
        true => {
            let block = block_at(&place.file.syntax.body, brace)?;
            let lines: Vec<String> = values.map(|(n, v)| format!("{n} = {v}")).collect();
            append_to_body(&place.file, block, &lines)?
        }
        false => {
            let properties: Vec<String> = values.map(|(n, v)| format!("\"{n}\": {v}")).collect();
            append_to_object(&place.file, brace, &properties)?
        }
    };
    let title = match names.as_slice() {
        [one] => format!("Add the required argument \"{one}\""),
        _ => format!("Add the required arguments {}", names.join(", ")),
    };
    Some(Fix {
        title,
        edits: vec![edit],
        safe: false,
        fixes: same,
    })
}

/// The type of argument `name` of the body inside `blocks`, as a type constraint: its
/// schema's (the language's or its provider's), or the type of a local child module's
/// input variable.
pub(super) fn argument_type(
    scope: &Scope,
    blocks: &[crate::ide::completion::context::BlockFrame],
    name: &str,
) -> Option<String> {
    let schemas = scope.body_schemas(blocks);
    let from_schema = [&schemas.provider, &schemas.language]
        .into_iter()
        .flatten()
        .find_map(|s| s.attribute(name, scope.dialect))
        .map(|a| {
            a.value_type
                .as_ref()
                .map_or(a.ty.to_string(), |t| t.to_string())
        });
    if from_schema.is_some() {
        return from_schema;
    }
    let [call] = blocks else { return None };
    if call.kind != "module" {
        return None;
    }
    let child = scope.child_module(call.labels.first()?)?;
    let ty = child.variables.get(name)?.type_constraint.as_ref()?;
    let source = child.file(ty.file);
    source.text.get(ty.expr().span.range()).map(str::to_string)
}

/// A value of type constraint `ty` for the author to replace: empty where the type has
/// an empty value, `null` where it does not.
fn placeholder(ty: &str) -> &'static str {
    match ty.split('(').next().unwrap_or_default().trim() {
        "string" => "\"\"",
        "number" => "0",
        "bool" => "false",
        "list" | "set" | "tuple" => "[]",
        "map" | "object" => "{}",
        _ => "null",
    }
}

/// `variable "NAME" {}` (with the type its use implies) in the module's file of
/// variables; in the JSON syntax, `"variable": {"NAME": {"type": "TYPE"}}` (Terraform
/// reads the string as the type expression; `"${TYPE}"` is no type to it).
fn declare_variable(place: &Place, d: &Diagnostic) -> Option<Fix> {
    let name = quoted(&d.detail).into_iter().next()?;
    let target = variables_file(place)?;
    let ty = inferred_type(place, d.span);
    let edit = match target.syntax.syntax {
        Syntax::Native => append_block(
            target,
            &match &ty {
                Some(ty) => format!("variable \"{name}\" {{\n  type = {ty}\n}}"),
                None => format!("variable \"{name}\" {{}}"),
            },
        ),
        Syntax::Json => {
            let properties: Vec<String> = ty
                .iter()
                .map(|ty| format!("\"type\": {}", serde_json::Value::from(ty.as_str())))
                .collect();
            append_json_block(target, "variable", &[name], &properties)?
        }
    };
    Some(Fix {
        title: format!("Declare the variable \"{name}\" in {}", file_name(target)),
        edits: vec![edit],
        safe: false,
        fixes: Vec::new(),
    })
}

/// Where a new variable goes: `variables.tf`, else the primary file that declares the
/// module's first variable, else the file of the reference when it is primary, else the
/// first primary file; a file of the native syntax first, then `variables.tf.json` and
/// the others in the JSON syntax in the same order. Never an override file.
fn variables_file<'a>(place: &'a Place) -> Option<&'a SourceFile> {
    let m = &*place.merged;
    let here = m.file_index(&place.file.path);
    let declaring: Vec<u32> = m
        .variables
        .values()
        .map(|v| v.provenance.decl.file)
        .collect();
    let index = [
        (Syntax::Native, "variables.tf"),
        (Syntax::Json, "variables.tf.json"),
    ]
    .into_iter()
    .find_map(|(syntax, named)| {
        let fit = |i: &u32| primary_file(m, *i, syntax);
        let count = m.files.len() as u32;
        (0..count)
            .filter(fit)
            .find(|&i| m.file_name(i) == named)
            .or_else(|| declaring.iter().copied().find(fit))
            .or(here.filter(fit))
            .or_else(|| (0..count).find(fit))
    })?;
    Some(m.file(index))
}
