//! The prior state of each planned module, read once per change of its file (its
//! modification time and size), not once per request: the plan code lens asks for it on
//! every edit, and a large state must not be parsed again each time.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dashmap::DashMap;

use crate::plan::{read_state, State, StateError};
use crate::reads::Stamp;

/// The states read so far, by path.
#[derive(Debug, Default)]
pub(super) struct StateCache {
    entries: DashMap<PathBuf, Entry>,
}

#[derive(Debug)]
struct Entry {
    stamp: Stamp,
    state: Result<Arc<State>, StateError>,
}

impl StateCache {
    /// The state at `path` (an empty state when there is no file), or why it cannot be
    /// read; read again only when the file changed.
    pub(super) fn get(&self, path: &Path) -> Result<Arc<State>, StateError> {
        let stamp = match std::fs::metadata(path) {
            Ok(meta) => Stamp::of(&meta),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.entries.remove(path);
                return Ok(Arc::default());
            }
            Err(e) => {
                return Err(StateError::Unreadable {
                    file: path.display().to_string(),
                    reason: e.to_string(),
                })
            }
        };
        if let Some(entry) = self.entries.get(path).filter(|e| e.stamp == stamp) {
            return entry.state.clone();
        }
        let state = read_state(path).map(|s| Arc::new(s.unwrap_or_default()));
        self.entries.insert(
            path.to_path_buf(),
            Entry {
                stamp,
                state: state.clone(),
            },
        );
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_again_only_when_the_file_changes() {
        let dir = std::env::temp_dir().join(format!("strata-states-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("terraform.tfstate");
        let cache = StateCache::default();
        assert_eq!(*cache.get(&path).unwrap(), State::default());
        std::fs::write(&path, r#"{"version": 4, "serial": 1}"#).unwrap();
        let first = cache.get(&path).unwrap();
        assert_eq!(first.serial, 1);
        assert!(Arc::ptr_eq(&first, &cache.get(&path).unwrap()));
        std::fs::write(&path, r#"{"version": 4, "serial": 22}"#).unwrap();
        assert_eq!(cache.get(&path).unwrap().serial, 22);
        std::fs::write(&path, r#"{"version": "4", "serial": 2}"#).unwrap();
        assert!(cache.get(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
