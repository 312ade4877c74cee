//! One configuration file: its text, where it came from, and its syntax tree.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::module::{classify, Dialect};
use crate::syntax::{self, Span, Syntax, SyntaxDiagnostic, SyntaxSeverity};

/// Files larger than this are not parsed: no real configuration file comes close, and a
/// generated monster must not stall the server.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A parsed configuration file, immutable once built.
#[derive(Debug)]
pub struct SourceFile {
    /// Absolute path.
    pub path: PathBuf,
    /// The text the tree was parsed from.
    pub text: Arc<str>,
    /// The editor's version, for an open document.
    pub version: Option<i32>,
    /// The tree, possibly recovered from errors.
    pub syntax: Arc<syntax::File>,
    /// The last tree of this file that had no syntax error (this one, when it has none).
    pub last_good: Option<Arc<syntax::File>>,
}

impl SourceFile {
    /// Parses `text`, keeping the last good tree of `previous`.
    pub fn parse(
        path: PathBuf,
        text: Arc<str>,
        version: Option<i32>,
        previous: Option<&SourceFile>,
    ) -> Self {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let syntax = classify(name, Dialect::OpenTofu)
            .map(|k| k.syntax)
            .unwrap_or(Syntax::Native);
        let last_good = previous.and_then(|p| p.last_good.clone());
        let tree = Arc::new(syntax::parse(&text, syntax, last_good.as_deref()));
        let last_good = if tree.has_errors() {
            last_good
        } else {
            Some(tree.clone())
        };
        Self {
            path,
            text,
            version,
            syntax: tree,
            last_good,
        }
    }

    /// Reads and parses a file from disk. A file that cannot be read, is too large or is
    /// not UTF-8 becomes an empty file with one error saying so.
    pub fn read(path: &Path, previous: Option<&SourceFile>) -> Self {
        match read_text(path) {
            Ok(text) => Self::parse(path.to_path_buf(), text.into(), None, previous),
            Err(problem) => Self::unreadable(path, problem),
        }
    }

    fn unreadable(path: &Path, detail: String) -> Self {
        let syntax = classify(
            path.file_name().and_then(|n| n.to_str()).unwrap_or(""),
            Dialect::OpenTofu,
        )
        .map_or(Syntax::Native, |k| k.syntax);
        let tree = syntax::File {
            syntax,
            body: Default::default(),
            diagnostics: vec![SyntaxDiagnostic {
                severity: SyntaxSeverity::Error,
                summary: "Failed to read file".into(),
                detail,
                span: Span::default(),
            }],
        };
        Self {
            path: path.to_path_buf(),
            text: "".into(),
            version: None,
            syntax: Arc::new(tree),
            last_good: None,
        }
    }

    /// The file name without its directory.
    pub fn name(&self) -> &str {
        self.path.file_name().and_then(|n| n.to_str()).unwrap_or("")
    }
}

fn read_text(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let meta =
        std::fs::metadata(path).map_err(|e| format!("The file {shown} could not be read: {e}."))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "The file {shown} is {} bytes, larger than the {} bytes Strata reads.",
            meta.len(),
            MAX_FILE_BYTES
        ));
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("The file {shown} could not be read: {e}."))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "The file {shown} is not valid UTF-8 (invalid byte at offset {}); configuration files must be UTF-8.",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The names of the files in `dir` that are configuration in some dialect.
pub(super) fn config_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| super::is_config_name(n))
        .collect();
    names.sort();
    names
}
