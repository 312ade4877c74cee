//! `strata fmt`: files formatted as `terraform fmt` formats them. Like Terraform it
//! rewrites the files that change and lists them; `--check` only lists them and exits
//! with status 3, `--diff` prints what changes, `-` formats standard input to standard
//! output. A file with a syntax error is left alone and reported (exit status 2).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::diff;
use crate::ide::format::{self, NotFormatted};
use crate::module::is_ignored;

/// What `strata fmt` does with what it formats.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// List and report, write nothing; exit 3 when something would change.
    pub check: bool,
    /// Print a unified diff of each change.
    pub diff: bool,
    /// Descend into sub-directories.
    pub recursive: bool,
}

/// Formats `paths` (files or directories; `-` alone is standard input).
pub fn run(paths: &[PathBuf], options: Options) -> Result<ExitCode> {
    let mut run = Run {
        options,
        out: std::io::stdout().lock(),
        changed: false,
        failed: false,
    };
    if paths.len() == 1 && paths[0] == Path::new("-") {
        run.stdin()?;
    } else if paths.is_empty() {
        run.dir(Path::new("."))?;
    } else {
        for path in paths {
            run.path(path)?;
        }
    }
    Ok(if run.failed {
        ExitCode::from(2)
    } else if run.changed && options.check {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

struct Run<W: Write> {
    options: Options,
    out: W,
    changed: bool,
    failed: bool,
}

impl<W: Write> Run<W> {
    fn stdin(&mut self) -> Result<()> {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        let Some(result) = self.format("<stdin>", &text) else {
            return Ok(());
        };
        self.changed |= result != text;
        if self.options.diff {
            self.write_diff("<stdin>", &text, &result)?;
        } else if !self.options.check {
            // As Terraform prints it (a line of its UI): one line break at the end, the
            // text's own or an added one.
            writeln!(self.out, "{}", result.strip_suffix('\n').unwrap_or(&result))?;
        }
        Ok(())
    }

    fn path(&mut self, path: &Path) -> Result<()> {
        if path.is_dir() {
            return self.dir(path);
        }
        if !path.is_file() {
            eprintln!("Error: No file or directory at {}", path.display());
            self.failed = true;
            return Ok(());
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if !format::is_formatted_file(&name) {
            eprintln!(
                "Error: {}: only {} files can be formatted",
                path.display(),
                format::FORMATTED_SUFFIXES.join(", ")
            );
            self.failed = true;
            return Ok(());
        }
        self.file(path)
    }

    /// The formatted files of `dir` in name order, then its sub-directories' when
    /// recursive; hidden and editor-temporary names are skipped, as Terraform does.
    fn dir(&mut self, dir: &Path) -> Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read directory {}", dir.display()))?
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_ignored(&name) {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                if self.options.recursive {
                    self.dir(&path)?;
                }
            } else if format::is_formatted_file(&name) {
                self.file(&path)?;
            }
        }
        Ok(())
    }

    fn file(&mut self, path: &Path) -> Result<()> {
        let shown = shown_path(path);
        let text = match std::fs::read(path).map(String::from_utf8) {
            Ok(Ok(text)) => text,
            Ok(Err(_)) => {
                eprintln!("Error: {shown}: not formatted: the file is not UTF-8");
                self.failed = true;
                return Ok(());
            }
            Err(e) => {
                eprintln!("Error: failed to read file {shown}: {e}");
                self.failed = true;
                return Ok(());
            }
        };
        let Some(result) = self.format(&shown, &text) else {
            return Ok(());
        };
        if result == text {
            return Ok(());
        }
        self.changed = true;
        writeln!(self.out, "{shown}")?;
        if !self.options.check {
            std::fs::write(path, &result).with_context(|| format!("failed to write {shown}"))?;
        }
        if self.options.diff {
            self.write_diff(&shown, &text, &result)?;
        }
        Ok(())
    }

    /// The formatted text, or `None` after reporting why the file is left alone.
    fn format(&mut self, shown: &str, text: &str) -> Option<String> {
        match format::formatted(text) {
            Ok(result) => Some(result),
            Err(NotFormatted::SyntaxError { summary, line, .. }) => {
                eprintln!(
                    "Error: {shown}:{line}: {summary}; the file has a syntax error and is \
                     left as it is"
                );
                self.failed = true;
                None
            }
        }
    }

    fn write_diff(&mut self, shown: &str, old: &str, new: &str) -> Result<()> {
        let text = diff::unified(old, new, &format!("old/{shown}"), &format!("new/{shown}"));
        self.out.write_all(text.as_bytes())?;
        Ok(())
    }
}

/// `path` as Terraform prints it: relative to the current directory (`../x.tf` outside
/// it), resolved lexically; as given when there is no current directory.
fn shown_path(path: &Path) -> String {
    let Ok(cwd) = std::env::current_dir() else {
        return path.display().to_string();
    };
    fn clean(p: &Path) -> Vec<std::path::Component<'_>> {
        let mut out: Vec<std::path::Component> = Vec::new();
        for c in p.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir
                    if matches!(out.last(), Some(std::path::Component::Normal(_))) =>
                {
                    out.pop();
                }
                c => out.push(c),
            }
        }
        out
    }
    let joined = cwd.join(path);
    let target = clean(&joined);
    let base = clean(&cwd);
    let common = target.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let mut relative = PathBuf::new();
    for _ in common..base.len() {
        relative.push("..");
    }
    for c in &target[common..] {
        relative.push(c.as_os_str());
    }
    relative.display().to_string()
}
