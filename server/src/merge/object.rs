//! A uniform view of any merged object, for lookups by position (hover, code lens,
//! definition) and for rendering.

use super::{
    Attr, FileIndex, Local, MergedModule, Mode, ModuleCall, Nested, Output, Provenance, Provider,
    Resource, ResourceKey, Variable,
};

/// One merged object of a module.
#[derive(Debug, Clone, Copy)]
pub enum ObjectRef<'a> {
    /// An input variable.
    Variable(&'a Variable),
    /// A local value.
    Local(&'a Local),
    /// An output.
    Output(&'a Output),
    /// A module call.
    ModuleCall(&'a ModuleCall),
    /// A resource, data source or ephemeral resource.
    Resource(&'a Resource),
    /// A provider configuration.
    Provider(&'a Provider),
}

impl<'a> ObjectRef<'a> {
    /// Where the object was declared and overridden.
    pub fn provenance(self) -> &'a Provenance {
        match self {
            ObjectRef::Variable(v) => &v.provenance,
            ObjectRef::Local(l) => &l.provenance,
            ObjectRef::Output(o) => &o.provenance,
            ObjectRef::ModuleCall(c) => &c.provenance,
            ObjectRef::Resource(r) => &r.provenance,
            ObjectRef::Provider(p) => &p.provenance,
        }
    }

    /// How Terraform names the object: `var.x`, `local.y`, `aws_instance.a`, ...
    pub fn address(self) -> String {
        match self {
            ObjectRef::Variable(v) => format!("var.{}", v.name),
            ObjectRef::Local(l) => format!("local.{}", l.name),
            ObjectRef::Output(o) => format!("output.{}", o.name),
            ObjectRef::ModuleCall(c) => format!("module.{}", c.name),
            ObjectRef::Resource(r) => r.key.to_string(),
            ObjectRef::Provider(p) => match &p.alias {
                Some(a) => format!("provider.{}.{a}", p.name),
                None => format!("provider.{}", p.name),
            },
        }
    }
}

impl MergedModule {
    /// Every merged object, in a stable order.
    pub fn objects(&self) -> impl Iterator<Item = ObjectRef<'_>> {
        self.variables
            .values()
            .map(ObjectRef::Variable)
            .chain(self.locals.values().map(ObjectRef::Local))
            .chain(self.providers.values().map(ObjectRef::Provider))
            .chain(self.module_calls.values().map(ObjectRef::ModuleCall))
            .chain(self.resources.values().map(ObjectRef::Resource))
            .chain(self.outputs.values().map(ObjectRef::Output))
    }

    /// The object whose declaration or one of whose override blocks contains `offset` in
    /// file `file`. For a block, the whole base block counts; for an override, its
    /// whole block (found through the file's syntax tree).
    pub fn object_at(&self, file: FileIndex, offset: usize) -> Option<ObjectRef<'_>> {
        if let Some(local) = self.local_at(file, offset) {
            return Some(ObjectRef::Local(local));
        }
        let block_span = self.enclosing_top_level(file, offset);
        self.objects().find(|o| {
            if matches!(o, ObjectRef::Local(_)) {
                return false;
            }
            let p = o.provenance();
            let decl_hit = p.decl.file == file && p.decl_span.contains(offset);
            let override_hit = p.overrides.iter().any(|ov| {
                ov.file == file
                    && (ov.span.contains(offset)
                        || block_span.is_some_and(|b| b.contains(ov.span.start as usize)))
            });
            decl_hit || override_hit
        })
    }

    /// The local value whose definition (primary or override) contains `offset`.
    fn local_at(&self, file: FileIndex, offset: usize) -> Option<&Local> {
        let source = self.files.get(file as usize)?;
        let attribute = source
            .syntax
            .body
            .blocks_of("locals")
            .flat_map(|b| b.body.attributes.iter())
            .find(|a| a.span.contains(offset))?;
        let local = self.locals.get(&*attribute.name.name)?;
        let p = &local.provenance;
        let here = |o: &super::Origin| o.file == file && o.span == attribute.name.span;
        (here(&p.decl) || p.overrides.iter().any(here)).then_some(local)
    }

    /// The span of the top-level block of `file` that contains `offset`, if any.
    fn enclosing_top_level(&self, file: FileIndex, offset: usize) -> Option<crate::syntax::Span> {
        let source = self.files.get(file as usize)?;
        source
            .syntax
            .body
            .blocks
            .iter()
            .find(|b| b.span.contains(offset))
            .map(|b| b.span)
    }

    /// The object a reference's subject names (`var.x`, `local.y`, `module.m`,
    /// `module.m.out`, `data.t.n`, `t.n[0]`, ...); a module output resolves to its call.
    pub fn resolve(&self, subject: &str) -> Option<ObjectRef<'_>> {
        let keyless = strip_instance_keys(subject);
        let parts: Vec<&str> = keyless.split('.').collect();
        match parts.as_slice() {
            ["var", name] => self.variables.get(*name).map(ObjectRef::Variable),
            ["local", name] => self.locals.get(*name).map(ObjectRef::Local),
            ["module", name, ..] => self.module_calls.get(*name).map(ObjectRef::ModuleCall),
            [mode @ ("data" | "ephemeral"), type_name, name] => {
                let mode = if *mode == "data" {
                    Mode::Data
                } else {
                    Mode::Ephemeral
                };
                self.resource(mode, type_name, name)
            }
            [type_name, name] => self.resource(Mode::Managed, type_name, name),
            _ => None,
        }
    }

    fn resource(&self, mode: Mode, type_name: &str, name: &str) -> Option<ObjectRef<'_>> {
        let key = ResourceKey {
            mode,
            type_name: type_name.to_string(),
            name: name.to_string(),
        };
        self.resources.get(&key).map(ObjectRef::Resource)
    }
}

/// `aws_instance.a[0]` → `aws_instance.a`: instance keys do not name a different object.
/// A quoted key may itself hold brackets (`a["x[1]"]`).
pub fn strip_instance_keys(subject: &str) -> String {
    let mut out = String::with_capacity(subject.len());
    let mut depth = 0;
    let mut in_string = false;
    for ch in subject.chars() {
        match ch {
            '"' if depth > 0 => in_string = !in_string,
            '[' if !in_string => depth += 1,
            ']' if !in_string => depth -= 1,
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

impl<'a> ObjectRef<'a> {
    /// The effective argument `name` of the object, wherever it came from: what an
    /// argument written in one of its blocks turned into after merging. `in_lifecycle`
    /// looks in the resource's `lifecycle` settings.
    pub fn effective_attribute(self, name: &str, in_lifecycle: bool) -> Option<&'a Attr> {
        let pick = |list: &[&'a Option<Attr>]| {
            list.iter()
                .filter_map(|a| a.as_ref())
                .find(|a| &*a.attr.name.name == name)
        };
        match self {
            ObjectRef::Resource(r) if in_lifecycle => {
                r.lifecycle.settings().find(|a| &*a.attr.name.name == name)
            }
            ObjectRef::Resource(r) => pick(&[&r.count, &r.for_each, &r.provider, &r.depends_on])
                .or_else(|| r.config.attribute(name)),
            ObjectRef::Variable(v) => v.settings().find(|a| &*a.attr.name.name == name),
            ObjectRef::Output(o) => o.settings().find(|a| &*a.attr.name.name == name),
            ObjectRef::ModuleCall(c) => pick(&[&c.depends_on])
                .or_else(|| c.settings().find(|a| &*a.attr.name.name == name))
                .or_else(|| c.arguments.attribute(name)),
            ObjectRef::Provider(p) => {
                pick(&[&p.alias_attr, &p.version]).or_else(|| p.config.attribute(name))
            }
            ObjectRef::Local(l) => (&*l.value.attr.name.name == name).then_some(&l.value),
        }
    }

    /// The effective nested blocks that a block of type `block_type` written in one of
    /// the object's blocks competes with (a `dynamic "X"` counts as type X).
    pub fn effective_blocks(self, block_type: &str) -> Vec<&'a Nested> {
        let body = match self {
            ObjectRef::Resource(r) => match block_type {
                "connection" => return r.connection.iter().collect(),
                "provisioner" => return r.provisioners.iter().collect(),
                _ => &r.config,
            },
            ObjectRef::ModuleCall(c) => &c.arguments,
            ObjectRef::Provider(p) => &p.config,
            _ => return Vec::new(),
        };
        body.blocks
            .iter()
            .filter(|b| super::effective_block_type(&b.block) == block_type)
            .collect()
    }
}
