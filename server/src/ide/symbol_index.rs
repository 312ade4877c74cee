//! What workspace symbol queries read (`workspace_symbols.rs`): every file's declarations
//! (`declarations.rs`), kept between queries and read again only for files whose version
//! changed, with each distinct name held once.
//!
//! Names repeat across a workspace (`var.name`, `var.tags`, `local.tags` in most modules,
//! the same resources in every environment's copy), and how well a name matches a query
//! depends on the name alone: a query scores each distinct name once, then walks one flat
//! list of every declaration's name number to find where they are declared.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::declarations::{CharSet, FileDeclarations};
use crate::workspace::Workspace;

/// One distinct name of the workspace's declarations.
#[derive(Debug, Clone)]
pub struct Name {
    /// As Terraform names it (`aws_vpc.this`).
    pub text: Arc<str>,
    /// Its characters, for a query's quick test that it can match at all.
    pub chars: CharSet,
}

/// The declarations of the workspace as they were at one generation of it.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Every file's declarations, in workspace order (modules by directory, each module's
    /// files in load order).
    pub files: Vec<Arc<FileDeclarations>>,
    /// The number of every declaration's name in `names`: the first file's declarations
    /// in source order, then the next file's.
    pub names_declared: Vec<u32>,
    /// Where each file's declarations start in `names_declared` (one more entry than
    /// files: the last is its length).
    pub starts: Vec<u32>,
    /// The distinct names by number. Some may no longer be declared anywhere; they are
    /// dropped once they are as many as those still declared.
    pub names: Arc<Vec<Name>>,
}

impl Snapshot {
    /// The file and the index in it of the `at`th declaration of `names_declared`.
    pub fn place(&self, at: usize) -> Option<(&FileDeclarations, usize)> {
        // The last file starting at or before `at`; files without declarations share
        // their start with the next one, which the search skips past.
        let file = self
            .starts
            .partition_point(|&s| s as usize <= at)
            .checked_sub(1)?;
        let start = *self.starts.get(file)? as usize;
        let declarations = self.files.get(file)?;
        (at - start < declarations.declared.len()).then_some((&**declarations, at - start))
    }
}

/// The declarations of every file of the workspace, kept between queries and brought up
/// to date with the workspace before each.
#[derive(Debug, Default)]
pub struct Index {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    /// The workspace generation `snapshot` was made at (`None`: never made).
    generation: Option<u64>,
    snapshot: Arc<Snapshot>,
    /// The number of each name of `snapshot.names`.
    numbers: HashMap<Arc<str>, u32>,
}

impl Index {
    /// The declarations as the workspace holds them now: those of files whose version
    /// changed since the last query are read again, the others reused with their names'
    /// numbers.
    pub fn snapshot(&self, ws: &Workspace) -> Arc<Snapshot> {
        let Ok(mut kept) = self.kept.lock() else {
            // Poisoned only by a panic while refreshing: start again without it.
            let mut fresh = Kept::default();
            fresh.refresh(ws);
            return fresh.snapshot;
        };
        // Read before the walk: an edit during it leaves the snapshot one generation
        // behind, and the next query walks again.
        let generation = ws.generation();
        if kept.generation != Some(generation) {
            kept.refresh(ws);
            kept.generation = Some(generation);
        }
        kept.snapshot.clone()
    }
}

impl Kept {
    /// Makes the snapshot of the workspace as it is, reusing what the last one read.
    fn refresh(&mut self, ws: &Workspace) {
        let previous = Arc::clone(&self.snapshot);
        let by_path: HashMap<&Path, usize> = previous
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_path(), i))
            .collect();
        let mut names = Arc::clone(&previous.names);
        let mut next = Snapshot {
            starts: vec![0],
            ..Snapshot::default()
        };
        for module in ws.modules() {
            let dir: Arc<str> = module.dir.display().to_string().into();
            for file in &module.sources {
                let same = by_path
                    .get(file.path.as_path())
                    .filter(|&&i| previous.files[i].read_from(file));
                match same {
                    Some(&i) => {
                        let (start, end) = (previous.starts[i], previous.starts[i + 1]);
                        next.files.push(Arc::clone(&previous.files[i]));
                        next.names_declared.extend_from_slice(
                            &previous.names_declared[start as usize..end as usize],
                        );
                    }
                    None => {
                        let read = FileDeclarations::read(file, dir.clone());
                        for d in &read.declared {
                            let number = self.number(&mut names, &d.name);
                            next.names_declared.push(number);
                        }
                        next.files.push(Arc::new(read));
                    }
                }
                next.starts.push(next.names_declared.len() as u32);
            }
        }
        next.names = names;
        drop(by_path);
        self.snapshot = Arc::new(next);
        self.drop_unused_names();
    }

    /// The number of `name`, given one if it is new.
    fn number(&mut self, names: &mut Arc<Vec<Name>>, name: &str) -> u32 {
        if let Some(&n) = self.numbers.get(name) {
            return n;
        }
        let text: Arc<str> = name.into();
        let n = names.len() as u32;
        // Copied only when a query still reads the last snapshot's names.
        Arc::make_mut(names).push(Name {
            chars: CharSet::of(name),
            text: Arc::clone(&text),
        });
        self.numbers.insert(text, n);
        n
    }

    /// Numbers the names again once those no longer declared are as many as those that
    /// are (each edit of a name leaves its old spelling behind), so that memory and the
    /// names a query scores follow the workspace.
    fn drop_unused_names(&mut self) {
        let snapshot = &self.snapshot;
        let mut renumbered = vec![u32::MAX; snapshot.names.len()];
        let mut used = 0usize;
        for &n in &snapshot.names_declared {
            if let Some(slot @ &mut u32::MAX) = renumbered.get_mut(n as usize) {
                *slot = used as u32;
                used += 1;
            }
        }
        if snapshot.names.len() <= 2 * used + 1024 {
            return;
        }
        let mut names: Vec<Option<&Name>> = vec![None; used];
        for (old, &new) in renumbered.iter().enumerate() {
            if let Some(slot) = names.get_mut(new as usize) {
                *slot = snapshot.names.get(old);
            }
        }
        let names: Vec<Name> = names.into_iter().flatten().cloned().collect();
        let numbers = names
            .iter()
            .enumerate()
            .map(|(i, n)| (Arc::clone(&n.text), i as u32))
            .collect();
        let snapshot = Snapshot {
            files: snapshot.files.clone(),
            names_declared: snapshot
                .names_declared
                .iter()
                .map(|&n| renumbered.get(n as usize).copied().unwrap_or(u32::MAX))
                .collect(),
            starts: snapshot.starts.clone(),
            names: Arc::new(names),
        };
        self.snapshot = Arc::new(snapshot);
        self.numbers = numbers;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIR: &str = "/nonexistent-strata-symbol-index";

    fn names_of(snapshot: &Snapshot) -> Vec<&str> {
        snapshot
            .names_declared
            .iter()
            .map(|&n| &*snapshot.names[n as usize].text)
            .collect()
    }

    #[test]
    fn each_name_once_and_each_declaration_in_place() {
        let ws = Workspace::new();
        let main = format!("{DIR}/a/main.tf");
        ws.open_document(
            Path::new(&main),
            "variable \"x\" {}\nvariable \"y\" {}\n",
            1,
        );
        ws.open_document(Path::new(&format!("{DIR}/a/empty.tf")), "", 1);
        ws.open_document(
            Path::new(&format!("{DIR}/b/main.tf")),
            "variable \"y\" {}\nlocals {\n  x = 1\n}\n",
            1,
        );
        let index = Index::default();
        let snapshot = index.snapshot(&ws);
        // a/empty.tf, then a/main.tf (load order), then b/main.tf.
        assert_eq!(names_of(&snapshot), ["var.x", "var.y", "var.y", "local.x"]);
        assert_eq!(snapshot.names.len(), 3);
        let places: Vec<(String, usize)> = (0..4)
            .map(|at| {
                let (file, d) = snapshot.place(at).expect("a place");
                (file.path.display().to_string(), d)
            })
            .collect();
        let b = format!("{DIR}/b/main.tf");
        assert_eq!(
            places,
            [(main.clone(), 0), (main.clone(), 1), (b.clone(), 0), (b, 1)]
        );
        assert!(snapshot.place(4).is_none());
        // Nothing changed: the same snapshot.
        assert!(Arc::ptr_eq(&snapshot, &index.snapshot(&ws)));
        // An edit reads that file again and keeps the others' declarations.
        ws.open_document(Path::new(&main), "variable \"z\" {}\n", 2);
        let edited = index.snapshot(&ws);
        assert_eq!(names_of(&edited), ["var.z", "var.y", "local.x"]);
        assert!(Arc::ptr_eq(&edited.files[2], &snapshot.files[2]));
    }

    #[test]
    fn names_no_longer_declared_are_dropped() {
        let ws = Workspace::new();
        let path = format!("{DIR}/c/main.tf");
        ws.open_document(
            Path::new(&format!("{DIR}/c/other.tf")),
            "output \"kept\" {\n  value = 1\n}\n",
            1,
        );
        let index = Index::default();
        // As a name is typed and retyped, each spelling is declared for a moment.
        for version in 0..3000 {
            let text = format!("variable \"v{version}\" {{}}\n");
            ws.open_document(Path::new(&path), &text, version);
            let snapshot = index.snapshot(&ws);
            assert!(
                snapshot.names.len() <= 2 * 2 + 1024,
                "{}",
                snapshot.names.len()
            );
            let mut names = names_of(&snapshot);
            names.sort();
            assert_eq!(names, ["output.kept", &format!("var.v{version}")]);
        }
    }
}
