//! Which providers a workspace needs, at which versions: the root modules (those with a
//! dependency lock file, as `terraform init` leaves them), each with the providers of its
//! own configuration and of the local modules it calls, and the versions its lock file
//! pins. A module no root calls belongs to the nearest root above it in the directory
//! tree; without one it is a root of its own, not initialised.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::providers::lock_file::{read_lock_file, LockedProviders, LOCK_FILE_NAME};
use crate::schema::{Dialect, ProviderAddress};
use crate::text::read::{read_bounded, MAX_FILE_BYTES};

/// What one module asks of providers, as its caller resolved it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleProviders {
    /// The module's directory.
    pub dir: PathBuf,
    /// Its dialect (how sources without a host complete).
    pub dialect: Dialect,
    /// The providers it uses (`MergedModule::provider_addresses`).
    pub providers: BTreeSet<ProviderAddress>,
    /// The directories of the local modules it calls.
    pub children: Vec<PathBuf>,
}

/// A root module and everything the providers of its configuration need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootModule {
    /// Its directory, where `terraform init` runs.
    pub dir: PathBuf,
    /// Its dialect.
    pub dialect: Dialect,
    /// Its lock file.
    pub lock: Lock,
    /// The providers of the root and of the modules it owns.
    pub providers: BTreeSet<ProviderAddress>,
    /// The directories of the modules it owns (itself included).
    pub modules: BTreeSet<PathBuf>,
}

impl RootModule {
    /// Whether `other` needs the same schemas: same directory, dialect, lock file and
    /// providers (the modules it owns may differ).
    pub fn needs_same(&self, other: &RootModule) -> bool {
        self.dir == other.dir
            && self.dialect == other.dialect
            && self.lock == other.lock
            && self.providers == other.providers
    }
}

/// A root module's dependency lock file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lock {
    /// There is none: the module is not initialised.
    Absent,
    /// The versions it pins.
    Read(LockedProviders),
    /// It cannot be read; why.
    Unreadable(String),
}

/// The root modules of `modules`, in directory order.
pub fn root_modules(modules: &[ModuleProviders]) -> Vec<RootModule> {
    let by_dir: BTreeMap<&Path, &ModuleProviders> =
        modules.iter().map(|m| (m.dir.as_path(), m)).collect();
    let locked: BTreeSet<&Path> = modules
        .iter()
        .filter(|m| m.dir.join(LOCK_FILE_NAME).is_file())
        .map(|m| m.dir.as_path())
        .collect();
    // Each module's owners: the roots that call it, directly or not.
    let mut owners: BTreeMap<&Path, BTreeSet<&Path>> = BTreeMap::new();
    for &root in &locked {
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            if !owners.entry(dir).or_default().insert(root) {
                continue;
            }
            let children = by_dir.get(dir).map_or(&[][..], |m| &m.children[..]);
            stack.extend(children.iter().map(PathBuf::as_path));
        }
    }
    let mut roots: BTreeMap<&Path, RootModule> = BTreeMap::new();
    for m in modules {
        let owned: BTreeSet<&Path> = match owners.get(m.dir.as_path()) {
            Some(o) if !o.is_empty() => o.clone(),
            _ => {
                let above = m.dir.ancestors().find(|d| locked.contains(d));
                BTreeSet::from([above.unwrap_or(&m.dir)])
            }
        };
        for root in owned {
            let entry = roots.entry(root).or_insert_with(|| RootModule {
                dir: root.to_path_buf(),
                dialect: by_dir.get(root).map_or(m.dialect, |r| r.dialect),
                lock: read_lock(root, m.dialect),
                providers: BTreeSet::new(),
                modules: BTreeSet::new(),
            });
            entry.providers.extend(m.providers.iter().cloned());
            entry.modules.insert(m.dir.clone());
        }
    }
    roots.into_values().collect()
}

/// Reads the lock file of the root module in `dir`.
fn read_lock(dir: &Path, dialect: Dialect) -> Lock {
    let path = dir.join(LOCK_FILE_NAME);
    let bytes = match read_bounded(&path, MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(crate::text::read::ReadError::NotFound) => return Lock::Absent,
        Err(e) => return Lock::Unreadable(format!("{}: {e}", path.display())),
    };
    match read_lock_file(&String::from_utf8_lossy(&bytes), dialect) {
        Ok(locked) => Lock::Read(locked),
        Err(e) => Lock::Unreadable(format!("{}: {e}", path.display())),
    }
}
