//! The workspace's side of the `show -json` configuration model (`jsonconfig`): the
//! local child modules a module tree loads, indexed and merged with their provider
//! schemas as every other analysis sees them.

use std::path::{Path, PathBuf};

use super::{local_child_dir, Workspace};
use crate::jsonconfig::{ChildModules, ModuleTree};
use crate::merge::{merge_with, MergedModule};

impl Workspace {
    /// The module tree below the merged root module in `dir`, for `show -json`'s
    /// configuration (`jsonconfig::to_json`).
    pub fn configuration_tree(&self, root: MergedModule, dir: &Path) -> ModuleTree {
        ModuleTree::load(self, root, dir)
    }
}

impl ChildModules for Workspace {
    fn local_dir(&self, dir: &Path, source: &str) -> Option<PathBuf> {
        local_child_dir(dir, source)
    }

    fn merged(&self, dir: &Path) -> Option<MergedModule> {
        let module = self.index_dir(dir);
        (!module.sources.is_empty()).then(|| merge_with(&module, &*self.provider_schemas_for(dir)))
    }
}
