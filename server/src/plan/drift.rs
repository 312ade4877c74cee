//! What a refresh-only plan reports as changed outside of Terraform (`resource_drift`):
//! Strata refreshes nothing, so the only drift it knows is the objects a move statement
//! (explicit or implied) gives a new address, which a refresh-only plan shows there
//! instead of among the changes (Terraform's `renderHumanDiffDrift`).

use super::planner::Planner;
use super::{Action, ResourceChange};

impl Planner<'_> {
    /// Every current object that moved, unchanged at its new address.
    pub(super) fn moved_drift(&self) -> Vec<ResourceChange> {
        let mut drift = Vec::new();
        for o in &self.objects {
            let moved = o.previous.as_ref().is_some_and(|p| *p != o.addr);
            if !moved || o.instance.deposed.is_some() {
                continue;
            }
            let object = o
                .instance
                .prior(&o.addr.resource.type_name)
                .mark_with_paths(&o.instance.sensitive_paths);
            let schema = self.removal_schema(o, None);
            drift.push(ResourceChange {
                addr: o.addr.clone(),
                previous: o.previous.clone(),
                deposed: None,
                action: Action::NoOp,
                reason: None,
                before: Some(object.clone()),
                after: Some(object),
                replace_paths: Vec::new(),
                caveat: None,
                importing: None,
                declared_at: None,
                blocks: schema
                    .as_deref()
                    .map(super::schema_objects::block_names)
                    .unwrap_or_default(),
                schema,
            });
        }
        drift
    }
}
