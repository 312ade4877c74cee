//! References: which object a name in a file stands for (a declaration's label or a
//! reference), and every place that names it: its declaration and each override of it,
//! references in every file of the module (`depends_on`, `replace_triggered_by`, `moved`,
//! `removed` and `import` addresses included), the module's `.tfvars` files, and, across
//! modules, the arguments that callers give a child's variable and the callers'
//! `module.NAME.OUTPUT` references.

use std::path::{Path, PathBuf};

use crate::eval::{references, Reference};
use crate::merge::{Mode, ResourceKey};
use crate::module::SourceFile;
use crate::syntax::{Block, Body, Span, Syntax};
use crate::workspace::Workspace;

use super::tfvars::{is_tfvars, tfvars_file, tfvars_files};

/// An object of a module that can be referred to, renamed or highlighted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `var.NAME`
    Variable(String),
    /// `local.NAME`
    Local(String),
    /// An output, referred to by callers as `module.CALL.NAME`.
    Output(String),
    /// `module.NAME`
    ModuleCall(String),
    /// A managed resource, data source or ephemeral resource.
    Resource(ResourceKey),
}

impl Target {
    /// The object's name (the part a rename changes).
    pub fn name(&self) -> &str {
        match self {
            Target::Variable(n) | Target::Local(n) | Target::Output(n) | Target::ModuleCall(n) => n,
            Target::Resource(key) => &key.name,
        }
    }

    /// How Terraform writes a reference to it inside its module (`None` for an output).
    pub fn address(&self) -> Option<String> {
        Some(match self {
            Target::Variable(n) => format!("var.{n}"),
            Target::Local(n) => format!("local.{n}"),
            Target::ModuleCall(n) => format!("module.{n}"),
            Target::Resource(key) => key.to_string(),
            Target::Output(_) => return None,
        })
    }

    /// The same object under another name.
    pub fn renamed(&self, name: &str) -> Target {
        let name = name.to_string();
        match self {
            Target::Variable(_) => Target::Variable(name),
            Target::Local(_) => Target::Local(name),
            Target::Output(_) => Target::Output(name),
            Target::ModuleCall(_) => Target::ModuleCall(name),
            Target::Resource(key) => Target::Resource(ResourceKey {
                name,
                ..key.clone()
            }),
        }
    }

    /// The block type that declares it (`locals` for a local value).
    fn block_kind(&self) -> &'static str {
        match self {
            Target::Variable(_) => "variable",
            Target::Local(_) => "locals",
            Target::Output(_) => "output",
            Target::ModuleCall(_) => "module",
            Target::Resource(key) => key.mode.keyword(),
        }
    }
}

/// One place that names a target: the span of the name alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The file.
    pub path: PathBuf,
    /// The name, without quotes or the rest of the traversal.
    pub span: Span,
    /// Whether it declares the object (a base or override block, a local's definition).
    pub declaration: bool,
}

/// An object found under the cursor: the module that declares it, what it is, and the
/// span of its name where the cursor is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The directory of the module that declares the object.
    pub dir: PathBuf,
    /// The object.
    pub target: Target,
    /// Its name under the cursor.
    pub span: Span,
}

/// The object named at `offset` of the file at `path`: by a reference (a child's output
/// in `module.CALL.OUTPUT`), a declaration's label, a local's name, or an argument of a
/// local module call (the child's variable).
pub fn target_at(ws: &Workspace, path: &Path, offset: usize) -> Option<Located> {
    let dir = path.parent()?.to_path_buf();
    if is_tfvars(path) {
        let file = tfvars_file(ws, path)?;
        let a =
            file.syntax.body.attributes.iter().find(|a| {
                a.name.span.start as usize <= offset && offset <= a.name.span.end as usize
            })?;
        let name = a.name.name.to_string();
        let span = name_in(&file.text, a.name.span, &name)?;
        return Some(Located {
            dir,
            target: Target::Variable(name),
            span,
        });
    }
    let file = ws.file(path)?;
    let body = &file.syntax.body;
    let located = |dir: PathBuf, target: Target, span: Span| Some(Located { dir, target, span });
    if let Some(r) = crate::eval::reference_at(body, offset) {
        if let Some((call, output)) = output_of_call(&r) {
            let span = ident_at(&file.text, r.span, 2).filter(|s| s.start as usize <= offset)?;
            let child = child_dir(ws, &dir, call)?;
            return located(child, Target::Output(output.to_string()), span);
        }
        let target = reference_target(&r)?;
        let span = reference_name(&file.text, &r, &target)?;
        return located(dir, target, span);
    }
    let block = body.blocks.iter().find(|b| b.span.contains(offset))?;
    let on = |s: Span| s.start as usize <= offset && offset <= s.end as usize;
    if block.kind.name.as_ref() == "locals" {
        let a = block.body.attributes.iter().find(|a| on(a.name.span))?;
        let name = a.name.name.to_string();
        let span = name_in(&file.text, a.name.span, &name)?;
        return located(dir, Target::Local(name), span);
    }
    if block.kind.name.as_ref() == "module" {
        if let Some(a) = block.body.attributes.iter().find(|a| on(a.name.span)) {
            let child = child_dir(ws, &dir, block.label(0)?)?;
            let name = a.name.name.to_string();
            let span = name_in(&file.text, a.name.span, &name)?;
            return located(child, Target::Variable(name), span);
        }
    }
    let label = block.labels.last().filter(|l| on(l.span))?;
    let target = declared(block)?;
    let span = name_in(&file.text, label.span, target.name())?;
    located(dir, target, span)
}

/// The directory of the local module that the call `call` of the module of `dir` loads.
fn child_dir(ws: &Workspace, dir: &Path, call: &str) -> Option<PathBuf> {
    let merged = ws.merged(dir)?;
    let source = merged.module_calls.get(call)?.source.as_ref()?;
    crate::workspace::local_child_dir(dir, crate::merge::literal_string(source.expr())?)
}

/// Every occurrence of `target`, declared in the module of `dir`.
pub fn occurrences(ws: &Workspace, dir: &Path, target: &Target) -> Vec<Occurrence> {
    let mut out = Vec::new();
    if let Some(module) = ws.module(dir) {
        for file in &module.sources {
            declarations(file, target, &mut out);
            each_reference_naming(file, target.name(), &mut |r| {
                if reference_target(r).as_ref() == Some(target) {
                    push_reference(file, r, target, &mut out);
                }
            });
        }
    }
    if let Target::Variable(name) = target {
        for file in tfvars_files(ws, dir) {
            if let Some(a) = file.syntax.body.attribute(name) {
                push(&file, a.name.span, name, false, &mut out);
            }
        }
    }
    if let Target::Variable(_) | Target::Output(_) = target {
        for (caller, call) in ws.callers_of(dir) {
            if let Some(module) = ws.module(&caller) {
                for file in &module.sources {
                    caller_occurrences(file, &call, target, &mut out);
                }
            }
        }
    }
    out
}

/// What a top-level block declares.
fn declared(block: &Block) -> Option<Target> {
    let label = |i: usize| block.label(i).map(str::to_string);
    let resource = |mode| {
        Some(Target::Resource(ResourceKey {
            mode,
            type_name: label(0)?,
            name: label(1)?,
        }))
    };
    match block.kind.name.as_ref() {
        "variable" => label(0).map(Target::Variable),
        "output" => label(0).map(Target::Output),
        "module" => label(0).map(Target::ModuleCall),
        "resource" => resource(Mode::Managed),
        "data" => resource(Mode::Data),
        "ephemeral" => resource(Mode::Ephemeral),
        _ => None,
    }
}

/// The declarations of `target` in `file`: blocks (base or override) and local values.
fn declarations(file: &SourceFile, target: &Target, out: &mut Vec<Occurrence>) {
    for block in file.syntax.body.blocks_of(target.block_kind()) {
        if let Target::Local(name) = target {
            for a in block
                .body
                .attributes
                .iter()
                .filter(|a| *a.name.name == **name)
            {
                push(file, a.name.span, name, true, out);
            }
        } else if declared(block).as_ref() == Some(target) {
            if let Some(label) = block.labels.last() {
                push(file, label.span, target.name(), true, out);
            }
        }
    }
}

/// In a caller's file: the argument of each `module "CALL"` block that sets the child's
/// variable, or the `module.CALL.OUTPUT` references to the child's output.
fn caller_occurrences(file: &SourceFile, call: &str, target: &Target, out: &mut Vec<Occurrence>) {
    match target {
        Target::Variable(name) => {
            for block in file.syntax.body.blocks_of("module") {
                if block.label(0) == Some(call) {
                    if let Some(a) = block.body.attribute(name) {
                        push(file, a.name.span, name, false, out);
                    }
                }
            }
        }
        Target::Output(name) => each_reference_naming(file, name, &mut |r| {
            if output_of_call(r).is_some_and(|(c, o)| c == call && o == name) {
                if let Some(span) =
                    ident_at(&file.text, r.span, 2).filter(|s| span_is(file, *s, name))
                {
                    out.push(Occurrence {
                        path: file.path.clone(),
                        span,
                        declaration: false,
                    });
                }
            }
        }),
        _ => {}
    }
}

/// Calls `f` with every reference of every expression in `body` and its nested blocks.
fn each_reference(body: &Body, f: &mut impl FnMut(&Reference)) {
    for a in &body.attributes {
        references(&a.expr).iter().for_each(&mut *f);
    }
    for b in &body.blocks {
        each_reference(&b.body, f);
    }
}

/// [`each_reference`] over the parts of `file` that can hold an occurrence of `name`: an
/// occurrence is only ever where its name is written (`reference_name`), so a file whose
/// text lacks the name is skipped, and so is a top-level block of the current native
/// parse whose text lacks it (one kept from an older parse has approximate spans and is
/// always read). Reading every expression of a large module is most of a request's work.
fn each_reference_naming(file: &SourceFile, name: &str, f: &mut impl FnMut(&Reference)) {
    let finder = memchr::memmem::Finder::new(name.as_bytes());
    if finder.find(file.text.as_bytes()).is_none() {
        return;
    }
    let body = &file.syntax.body;
    for a in &body.attributes {
        references(&a.expr).iter().for_each(&mut *f);
    }
    let exact = file.syntax.syntax == Syntax::Native;
    for b in &body.blocks {
        let written = file.text.get(b.span.range()).filter(|_| exact && !b.stale);
        if written.is_none_or(|w| finder.find(w.as_bytes()).is_some()) {
            each_reference(&b.body, f);
        }
    }
}

/// The object a reference names, when it is one of a module's named objects.
fn reference_target(r: &Reference) -> Option<Target> {
    let subject = r.container.as_deref().unwrap_or(&r.subject);
    if let Some((call, _)) = output_of_call(r) {
        return Some(Target::ModuleCall(call.to_string()));
    }
    let parts: Vec<&str> = subject.split('.').collect();
    let resource = |mode, t: &str, n: &str| {
        Target::Resource(ResourceKey {
            mode,
            type_name: t.to_string(),
            name: n.to_string(),
        })
    };
    Some(match parts[..] {
        ["var", n] => Target::Variable(n.to_string()),
        ["local", n] => Target::Local(n.to_string()),
        ["module", n] => Target::ModuleCall(call_name(n).to_string()),
        ["data", t, n] => resource(Mode::Data, t, n),
        ["ephemeral", t, n] => resource(Mode::Ephemeral, t, n),
        [t, n] if !matches!(t, "each" | "count" | "self" | "path" | "terraform") => {
            resource(Mode::Managed, t, n)
        }
        _ => return None,
    })
}

/// `m` of `m[0]`.
fn call_name(instance: &str) -> &str {
    instance.split('[').next().unwrap_or(instance)
}

/// The call and output of a `module.CALL.OUTPUT` (or `module.CALL[KEY].OUTPUT`) reference.
fn output_of_call(r: &Reference) -> Option<(&str, &str)> {
    let instance = r.container.as_deref()?;
    let output = r.subject.strip_prefix(instance)?.strip_prefix('.')?;
    let call = instance.strip_prefix("module.")?;
    Some((call_name(call), output))
}

/// The span of the target's name in a reference: the identifier after its prefix
/// (`x` of `var.x`, `n` of `data.t.n[0].id`).
fn reference_name(text: &str, r: &Reference, target: &Target) -> Option<Span> {
    let index = match target {
        Target::Resource(key) if key.mode != Mode::Managed => 2,
        _ => 1,
    };
    ident_at(text, r.span, index).filter(|s| text.get(s.range()) == Some(target.name()))
}

fn push_reference(file: &SourceFile, r: &Reference, target: &Target, out: &mut Vec<Occurrence>) {
    if let Some(span) = reference_name(&file.text, r, target) {
        out.push(Occurrence {
            path: file.path.clone(),
            span,
            declaration: false,
        });
    }
}

/// The `index`th identifier of the traversal written at `span` (identifiers inside
/// brackets are not counted).
fn ident_at(text: &str, span: Span, index: usize) -> Option<Span> {
    let written = text.get(span.range())?;
    let mut depth = 0usize;
    let mut count = 0;
    let mut chars = written.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            c if depth == 0 && (c.is_alphabetic() || c == '_') => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if !(d.is_alphanumeric() || d == '_' || d == '-') {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                if count == index {
                    let start = span.start as usize;
                    return Some(Span::new(start + i, start + end));
                }
                count += 1;
            }
            _ => {}
        }
    }
    None
}

/// The span of `name` inside `span` (a JSON label's span includes its quotes).
fn name_in(text: &str, span: Span, name: &str) -> Option<Span> {
    let written = text.get(span.range())?;
    let at = written.find(name)?;
    let start = span.start as usize + at;
    Some(Span::new(start, start + name.len()))
}

fn span_is(file: &SourceFile, span: Span, name: &str) -> bool {
    file.text.get(span.range()) == Some(name)
}

fn push(file: &SourceFile, span: Span, name: &str, declaration: bool, out: &mut Vec<Occurrence>) {
    if let Some(span) = name_in(&file.text, span, name) {
        out.push(Occurrence {
            path: file.path.clone(),
            span,
            declaration,
        });
    }
}

/// The occurrences in the file at `path` of the object named at `offset`: what an editor
/// highlights.
pub fn highlights(ws: &Workspace, path: &Path, offset: usize) -> Vec<Occurrence> {
    let Some(located) = target_at(ws, path, offset) else {
        return Vec::new();
    };
    let mut found = occurrences(ws, &located.dir, &located.target);
    found.retain(|o| o.path == path);
    found
}
