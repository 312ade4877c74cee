//! A small builder, so that a schema reads like the block it describes:
//! `block("...").label("name").attr(arg("type").form(Form::TypeConstraint))`.

use std::sync::Arc;

use super::{
    AttributeSchema, BlockRole, BlockSchema, DescriptionKind, Dialects, Duplicate, Form,
    LabelSchema, NestedBlock, Nesting, Requirement, Rest,
};

/// A block schema with its documentation and nothing else yet.
pub fn block(doc: &str) -> BlockSchema {
    BlockSchema {
        doc: doc.into(),
        ..BlockSchema::default()
    }
}

/// An optional argument of any expression, with its documentation and type.
pub fn arg(name: &str, ty: &str, doc: &str) -> AttributeSchema {
    AttributeSchema {
        name: name.into(),
        requirement: Requirement::Optional,
        form: Form::Expression,
        ty: ty.into(),
        doc: doc.into(),
        dialects: Dialects::Both,
        deprecated: None,
        doc_kind: DescriptionKind::Plain,
        computed: false,
        sensitive: false,
        write_only: false,
        value_type: None,
        nested: None,
    }
}

impl AttributeSchema {
    /// Must be set.
    pub fn required(mut self) -> Self {
        self.requirement = Requirement::Required;
        self
    }

    /// Reserved for a future version: setting it is an error.
    pub fn reserved(mut self) -> Self {
        self.requirement = Requirement::Reserved;
        self
    }

    /// Its value takes `form`.
    pub fn form(mut self, form: Form) -> Self {
        self.form = form;
        self
    }

    /// One of `keywords`, written bare.
    pub fn keywords(self, keywords: &[&str]) -> Self {
        self.form(Form::Keyword(
            keywords.iter().map(|k| (*k).into()).collect(),
        ))
    }

    /// Only in `dialects`.
    pub fn only(mut self, dialects: Dialects) -> Self {
        self.dialects = dialects;
        self
    }

    /// Deprecated, for `why`.
    pub fn deprecated(mut self, why: &str) -> Self {
        self.deprecated = Some(why.into());
        self
    }
}

impl BlockSchema {
    /// Takes one more label, called `name`, of any text.
    pub fn label(mut self, name: &str) -> Self {
        self.labels.push(LabelSchema {
            name: name.into(),
            identifier: None,
        });
        self
    }

    /// Takes one more label, called `name`, that must be an identifier; `summary` is the
    /// error when it is not (both dialects).
    pub fn name_label(self, name: &str, summary: &str) -> Self {
        self.name_label_in(name, summary, summary)
    }

    /// As `name_label`, where OpenTofu's summary differs from Terraform's.
    pub fn name_label_in(mut self, name: &str, terraform: &str, opentofu: &str) -> Self {
        self.labels.push(LabelSchema {
            name: name.into(),
            identifier: Some([terraform.into(), opentofu.into()]),
        });
        self
    }

    /// Takes the argument `a`.
    pub fn attr(mut self, a: AttributeSchema) -> Self {
        self.attributes.push(a);
        self
    }

    /// Takes every argument of `list`.
    pub fn attrs(mut self, list: impl IntoIterator<Item = AttributeSchema>) -> Self {
        self.attributes.extend(list);
        self
    }

    /// Holds `rest` beyond what the schema names.
    pub fn rest(mut self, rest: Rest) -> Self {
        self.rest = rest;
        self
    }

    /// Only in `dialects` (for top-level blocks).
    pub fn only(mut self, dialects: Dialects) -> Self {
        self.dialects = dialects;
        self
    }

    /// Takes any number of nested `name` blocks.
    pub fn child(self, name: &str, schema: impl Into<Arc<BlockSchema>>) -> Self {
        self.nested(name, schema, Nesting::List, BlockRole::Normal, None)
    }

    /// Takes at most one nested `name` block; a second one is `summary`, with `detail`
    /// (where `{range}` is the first block's place).
    pub fn child_once(
        self,
        name: &str,
        schema: impl Into<Arc<BlockSchema>>,
        summary: &str,
        detail: &str,
    ) -> Self {
        self.nested(
            name,
            schema,
            Nesting::Single,
            BlockRole::Normal,
            Duplicate::new(summary, detail),
        )
    }

    /// Reserves the block type `name` for future use: any such block is an error.
    pub fn reserved(self, name: &str) -> Self {
        self.nested(name, block(""), Nesting::List, BlockRole::Reserved, None)
    }

    /// Takes a nested block with every property spelled out.
    pub fn nested(
        mut self,
        name: &str,
        schema: impl Into<Arc<BlockSchema>>,
        nesting: Nesting,
        role: BlockRole,
        duplicate: Option<Duplicate>,
    ) -> Self {
        self.blocks.push(NestedBlock {
            name: name.into(),
            schema: schema.into(),
            nesting,
            role,
            dialects: Dialects::Both,
            duplicate,
            min_items: 0,
            max_items: 0,
        });
        self
    }

    /// Marks the nested block type added last as belonging to `dialects` only.
    pub fn child_only(mut self, dialects: Dialects) -> Self {
        if let Some(last) = self.blocks.last_mut() {
            last.dialects = dialects;
        }
        self
    }
}
