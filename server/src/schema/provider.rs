//! One provider's schema: its configuration block, its resource types, data sources and
//! ephemeral resource types as `BlockSchema`s (the interface the language's own blocks
//! use), and its functions. Built at run time by the `providers` layer, from a provider
//! binary or a schema file.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{
    AttributeSchema, BlockSchema, DescriptionKind, Dialects, Function, Nesting, Parameter,
    ProviderBody, ValueType,
};

/// Everything a provider declares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderSchema {
    /// The `provider` block's body, with the schema's version.
    pub provider: ResourceSchema,
    /// Managed resource types, by type name.
    pub resources: BTreeMap<Box<str>, ResourceSchema>,
    /// Data sources, by type name.
    pub data_sources: BTreeMap<Box<str>, ResourceSchema>,
    /// Ephemeral resource types, by type name.
    pub ephemeral_resources: BTreeMap<Box<str>, ResourceSchema>,
    /// Provider-defined functions, by name without the `provider::<local>::` prefix.
    pub functions: BTreeMap<Box<str>, ProviderFunction>,
}

impl ProviderSchema {
    /// The schema of the body `kind` of type `type_name` (the type is ignored for the
    /// provider's own configuration); `None` when the provider has no such type, or for
    /// bodies providers do not define (provisioners, backends).
    pub fn body(&self, kind: ProviderBody, type_name: &str) -> Option<&ResourceSchema> {
        match kind {
            ProviderBody::Provider => Some(&self.provider),
            ProviderBody::Resource => self.resources.get(type_name),
            ProviderBody::DataSource => self.data_sources.get(type_name),
            ProviderBody::EphemeralResource => self.ephemeral_resources.get(type_name),
            ProviderBody::Provisioner | ProviderBody::Backend => None,
        }
    }
}

/// A block's schema with the version the provider gives it (state upgrades follow it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResourceSchema {
    /// The schema version.
    pub version: i64,
    /// The body's schema.
    pub block: Arc<BlockSchema>,
    /// Whether the schema came without a block at all (Terraform's builtin provider's
    /// configuration), which `terraform providers schema -json` writes differently from
    /// an empty block (`hashicorp/null`'s).
    pub blockless: bool,
}

impl ResourceSchema {
    /// A schema without a block: an empty body.
    pub fn blockless() -> Self {
        ResourceSchema {
            blockless: true,
            ..ResourceSchema::default()
        }
    }
}

/// The attributes of an attribute of a nested type (protocol 6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedAttributes {
    /// How the objects nest: one object, a list, a set or a map of them.
    pub nesting: Nesting,
    /// The attributes of each object, sorted by name.
    pub attributes: Vec<AttributeSchema>,
}

impl NestedAttributes {
    /// The type of the attribute's value, as Terraform's `ImpliedType` gives it: an
    /// object of the attributes' types (no optional markers), in the nesting's collection.
    pub fn value_type(&self) -> ValueType {
        let attributes = self
            .attributes
            .iter()
            .map(|a| {
                let t = match &a.nested {
                    Some(nested) => nested.value_type(),
                    None => a.value_type.clone().unwrap_or(ValueType::Dynamic),
                };
                (a.name.clone(), t)
            })
            .collect();
        let object = ValueType::Object {
            attributes,
            optional: Default::default(),
        };
        match self.nesting {
            Nesting::Single | Nesting::Group => object,
            Nesting::List => ValueType::List(Box::new(object)),
            Nesting::Set => ValueType::Set(Box::new(object)),
            Nesting::Map => ValueType::Map(Box::new(object)),
        }
    }
}

/// A provider-defined function, with everything its schema says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderFunction {
    /// A one-line summary.
    pub summary: Box<str>,
    /// What it does.
    pub description: Box<str>,
    /// How `description` is written.
    pub description_kind: DescriptionKind,
    /// Why it should no longer be used, when deprecated.
    pub deprecation: Option<Box<str>>,
    /// Its fixed parameters, in order.
    pub parameters: Vec<FunctionParameter>,
    /// The parameter that takes any number of further arguments.
    pub variadic: Option<FunctionParameter>,
    /// Its result type.
    pub return_type: ValueType,
}

impl ProviderFunction {
    /// Its signature in the form the built-in functions have, called `name`
    /// (`provider::aws::arn_build`), so that one reader serves both.
    pub fn signature(&self, name: &str) -> Function {
        Function {
            name: name.to_string(),
            parameters: Some(self.parameters.iter().map(|p| p.signature()).collect()),
            variadic: self.variadic.as_ref().map(|p| p.signature()),
            return_type: self.return_type.to_string(),
            dialects: Dialects::Both,
        }
    }
}

/// One parameter of a provider-defined function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionParameter {
    /// Its name.
    pub name: Box<str>,
    /// What it is for.
    pub description: Box<str>,
    /// How `description` is written.
    pub description_kind: DescriptionKind,
    /// Its type.
    pub ty: ValueType,
    /// Whether null is accepted.
    pub allow_null: bool,
    /// Whether an unknown value is passed to the provider rather than making the result
    /// unknown.
    pub allow_unknown: bool,
}

impl FunctionParameter {
    fn signature(&self) -> Parameter {
        Parameter {
            name: self.name.to_string(),
            ty: self.ty.to_string(),
            nullable: self.allow_null,
        }
    }
}

impl super::AttributeSchema {
    /// Whether nested blocks named like this attribute may stand for its value, as
    /// Terraform's `blocktoattr` allows for a list or a set of objects (not of a nested
    /// type): providers written for Terraform 0.11 declare some blocks so (`ingress` in
    /// `aws_security_group`), and configurations write them as blocks.
    pub fn accepts_blocks(&self) -> bool {
        self.nested.is_none()
            && matches!(
                &self.value_type,
                Some(ValueType::List(element) | ValueType::Set(element))
                    if matches!(**element, ValueType::Object { .. })
            )
    }
}
