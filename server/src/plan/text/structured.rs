//! One value's change as Terraform's plan renderer reads it (`jsonformat/structured`):
//! the JSON of `terraform show -json` for before, after, `after_unknown`,
//! `before_sensitive`, `after_sensitive` and `replace_paths`, walked down one attribute,
//! key or index at a time. JSON `null` is Go's `nil` there: a value that is absent or
//! null; `*_explicit` says whether the parent held the key or index at all.

use std::collections::BTreeSet;

use serde_json::Value as Json;

use super::diff::Diff;
use crate::plan::Action;

/// The `replace_paths` that lie below one value (`attribute_path.PathMatcher`, which never
/// propagates a match to children): a path that ends here forces replacement.
#[derive(Clone, Debug, Default)]
pub(super) struct ReplacePaths(Vec<Vec<Json>>);

impl ReplacePaths {
    /// The paths of a change's `replace_paths` (a list of paths, each a list of steps).
    pub(super) fn parse(json: Option<&Json>) -> Self {
        let paths = json
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_array().cloned())
            .collect();
        Self(paths)
    }

    /// Whether a path ends at this value.
    pub(super) fn matches(&self) -> bool {
        self.0.iter().any(Vec::is_empty)
    }

    /// The paths below attribute or map key `key`.
    fn key(&self, key: &str) -> Self {
        self.below(|step| step.as_str() == Some(key))
    }

    /// The paths below element `index` (given as a number or a numeric string).
    fn index(&self, index: usize) -> Self {
        let matches = |step: &Json| {
            let n = match step {
                Json::Number(n) => n.as_f64(),
                Json::String(s) => s.parse::<f64>().ok(),
                _ => None,
            };
            // Go truncates the float to an int before comparing.
            n.is_some_and(|n| n.trunc() == index as f64)
        };
        self.below(matches)
    }

    fn below(&self, first: impl Fn(&Json) -> bool) -> Self {
        Self(
            self.0
                .iter()
                .filter(|p| p.first().is_some_and(&first))
                .map(|p| p[1..].to_vec())
                .collect(),
        )
    }
}

/// One value's change (`structured.Change`).
#[derive(Clone, Debug, Default)]
pub(super) struct Change {
    /// Whether the parent held this key or index before.
    pub before_explicit: bool,
    /// Whether the parent holds this key or index after.
    pub after_explicit: bool,
    pub before: Json,
    pub after: Json,
    /// `after_unknown` at this value: `true`, or the shape of what is unknown inside.
    pub unknown: Json,
    pub before_sensitive: Json,
    pub after_sensitive: Json,
    pub replace: ReplacePaths,
    /// Whether the schema has features legacy providers lack: then an empty string is a
    /// value, not null.
    pub non_legacy: bool,
}

impl Change {
    /// A change as `terraform show -json` writes it; a `forget` is shown as no change.
    pub(super) fn from_json(change: &Json) -> Self {
        let get = |key: &str| change.get(key).cloned().unwrap_or(Json::Null);
        let parsed = Self {
            before: get("before"),
            after: get("after"),
            unknown: get("after_unknown"),
            before_sensitive: get("before_sensitive"),
            after_sensitive: get("after_sensitive"),
            replace: ReplacePaths::parse(change.get("replace_paths")),
            ..Self::default()
        };
        let forget = change.get("actions") == Some(&Json::from(vec!["forget"]));
        if forget {
            parsed.as_no_op()
        } else {
            parsed
        }
    }

    pub(super) fn is_before_sensitive(&self) -> bool {
        self.before_sensitive == Json::Bool(true)
    }

    pub(super) fn is_after_sensitive(&self) -> bool {
        self.after_sensitive == Json::Bool(true)
    }

    pub(super) fn is_unknown(&self) -> bool {
        self.unknown == Json::Bool(true)
    }

    /// When either side is sensitive: the diff `make` builds from the diff `inner` gives
    /// the value without its sensitivity, with the sensitivity of each side and the
    /// action (an update when only the sensitivity changes) (`CheckForSensitive`).
    pub(super) fn check_sensitive(
        &self,
        inner: impl FnOnce(Change) -> Diff,
        make: impl FnOnce(Diff, bool, bool, Action) -> Diff,
    ) -> Option<Diff> {
        let (before, after) = (self.is_before_sensitive(), self.is_after_sensitive());
        if !before && !after {
            return None;
        }
        let value = Change {
            before_sensitive: Json::Bool(false),
            after_sensitive: Json::Bool(false),
            non_legacy: false,
            ..self.clone()
        };
        let inner = inner(value);
        let mut action = inner.action;
        let null_no_op = self.before.is_null()
            && !self.before_explicit
            && self.after.is_null()
            && !self.after_explicit;
        if action == Action::NoOp && before != after && !null_no_op {
            action = Action::Update;
        }
        Some(make(inner, before, after, action))
    }

    /// When the value is unknown after: `created` of it when there was nothing before,
    /// else `replaced` of it and its before alone, whose `after_unknown` is
    /// `child_unknown` (`CheckForUnknown`).
    pub(super) fn check_unknown(
        &self,
        child_unknown: Json,
        created: impl FnOnce(Change) -> Diff,
        replaced: impl FnOnce(Change, Change) -> Diff,
    ) -> Option<Diff> {
        if !self.is_unknown() {
            return None;
        }
        let mut change = self.clone();
        change.after_explicit = true;
        if change.before.is_null() {
            return Some(created(change));
        }
        let mut before = change.as_delete();
        before.unknown = child_unknown;
        Some(replaced(change, before))
    }

    /// The action of a primitive change (`CalculateAction`).
    pub(super) fn calculate_action(&self) -> Action {
        let before_missing = self.before.is_null() && !self.before_explicit;
        let after_missing = self.after.is_null() && !self.after_explicit;
        if before_missing && (!self.after.is_null() || self.after_explicit) {
            return Action::Create;
        }
        if after_missing && (!self.before.is_null() || self.before_explicit) {
            return Action::Delete;
        }
        if self.before == self.after
            && self.after_explicit == self.before_explicit
            && self.is_after_sensitive() == self.is_before_sensitive()
        {
            return Action::NoOp;
        }
        Action::Update
    }

    /// The action a collection starts from before its elements are compared
    /// (`GetDefaultActionForIteration`).
    pub(super) fn default_action(&self) -> Action {
        match (self.before.is_null(), self.after.is_null()) {
            (true, true) => Action::NoOp,
            (true, false) => Action::Create,
            (false, true) => Action::Delete,
            (false, false) => Action::NoOp,
        }
    }

    /// The value unchanged: its before on both sides.
    pub(super) fn as_no_op(&self) -> Self {
        Self {
            before_explicit: self.before_explicit,
            after_explicit: self.before_explicit,
            before: self.before.clone(),
            after: self.before.clone(),
            unknown: Json::Bool(false),
            before_sensitive: self.before_sensitive.clone(),
            after_sensitive: self.before_sensitive.clone(),
            replace: self.replace.clone(),
            non_legacy: false,
        }
    }

    /// The value removed: its before only.
    pub(super) fn as_delete(&self) -> Self {
        Self {
            before_explicit: self.before_explicit,
            before: self.before.clone(),
            before_sensitive: self.before_sensitive.clone(),
            replace: self.replace.clone(),
            ..Self::default()
        }
    }

    /// The value created: its after only.
    pub(super) fn as_create(&self) -> Self {
        Self {
            after_explicit: self.after_explicit,
            after: self.after.clone(),
            unknown: self.unknown.clone(),
            after_sensitive: self.after_sensitive.clone(),
            replace: self.replace.clone(),
            ..Self::default()
        }
    }

    /// Whether before, after or both are objects (Go's `genericToMap` is not nil).
    pub(super) fn map_sides(&self) -> (bool, bool) {
        (self.before.is_object(), self.after.is_object())
    }

    /// The change of attribute or map key `key` (`ChangeMap.GetChild`).
    pub(super) fn key(&self, key: &str) -> Self {
        let get = |j: &Json| j.as_object().and_then(|m| m.get(key)).cloned();
        let (before, after) = (get(&self.before), get(&self.after));
        Self {
            before_explicit: before.is_some(),
            after_explicit: after.is_some(),
            before: before.unwrap_or(Json::Null),
            after: after.unwrap_or(Json::Null),
            unknown: get(&self.unknown).unwrap_or(Json::Null),
            before_sensitive: get(&self.before_sensitive).unwrap_or(Json::Null),
            after_sensitive: get(&self.after_sensitive).unwrap_or(Json::Null),
            replace: self.replace.key(key),
            non_legacy: self.non_legacy,
        }
    }

    /// The keys of before and after (`ExplicitKeys`).
    pub(super) fn explicit_keys(&self) -> BTreeSet<String> {
        [&self.before, &self.after]
            .into_iter()
            .filter_map(Json::as_object)
            .flat_map(|m| m.keys().cloned())
            .collect()
    }

    /// The keys of before, after, `after_unknown` and both sensitivities (`AllKeys`).
    pub(super) fn all_keys(&self) -> BTreeSet<String> {
        [
            &self.before,
            &self.after,
            &self.unknown,
            &self.after_sensitive,
            &self.before_sensitive,
        ]
        .into_iter()
        .filter_map(Json::as_object)
        .flat_map(|m| m.keys().cloned())
        .collect()
    }

    /// The elements before and after, when they are lists (Go's `genericToSlice`).
    pub(super) fn slices(&self) -> (Option<&Vec<Json>>, Option<&Vec<Json>>) {
        (self.before.as_array(), self.after.as_array())
    }

    /// The change of element `before_index` into element `after_index`; an index past the
    /// end stands for none (`ChangeSlice.GetChild`, which does not pass on `non_legacy`).
    pub(super) fn element(&self, before_index: usize, after_index: usize) -> Self {
        let get = |j: &Json, i: usize| j.as_array().and_then(|a| a.get(i)).cloned();
        let (before, after) = (
            get(&self.before, before_index),
            get(&self.after, after_index),
        );
        let relevant = match before.is_some() {
            true => before_index,
            false => after_index,
        };
        Self {
            before_explicit: before.is_some(),
            after_explicit: after.is_some(),
            before: before.unwrap_or(Json::Null),
            after: after.unwrap_or(Json::Null),
            unknown: get(&self.unknown, after_index).unwrap_or(Json::Null),
            before_sensitive: get(&self.before_sensitive, before_index).unwrap_or(Json::Null),
            after_sensitive: get(&self.after_sensitive, after_index).unwrap_or(Json::Null),
            replace: self.replace.index(relevant),
            non_legacy: false,
        }
    }
}
