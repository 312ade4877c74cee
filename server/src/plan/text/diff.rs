//! The computed diff of one value (`jsonformat/computed`): what kind of value it is (its
//! renderer, with its children's diffs), its action and whether it forces replacement;
//! and the options one rendering passes down (`RenderHumanOpts`).

use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::plan::Action;

/// One value's diff.
#[derive(Clone, Debug)]
pub(super) struct Diff {
    pub renderer: Renderer,
    pub action: Action,
    /// Whether `# forces replacement` follows it.
    pub replace: bool,
}

impl Diff {
    pub(super) fn new(renderer: Renderer, action: Action, replace: bool) -> Self {
        Self {
            renderer,
            action,
            replace,
        }
    }
}

/// The primitive type a value is rendered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Primitive {
    String,
    Number,
    Bool,
    /// A JSON null of no type.
    Null,
}

/// How a value is rendered, with its children.
#[derive(Clone, Debug)]
pub(super) enum Renderer {
    /// A string, number, bool or null.
    Primitive {
        before: Json,
        after: Json,
        ty: Primitive,
    },
    /// A list or tuple; `context` shows the unchanged neighbours of each change (not in
    /// nested attribute lists).
    List { elements: Vec<Diff>, context: bool },
    /// A set; `nested` (a nested attribute set) passes `# forces replacement` to its
    /// elements.
    Set { elements: Vec<Diff>, nested: bool },
    /// A map; `nested` (a nested attribute map) neither aligns its keys nor says
    /// `-> null` or `# forces replacement` for its elements.
    Map {
        elements: BTreeMap<String, Diff>,
        nested: bool,
    },
    /// An object; `nested` (a nested attribute object) says `-> null` for its attributes.
    Object {
        attributes: BTreeMap<String, Diff>,
        nested: bool,
    },
    /// A block: attributes, then nested blocks.
    Block {
        attributes: BTreeMap<String, Diff>,
        blocks: BTreeMap<String, BlockGroup>,
    },
    /// `(known after apply)`, after what it was when it existed.
    Unknown(Option<Box<Diff>>),
    /// `(sensitive value)`.
    Sensitive {
        inner: Box<Diff>,
        before: bool,
        after: bool,
    },
    /// A block whose contents are (or were) sensitive.
    SensitiveBlock {
        inner: Box<Diff>,
        before: bool,
        after: bool,
    },
    /// A value whose JSON type changed: the old one removed, the new one added.
    TypeChange(Box<Diff>, Box<Diff>),
    /// `(write-only attribute)`.
    WriteOnly { sensitive: bool },
}

/// The blocks of one nested block type, with what holds for all of them.
#[derive(Clone, Debug)]
pub(super) struct BlockGroup {
    pub blocks: Blocks,
    pub replace: bool,
    pub before_sensitive: bool,
    pub after_sensitive: bool,
    /// Whether the block list is unknown: one `(known after apply)` block stands for it.
    pub unknown: bool,
}

/// The blocks of one type, by nesting mode.
#[derive(Clone, Debug)]
pub(super) enum Blocks {
    Single(Box<Diff>),
    List(Vec<Diff>),
    Set(Vec<Diff>),
    Map(BTreeMap<String, Diff>),
}

/// What a rendering passes down (`RenderHumanOpts`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Opts {
    /// No `-> null` after a removed value.
    pub override_null_suffix: bool,
    /// `# forces replacement` whatever the diff says.
    pub force_forces_replacement: bool,
    /// No `# forces replacement` whatever the diff says.
    pub forbid_forces_replacement: bool,
    /// Unchanged children are shown, not counted.
    pub show_unchanged_children: bool,
}

impl Opts {
    /// The options for children: the forcing of `# forces replacement` is decided anew
    /// at each level.
    pub(super) fn child(self) -> Self {
        Self {
            force_forces_replacement: false,
            forbid_forces_replacement: false,
            ..self
        }
    }
}

/// Go's `collections.CompareActions`: a collection's action once it holds a child with
/// action `next`.
pub(super) fn compare_actions(current: Action, next: Action) -> Action {
    if next == Action::NoOp {
        return current;
    }
    if current != next {
        return Action::Update;
    }
    current
}
