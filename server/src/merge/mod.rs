//! Override merging (spec §1.2–1.9): the effective configuration of a module, computed
//! exactly as Terraform computes it from primary and override files, with provenance.
//!
//! Every effective piece (attribute or nested block) is the syntax node it was written as,
//! together with the index of the file it came from (`FileIndex`, an index into
//! `Module::sources`). Every merged object knows its base declaration and each override
//! block that changed it. Nothing is re-evaluated here: values are expressions as written.

mod body;
mod named;
mod object;
mod provider_addresses;
pub mod render;
mod resource;
mod schema_at;
mod schemas;
mod terraform;
mod variable;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::module::{classify, Dialect, FileRole, Module, SourceFile};
use crate::syntax::{Attribute, Block, Expr, ExprKind, JsonKind, Span};

pub use body::{effective_block_type, MergedBody};
pub use named::{Local, ModuleCall, Output, Provider, PROVIDER_META};
pub use object::{strip_instance_keys, ObjectRef};
pub use provider_addresses::{entry_source, implied_local_name, resource_local_name};
pub use resource::{Lifecycle, Mode, Resource, ResourceKey, META};
pub use schema_at::SchemaItem;
pub use schemas::merge_with;
pub use terraform::TerraformSettings;
pub use variable::Variable;

/// An index into `MergedModule::files` (the module's files in load order).
pub type FileIndex = u32;

/// A place in one of the module's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The file.
    pub file: FileIndex,
    /// Where in it.
    pub span: Span,
}

/// An attribute as it stands in the effective configuration, with its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// The attribute as written (shared with the file's syntax tree).
    pub attr: Arc<Attribute>,
    /// The file it was written in.
    pub file: FileIndex,
}

impl Attr {
    /// The attribute's value.
    pub fn expr(&self) -> &Expr {
        &self.attr.expr
    }

    /// Where the attribute is written.
    pub fn origin(&self) -> Origin {
        Origin {
            file: self.file,
            span: self.attr.span,
        }
    }

    /// Where the attribute's value is written.
    pub fn expr_origin(&self) -> Origin {
        Origin {
            file: self.file,
            span: self.attr.expr.span,
        }
    }
}

/// A nested block taken whole from one file (Terraform never deep-merges nested blocks).
#[derive(Debug, Clone, PartialEq)]
pub struct Nested {
    /// The block as written (shared with the file's syntax tree).
    pub block: Arc<Block>,
    /// The file it was written in.
    pub file: FileIndex,
}

impl Nested {
    /// Where the block's header is written.
    pub fn header_origin(&self) -> Origin {
        Origin {
            file: self.file,
            span: header_span(&self.block),
        }
    }
}

/// Where a merged object was declared and which override blocks changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The declaration in a primary file (for a local value, its attribute).
    pub decl: Origin,
    /// The whole declaring block (or attribute).
    pub decl_span: Span,
    /// The header of every override block applied to it, in application order.
    pub overrides: Vec<Origin>,
}

impl Provenance {
    fn of_block(file: FileIndex, block: &Block) -> Self {
        Self {
            decl: Origin {
                file,
                span: header_span(block),
            },
            decl_span: block.span,
            overrides: Vec::new(),
        }
    }
}

/// Two primary declarations of the same object (spec §1.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The block type (or `locals`, `required_providers`, `backend`, ...).
    pub kind: &'static str,
    /// The resource type, or the provider alias, when the kind has one.
    pub qualifier: Option<String>,
    /// For backend and cloud blocks: which of the two the earlier declaration is.
    pub first_kind: Option<&'static str>,
    /// The object's name.
    pub name: String,
    /// The earlier declaration.
    pub first: Origin,
    /// The later one, where Terraform reports the error.
    pub later: Origin,
}

/// An override block whose object has no declaration in a primary file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingBase {
    /// The block type (`resource`, `variable`, `locals`, ...).
    pub kind: &'static str,
    /// Extra words Terraform's message needs: the resource type, or the provider alias.
    pub qualifier: Option<String>,
    /// The object's name.
    pub name: String,
    /// The override block header (for a local, the attribute).
    pub origin: Origin,
}

/// A block or argument in an override file that Terraform rejects or silently ignores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// What it is: a block type (`moved`, `import`, `check`, `removed`, `ephemeral`,
    /// `provider_meta`, `precondition`, `postcondition`, `validation`) or an argument
    /// (`depends_on`, `replace_triggered_by`, `enabled`, `destroy`).
    pub kind: String,
    /// Where it is.
    pub origin: Origin,
    /// True when Terraform reports an error; false when it drops it silently.
    pub rejected: bool,
}

/// The effective configuration of one module.
#[derive(Debug)]
pub struct MergedModule {
    /// The dialect the merge followed.
    pub dialect: Dialect,
    /// The module's files in load order; `FileIndex` indexes this.
    pub files: Vec<Arc<SourceFile>>,
    /// The `terraform` block settings.
    pub terraform: TerraformSettings,
    /// `variable` blocks by name.
    pub variables: BTreeMap<String, Variable>,
    /// Local values by name.
    pub locals: BTreeMap<String, Local>,
    /// `output` blocks by name.
    pub outputs: BTreeMap<String, Output>,
    /// `module` blocks by name.
    pub module_calls: BTreeMap<String, ModuleCall>,
    /// `resource`, `data` and `ephemeral` blocks.
    pub resources: BTreeMap<ResourceKey, Resource>,
    /// `provider` blocks by (name, alias).
    pub providers: BTreeMap<(String, Option<String>), Provider>,
    /// `moved` blocks (primary files only).
    pub moved: Vec<Nested>,
    /// `import` blocks (primary files only).
    pub imports: Vec<Nested>,
    /// `removed` blocks (primary files only).
    pub removed: Vec<Nested>,
    /// `check` blocks (primary files only).
    pub checks: Vec<Nested>,
    /// Objects declared twice among primary files.
    pub duplicates: Vec<Duplicate>,
    /// Override blocks without a base.
    pub missing_bases: Vec<MissingBase>,
    /// Override content Terraform rejects or ignores.
    pub set_aside: Vec<SetAside>,
}

impl MergedModule {
    /// The file at `index`.
    pub fn file(&self, index: FileIndex) -> &SourceFile {
        &self.files[index as usize]
    }

    /// The file name at `index`.
    pub fn file_name(&self, index: FileIndex) -> &str {
        self.files.get(index as usize).map_or("", |f| f.name())
    }

    /// Whether the file at `index` is an override file.
    pub fn is_override_file(&self, index: FileIndex) -> bool {
        classify(self.file_name(index), self.dialect).is_some_and(|k| k.role == FileRole::Override)
    }

    /// The index of the file at `path`.
    pub fn file_index(&self, path: &std::path::Path) -> Option<FileIndex> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(|i| i as FileIndex)
    }

    /// `file:line` for an origin, as origin comments and messages show it.
    pub fn describe(&self, origin: Origin) -> String {
        let file = self.file(origin.file);
        let line = file.text[..(origin.span.start as usize).min(file.text.len())]
            .matches('\n')
            .count()
            + 1;
        format!("{}:{line}", file.name())
    }
}

/// Merges a module's files: primary files in order, then override files in order.
pub fn merge(module: &Module) -> MergedModule {
    let mut merged = MergedModule {
        dialect: module.dialect,
        files: module.sources.clone(),
        terraform: TerraformSettings::default(),
        variables: BTreeMap::new(),
        locals: BTreeMap::new(),
        outputs: BTreeMap::new(),
        module_calls: BTreeMap::new(),
        resources: BTreeMap::new(),
        providers: BTreeMap::new(),
        moved: Vec::new(),
        imports: Vec::new(),
        removed: Vec::new(),
        checks: Vec::new(),
        duplicates: Vec::new(),
        missing_bases: Vec::new(),
        set_aside: Vec::new(),
    };
    let roles: Vec<FileRole> = module
        .sources
        .iter()
        .map(|s| classify(s.name(), module.dialect).map_or(FileRole::Primary, |k| k.role))
        .collect();
    for (i, source) in module.sources.iter().enumerate() {
        if roles[i] == FileRole::Primary {
            for block in &source.syntax.body.blocks {
                merged.add_primary(i as FileIndex, block);
            }
        }
    }
    for (i, source) in module.sources.iter().enumerate() {
        if roles[i] == FileRole::Override {
            for block in &source.syntax.body.blocks {
                merged.apply_override(i as FileIndex, block);
            }
        }
    }
    merged
}

impl MergedModule {
    fn add_primary(&mut self, file: FileIndex, block: &Arc<Block>) {
        match (&*block.kind.name, block.labels.len()) {
            ("variable", 1) => variable::add_primary(self, file, block),
            ("locals", 0) => named::add_primary_locals(self, file, block),
            ("output", 1) => named::add_primary_output(self, file, block),
            ("module", 1) => named::add_primary_module(self, file, block),
            ("provider", 1) => named::add_primary_provider(self, file, block),
            ("resource" | "data" | "ephemeral", 2) => resource::add_primary(self, file, block),
            ("terraform", 0) => terraform::add_primary(self, file, block),
            ("moved", 0) => self.moved.push(nested(file, block)),
            ("import", 0) => self.imports.push(nested(file, block)),
            ("removed", 0) => self.removed.push(nested(file, block)),
            ("check", 1) => self.checks.push(nested(file, block)),
            // Unknown types and wrong label counts are configuration errors reported by
            // the check layer; they contribute nothing to the merged module.
            _ => {}
        }
    }

    fn apply_override(&mut self, file: FileIndex, block: &Arc<Block>) {
        let tofu = self.dialect == Dialect::OpenTofu;
        match (&*block.kind.name, block.labels.len()) {
            ("variable", 1) => variable::apply_override(self, file, block),
            ("locals", 0) => named::apply_override_locals(self, file, block),
            ("output", 1) => named::apply_override_output(self, file, block),
            ("module", 1) => named::apply_override_module(self, file, block),
            ("provider", 1) => named::apply_override_provider(self, file, block),
            ("resource" | "data", 2) => resource::apply_override(self, file, block),
            ("ephemeral", 2) if tofu => resource::apply_override(self, file, block),
            ("terraform", 0) => terraform::apply_override(self, file, block),
            (kind @ ("moved" | "import" | "check"), _) => self.set_aside(kind, file, block, true),
            ("removed", _) => self.set_aside("removed", file, block, tofu),
            ("ephemeral", _) => self.set_aside("ephemeral", file, block, false),
            ("language", _) if tofu => self.set_aside("language", file, block, true),
            _ => {}
        }
    }

    fn set_aside(&mut self, kind: &str, file: FileIndex, block: &Block, rejected: bool) {
        self.set_aside.push(SetAside {
            kind: kind.to_string(),
            origin: Origin {
                file,
                span: header_span(block),
            },
            rejected,
        });
    }

    /// Records what an override block holds that overrides may not: a non-empty
    /// `depends_on` (reported at its first element) and nested blocks of the given types.
    fn reject_in_override(&mut self, file: FileIndex, body: &crate::syntax::Body, blocks: &[&str]) {
        if let Some(d) = body.attribute("depends_on") {
            if !is_empty_list(&d.expr) {
                let span = first_element(&d.expr).unwrap_or(d.expr.span);
                self.set_aside.push(SetAside {
                    kind: "depends_on".into(),
                    origin: Origin { file, span },
                    rejected: true,
                });
            }
        }
        for b in &body.blocks {
            if blocks.contains(&&*b.kind.name) {
                let kind = b.kind.name.to_string();
                self.set_aside(&kind, file, b, true);
            }
        }
    }
}

fn nested(file: FileIndex, block: &Arc<Block>) -> Nested {
    Nested {
        block: Arc::clone(block),
        file,
    }
}

fn attr(file: FileIndex, attribute: &Arc<Attribute>) -> Attr {
    Attr {
        attr: Arc::clone(attribute),
        file,
    }
}

/// Where Terraform places a block's declaration (HCL's `DefRange`): its type keyword and
/// labels, or in the JSON syntax the brace or bracket that opens it.
pub fn header_span(block: &Block) -> Span {
    if let Some(open) = block.json_open {
        return open;
    }
    let end = block
        .labels
        .last()
        .map_or(block.kind.span.end, |l| l.span.end);
    Span {
        start: block.kind.span.start.min(block.span.start),
        end,
    }
}

/// Whether an expression is an empty list (`[]`), which several override rules treat as
/// "not set".
fn is_empty_list(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Tuple(items) => items.is_empty(),
        ExprKind::Json(v) => matches!(&v.kind, JsonKind::Array(a) if a.is_empty()),
        _ => false,
    }
}

/// The span of the first element of a list expression.
fn first_element(expr: &Expr) -> Option<Span> {
    match &expr.kind {
        ExprKind::Tuple(items) => items.first().map(|e| e.span),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::Array(items) => items.first().map(|e| e.span),
            _ => None,
        },
        _ => None,
    }
}

/// The literal string an expression is, if it is one.
pub fn literal_string(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::String(s) => Some(s),
        ExprKind::Json(v) => match &v.kind {
            JsonKind::String(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests;
