//! Which expressions carry Terraform's value marks, as far as Strata can tell without
//! provider schemas: sensitive values (variables marked `sensitive`, `sensitive(...)`)
//! and ephemeral ones (variables marked `ephemeral`, `terraform.applying`, ephemeral
//! resources), through locals. The functions that drop a mark (`nonsensitive`,
//! `issensitive`, `ephemeralasnull`) stop it.

use std::collections::HashMap;

use serde_json::Value;

use crate::eval::Marks as ValueMarks;
use crate::eval::{constant, references};
use crate::merge::{Attr, MergedModule, Variable};
use crate::syntax::{Expr, ExprKind, Span};

/// Locals followed at most this deep; a longer chain counts as unmarked.
const MAX_DEPTH: usize = 64;

/// A value mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `(sensitive value)`.
    Sensitive,
    /// Available only during a run, never stored.
    Ephemeral,
}

impl Mark {
    /// The functions whose result carries the mark.
    fn adders(self) -> &'static [&'static str] {
        match self {
            Mark::Sensitive => &["sensitive"],
            Mark::Ephemeral => &[],
        }
    }

    /// The functions whose result drops the mark.
    fn removers(self) -> &'static [&'static str] {
        match self {
            Mark::Sensitive => &["nonsensitive", "issensitive"],
            Mark::Ephemeral => &["ephemeralasnull"],
        }
    }
}

/// Remembers what was found per referenced object, so a module is walked once per mark.
#[derive(Debug, Default)]
pub struct Marks {
    memo: HashMap<(Mark, String), bool>,
}

impl Marks {
    /// Takes `subject` (`var.x`) not to carry `mark`, whatever its declaration says.
    pub fn assume_unmarked(&mut self, subject: &str, mark: Mark) {
        self.memo.insert((mark, subject.to_string()), false);
    }

    /// Whether the value of `expr` carries `mark`.
    pub fn carries(&mut self, m: &MergedModule, expr: &Expr, mark: Mark) -> bool {
        self.expr(m, expr, mark, 0)
    }

    fn expr(&mut self, m: &MergedModule, expr: &Expr, mark: Mark, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let mut dropped: Vec<Span> = Vec::new();
        let mut added: Vec<Span> = Vec::new();
        expr.walk(&mut |e| {
            if let ExprKind::FuncCall { name, .. } = &e.kind {
                let name = name.name.strip_prefix("core::").unwrap_or(&name.name);
                if mark.removers().contains(&name) {
                    dropped.push(e.span);
                } else if mark.adders().contains(&name) {
                    added.push(e.span);
                }
            }
        });
        let inside = |s: Span| dropped.iter().any(|u| u.start <= s.start && s.end <= u.end);
        if added.iter().any(|s| !inside(*s)) {
            return true;
        }
        references(expr)
            .iter()
            .filter(|r| !inside(r.span))
            .any(|r| self.subject(m, &r.subject, mark, depth))
    }

    fn subject(&mut self, m: &MergedModule, subject: &str, mark: Mark, depth: usize) -> bool {
        let key = (mark, subject.to_string());
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        self.memo.insert(key.clone(), false); // A cycle is reported elsewhere.
        let result = if let Some(name) = subject.strip_prefix("var.") {
            m.variables.get(name).is_some_and(|v| {
                is_true(match mark {
                    Mark::Sensitive => &v.sensitive,
                    Mark::Ephemeral => &v.ephemeral,
                })
            })
        } else if let Some(name) = subject.strip_prefix("local.") {
            let local = m.locals.get(name).map(|l| l.value.expr().clone());
            local.is_some_and(|e| self.expr(m, &e, mark, depth + 1))
        } else {
            mark == Mark::Ephemeral
                && (subject == "terraform.applying" || subject.starts_with("ephemeral."))
        };
        self.memo.insert(key, result);
        result
    }
}

/// Whether the value of `expr` itself is marked sensitive, not only values inside it (what
/// `HasMark` sees): a `sensitive(...)` call, a variable declared sensitive, a local value
/// or a `for` expression over such a value. Other functions are not followed (a result
/// computed from an unknown value keeps no marks).
pub fn marked_sensitive(m: &MergedModule, expr: &Expr) -> bool {
    marked_within(m, expr, 0)
}

fn marked_within(m: &MergedModule, expr: &Expr, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match &expr.kind {
        ExprKind::Parens(inner) => marked_within(m, inner, depth + 1),
        ExprKind::For(f) => marked_within(m, &f.collection, depth + 1),
        ExprKind::FuncCall { name, args, .. } => {
            name.name.strip_prefix("core::").unwrap_or(&name.name) == "sensitive" && args.len() == 1
        }
        ExprKind::Traversal { .. } | ExprKind::Variable(_) => {
            let refs = references(expr);
            let [reference] = refs.as_slice() else {
                return false;
            };
            if let Some(name) = reference.subject.strip_prefix("var.") {
                return m.variables.get(name).is_some_and(|v| is_true(&v.sensitive));
            }
            match reference.subject.strip_prefix("local.") {
                Some(name) => m
                    .locals
                    .get(name)
                    .is_some_and(|l| marked_within(m, l.value.expr(), depth + 1)),
                None => false,
            }
        }
        _ => false,
    }
}

/// The marks a variable's declaration puts on its value (`sensitive = true`,
/// `ephemeral = true`).
pub(crate) fn declared_marks(v: &Variable) -> ValueMarks {
    let mut marks = ValueMarks::NONE;
    if is_true(&v.sensitive) {
        marks |= ValueMarks::SENSITIVE;
    }
    if is_true(&v.ephemeral) {
        marks |= ValueMarks::EPHEMERAL;
    }
    marks
}

/// Whether an optional argument is the literal `true`.
pub fn is_true(a: &Option<Attr>) -> bool {
    a.as_ref()
        .is_some_and(|a| constant(a.expr()) == Some(Value::Bool(true)))
}
