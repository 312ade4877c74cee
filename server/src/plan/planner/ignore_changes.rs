//! `ignore_changes` (spec §4.5 step 6), as Terraform's `processIgnoreChangesIndividual`
//! applies it: each listed traversal becomes a path of attribute and index steps; a
//! trailing string index is taken off it and kept as a map key. A path that does not
//! apply to the prior object or to the configuration is skipped, and so is one whose
//! values are equal. Then the configuration is walked deepest first: a value at a
//! recorded path takes the prior value whole, unless it is a map and the path had a key,
//! in which case only that key takes the prior's element (or is removed, when the prior
//! map lacks it). So `input["a"]` on an object keeps the whole prior object, and
//! `input.a["x"]` the whole prior `input.a`.

use std::collections::BTreeMap;

use super::{Bindings, Planner};
use crate::eval::{MarkedPaths, PathStep, Value};
use crate::merge::Resource;
use crate::schema::BlockSchema;
use crate::syntax::{Expr, ExprKind, TraversalStep};
use crate::types::Type;

/// One step of a path, as `traversalToPath` makes it from a traversal step.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    /// `.name` (and the root name): `cty.GetAttrStep`.
    Attr(String),
    /// `[0]`: `cty.IndexStep` with a number.
    Number(f64),
    /// `["key"]`: `cty.IndexStep` with a string.
    Key(String),
}

impl Step {
    /// The step as the marks' paths name it.
    fn name(&self) -> String {
        match self {
            Step::Attr(s) | Step::Key(s) => s.clone(),
            Step::Number(n) => n.to_string(),
        }
    }
}

/// A change to ignore: the path (without a trailing map key), the prior value there, and
/// the key when the listed path ended in one.
struct Ignore {
    path: Vec<Step>,
    prior: Value,
    key: Option<String>,
}

/// What `ignore_changes` took from the prior object: all of it, or the values at paths.
pub(super) enum Ignored {
    All,
    Paths(Vec<Vec<String>>),
}

impl Ignored {
    /// The planned object's marks: the configuration's, except under the paths taken
    /// from the prior, which carry the prior's marks there.
    pub(super) fn marks(
        &self,
        config: &[(Vec<PathStep>, crate::eval::Marks)],
        prior: &[(Vec<PathStep>, crate::eval::Marks)],
    ) -> MarkedPaths {
        let paths = match self {
            Ignored::All => return prior.to_vec(),
            Ignored::Paths(paths) => paths,
        };
        let under = |marked: &[PathStep]| {
            paths.iter().any(|p| {
                p.len() <= marked.len()
                    && p.iter().zip(marked).all(|(name, step)| match step {
                        PathStep::Key(k) => k == name,
                        PathStep::Index(i) => name.parse() == Ok(*i),
                    })
            })
        };
        let kept = config.iter().filter(|(p, _)| !under(p));
        let taken = prior.iter().filter(|(p, _)| under(p));
        kept.chain(taken).cloned().collect()
    }
}

impl Planner<'_> {
    /// The configuration with the listed changes ignored (`ignore_changes = all`: the
    /// prior object), and which paths were taken from the prior.
    pub(super) fn ignore_changes(
        &self,
        node: usize,
        r: &Resource,
        config: &Value,
        prior: &Value,
    ) -> (Value, Ignored) {
        if r.lifecycle.ignore_all_changes.is_some() {
            return (prior.clone(), Ignored::All);
        }
        let Some(list) = &r.lifecycle.ignore_changes else {
            return (config.clone(), Ignored::Paths(Vec::new()));
        };
        // `hcl.ExprList`, then each element a relative traversal (a JSON string read as one).
        let Some(items) = list.expr().static_list() else {
            return (config.clone(), Ignored::Paths(Vec::new()));
        };
        let paths: Vec<Vec<Step>> = items
            .into_iter()
            .filter_map(|item| match item.is_json() {
                true => item.static_traversal(),
                false => Some(item),
            })
            .filter_map(|item| self.static_steps(&item, node))
            .collect();
        // Terraform's configuration object holds every argument, null where not written.
        let mut whole = config.clone();
        if let Value::Object(attrs) = &mut whole {
            for path in &paths {
                if let Some(Step::Attr(root)) = path.first() {
                    attrs.entry(root.clone()).or_insert(Value::Null);
                }
            }
        }
        let mut ignores = Vec::new();
        let mut taken = Vec::new();
        for mut path in paths {
            let key = match path.last() {
                Some(Step::Key(k)) => Some(k.clone()),
                _ => None,
            };
            if key.is_some() {
                path.pop();
            }
            let (Some(p), Some(c)) = (apply(prior, &path), apply(&whole, &path)) else {
                continue;
            };
            // Equal values record nothing; their marks may still differ (cty compares
            // them too), and the prior's are then the ones kept.
            let mut names: Vec<String> = path.iter().map(Step::name).collect();
            names.extend(key.clone());
            taken.push(names);
            if p != c {
                ignores.push(Ignore {
                    path,
                    prior: p,
                    key,
                });
            }
        }
        if ignores.is_empty() {
            return (config.clone(), Ignored::Paths(taken));
        }
        let schema = self.resource_schema(node, r);
        let out = transform(whole, &mut Vec::new(), &ignores, schema.as_deref());
        (out, Ignored::Paths(taken))
    }

    /// An `ignore_changes` element as the path `traversalToPath` makes of it (a legacy
    /// string names one attribute).
    fn static_steps(&self, expr: &Expr, node: usize) -> Option<Vec<Step>> {
        let (root, steps) = match &expr.kind {
            ExprKind::Variable(id) => (id.name.to_string(), &[][..]),
            ExprKind::Traversal { root, steps } => match &root.kind {
                ExprKind::Variable(id) => (id.name.to_string(), &steps[..]),
                _ => return None,
            },
            ExprKind::String(s) => return Some(vec![Step::Attr(s.to_string())]),
            _ => return None,
        };
        let mut path = vec![Step::Attr(root)];
        for step in steps {
            path.push(match step {
                TraversalStep::Attr(id) => Step::Attr(id.name.to_string()),
                TraversalStep::Index(e) => match self.eval(node, 0, e, &Bindings::default())? {
                    Value::Number(n) => Step::Number(n),
                    Value::String(s) => Step::Key(s),
                    _ => return None,
                },
                TraversalStep::LegacyIndex(i, _) => Step::Number(*i as f64),
                _ => return None,
            });
        }
        Some(path)
    }
}

/// The value at `path`, as `cty.Path.Apply` finds it: `None` where a step does not apply
/// (an attribute of a null or of something not an object, an index out of range, a key
/// the map lacks, a number into something not a list, a string into something not a
/// map).
fn apply(value: &Value, path: &[Step]) -> Option<Value> {
    let mut v = value.clone();
    for step in path {
        v = match (step, v.unmarked()) {
            (_, Value::UnknownOf(..)) => Value::Unknown,
            (Step::Attr(name), Value::Object(m) | Value::PartialObject(m)) => m.get(name)?.clone(),
            (Step::Number(n), Value::List(items) | Value::Tuple(items)) => {
                let i = (n.fract() == 0.0 && *n >= 0.0).then_some(*n as usize)?;
                items.get(i)?.clone()
            }
            (Step::Key(k), Value::Map(m)) => m.get(k)?.clone(),
            _ => return None,
        };
    }
    Some(v)
}

/// The configuration with the ignored values put back, deepest values first (as
/// `cty.Transform` visits them).
fn transform(
    value: Value,
    path: &mut Vec<Step>,
    ignores: &[Ignore],
    schema: Option<&BlockSchema>,
) -> Value {
    let child = |v: Value, step: Step, path: &mut Vec<Step>| {
        path.push(step);
        let v = transform(v, path, ignores, schema);
        path.pop();
        v
    };
    let value = match value {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k.clone(), child(v, Step::Attr(k), path)))
                .collect(),
        ),
        Value::PartialObject(m) => Value::PartialObject(
            m.into_iter()
                .map(|(k, v)| (k.clone(), child(v, Step::Attr(k), path)))
                .collect(),
        ),
        Value::Map(m) => Value::Map(
            m.into_iter()
                .map(|(k, v)| (k.clone(), child(v, Step::Key(k), path)))
                .collect(),
        ),
        Value::List(items) => Value::List(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| child(v, Step::Number(i as f64), path))
                .collect(),
        ),
        Value::Tuple(items) => Value::Tuple(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| child(v, Step::Number(i as f64), path))
                .collect(),
        ),
        Value::Marked(inner, marks) => {
            return Value::Marked(Box::new(transform(*inner, path, ignores, schema)), marks)
        }
        // A set's elements are indexed by themselves: no listed path reaches into one.
        other => other,
    };
    let here = ignores.iter().filter(|i| i.path == *path);
    if !is_map(&value, path, schema) {
        return match here.into_iter().next() {
            Some(ignore) => ignore.prior.clone(),
            None => value,
        };
    }
    // An unknown map's keys cannot be ignored one by one.
    if matches!(value, Value::Unknown | Value::UnknownOf(..)) {
        return value;
    }
    let was_null = value.is_null();
    // An object written for a map-typed argument stays one (its attributes are keys).
    let object = matches!(value, Value::Object(_));
    let mut map = match value {
        Value::Map(m) | Value::Object(m) => m,
        _ => BTreeMap::new().into(),
    };
    for ignore in here {
        let Some(key) = &ignore.key else {
            return ignore.prior.clone();
        };
        match ignore.prior.unmarked() {
            Value::Map(prior) | Value::Object(prior) if prior.contains_key(key) => {
                map.insert(key.clone(), prior[key].clone());
            }
            // Absent from the prior map: the configuration's key goes too.
            _ => {
                map.remove(key);
            }
        }
    }
    match (map.is_empty() && was_null, object) {
        (true, _) => Value::Null,
        (false, true) => Value::Object(map),
        (false, false) => Value::Map(map),
    }
}

/// Whether the value at `path` is a map: a map value (an unknown one of a map type too,
/// whose whole value then stays unknown: `-replace` of what a map-typed
/// `triggers_replace` refers to, kept seed diff-4044), or a top-level argument the
/// resource type's schema types as a map (Strata keeps an object written for it, and a
/// null, untyped).
fn is_map(value: &Value, path: &[Step], schema: Option<&BlockSchema>) -> bool {
    if matches!(
        value.unmarked(),
        Value::Map(_) | Value::UnknownOf(Type::Map(_), _)
    ) {
        return true;
    }
    let [Step::Attr(name)] = path else {
        return false;
    };
    schema
        .and_then(|s| s.attributes.iter().find(|a| &*a.name == name))
        .is_some_and(|a| a.ty.starts_with("map("))
}
