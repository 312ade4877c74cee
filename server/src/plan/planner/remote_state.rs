//! The built-in `terraform_remote_state` data source with the `local` backend, read as
//! Terraform's builtin provider reads it (`dataSourceRemoteStateRead`): the state file of
//! the chosen workspace, its root outputs as the `outputs` object over the `defaults`.
//!
//! Why Strata reads it: the file is a local file, as a file function's, and a data source
//! is read at every plan, so reusing the last result (what Strata does for data sources
//! it cannot read) shows stale values as soon as the file changes. It reads only inside
//! the root module's directory, as file functions do; elsewhere, and for every other
//! backend, the data source stays unread.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Planner;
use crate::check::missing_item_range;
use crate::eval::Value;
use crate::merge::{Origin, Resource};
use crate::plan::address::InstanceAddr;
use crate::plan::state::read_state;
use crate::plan::PlanDiagnostic;
use crate::schema::ValueType;
use crate::syntax::Syntax;
use crate::text::read::{confined, regular_metadata};
use crate::types::Type;

/// The builtin provider's state data source.
pub(super) const REMOTE_STATE: &str = "terraform_remote_state";

/// The local backend's defaults (`backend/local`): the default workspace's state file
/// and the folder of the other workspaces' ones.
const DEFAULT_STATE_PATH: &str = "terraform.tfstate";
const DEFAULT_WORKSPACE_DIR: &str = "terraform.tfstate.d";

impl Planner<'_> {
    /// The object `data.terraform_remote_state` reads for a known, unmarked `config`, or
    /// `None` when Strata does not read it (another backend, a file outside the root
    /// module, a state file it cannot load).
    ///
    /// A state file that does not exist is an error; for a `check` block's data source
    /// (`scoped`) a warning, and the outputs are then unknown.
    pub(super) fn read_remote_state(
        &self,
        node: usize,
        r: &Resource,
        addr: &InstanceAddr,
        config: &Value,
        scoped: bool,
    ) -> Option<Value> {
        let attributes = config.attributes()?;
        let attr = |name: &str| attributes.get(name).cloned().unwrap_or(Value::Null);
        if attr("backend") != Value::String("local".into()) {
            return None;
        }
        let backend = attr("config");
        let setting =
            |name: &str, default: &str| match backend.attributes().and_then(|a| a.get(name)) {
                Some(Value::String(s)) => Some(s.clone()),
                None | Some(Value::Null) => Some(default.to_string()),
                Some(_) => None,
            };
        let workspace = attr("workspace");
        let path = match &workspace {
            Value::Null => PathBuf::from(setting("path", DEFAULT_STATE_PATH)?),
            Value::String(name) if name == "default" => {
                PathBuf::from(setting("path", DEFAULT_STATE_PATH)?)
            }
            Value::String(name) => Path::new(&setting("workspace_dir", DEFAULT_WORKSPACE_DIR)?)
                .join(name)
                .join(DEFAULT_STATE_PATH),
            _ => return None,
        };
        // Relative to the working directory Terraform plans in: the root module's.
        let root = &self.config.root_dir;
        let path = root.join(path);
        let mut outputs = BTreeMap::new();
        let defaults = attr("defaults");
        if let Some(fields) = defaults.attributes() {
            outputs.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        let state = match regular_metadata(&path) {
            Ok(None) => None,
            Ok(Some(_)) => {
                confined(&path, root).ok()?;
                Some(read_state(&path).ok()??)
            }
            Err(_) => return None,
        };
        let outputs = match state {
            Some(state) => {
                outputs.extend(state.outputs.into_iter().map(|(k, o)| {
                    let value = match o.type_.as_ref().and_then(ValueType::from_json) {
                        Some(ty) => Value::from_typed_json(&o.value, &Type::from(&ty)),
                        None => Value::from_json(&o.value),
                    };
                    (k, value)
                }));
                Value::Object(outputs.into())
            }
            None => {
                let m = self.node(node).merged.clone();
                // The provider's error is placed on the block's body (`InConfigBody`).
                let decl = r.provenance.decl;
                let source = m.file(decl.file);
                let json = source.syntax.syntax == Syntax::Json;
                let span =
                    missing_item_range(&source.text, json, decl.span, r.provenance.decl_span);
                let diagnostic = PlanDiagnostic::at(
                    &m,
                    Origin { span, ..decl },
                    "Unable to find remote state",
                    "No stored state was found for the given workspace in the given backend.",
                )
                .with_address(addr);
                if scoped {
                    self.warnings.borrow_mut().push(diagnostic);
                    Value::Unknown
                } else {
                    self.error(diagnostic);
                    Value::Object(BTreeMap::new().into())
                }
            }
        };
        Some(Value::Object(
            BTreeMap::from([
                ("backend".to_string(), attr("backend")),
                ("config".to_string(), backend.clone()),
                ("defaults".to_string(), defaults.clone()),
                ("outputs".to_string(), outputs),
                ("workspace".to_string(), workspace),
            ])
            .into(),
        ))
    }
}
