//! The bounds of the module instance tree and of expansion: instances per resource or
//! module call and per plan (`crate::limits`), and module calls that load a module
//! already being expanded above them, which would expand without end.

use std::path::Path;

use super::{Expansion, Planner};
use crate::limits::{beyond_terraform, MAX_INSTANCES_PER_PLAN, MAX_INSTANCES_PER_RESOURCE};
use crate::merge::{Attr, MergedModule};
use crate::plan::PlanDiagnostic;

/// The summary of the instance limits' diagnostics.
const TOO_MANY_INSTANCES: &str = "Too many instances";

/// The summary of a module call cycle's diagnostic.
pub const MODULE_CALL_CYCLE: &str = "Module call cycle";

/// The largest `count` Terraform accepts is a signed 64-bit integer; 2^63 is the first
/// number past it (and the nearest a float gets to its maximum).
const PAST_INT64: f64 = 9_223_372_036_854_775_808.0;

impl Planner<'_> {
    /// Whether `n` instances, given by `attr` (`count` or `for_each`), are refused: past
    /// the limit for one resource or module call (with the error naming the count), or a
    /// `count` past what Terraform accepts (with its error).
    pub(super) fn too_many(&self, m: &MergedModule, attr: &Attr, n: f64) -> bool {
        if n >= PAST_INT64 {
            self.error(PlanDiagnostic::at(
                m,
                attr.origin(),
                "Invalid count argument",
                "The given \"count\" argument value is unsuitable: value must be a whole \
                 number, between -9223372036854775808 and 9223372036854775807.",
            ));
            return true;
        }
        if n <= MAX_INSTANCES_PER_RESOURCE as f64 {
            return false;
        }
        let what = &attr.attr.name.name;
        self.error(PlanDiagnostic::at(
            m,
            attr.origin(),
            TOO_MANY_INSTANCES,
            format!(
                "The \"{what}\" value gives {} instances; Strata plans at most \
                 {MAX_INSTANCES_PER_RESOURCE} instances of one resource or module call. {}",
                crate::eval::format_number(n),
                beyond_terraform()
            ),
        ));
        true
    }

    /// The expansion of `attr` (`count` or `for_each`) if the plan may still hold its
    /// instances; otherwise the error naming the count, and `None`.
    pub(super) fn admit(
        &self,
        m: &MergedModule,
        attr: Option<&Attr>,
        expansion: Expansion,
    ) -> Option<Expansion> {
        let so_far = self.instances.get();
        let total = so_far.saturating_add(expansion.1.len());
        if total <= MAX_INSTANCES_PER_PLAN {
            self.instances.set(total);
            return Some(expansion);
        }
        // Reported once: every expansion after the first refused is refused too.
        self.instances.set(usize::MAX);
        if so_far == usize::MAX {
            return None;
        }
        let detail = format!(
            "With these {} instances the plan would hold {total} resource and module \
             instances; Strata plans at most {MAX_INSTANCES_PER_PLAN}, so they are left out. {}",
            expansion.1.len(),
            beyond_terraform()
        );
        self.error(match attr {
            Some(attr) => PlanDiagnostic::at(m, attr.origin(), TOO_MANY_INSTANCES, detail),
            None => PlanDiagnostic::sourceless(TOO_MANY_INSTANCES, detail),
        });
        None
    }

    /// When the call `name` of module instance `node`, loading the module in `dir`, loads
    /// a module already being expanded by `node` or one of its callers: the error, at
    /// the call's `source`. Terraform has no check of its own: `terraform init` installs
    /// the calls one inside the other until a module path is too long for the filesystem.
    pub(super) fn call_cycle(&self, node: usize, name: &str, dir: &Path) -> bool {
        let mut chain = vec![format!("module.{name}")];
        let mut at = Some(node);
        let mut again = None;
        while let Some(i) = at {
            let n = self.node(i);
            if let Some((_, call, _)) = &n.parent {
                chain.push(format!("module.{call}"));
            }
            if n.dir == dir {
                again = Some(n.clone());
                break;
            }
            at = n.parent.as_ref().map(|(p, _, _)| *p);
        }
        let Some(again) = again else {
            return false;
        };
        chain.reverse();
        let caller = self.node(node);
        let Some(source) = caller
            .merged
            .module_calls
            .get(name)
            .and_then(|c| c.source.as_ref())
        else {
            return true;
        };
        self.error(PlanDiagnostic::at(
            &caller.merged,
            source.origin(),
            MODULE_CALL_CYCLE,
            call_cycle_detail(&self.config.root_dir, dir, &again.path.to_string(), &chain),
        ));
        true
    }
}

/// The detail of a module call cycle's diagnostic, for a plan or check of the module in
/// `root_dir`: the call loads the module in `dir`, which the module instance `whose`
/// (empty: the root module) already is, and `chain` are the calls from that instance's
/// own call to the one that closes the cycle.
pub fn call_cycle_detail(root_dir: &Path, dir: &Path, whose: &str, chain: &[String]) -> String {
    let whose = match whose {
        "" => "the root module",
        path => path,
    };
    let shown = match dir.strip_prefix(root_dir) {
        Ok(relative) if relative.as_os_str().is_empty() => ".".into(),
        Ok(relative) => format!("./{}", relative.display()),
        Err(_) => dir.display().to_string(),
    };
    format!(
        "This call loads the module in {shown}, which {whose} already is: the calls {} \
         form a cycle that would expand without end. Terraform cannot install it either: \
         `terraform init` nests the calls until a module path is too long for the \
         filesystem.",
        chain.join(" → ")
    )
}
