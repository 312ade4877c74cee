//! Plan preview (spec §4): from the merged configuration and the prior state, the changes
//! `terraform plan` would propose, with Terraform's actions and reasons, computed without
//! running Terraform or any provider.
//!
//! The pipeline follows Terraform's: moves are applied to the prior state first
//! (`moves`), then every module instance and resource is expanded and planned
//! (`planner`), orphans and deposed objects are planned last (`orphans`). What providers
//! decide is taken from `providers`. `output` writes the plan as JSON and as text.

mod address;
mod apply_cycles;
mod drift;
mod move_graph;
mod move_validation;
mod moves;
mod orphans;
mod output;
mod planner;
mod providers;
mod schema_objects;
mod state;
mod text;
mod tfvars_blocks;
mod validate;
mod variables;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::eval::Value;
use crate::merge::{MergedModule, Origin};
use crate::schema::ProviderSchemaSource;
use crate::syntax::Span;

pub use address::{compare_instances, InstanceAddr, ModulePath, ResourceAddr, Target};
pub use output::{plan_json, RangeOf};
pub use planner::{call_cycle_detail, MODULE_CALL_CYCLE};
pub use providers::UNKNOWN_PROVIDER_CAVEAT;
// Terraform's word wrapping, which `strata check`'s text format shares.
pub use state::{
    parse_state, read_state, InstanceKey, InstanceStatus, ResourceMode, State, StateError,
    StateInstance, StateOutput, StateResource,
};
pub(crate) use text::wrap;
pub use text::{diagnostic_text, render_plan, render_text, snippet, PlaceOf, RenderedPlan};
pub use tfvars_blocks::{block_problems, BlockProblem};
pub use variables::{
    definitions, given_root_values, root_values, unsuitable_in_file, variable_type, Definition,
    VariableInputs,
};

/// Which kind of plan (spec §4.11, §4.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlanMode {
    /// `terraform plan`
    #[default]
    Normal,
    /// `-refresh-only`: no resource changes.
    RefreshOnly,
    /// `-destroy`: delete everything.
    Destroy,
}

/// What the user asked for besides the configuration and the state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// The plan mode.
    pub mode: PlanMode,
    /// `-replace=ADDR` addresses, as given.
    pub replace: Vec<String>,
    /// Variable values given on the command line.
    pub inputs: VariableInputs,
}

/// Finds the module a call's `source` names, from the calling module's directory: its
/// directory and merged model.
pub type ChildModule<'a> = &'a dyn Fn(&Path, &str) -> Option<(PathBuf, Arc<MergedModule>)>;

/// The configuration to plan: the root module and a way to find local child modules.
pub struct Configuration<'a> {
    /// The root module's directory.
    pub root_dir: PathBuf,
    /// The merged root module.
    pub root: Arc<MergedModule>,
    /// The merged module a `source` names, from the directory of the calling module:
    /// its directory and its merged model; `None` for remote or missing modules.
    pub child: ChildModule<'a>,
    /// The provider schemas resource types are planned with.
    pub schemas: &'a dyn ProviderSchemaSource,
}

/// One planned action, in Terraform's vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `["no-op"]`
    NoOp,
    /// `["create"]`
    Create,
    /// `["read"]`
    Read,
    /// `["update"]`
    Update,
    /// `["delete","create"]`
    DeleteThenCreate,
    /// `["create","delete"]`
    CreateThenDelete,
    /// `["delete"]`
    Delete,
    /// `["forget"]`
    Forget,
}

impl Action {
    /// The `actions` list of `terraform show -json`.
    pub fn json(self) -> &'static [&'static str] {
        match self {
            Action::NoOp => &["no-op"],
            Action::Create => &["create"],
            Action::Read => &["read"],
            Action::Update => &["update"],
            Action::DeleteThenCreate => &["delete", "create"],
            Action::CreateThenDelete => &["create", "delete"],
            Action::Delete => &["delete"],
            Action::Forget => &["forget"],
        }
    }

    /// Whether the object is replaced.
    pub fn is_replace(self) -> bool {
        matches!(self, Action::DeleteThenCreate | Action::CreateThenDelete)
    }
}

/// The planned change of one resource instance object.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceChange {
    /// The instance.
    pub addr: InstanceAddr,
    /// Where it was before a move.
    pub previous: Option<InstanceAddr>,
    /// The deposed key, for a deposed object.
    pub deposed: Option<String>,
    /// What will happen.
    pub action: Action,
    /// Terraform's `action_reason`.
    pub reason: Option<&'static str>,
    /// The object before (`None`: it does not exist).
    pub before: Option<Value>,
    /// The object after (`None`: it will not exist).
    pub after: Option<Value>,
    /// Arguments whose change forces replacement.
    pub replace_paths: Vec<String>,
    /// Why the action may not be exact (no provider schema).
    pub caveat: Option<&'static str>,
    /// The import this change carries: `{"id": ...}`.
    pub importing: Option<Value>,
    /// The resource block in configuration, when it has one.
    pub declared_at: Option<(PathBuf, Span)>,
    /// The keys of the objects that are nested block types, when a provider schema says
    /// so: the text shows them as blocks.
    pub blocks: Vec<String>,
    /// The schema of the object's type, when known: the text renders values by its
    /// attributes' types (a map's keys quoted, a set as a set).
    pub schema: Option<Arc<crate::schema::BlockSchema>>,
}

/// An error or warning of planning.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlanDiagnostic {
    /// Terraform's summary.
    pub summary: String,
    /// The detail.
    pub detail: String,
    /// The file and range it refers to, when it has one.
    pub place: Option<(PathBuf, Span)>,
    /// The values of the references of the expression at fault, as Terraform prints them
    /// under the source lines (`│ var.x is "a"`).
    pub values: Vec<crate::eval::ExpressionValue>,
    /// The object whose configuration it is about, as Terraform names it in the
    /// `with ADDRESS,` line (`tfdiags`' `InConfigBody` with an address).
    pub address: Option<String>,
    /// The call of a built-in function the error came from, as Terraform names it in
    /// the `while calling tonumber(v)` line under the source lines.
    pub function_call: Option<String>,
}

impl PlanDiagnostic {
    /// A diagnostic without a place.
    pub fn sourceless(summary: &str, detail: impl Into<String>) -> Self {
        Self {
            summary: summary.to_string(),
            detail: detail.into(),
            place: None,
            values: Vec::new(),
            address: None,
            function_call: None,
        }
    }

    /// A diagnostic at a place of a merged module.
    pub fn at(m: &MergedModule, origin: Origin, summary: &str, detail: impl Into<String>) -> Self {
        Self {
            summary: summary.to_string(),
            detail: detail.into(),
            place: Some((m.file(origin.file).path.clone(), origin.span)),
            values: Vec::new(),
            address: None,
            function_call: None,
        }
    }

    /// The diagnostic with the values of its expression's references.
    pub fn with_values(self, values: Vec<crate::eval::ExpressionValue>) -> Self {
        Self { values, ..self }
    }

    /// The diagnostic with the function call it came from (`tonumber(v)`).
    pub fn with_function_call(self, function_call: Option<String>) -> Self {
        Self {
            function_call,
            ..self
        }
    }

    /// The diagnostic about the configuration of the object at `address`.
    pub fn with_address(self, address: impl ToString) -> Self {
        Self {
            address: Some(address.to_string()),
            ..self
        }
    }
}

/// The planned change of one root module output value.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputChange {
    /// The output's name.
    pub name: String,
    /// What will happen to it.
    pub action: Action,
    /// Its value in the prior state (null when it has none).
    pub before: Value,
    /// Its planned value (null when it is removed).
    pub after: Value,
    /// Whether it is or was sensitive (both sides are shown as sensitive then).
    pub sensitive: bool,
}

/// A plan: the changes, sorted as Terraform sorts them, and what went wrong.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// The plan mode it was made in.
    pub mode: PlanMode,
    /// Whether planning ran (a configuration with errors is not planned: then the plan
    /// holds only them).
    pub planned: bool,
    /// Every planned change.
    pub changes: Vec<ResourceChange>,
    /// What a refresh-only plan reports as changed outside of Terraform: the objects
    /// that moved (`resource_drift`), sorted as the changes.
    pub drift: Vec<ResourceChange>,
    /// The root module's output changes, by name.
    pub outputs: Vec<OutputChange>,
    /// Errors: when there are any, the plan cannot be applied.
    pub errors: Vec<PlanDiagnostic>,
    /// Warnings.
    pub warnings: Vec<PlanDiagnostic>,
}

/// Plans `config` against the prior `state`.
pub fn plan(config: &Configuration, state: &State, options: &PlanOptions) -> Plan {
    planner::run(config, state, options)
}
