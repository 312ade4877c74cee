//! What each block of the configuration language may hold: its labels, its arguments
//! (required or not, the form their value must take, a type for documentation), its
//! nested blocks (how many, reserved names, the `_` escaping block) and what happens to
//! everything else in its body. Pure data, no I/O, no syntax trees.
//!
//! One schema describes both dialects: every argument and block says which dialect has
//! it. The language's own blocks live in `language/`; provider schemas (a later layer)
//! build the same `BlockSchema` values at run time, so that every reader (the JSON
//! syntax, the `check` decoder, completion, hover) has one interface for both.
//!
//! This layer sits below `syntax` because the JSON syntax itself needs it: which JSON
//! properties are blocks, and how many levels of labels they take, is the schema's to say.

mod build;
mod docs;
mod functions;
mod language;
mod provider;
mod provider_address;
mod provider_source;
mod value_type;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use build::{arg, block};
pub use docs::{
    attribute_markdown, nested_block_markdown, provider_body_markdown, provider_function_markdown,
};
pub use functions::{function, functions, Function, Parameter};
pub use language::{file_schema, is_root_block_name, provisioner_schema};
pub use provider::{
    FunctionParameter, NestedAttributes, ProviderFunction, ProviderSchema, ResourceSchema,
};
pub use provider_address::{default_registry, ProviderAddress};
pub use provider_source::{
    FunctionLookup, LoadedProviderSchemas, NoProviderSchemas, ProviderSchemaSource, RootRole,
    SchemaLookup, SchemaOrigin,
};
pub use value_type::ValueType;

/// Which tool's rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// HashiCorp Terraform.
    #[default]
    Terraform,
    /// OpenTofu.
    OpenTofu,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Terraform => "terraform",
            Dialect::OpenTofu => "opentofu",
        })
    }
}

impl FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "terraform" => Ok(Dialect::Terraform),
            "opentofu" | "tofu" => Ok(Dialect::OpenTofu),
            other => Err(format!(
                "unknown dialect \"{other}\" (expected terraform or opentofu)"
            )),
        }
    }
}

/// The dialects a piece of the schema belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialects {
    /// Terraform and OpenTofu.
    #[default]
    Both,
    /// Terraform only.
    Terraform,
    /// OpenTofu only.
    OpenTofu,
}

impl Dialects {
    /// Whether `dialect` has it.
    pub fn includes(self, dialect: Dialect) -> bool {
        match self {
            Dialects::Both => true,
            Dialects::Terraform => dialect == Dialect::Terraform,
            Dialects::OpenTofu => dialect == Dialect::OpenTofu,
        }
    }
}

/// Whether an argument must be set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Requirement {
    /// May be left out.
    #[default]
    Optional,
    /// `Missing required argument` when left out of a primary file (override files may
    /// leave out anything: Terraform decodes them with every argument optional).
    Required,
    /// Reserved for a future version: setting it is an error.
    Reserved,
    /// Decided by the provider (computed and not optional): it may be read, and setting
    /// it is the provider's error to report.
    Computed,
}

/// How a description is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DescriptionKind {
    /// Plain text.
    #[default]
    Plain,
    /// Markdown.
    Markdown,
}

/// The form an argument's expression must take, which decides how Terraform reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Form {
    /// Any expression, evaluated in the block's scope.
    #[default]
    Expression,
    /// A constant: no references, no function calls (`Variables not allowed`).
    Constant,
    /// One of a few bare keywords (`when = destroy`); the quoted form is deprecated.
    Keyword(Vec<Box<str>>),
    /// A type constraint (`list(string)`).
    TypeConstraint,
    /// A single static reference (`provider = aws.west`).
    Reference,
    /// A static list of references (`depends_on`).
    ReferenceList,
    /// A static list of attribute paths relative to the block, or `all` (`ignore_changes`).
    RelativePaths,
    /// A map of static references (`providers = { aws = aws.west }`).
    ReferenceMap,
    /// A version constraint string (`">= 1.2"`).
    VersionConstraint,
}

/// One argument of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeSchema {
    /// Its name.
    pub name: Box<str>,
    /// Whether it must be set.
    pub requirement: Requirement,
    /// The form its value takes.
    pub form: Form,
    /// The value's type as Terraform writes types (`string`, `list(string)`), for
    /// documentation; `any` where the block decides.
    pub ty: Box<str>,
    /// What it is for, in a sentence.
    pub doc: Box<str>,
    /// Which dialects have it.
    pub dialects: Dialects,
    /// Why it should no longer be used, when deprecated (empty when the schema gives
    /// no reason, as provider schemas do).
    pub deprecated: Option<Box<str>>,
    /// How `doc` is written.
    pub doc_kind: DescriptionKind,
    /// Computed by the provider (also when `requirement` is `Optional`: the provider
    /// decides the value the configuration leaves out).
    pub computed: bool,
    /// Its value is sensitive: Terraform hides it in plans and outputs.
    pub sensitive: bool,
    /// Written to the provider but never stored in state or plan.
    pub write_only: bool,
    /// Its exact type, when the schema states one (provider schemas do); `ty` shows it.
    pub value_type: Option<ValueType>,
    /// Its nested attributes, for an attribute of a nested type (protocol 6); its
    /// `value_type` is then the object type they make.
    pub nested: Option<Arc<NestedAttributes>>,
}

/// How many blocks of a nested type a body takes, as provider schemas say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Nesting {
    /// Any number of blocks.
    #[default]
    List,
    /// At most one block.
    Single,
    /// Any number, unordered.
    Set,
    /// Any number, each with one label used as a map key.
    Map,
    /// Exactly one block, present even when not written (its arguments' defaults).
    Group,
}

/// What a nested block type is to the block that holds it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum BlockRole {
    /// An ordinary nested block.
    #[default]
    Normal,
    /// A name Terraform reserves for future use: any block of this type is an error.
    Reserved,
    /// The `_` block whose contents are the provider's arguments, never meta-arguments.
    Escape,
    /// A `dynamic` block: it generates blocks of the type its label names, so its own
    /// schema is for its arguments and `content` only, and it is never suggested.
    Dynamic,
}

/// A nested block type allowed in a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedBlock {
    /// The block type name.
    pub name: Box<str>,
    /// What its body holds.
    pub schema: Arc<BlockSchema>,
    /// How many it takes.
    pub nesting: Nesting,
    /// What it is to its parent.
    pub role: BlockRole,
    /// Which dialects have it.
    pub dialects: Dialects,
    /// For a block that may appear once: what Terraform reports for a second one.
    pub duplicate: Option<Duplicate>,
    /// The fewest blocks a provider schema requires (0: no minimum).
    pub min_items: u64,
    /// The most blocks a provider schema allows (0: no maximum).
    pub max_items: u64,
}

/// The error for a second block of a type a body may hold only once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// Terraform's summary.
    pub summary: Box<str>,
    /// Its detail, where `{range}` stands for the first block's place.
    pub detail: Box<str>,
}

impl Duplicate {
    /// `summary` with `detail`.
    pub fn new(summary: &str, detail: &str) -> Option<Self> {
        Some(Self {
            summary: summary.into(),
            detail: detail.into(),
        })
    }
}

/// What a body holds beyond the arguments and blocks its schema names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rest {
    /// Nothing: anything else is `Unsupported argument` / `Unsupported block type`.
    #[default]
    Closed,
    /// Any arguments and no blocks (`locals`, `required_providers`).
    Attributes,
    /// The provider's schema for the block decides (resource, data, provider bodies).
    Provider(ProviderBody),
    /// Anything; what it means is decided elsewhere (a backend's settings).
    Open,
}

/// Which provider-defined schema a body's remaining content belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderBody {
    /// A `resource` body: the resource type's schema.
    Resource,
    /// A `data` body: the data source's schema.
    DataSource,
    /// An `ephemeral` body: the ephemeral resource type's schema.
    EphemeralResource,
    /// A `provider` body: the provider's configuration schema.
    Provider,
    /// A `provisioner` body: the built-in provisioner's schema.
    Provisioner,
    /// A `backend` body: the backend type's settings.
    Backend,
}

/// One label of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelSchema {
    /// What the label is called in messages (`type`, `name`).
    pub name: Box<str>,
    /// When the label must be a valid identifier: the summary of the error when it is
    /// not, in Terraform's and in OpenTofu's wording.
    pub identifier: Option<[Box<str>; 2]>,
}

impl LabelSchema {
    /// The summary for a label that is not an identifier, in `dialect`.
    pub fn invalid_summary(&self, dialect: Dialect) -> Option<&str> {
        let [terraform, opentofu] = self.identifier.as_ref()?;
        Some(match dialect {
            Dialect::Terraform => terraform,
            Dialect::OpenTofu => opentofu,
        })
    }
}

/// Whether `name` is an HCL identifier: a letter or `_`, then letters, digits, `_` and `-`.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// What a block may hold.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockSchema {
    /// Its labels, in order (`type`, `name`).
    pub labels: Vec<LabelSchema>,
    /// Its arguments, in the order Terraform's schema lists them (suggestions follow it).
    pub attributes: Vec<AttributeSchema>,
    /// Its nested block types, in Terraform's order.
    pub blocks: Vec<NestedBlock>,
    /// What else the body may hold.
    pub rest: Rest,
    /// What the block is for, in a sentence.
    pub doc: Box<str>,
    /// How `doc` is written.
    pub doc_kind: DescriptionKind,
    /// Why it should no longer be used, when deprecated (empty when the schema gives
    /// no reason, as provider schemas do).
    pub deprecated: Option<Box<str>>,
    /// Which dialects have it (at top level).
    pub dialects: Dialects,
}

impl BlockSchema {
    /// The label names joined as HCL lists them: `type, name`.
    pub fn label_names(&self) -> String {
        let names: Vec<&str> = self.labels.iter().map(|l| &*l.name).collect();
        names.join(", ")
    }

    /// The argument called `name` in `dialect`.
    pub fn attribute(&self, name: &str, dialect: Dialect) -> Option<&AttributeSchema> {
        self.attributes
            .iter()
            .find(|a| &*a.name == name && a.dialects.includes(dialect))
    }

    /// The nested block type called `name` in `dialect`.
    pub fn block(&self, name: &str, dialect: Dialect) -> Option<&NestedBlock> {
        self.blocks
            .iter()
            .find(|b| &*b.name == name && b.dialects.includes(dialect))
    }

    /// The argument names of `dialect`, in schema order.
    pub fn attribute_names(&self, dialect: Dialect) -> impl Iterator<Item = &str> {
        self.attributes
            .iter()
            .filter(move |a| a.dialects.includes(dialect))
            .map(|a| &*a.name)
    }

    /// The nested block type names of `dialect`, in schema order.
    pub fn block_names(&self, dialect: Dialect) -> impl Iterator<Item = &str> {
        self.blocks
            .iter()
            .filter(move |b| b.dialects.includes(dialect))
            .map(|b| &*b.name)
    }
}

/// How many labels a block of type `name` takes inside a block of type `parent` (`None`
/// for the file's top level), in either dialect; `None` when the schema does not make it
/// a block there. The JSON syntax reads this to tell blocks from arguments.
pub fn block_labels(parent_path: &[&str], name: &str) -> Option<usize> {
    let mut schema: &BlockSchema = file_schema();
    for kind in parent_path {
        schema = &schema.blocks.iter().find(|b| &*b.name == *kind)?.schema;
    }
    schema
        .blocks
        .iter()
        .find(|b| &*b.name == name)
        .map(|b| b.schema.labels.len())
}

#[cfg(test)]
mod tests;
