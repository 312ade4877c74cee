//! Code lens on overridden blocks, go to definition, and the commands they use.

use std::path::Path;

use ropey::Rope;
use serde::Deserialize;
use serde_json::{json, Value};
use tower_lsp_server::ls_types::{
    self as lsp, CodeLens, Command, GotoDefinitionResponse, Location,
};

use super::convert;
use crate::eval::{reference_at, Reference};
use crate::merge::{render::render_object, MergedModule, ObjectRef, Origin};
use crate::text::{self, PositionEncoding};
use crate::workspace::Workspace;

/// The command a code lens runs to show the first override of a block.
pub const SHOW_OVERRIDE: &str = "strata.showOverride";
/// The command that returns the effective block at a position.
pub const MERGED_BLOCK: &str = "strata.mergedBlock";

/// The location of an origin, in the client's encoding.
pub fn location(m: &MergedModule, origin: Origin, encoding: PositionEncoding) -> Option<Location> {
    let file = m.files.get(origin.file as usize)?;
    let rope = Rope::from_str(&file.text);
    Some(Location {
        uri: convert::uri_of(&file.path)?,
        range: convert::range(&rope, origin.span, encoding),
    })
}

/// "overridden by a_override.tf, override.tf.json" above every block of `path` that an
/// override file changes.
pub fn code_lenses(ws: &Workspace, path: &Path, encoding: PositionEncoding) -> Vec<CodeLens> {
    let Some(m) = path.parent().and_then(|d| ws.merged(d)) else {
        return Vec::new();
    };
    let Some(fi) = m.file_index(path) else {
        return Vec::new();
    };
    let rope = Rope::from_str(&m.file(fi).text);
    m.objects()
        .filter_map(|object| {
            let p = object.provenance();
            if p.decl.file != fi || p.overrides.is_empty() {
                return None;
            }
            let mut files: Vec<&str> = Vec::new();
            for o in &p.overrides {
                let name = m.file_name(o.file);
                if !files.contains(&name) {
                    files.push(name);
                }
            }
            let target = location(&m, p.overrides[0], encoding)?;
            let title = format!("overridden by {}", files.join(", "));
            Some(CodeLens {
                range: convert::range(&rope, p.decl.span, encoding),
                command: Some(Command {
                    title: title.clone(),
                    command: SHOW_OVERRIDE.into(),
                    arguments: Some(vec![json!({ "uri": target.uri, "range": target.range })]),
                }),
                data: None,
            })
        })
        .collect()
}

/// The object a reference names (a module output resolves to its module call).
pub fn referenced_object<'m>(m: &'m MergedModule, r: &Reference) -> Option<ObjectRef<'m>> {
    r.container
        .as_deref()
        .and_then(|c| m.resolve(c))
        .or_else(|| m.resolve(&r.subject))
}

/// The merged object at a position: the one a reference there names, or the one whose
/// block contains it.
fn object_at<'m>(
    m: &'m MergedModule,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<ObjectRef<'m>> {
    let fi = m.file_index(path)?;
    let rope = Rope::from_str(&m.file(fi).text);
    let offset = text::byte_offset(&rope, convert::position_in(position), encoding);
    match reference_at(&m.file(fi).syntax.body, offset) {
        Some(r) => referenced_object(m, &r),
        None => m.object_at(fi, offset),
    }
}

/// From a variable's name in a variable definitions file, its declaration.
fn tfvars_definition(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<GotoDefinitionResponse> {
    let file = crate::ide::tfvars::tfvars_file(ws, path)?;
    let rope = Rope::from_str(&file.text);
    let offset = text::byte_offset(&rope, convert::position_in(position), encoding);
    let (m, name, _) = crate::ide::tfvars::variable_at(ws, path, offset)?;
    let decl = m.variables.get(&name)?.provenance.decl;
    location(&m, decl, encoding).map(GotoDefinitionResponse::Scalar)
}

/// Go to definition: from a reference, the effective definition (an overridden local's
/// override); from a block header or label, the declaration and every override of it;
/// from a name in a variable definitions file, the variable's declaration.
pub fn definition(
    ws: &Workspace,
    path: &Path,
    position: lsp::Position,
    encoding: PositionEncoding,
) -> Option<GotoDefinitionResponse> {
    if crate::ide::tfvars::is_tfvars(path) {
        return tfvars_definition(ws, path, position, encoding);
    }
    let m = path.parent().and_then(|d| ws.merged(d))?;
    let fi = m.file_index(path)?;
    let rope = Rope::from_str(&m.file(fi).text);
    let offset = text::byte_offset(&rope, convert::position_in(position), encoding);
    if let Some(r) = reference_at(&m.file(fi).syntax.body, offset) {
        let target = match referenced_object(&m, &r)? {
            ObjectRef::Local(l) => Origin {
                file: l.value.file,
                span: l.value.attr.name.span,
            },
            other => other.provenance().decl,
        };
        return location(&m, target, encoding).map(GotoDefinitionResponse::Scalar);
    }
    let object = m.object_at(fi, offset)?;
    let p = object.provenance();
    let on_header = std::iter::once(&p.decl)
        .chain(p.overrides.iter())
        .any(|o| o.file == fi && o.span.contains(offset));
    if !on_header {
        return None;
    }
    let all: Vec<Location> = std::iter::once(p.decl)
        .chain(p.overrides.iter().copied())
        .filter_map(|o| location(&m, o, encoding))
        .collect();
    Some(GotoDefinitionResponse::Array(all))
}

/// Arguments of `strata.mergedBlock`.
#[derive(Debug, Deserialize)]
pub struct PositionArgs {
    /// The document.
    pub uri: lsp::Uri,
    /// A position in it.
    pub position: lsp::Position,
}

/// `strata.mergedBlock`: the effective block at a position, or `null`.
pub fn merged_block(ws: &Workspace, args: &PositionArgs, encoding: PositionEncoding) -> Value {
    let Some(path) = convert::path_of(&args.uri) else {
        return Value::Null;
    };
    let Some(m) = path.parent().and_then(|d| ws.merged(d)) else {
        return Value::Null;
    };
    let Some(object) = object_at(&m, &path, args.position, encoding) else {
        return Value::Null;
    };
    let p = object.provenance();
    let overrides: Vec<Location> = p
        .overrides
        .iter()
        .filter_map(|o| location(&m, *o, encoding))
        .collect();
    json!({
        "address": object.address(),
        "text": render_object(&m, object),
        "declaration": location(&m, p.decl, encoding),
        "overrides": overrides,
    })
}
