//! The names in a file that stand for something Terraform or a schema marks deprecated,
//! for the semantic tokens' `deprecated` modifier:
//! - arguments and nested block types of resource, data source, ephemeral resource and
//!   provider bodies that their provider's schema marks `deprecated` (through `dynamic`
//!   blocks too);
//! - arguments and blocks the language schema marks (`schema/language/`: a `provider`
//!   block's `version`);
//! - the attribute or nested block a reference to a resource reads, when its schema marks
//!   it (what Terraform's `Deprecated attribute` warning is about);
//! - provider-defined functions whose schema gives a deprecation message.
//!
//! Only the native syntax is read: JSON files get no semantic tokens.

use std::collections::HashSet;

use crate::merge::{MergedModule, Mode, ResourceKey};
use crate::schema::{file_schema, BlockSchema, Dialect, FunctionLookup, ProviderSchemaSource};
use crate::syntax::{Body, Expr, ExprKind, File, Span, Syntax, TraversalStep};

/// The spans of the names in `file`, a file of the module `m`, that stand for something
/// deprecated, as `schemas` and the language schema say.
pub fn deprecated_names(
    file: &File,
    m: &MergedModule,
    schemas: &dyn ProviderSchemaSource,
) -> HashSet<Span> {
    let mut found = Deprecated {
        m,
        schemas,
        spans: HashSet::new(),
    };
    if file.syntax != Syntax::Native {
        return found.spans;
    }
    let language = file_schema();
    for block in &file.body.blocks {
        if let Some(nested) = language.block(&block.kind.name, m.dialect) {
            if nested.schema.deprecated.is_some() {
                found.spans.insert(block.kind.span);
            }
            found.body(&block.body, &nested.schema);
        }
        if let Some((provider, kind, type_name)) = m.body_provider(block) {
            if let Some(schema) = schemas.lookup(&provider, kind, &type_name).found() {
                found.body(&block.body, &schema.block);
            }
        }
    }
    found.expressions(&file.body);
    found.spans
}

struct Deprecated<'a> {
    m: &'a MergedModule,
    schemas: &'a dyn ProviderSchemaSource,
    spans: HashSet<Span>,
}

impl Deprecated<'_> {
    /// The arguments and nested blocks of `body` that `schema` marks deprecated, at every
    /// depth.
    fn body(&mut self, body: &Body, schema: &BlockSchema) {
        let dialect = self.m.dialect;
        for a in &body.attributes {
            if schema
                .attribute(&a.name.name, dialect)
                .is_some_and(|s| s.deprecated.is_some())
            {
                self.spans.insert(a.name.span);
            }
        }
        for block in &body.blocks {
            // `dynamic "ingress"` generates `ingress` blocks from its `content`.
            let (name, name_span, inner) = match (&*block.kind.name, block.labels.first()) {
                ("dynamic", Some(label)) => match block.body.blocks_of("content").next() {
                    Some(content) => (&*label.name, label.span, &content.body),
                    None => continue,
                },
                _ => (&*block.kind.name, block.kind.span, &block.body),
            };
            let Some(nested) = schema.block(name, dialect) else {
                continue;
            };
            if nested.schema.deprecated.is_some() {
                self.spans.insert(name_span);
            }
            self.body(inner, &nested.schema);
        }
    }

    /// The references and provider function calls of every expression of `body`.
    fn expressions(&mut self, body: &Body) {
        for a in &body.attributes {
            a.expr.walk(&mut |e| self.expression(e));
        }
        for block in &body.blocks {
            self.expressions(&block.body);
        }
    }

    fn expression(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Traversal { root, steps } => {
                if let ExprKind::Variable(root) = &root.kind {
                    self.reference(&root.name, steps);
                }
            }
            ExprKind::FuncCall { name, .. } if name.name.contains("::") => {
                let found = self.m.provider_function(self.schemas, &name.name);
                if let Some((_, FunctionLookup::Found(f))) = found {
                    if f.deprecation.is_some() {
                        self.spans.insert(name.span);
                    }
                }
            }
            _ => {}
        }
    }

    /// A reference to a resource (`T.N`, `data.T.N`, `ephemeral.T.N`), then what it reads
    /// of the resource's schema: an attribute, or nested blocks down to one.
    fn reference(&mut self, root: &str, steps: &[TraversalStep]) {
        let names: Vec<&str> = steps
            .iter()
            .take(2)
            .map_while(|s| match s {
                TraversalStep::Attr(name) => Some(&*name.name),
                _ => None,
            })
            .collect();
        let (mode, type_name, name, rest) = match (root, names.as_slice()) {
            ("data", [t, n]) => (Mode::Data, *t, *n, &steps[2..]),
            ("ephemeral", [t, n]) => (Mode::Ephemeral, *t, *n, &steps[2..]),
            ("var" | "local" | "module" | "each" | "count" | "self" | "path" | "terraform", _) => {
                return
            }
            (t, [n, ..]) => (Mode::Managed, t, *n, &steps[1..]),
            _ => return,
        };
        let key = ResourceKey {
            mode,
            type_name: type_name.to_string(),
            name: name.to_string(),
        };
        let Some(resource) = self.m.resources.get(&key) else {
            return;
        };
        let provider = self.m.resource_provider(resource);
        let Some(schema) = self
            .schemas
            .lookup(&provider, mode.provider_body(), type_name)
            .found()
        else {
            return;
        };
        // The instance key, if any, comes before what is read.
        let rest = match rest.first() {
            Some(TraversalStep::Index(_) | TraversalStep::LegacyIndex(..)) => &rest[1..],
            _ => rest,
        };
        self.read(&schema.block, rest, self.m.dialect);
    }

    /// The steps `steps` read from an object of `schema`: a deprecated attribute or block
    /// type they name is marked; a nested block's own steps follow its index, if any.
    fn read(&mut self, schema: &BlockSchema, steps: &[TraversalStep], dialect: Dialect) {
        let Some(TraversalStep::Attr(name)) = steps.first() else {
            return;
        };
        if let Some(a) = schema.attribute(&name.name, dialect) {
            if a.deprecated.is_some() {
                self.spans.insert(name.span);
            }
            return;
        }
        let Some(nested) = schema.block(&name.name, dialect) else {
            return;
        };
        if nested.schema.deprecated.is_some() {
            self.spans.insert(name.span);
        }
        let rest = match steps.get(1) {
            Some(TraversalStep::Index(_) | TraversalStep::LegacyIndex(..)) => &steps[2..],
            _ => &steps[1..],
        };
        self.read(&nested.schema, rest, dialect);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::test_support::merged;
    use crate::schema::LoadedProviderSchemas;

    /// A provider `example/thing` whose schema deprecates an argument, a nested block
    /// type and an argument of it, and a function.
    fn schemas() -> LoadedProviderSchemas {
        let schema = r#"{"format_version": "1.0", "provider_schemas": {
          "registry.terraform.io/example/thing": {
            "provider": {"version": 0, "block": {}},
            "resource_schemas": {"thing_one": {"version": 0, "block": {
              "attributes": {
                "old": {"type": "string", "optional": true, "deprecated": true},
                "new": {"type": "string", "optional": true}
              },
              "block_types": {"legacy": {"nesting_mode": "list", "block": {
                "attributes": {"x": {"type": "string", "optional": true, "deprecated": true}},
                "deprecated": true
              }}}
            }}},
            "functions": {
              "old_fn": {"parameters": [], "return_type": "string", "deprecation_message": "use new_fn"},
              "new_fn": {"parameters": [], "return_type": "string"}
            }
          }}}"#;
        crate::check::test_support::loaded_schemas(schema)
    }

    #[test]
    fn marks_what_the_schemas_deprecate() {
        let text = r#"terraform {
  required_providers {
    thing = { source = "example/thing" }
  }
}

provider "thing" {
  version = "1.0"
}

resource "thing_one" "a" {
  old = "x"
  new = "y"
  legacy {
    x = 1
  }
  dynamic "legacy" {
    for_each = []
    content {
      x = 2
    }
  }
}

locals {
  read  = [thing_one.a.old, thing_one.a.new, thing_one.a.legacy[0].x]
  calls = [provider::thing::old_fn(), provider::thing::new_fn()]
}
"#;
        let m = merged(text, Dialect::Terraform);
        let file = crate::syntax::parse(text, Syntax::Native, None);
        let mut found: Vec<(usize, &str)> = deprecated_names(&file, &m, &schemas())
            .into_iter()
            .map(|s| (s.start as usize, &text[s.range()]))
            .collect();
        found.sort();
        let words: Vec<&str> = found.iter().map(|(_, w)| *w).collect();
        assert_eq!(
            words,
            [
                "version",
                "old",
                "legacy",
                "x",
                "\"legacy\"",
                "x",
                "old",
                "legacy",
                "x",
                "provider::thing::old_fn"
            ]
        );
    }
}
