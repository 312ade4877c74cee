//! The provider schema's documentation of the item under the cursor in a module several
//! root modules call (a shared child module): each root reads it with the provider
//! versions its lock file pins (`ProviderSchemaSource::for_module_roles`), so where those
//! versions document the item differently, hover shows each version's text, headed by
//! the provider, the version and the roots that lock it; where they agree, one text, as
//! for a module one root owns. A version whose schema lacks the item says so.

use std::path::{Component, Path, PathBuf};

use crate::merge::{FileIndex, MergedModule, SchemaItem};
use crate::schema::RootRole;
use crate::syntax::Span;
use crate::workspace::Workspace;

/// The documentation of the schema item at `offset` in file `fi` of `m`, the module in
/// `dir`, with the span it documents: one text per distinct wording among the versions
/// the roots calling the module lock; `None` when no version knows the item.
pub(super) fn schema_docs(
    ws: &Workspace,
    m: &MergedModule,
    fi: FileIndex,
    offset: usize,
    dir: &Path,
) -> Option<(Span, String)> {
    let roles = ws.provider_schemas().for_module_roles(dir);
    if roles.len() < 2 {
        let own = ws.provider_schemas_for(dir);
        return single(m.schema_at(fi, offset, &*own));
    }
    let found: Vec<Option<(Span, SchemaItem)>> = roles
        .iter()
        .map(|r| m.schema_at(fi, offset, &*r.schemas))
        .collect();
    let texts: Vec<Option<String>> = found
        .iter()
        .map(|f| f.as_ref().map(|(_, item)| item.markdown()))
        .collect();
    let span = found.iter().flatten().map(|(span, _)| *span).next()?;
    if texts.iter().all(|t| *t == texts[0]) {
        return Some((span, texts[0].clone()?));
    }
    let provider = m.provider_at(fi, offset)?;
    let names = root_names(dir, &roles);
    // Versions that word the item alike share one entry, in the roots' order.
    let mut entries: Vec<(&Option<String>, Vec<String>)> = Vec::new();
    for ((text, role), roots) in texts.iter().zip(&roles).zip(names) {
        let version = role
            .schemas
            .origin(&provider)
            .and_then(|o| o.version)
            .unwrap_or_else(|| "(version unknown)".into());
        let noun = if roots.len() == 1 { "root" } else { "roots" };
        let label = format!("{version} ({noun} {})", roots.join(", "));
        match entries.iter_mut().find(|(t, _)| *t == text) {
            Some((_, labels)) => labels.push(label),
            None => entries.push((text, vec![label])),
        }
    }
    let shown = provider.for_display();
    let parts: Vec<String> = entries
        .into_iter()
        .map(|(text, labels)| {
            let text = text.as_deref().unwrap_or("*Not in this version's schema.*");
            format!("**`{shown}` {}**\n\n{text}", labels.join(", "))
        })
        .collect();
    Some((span, parts.join("\n\n")))
}

fn single(item: Option<(Span, SchemaItem)>) -> Option<(Span, String)> {
    item.map(|(span, item)| (span, item.markdown()))
}

/// Each role's roots as code spans, named relative to the directory holding the module
/// and every root (`old`, `envs/prod`), as the user knows them.
fn root_names(dir: &Path, roles: &[RootRole]) -> Vec<Vec<String>> {
    let all = roles.iter().flat_map(|r| r.roots.iter());
    let base = all.fold(dir.to_path_buf(), |base, root| common_ancestor(&base, root));
    let name = |root: &PathBuf| {
        let relative = root.strip_prefix(&base).unwrap_or(root);
        let shown = match relative.as_os_str().is_empty() {
            true => ".".to_string(),
            false => relative.display().to_string(),
        };
        format!("`{shown}`")
    };
    roles
        .iter()
        .map(|r| r.roots.iter().map(name).collect())
        .collect()
}

/// The longest path both `a` and `b` start with.
fn common_ancestor(a: &Path, b: &Path) -> PathBuf {
    let shared = a
        .components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x);
    shared.collect::<Vec<Component>>().iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_named_from_the_directory_holding_them_all() {
        let a = Path::new("/w/envs/prod");
        assert_eq!(
            common_ancestor(a, Path::new("/w/modules/net")),
            Path::new("/w")
        );
        assert_eq!(common_ancestor(a, a), a);
        assert_eq!(common_ancestor(a, Path::new("/x")), Path::new("/"));
    }
}
