//! The incremental store: open documents, parsed files and modules, each an immutable
//! snapshot behind an `Arc` that is swapped in whole.
//!
//! An edit re-parses one file and rebuilds the one module of its directory. Open documents
//! always win over what is on disk. Readers never wait on parsing: a module is rebuilt
//! from already-parsed files under a short lock.

mod checks;
mod configuration;
mod cycles;
mod discover;
mod disk;
mod plan;
mod plans;
mod provider_schemas;
mod roles;
mod slots;
mod states;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use dashmap::DashMap;

use crate::merge::{merge_with, MergedModule};
use crate::module::{classify, Dialect, FileSet, Module, SourceFile};
use crate::schema::{NoProviderSchemas, ProviderSchemaSource};
use crate::text::{Document, PositionEncoding, TextChange, TextError};

pub use checks::ChildLookup;
pub use cycles::{CallCycles, CALL_CYCLE_CODE};
pub use discover::{discover_modules, is_skipped_dir};
pub use disk::MAX_FILE_BYTES;
pub use plan::{state_file, PlanPositions};
pub use roles::ModuleRoles;

/// Every document, file and module Strata knows of.
#[derive(Debug, Default)]
pub struct Workspace {
    open: DashMap<PathBuf, Document>,
    files: DashMap<PathBuf, Arc<SourceFile>>,
    /// The file names seen in each directory, configuration or not, that may matter.
    names: DashMap<PathBuf, BTreeSet<String>>,
    modules: DashMap<PathBuf, Arc<Module>>,
    /// The merged model of each module, tagged with the module revision it was built from.
    merged: DashMap<PathBuf, (u64, Arc<MergedModule>)>,
    dialect: RwLock<Option<Dialect>>,
    /// The version set by `--terraform-version` or the `strata.terraformVersion` setting.
    core_version: RwLock<Option<String>>,
    revision: AtomicU64,
    /// Increases after every change to `modules` (`generation`).
    generation: AtomicU64,
    rebuild: Mutex<()>,
    /// The prior states read for plans, by file.
    states: states::StateCache,
    /// The last plan of each module, while what it read is unchanged.
    plans: plans::PlanCache,
    /// The last checks of each module, while what they read is unchanged.
    checks: checks::CheckCache,
    /// The provider schemas analyses use.
    provider_schemas: SchemaSlot,
    /// The local module calls of each module, for the roles (`roles.rs`).
    calls: roles::CallsCache,
}

/// The provider schemas of a workspace; none until someone sets them.
#[derive(Debug)]
struct SchemaSlot(RwLock<Arc<dyn ProviderSchemaSource>>);

impl Default for SchemaSlot {
    fn default() -> Self {
        Self(RwLock::new(Arc::new(NoProviderSchemas)))
    }
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forces a dialect for every module (`None`: detect per module).
    pub fn set_dialect(&self, dialect: Option<Dialect>) {
        if let Ok(mut d) = self.dialect.write() {
            *d = dialect;
        }
        self.rebuild_all();
    }

    /// Sets the provider schemas every analysis uses, and rebuilds every module so that
    /// cached analyses and diagnostics follow them.
    pub fn set_provider_schemas(&self, schemas: Arc<dyn ProviderSchemaSource>) {
        if let Ok(mut s) = self.provider_schemas.0.write() {
            *s = schemas;
        }
        self.rebuild_all();
    }

    /// Rebuilds every module after a setting that changes what analyses say.
    fn rebuild_all(&self) {
        let dirs: Vec<PathBuf> = self.modules.iter().map(|m| m.key().clone()).collect();
        for dir in dirs {
            self.rebuild_module(&dir);
        }
    }

    /// The provider schemas analyses use now.
    pub fn provider_schemas(&self) -> Arc<dyn ProviderSchemaSource> {
        match self.provider_schemas.0.read() {
            Ok(s) => s.clone(),
            Err(_) => Arc::new(NoProviderSchemas),
        }
    }

    /// The provider schemas the module in `dir` is analysed with: those of the versions
    /// its root module locks (`ProviderSchemaSource::for_module`).
    pub fn provider_schemas_for(&self, dir: &Path) -> Arc<dyn ProviderSchemaSource> {
        let schemas = self.provider_schemas();
        schemas.for_module(dir).unwrap_or(schemas)
    }

    /// Sets the Terraform or OpenTofu version modules are checked against where no
    /// version file says otherwise (`None`: the release Strata targets).
    pub fn set_core_version(&self, version: Option<String>) {
        if let Ok(mut v) = self.core_version.write() {
            *v = version;
        }
        self.rebuild_all();
    }

    /// The version in effect for a module in `dir`: a version file in `dir` or a parent,
    /// else the setting, else the release Strata targets.
    fn core_version_for(&self, dir: &Path, dialect: Dialect) -> crate::module::CoreVersion {
        if let Some(found) = disk::version_file(dir, dialect) {
            return found;
        }
        let setting = self.core_version.read().ok().and_then(|v| v.clone());
        match setting {
            Some(version) => crate::module::CoreVersion {
                version,
                source: "the terraformVersion setting".into(),
            },
            None => crate::module::CoreVersion::target(dialect),
        }
    }

    /// Reads every configuration file of `dir` that is not open in the editor, and builds
    /// its module.
    pub fn index_dir(&self, dir: &Path) -> Arc<Module> {
        let names = disk::config_names(dir);
        for name in &names {
            let path = dir.join(name);
            if !self.open.contains_key(&path) {
                let previous = self.files.get(&path).map(|f| f.clone());
                let file = disk::read_source(&path, previous.as_deref());
                self.store_disk_file(path, file);
            }
        }
        self.names
            .entry(dir.to_path_buf())
            .or_default()
            .extend(names);
        self.rebuild_module(dir)
    }

    /// Indexes many directories on every core; `progress` is told each one as it is done.
    pub fn index_dirs(&self, dirs: &[PathBuf], progress: &(dyn Fn(usize) + Sync)) {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let done = std::sync::atomic::AtomicUsize::new(0);
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(dirs.len().max(1));
        let work = || loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(dir) = dirs.get(i) else { break };
            self.index_dir(dir);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        };
        std::thread::scope(|scope| {
            for _ in 0..workers {
                // Parsing recurses once per nesting level, up to `MAX_NESTING_DEPTH`.
                let spawned = std::thread::Builder::new()
                    .stack_size(crate::limits::THREAD_STACK_BYTES)
                    .spawn_scoped(scope, work);
                if spawned.is_err() {
                    work();
                }
            }
        });
    }

    /// A document opened in the editor; it wins over the file on disk until closed.
    pub fn open_document(&self, path: &Path, text: &str, version: i32) -> Arc<Module> {
        self.open
            .insert(path.to_path_buf(), Document::new(text, version));
        self.reparse_open(path)
    }

    /// Applies one `didChange` to an open document.
    pub fn change_document(
        &self,
        path: &Path,
        changes: &[TextChange],
        version: i32,
        encoding: PositionEncoding,
    ) -> Result<Arc<Module>, WorkspaceError> {
        {
            let mut doc = self
                .open
                .get_mut(path)
                .ok_or_else(|| WorkspaceError::NotOpen(path.to_path_buf()))?;
            doc.apply_changes(changes, version, encoding)
                .map_err(|source| WorkspaceError::Edit {
                    path: path.to_path_buf(),
                    source,
                })?;
        }
        Ok(self.reparse_open(path))
    }

    /// The editor closed a document: what is on disk counts again.
    pub fn close_document(&self, path: &Path) -> Option<Arc<Module>> {
        self.open.remove(path);
        self.disk_changed(path)
    }

    /// Forgets the module of `dir` and its files, unless a document in `dir` is still
    /// open: a directory read only for the documents open in it must not keep its memory
    /// after the last one closes. Returns the paths of the files it held.
    pub fn forget_dir(&self, dir: &Path) -> Vec<PathBuf> {
        let _guard = self.rebuild.lock().unwrap_or_else(|e| e.into_inner());
        if self.open.iter().any(|doc| doc.key().parent() == Some(dir)) {
            return Vec::new();
        }
        let names = self.names.remove(dir).map(|(_, n)| n).unwrap_or_default();
        let forgotten = names
            .iter()
            .map(|name| dir.join(name))
            .filter(|path| self.files.remove(path).is_some())
            .collect();
        self.modules.remove(dir);
        self.merged.remove(dir);
        self.plans.forget(dir);
        self.checks.forget(dir);
        self.forget_calls(dir);
        self.generation.fetch_add(1, Ordering::Release);
        forgotten
    }

    /// A file was created or changed on disk. Ignored while the file is open.
    pub fn disk_changed(&self, path: &Path) -> Option<Arc<Module>> {
        let dir = path.parent()?;
        if self.open.contains_key(path) {
            return self.module(dir);
        }
        if !path.is_file() {
            return self.disk_deleted(path);
        }
        let name = file_name(path)?;
        if is_config_name(&name) {
            let previous = self.files.get(path).map(|f| f.clone());
            let file = disk::read_source(path, previous.as_deref());
            self.store_disk_file(path.to_path_buf(), file);
        }
        self.names
            .entry(dir.to_path_buf())
            .or_default()
            .insert(name);
        Some(self.rebuild_module(dir))
    }

    /// A version file (`.terraform-version`, `.opentofu-version`, `.tool-versions`)
    /// changed on disk: every module in its directory or below is checked again against
    /// the version now in effect (`None` when `path` is no version file).
    pub fn version_file_changed(&self, path: &Path) -> Option<Vec<Arc<Module>>> {
        let name = file_name(path)?;
        let all = [Dialect::Terraform, Dialect::OpenTofu].map(crate::module::version_file_names);
        if !all.iter().flatten().any(|n| *n == name) {
            return None;
        }
        let dir = path.parent()?;
        let dirs: Vec<PathBuf> = self
            .modules
            .iter()
            .map(|m| m.key().clone())
            .filter(|d| d.starts_with(dir))
            .collect();
        Some(dirs.iter().map(|d| self.rebuild_module(d)).collect())
    }

    /// A file was deleted on disk. An open document of that path stays.
    pub fn disk_deleted(&self, path: &Path) -> Option<Arc<Module>> {
        let dir = path.parent()?;
        if self.open.contains_key(path) {
            return self.module(dir);
        }
        self.files.remove(path);
        if let (Some(mut names), Some(name)) = (self.names.get_mut(dir), file_name(path)) {
            names.remove(&name);
        }
        Some(self.rebuild_module(dir))
    }

    /// A number that changes whenever a module is rebuilt or forgotten: what a cache of
    /// every module's contents compares to know it is still up to date.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The current module of `dir`, if it was built.
    pub fn module(&self, dir: &Path) -> Option<Arc<Module>> {
        self.modules.get(dir).map(|m| m.clone())
    }

    /// The merged model of the module of `dir`, merged at most once per module revision:
    /// requests read the cached model and only the first after an edit merges.
    pub fn merged(&self, dir: &Path) -> Option<Arc<MergedModule>> {
        let module = self.module(dir)?;
        Some(self.merged_of(&module))
    }

    /// The merged model of this module snapshot, from the cache when it holds this
    /// revision; a newer cached revision is never replaced by an older one.
    pub fn merged_of(&self, module: &Module) -> Arc<MergedModule> {
        if let Some(entry) = self.merged.get(&module.dir) {
            if entry.0 == module.revision {
                return entry.1.clone();
            }
        }
        let merged = Arc::new(merge_with(module, &*self.provider_schemas_for(&module.dir)));
        match self.merged.entry(module.dir.clone()) {
            dashmap::Entry::Occupied(mut cached) => {
                if cached.get().0 < module.revision {
                    cached.insert((module.revision, merged.clone()));
                }
            }
            dashmap::Entry::Vacant(slot) => {
                // Only a module still in the workspace is cached (checked under the
                // entry's lock): one forgotten meanwhile (`forget_dir`) stays forgotten.
                if self.modules.contains_key(&module.dir) {
                    slot.insert((module.revision, merged.clone()));
                }
            }
        }
        merged
    }

    /// Every module built so far.
    pub fn modules(&self) -> Vec<Arc<Module>> {
        let mut all: Vec<_> = self.modules.iter().map(|m| m.clone()).collect();
        all.sort_by(|a, b| a.dir.cmp(&b.dir));
        all
    }

    /// The parsed file at `path`, open or on disk.
    pub fn file(&self, path: &Path) -> Option<Arc<SourceFile>> {
        self.files.get(path).map(|f| f.clone())
    }

    /// The editor's text of the document at `path`, if it is open (any file the editor
    /// opened, configuration or not).
    pub fn open_text(&self, path: &Path) -> Option<String> {
        self.open.get(path).map(|doc| doc.text())
    }

    /// Whether `path` is open in the editor.
    pub fn is_open(&self, path: &Path) -> bool {
        self.open.contains_key(path)
    }

    /// Stores a file read from disk, unless the editor's text of it is already stored:
    /// a read that raced with `didOpen` must not replace the open document. (The check
    /// runs under the entry's lock, which `reparse_open` needs to store the editor text.)
    fn store_disk_file(&self, path: PathBuf, file: SourceFile) {
        match self.files.entry(path) {
            dashmap::Entry::Occupied(mut entry) => {
                let editor_text = entry.get().version.is_some();
                if !(editor_text && self.open.contains_key(entry.key())) {
                    entry.insert(Arc::new(file));
                }
            }
            dashmap::Entry::Vacant(entry) => {
                entry.insert(Arc::new(file));
            }
        }
    }

    fn reparse_open(&self, path: &Path) -> Arc<Module> {
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        if let (Some(doc), Some(name)) = (self.open.get(path), file_name(path)) {
            let previous = self.files.get(path).map(|f| f.clone());
            let file = SourceFile::parse(
                path.to_path_buf(),
                doc.text().into(),
                Some(doc.version()),
                previous.as_deref(),
            );
            drop(doc);
            self.files.insert(path.to_path_buf(), Arc::new(file));
            self.names.entry(dir.clone()).or_default().insert(name);
        }
        self.rebuild_module(&dir)
    }

    /// Rebuilds the module of `dir` from the parsed files; cheap, and serialised so that
    /// a slower rebuild never replaces a newer one.
    fn rebuild_module(&self, dir: &Path) -> Arc<Module> {
        let _guard = self.rebuild.lock().unwrap_or_else(|e| e.into_inner());
        let names: Vec<String> = self
            .names
            .get(dir)
            .map(|n| n.iter().cloned().collect())
            .unwrap_or_default();
        let forced = self.dialect.read().ok().and_then(|d| *d);
        let dialect = forced
            .unwrap_or_else(|| crate::module::detect_dialect(names.iter().map(String::as_str)));
        let files = FileSet::from_names(&names, dialect);
        let sources = files
            .in_load_order()
            .filter_map(|name| self.files.get(&dir.join(name)).map(|f| f.clone()))
            .collect();
        let module = Arc::new(Module {
            dir: dir.to_path_buf(),
            dialect,
            files,
            sources,
            core_version: self.core_version_for(dir, dialect),
            revision: self.revision.fetch_add(1, Ordering::Relaxed) + 1,
        });
        self.modules.insert(dir.to_path_buf(), module.clone());
        self.generation.fetch_add(1, Ordering::Release);
        module
    }
}

/// The directory a module call's local `source` (`./x`, `../x`) names, if it exists.
pub fn local_child_dir(dir: &Path, source: &str) -> Option<PathBuf> {
    if !(source.starts_with("./") || source.starts_with("../")) {
        return None;
    }
    let child = dir.join(source);
    child
        .is_dir()
        .then(|| child.canonicalize().unwrap_or(child))
}

/// Whether a file name is a configuration file in some dialect.
pub fn is_config_name(name: &str) -> bool {
    classify(name, Dialect::OpenTofu).is_some()
}

fn file_name(path: &Path) -> Option<String> {
    path.file_name()?.to_str().map(str::to_string)
}

/// Why a workspace operation failed.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// A change arrived for a document that was never opened.
    #[error("{0} is not open")]
    NotOpen(PathBuf),
    /// An edit did not fit the document.
    #[error("cannot apply edit to {path}: {source}")]
    Edit {
        /// The document.
        path: PathBuf,
        /// What was wrong.
        source: TextError,
    },
}

#[cfg(test)]
pub(crate) mod tests;
