//! Document links: a local module call's `source` opens the called module's main file, a
//! registry module or provider source opens its registry page, and a constant path given
//! to `file`, `templatefile` and the other file functions opens the file.

use std::path::{Path, PathBuf};

use crate::check::module_sources::is_registry_source;
use crate::module::{Dialect, Module, SourceFile};
use crate::schema::ProviderAddress;
use crate::syntax::{Body, Expr, ExprKind, Span, TemplatePart};
use crate::workspace::Workspace;

/// Where a link leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A file (or, for a module without configuration files, its directory).
    File(PathBuf),
    /// A web page.
    Url(String),
}

/// One link: the text that is clickable (a string's contents) and where it leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The string's contents.
    pub span: Span,
    /// Where it leads.
    pub target: LinkTarget,
}

/// The functions whose first argument is a path in the module.
const FILE_FUNCTIONS: [&str; 6] = [
    "file",
    "templatefile",
    "filebase64",
    "filemd5",
    "filesha256",
    "fileexists",
];

/// The links of `file`, a file of `module`.
pub fn document_links(ws: &Workspace, file: &SourceFile, module: &Module) -> Vec<Link> {
    let mut out = Vec::new();
    let body = &file.syntax.body;
    for call in body.blocks_of("module") {
        if let Some(source) = call.body.attribute("source") {
            module_source(ws, &source.expr, module, &mut out);
        }
    }
    for settings in body.blocks_of("terraform") {
        for required in settings.body.blocks_of("required_providers") {
            for provider in &required.body.attributes {
                provider_source(&provider.expr, module.dialect, &mut out);
            }
        }
    }
    file_paths(body, &module.dir, &mut out);
    out.sort_by_key(|l| l.span.start);
    out
}

/// A module call's `source`: the called module's main file, or its registry page.
fn module_source(ws: &Workspace, expr: &Expr, module: &Module, out: &mut Vec<Link>) {
    let Some((raw, span)) = string(expr) else {
        return;
    };
    let target = if let Some(dir) = crate::workspace::local_child_dir(&module.dir, raw) {
        LinkTarget::File(main_file(ws, &dir))
    } else if is_registry_source(raw) {
        let package = raw.split("//").next().unwrap_or(raw);
        let parts: Vec<&str> = package.split('/').collect();
        let (host, path) = match parts.as_slice() {
            [ns, name, system] => (None, format!("{ns}/{name}/{system}")),
            [host, ns, name, system] => (Some(*host), format!("{ns}/{name}/{system}")),
            _ => return,
        };
        match registry_site(host, module.dialect) {
            Some(Site::Terraform) => {
                LinkTarget::Url(format!("https://registry.terraform.io/modules/{path}"))
            }
            Some(Site::OpenTofu) => {
                LinkTarget::Url(format!("https://search.opentofu.org/module/{path}"))
            }
            None => return,
        }
    } else {
        return;
    };
    out.push(Link { span, target });
}

/// A `required_providers` entry's `source`: the provider's registry page.
fn provider_source(expr: &Expr, dialect: Dialect, out: &mut Vec<Link>) {
    let ExprKind::Object(items) = &expr.kind else {
        return;
    };
    let source = items.iter().find(|(k, _)| match &k.kind {
        ExprKind::Variable(name) => &*name.name == "source",
        ExprKind::String(name) => &**name == "source",
        _ => false,
    });
    let Some((raw, span)) = source.and_then(|(_, v)| string(v)) else {
        return;
    };
    let Some(address) = ProviderAddress::parse(raw, dialect) else {
        return;
    };
    let path = format!("{}/{}", address.namespace, address.type_name);
    let url = match registry_site(Some(&address.hostname), dialect) {
        Some(Site::Terraform) => {
            format!("https://registry.terraform.io/providers/{path}/latest/docs")
        }
        Some(Site::OpenTofu) => format!("https://search.opentofu.org/provider/{path}/latest"),
        None => return,
    };
    out.push(Link {
        span,
        target: LinkTarget::Url(url),
    });
}

/// The public registries whose pages Strata knows.
enum Site {
    Terraform,
    OpenTofu,
}

/// The site of a registry host (the dialect's own registry when none is written).
fn registry_site(host: Option<&str>, dialect: Dialect) -> Option<Site> {
    match host.map(str::to_ascii_lowercase).as_deref() {
        None => Some(match dialect {
            Dialect::Terraform => Site::Terraform,
            Dialect::OpenTofu => Site::OpenTofu,
        }),
        Some("registry.terraform.io") => Some(Site::Terraform),
        Some("registry.opentofu.org") => Some(Site::OpenTofu),
        _ => None,
    }
}

/// `main.tf` (or `.tofu`, `.tf.json`) of a module directory, else its first primary file
/// in load order, as the workspace read the module; else the directory itself.
fn main_file(ws: &Workspace, dir: &Path) -> PathBuf {
    let Some(module) = ws.module(dir) else {
        return dir.to_path_buf();
    };
    let primary = &module.files.primary;
    let main = ["main.tf", "main.tofu", "main.tf.json", "main.tofu.json"]
        .iter()
        .find(|n| primary.iter().any(|p| p == *n))
        .map(|n| n.to_string());
    match main.or_else(|| primary.first().cloned()) {
        Some(name) => dir.join(name),
        None => dir.to_path_buf(),
    }
}

/// Constant paths given to the file functions, anywhere in `body`: `"x.txt"` and
/// `"${path.module}/x.txt"`, resolved in the module's directory, when the file exists.
fn file_paths(body: &Body, dir: &Path, out: &mut Vec<Link>) {
    for a in &body.attributes {
        a.expr.walk(&mut |e| {
            let ExprKind::FuncCall { name, args, .. } = &e.kind else {
                return;
            };
            if !FILE_FUNCTIONS.contains(&&*name.name) {
                return;
            }
            if let Some((relative, span)) = args.first().and_then(module_path) {
                let path = dir.join(relative);
                if path.is_file() {
                    out.push(Link {
                        span,
                        target: LinkTarget::File(path),
                    });
                }
            }
        });
    }
    for b in &body.blocks {
        file_paths(&b.body, dir, out);
    }
}

/// A path relative to the module: a constant string, or a template of `${path.module}`
/// followed by `/` and a constant.
fn module_path(expr: &Expr) -> Option<(String, Span)> {
    if let Some((raw, span)) = string(expr) {
        return Some((raw.to_string(), span));
    }
    let ExprKind::Template(parts) = &expr.kind else {
        return None;
    };
    let [TemplatePart::Interpolation(root), TemplatePart::Literal(rest)] = parts.as_slice() else {
        return None;
    };
    let refs = crate::eval::references(root);
    let is_path_module =
        refs.len() == 1 && refs[0].subject == "path.module" && refs[0].remaining.is_empty();
    let relative = rest.strip_prefix('/')?;
    is_path_module.then(|| (relative.to_string(), inner(expr.span)))
}

/// A constant string and the span of its contents (inside the quotes).
fn string(expr: &Expr) -> Option<(&str, Span)> {
    let raw = crate::merge::literal_string(expr)?;
    Some((raw, inner(expr.span)))
}

/// A quoted string's span without its quotes.
fn inner(span: Span) -> Span {
    if span.end > span.start + 1 {
        Span {
            start: span.start + 1,
            end: span.end - 1,
        }
    } else {
        span
    }
}
