//! A uniform view of any merged object, for lookups by position (hover, code lens,
//! definition) and for rendering.

use super::{
    FileIndex, Local, MergedModule, ModuleCall, Output, Provenance, Provider, Resource,
    TerraformSettings, Variable,
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

    /// The `terraform` settings, as an object-like view for rendering.
    pub fn terraform_settings(&self) -> &TerraformSettings {
        &self.terraform
    }
}
