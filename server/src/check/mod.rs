//! Diagnostics of a module, one file per family: syntax (errors, unreadable files,
//! expressions Strata could not analyse), duplicates among primary files, what override
//! files may not do, and meta-arguments. Every diagnostic names its file, range, Terraform's summary
//! and detail, and a stable code.

mod addresses;
mod arguments;
mod attribute_values;
mod check_blocks;
mod child_modules;
mod conditions;
mod contexts;
mod core_version;
mod decode;
mod depends_on;
pub mod deprecations;
mod duplicates;
mod endpoints;
mod ephemeral;
mod evaluated;
mod evaluation;
mod functions;
mod idna;
mod ignore_changes;
mod import_targets;
pub use import_targets::for_each_elements;
mod imports;
mod json_strings;
mod lifecycle;
mod literal;
mod marks;
mod meta;
mod module_arguments;
mod module_providers;
pub mod module_sources;
mod modules;
mod output_conditions;
mod outputs;
mod overrides;
mod places;
mod provider_bodies;
mod provider_configs;
mod provider_functions;
mod provider_json;
mod provider_lookup;
mod provider_source;
mod providers;
mod provisioners;
mod refactoring;
mod reference_syntax;
mod references;
mod repetition;
mod required_providers;
mod resource_types;
mod root_outputs;
mod schema_traversal;
mod schemas;
mod stages;
mod svchost;
mod syntax;
mod terraform_block;
#[cfg(test)]
pub(crate) mod test_support;
mod upstream;
mod validations;
mod variables;
mod versions;
mod walk_parts;
mod walk_scope;
mod walk_values;

/// The marks a variable's declaration gives its value, for the planner too.
pub(crate) use decode::missing_item_range;
pub(crate) use marks::declared_marks;
/// Terraform's refusal of a sensitive `for_each` value, at plan time too.
pub(crate) use repetition::SENSITIVE_FOR_EACH;
/// A root output exposing sensitive values, at plan time too.
pub(crate) use root_outputs::{SENSITIVE_OUTPUT_DETAIL, SENSITIVE_OUTPUT_SUMMARY};
/// The root module's validation rules with the plan's values (`plan::variables`).
pub(crate) use validations::root_at_plan as root_validations_at_plan;

use crate::schema::ProviderSchemaSource;
use std::path::PathBuf;

use crate::merge::{MergedModule, Origin};
use crate::module::Module;
use crate::syntax::Span;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Terraform would refuse the configuration.
    Error,
    /// Terraform would accept it, but it is almost certainly a mistake.
    Warning,
    /// Something the user should know about Strata's own analysis.
    Information,
}

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// Terraform's summary text.
    pub summary: String,
    /// The detail text.
    pub detail: String,
    /// The file it is in.
    pub path: PathBuf,
    /// Where in that file.
    pub span: Span,
    /// A stable identifier of the rule, for suppression and documentation.
    pub code: &'static str,
    /// Other places that explain this one (the earlier declaration, the base block).
    pub related: Vec<Related>,
    /// The values of the references in the diagnostic's expression, as Terraform prints
    /// them under its snippet (`terraform.workspace is "default"`); empty for most.
    pub values: Vec<crate::eval::ExpressionValue>,
}

/// A place related to a diagnostic, with what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// The file.
    pub path: PathBuf,
    /// Where in it.
    pub span: Span,
    /// What this place is, e.g. "first declared here".
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic Terraform gives no source range at all: `validate -json` prints it
    /// without a `range`, the text output without a place. The editor shows it at its
    /// first related place, or at the start of the module's first file.
    pub fn without_range(
        severity: Severity,
        code: &'static str,
        summary: String,
        detail: String,
    ) -> Self {
        Diagnostic {
            severity,
            summary,
            detail,
            path: PathBuf::new(),
            span: Span::default(),
            code,
            related: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The same diagnostic placed, as Terraform places some, in no file but at its zero
    /// range (`validate -json` prints an empty file name at line 0): the lookups that
    /// follow some invalid references, a rule that fails on a variable's default value.
    pub fn at_zero_range(self) -> Self {
        Diagnostic {
            path: PathBuf::new(),
            span: Span::new(0, 1),
            ..self
        }
    }

    /// Whether it is in no file (either of the two forms above).
    pub fn is_placeless(&self) -> bool {
        self.path.as_os_str().is_empty()
    }

    /// Whether Terraform prints it with a range (a file's, or the zero range).
    pub fn has_range(&self) -> bool {
        !self.is_placeless() || self.span != Span::default()
    }

    /// The same diagnostic with a related place of the merged module added.
    pub fn with_related(mut self, merged: &MergedModule, origin: Origin, message: &str) -> Self {
        self.related.push(Related {
            path: merged.file(origin.file).path.clone(),
            span: origin.span,
            message: message.to_string(),
        });
        self
    }
}

/// Finds the merged model of the child module a call's local `source` names, where it
/// is known; checks that need child modules skip the ones it cannot find.
pub type ChildModules<'a> = &'a dyn Fn(&str) -> Option<std::sync::Arc<MergedModule>>;

/// Every diagnostic of a module in its `role`, for the editor: the errors of Terraform's
/// configuration loader and those of its validate walk together (Terraform itself runs
/// the walk only once loading succeeded; see `validate_module`).
pub fn check_module(
    module: &Module,
    merged: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    role: Role<'_>,
) -> Vec<Diagnostic> {
    check(module, merged, children, schemas, role, false)
}

/// What a module is to the modules checked with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role<'a> {
    /// Not called by another module of the set: checked as the root module.
    Root,
    /// Called by another module of the set: what its caller reports of it as a child
    /// (`Unsupported Terraform Core version` in the child's words, outputs exposing
    /// sensitive values) is left to the caller. It holds the module paths the root
    /// modules of the set call it by (`module.a.module.b`): Terraform walks the module
    /// once per path, and the diagnostics that name the module say which.
    Called(&'a [String]),
}

/// Exactly what `terraform validate` reports for a module: the validate walk's
/// diagnostics only when the configuration loaded without errors.
pub fn validate_module(
    module: &Module,
    merged: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    role: Role<'_>,
) -> Vec<Diagnostic> {
    check(module, merged, children, schemas, role, true)
}

fn check(
    module: &Module,
    merged: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    role: Role<'_>,
    phased: bool,
) -> Vec<Diagnostic> {
    // Terraform's loader reads no item that HCL's parser skipped after an error (the
    // module's tree keeps them for the editor), so it is given the module as Terraform
    // reads it. The walk keeps the whole model, so that the declarations written after a
    // stray brace still count while the user types; what it reports there is dropped.
    let read = module.read_by_terraform().map(|read| {
        let merged = crate::merge::merge_with(&read, schemas);
        (read, merged)
    });
    let (loaded, loaded_merged) = read.as_ref().map_or((module, merged), |(m, mm)| (m, mm));
    match load(loaded, loaded_merged, children, role, phased) {
        Loaded::Stopped(out) => out,
        Loaded::Walk { mut out, calls } => {
            let mut walked = walk(merged, children, schemas, role);
            if read.is_some() {
                walked.retain(|d| is_read(module, d));
            }
            out.extend(walked);
            out.extend(calls);
            out
        }
    }
}

/// What Terraform's configuration loader and its building of the module tree and of the
/// walk's graph report.
enum Loaded {
    /// Terraform stops there, with these diagnostics.
    Stopped(Vec<Diagnostic>),
    /// Terraform goes on to the validate walk: the loader's diagnostics, and the module
    /// calls' (reported after the walk's).
    Walk {
        out: Vec<Diagnostic>,
        calls: Vec<Diagnostic>,
    },
}

/// Terraform's configuration loader, then its building of the module tree and of the
/// walk's graph (see [`Loaded`]).
fn load(
    module: &Module,
    merged: &MergedModule,
    children: ChildModules<'_>,
    role: Role<'_>,
    phased: bool,
) -> Loaded {
    let mut out = Vec::new();
    // Terraform's configuration loader (and HCL's parser and decoder).
    syntax::check(module, &mut out);
    decode::check(merged, &mut out);
    if role == Role::Root {
        core_version::check(module, merged, &mut out);
    }
    terraform_block::check(module, merged, &mut out);
    check_blocks::check(merged, &mut out);
    imports::check(merged, &mut out);
    endpoints::check(merged, &mut out);
    deprecations::check(merged, &mut out);
    depends_on::decode(merged, &mut out);
    duplicates::check(merged, &mut out);
    overrides::check(merged, &mut out);
    meta::check(merged, &mut out);
    lifecycle::check(merged, &mut out);
    conditions::check(merged, &mut out);
    variables::check(merged, &mut out);
    outputs::check(merged, &mut out);
    refactoring::check(merged, &mut out);
    module_sources::check(merged, &mut out);
    providers::check(merged, &mut out);
    provisioners::check(merged, &mut out);
    required_providers::check(merged, &mut out);
    if crate::cancel::requested() {
        return Loaded::Stopped(out); // A partial result, which the caller discards (`crate::cancel`).
    }
    let failed = |out: &[Diagnostic]| phased && out.iter().any(|d| d.severity == Severity::Error);
    if failed(&out) {
        return Loaded::Stopped(out); // Terraform builds the module tree only from a root that loaded.
    }
    // Building the module tree: the children, and the providers passed to them.
    required_providers::duplicate_types(merged, &mut out);
    module_providers::check(merged, children, &mut out);
    child_modules::check(module, merged, children, &mut out);
    if failed(&out) {
        return Loaded::Stopped(out);
    }
    // Building the walk's graph decodes each module call's arguments against the child's
    // variables: an error there is all the walk reports (recorded in
    // fixtures/validate/refs-module-arguments).
    let mut calls = Vec::new();
    modules::check(merged, children, &mut calls);
    if phased && calls.iter().any(|d| d.severity == Severity::Error) {
        out.extend(calls);
        return Loaded::Stopped(out);
    }
    // The validate walk follows, with references and values kept as far as each
    // evaluation gets.
    Loaded::Walk { out, calls }
}

/// Whether Terraform reads the place `d` is reported at (HCL's parser did not skip it).
fn is_read(module: &Module, d: &Diagnostic) -> bool {
    module
        .sources
        .iter()
        .find(|s| s.path == d.path)
        .is_none_or(|s| s.syntax.is_read(d.span.start))
}

/// The validate walk of a module whose configuration loaded: references and values, kept
/// as far as each evaluation gets, without what Terraform never reaches once an object
/// failed (`upstream.rs`, which also walks a child module this way to learn which of its
/// outputs failed).
fn walk(
    merged: &MergedModule,
    children: ChildModules<'_>,
    schemas: &dyn ProviderSchemaSource,
    role: Role<'_>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let walked = evaluated::Walked::of(merged);
    // The names the walk gives, with the local values computed once for every family.
    let scope = walk_scope::WalkScope::new(merged, schemas);
    // An output's preconditions come before anything else of it.
    let stopped = output_conditions::check(merged, &scope, &mut out);
    if role == Role::Root {
        root_outputs::check(merged, &scope, &stopped, &mut out);
    }
    contexts::check(merged, &walked, &mut out);
    walk_values::check(merged, &walked, &mut out);
    repetition::check(merged, &scope, &mut out);
    functions::check(merged, &walked, schemas, &mut out);
    evaluation::check(merged, &walked, &scope, &mut out);
    ephemeral::check(merged, matches!(role, Role::Called(_)), &mut out);
    if crate::cancel::requested() {
        return out; // A partial result, which the caller discards.
    }
    references::check(merged, children, &walked, role, &mut out);
    if role == Role::Root {
        module_arguments::check(merged, children, &scope, &mut out);
        validations::check(merged, children, &scope, &mut out);
    }
    schemas::check(merged, schemas, &mut out);
    ignore_changes::check(merged, schemas, &mut out);
    provider_bodies::check(merged, schemas, &mut out);
    provider_configs::check(merged, schemas, &mut out);
    provider_configs::ignored_arguments(merged, schemas, &mut out);
    schema_traversal::check(merged, &walked, schemas, &mut out);
    resource_types::check(merged, schemas, &mut out);
    reference_syntax::check(merged, &walked, &mut out);
    depends_on::check(merged, role, &mut out);
    let reached = import_targets::check(merged, stages::apply(merged, &walked, out));
    let reached = ignore_changes::redundant(merged, schemas, reached);
    let unsupported = resource_types::unsupported(merged, schemas);
    let found = upstream::skip_dependents(merged, children, schemas, reached, &unsupported);
    output_conditions::skip_stopped(merged, &stopped, found)
}

/// The configuration errors Terraform reports only when it plans, not when it validates
/// (so `check_module` leaves them out): a `removed` block whose object is still declared,
/// and what configuring a provider finds in a configuration an override changes.
pub fn plan_time_errors(
    merged: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    refactoring::removed_still_declared(merged, &mut out);
    provider_configs::plan_time(merged, schemas, &mut out);
    out
}

/// A diagnostic at an origin of the merged module.
fn at(
    merged: &MergedModule,
    origin: Origin,
    severity: Severity,
    code: &'static str,
    summary: String,
    detail: String,
) -> Diagnostic {
    Diagnostic {
        severity,
        summary,
        detail,
        path: merged.file(origin.file).path.clone(),
        span: origin.span,
        code,
        related: Vec::new(),
        values: Vec::new(),
    }
}

/// A range as Terraform writes it in messages: `main.tf:3,1-17` (or
/// `main.tf:3,1-5,2` across lines).
pub(crate) fn range_text(merged: &MergedModule, origin: Origin) -> String {
    file_range_text(merged.file(origin.file), origin.span)
}

/// [`range_text`] for a span of one file.
fn file_range_text(file: &crate::module::SourceFile, span: Span) -> String {
    let start = file.pos(span.start as usize);
    let end = file.pos(span.end as usize);
    if start.line == end.line {
        format!(
            "{}:{},{}-{}",
            file.name(),
            start.line,
            start.column,
            end.column
        )
    } else {
        format!(
            "{}:{},{}-{},{}",
            file.name(),
            start.line,
            start.column,
            end.line,
            end.column
        )
    }
}
