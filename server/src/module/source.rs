//! One configuration file: its text, where it came from, and its syntax tree.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{classify, Dialect};
use crate::syntax::{self, Span, Syntax, SyntaxDiagnostic, SyntaxSeverity};

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
        Self::parse_invalid(path, text, &[], version, previous)
    }

    /// Parses the `text` of a file whose bytes at `invalid` were not UTF-8 (see
    /// `text::encoding::decode_lossless`), keeping the last good tree of `previous`.
    pub fn parse_invalid(
        path: PathBuf,
        text: Arc<str>,
        invalid: &[usize],
        version: Option<i32>,
        previous: Option<&SourceFile>,
    ) -> Self {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let syntax = classify(name, Dialect::OpenTofu)
            .map(|k| k.syntax)
            .unwrap_or(Syntax::Native);
        let last_good = previous.and_then(|p| p.last_good.clone());
        let tree = Arc::new(match previous {
            // A variable definitions file in JSON holds arguments only (`variable` or
            // `locals` among them), not the blocks of a `.tf.json` file.
            _ if name.ends_with(".tfvars.json") => syntax::parse_json_attributes(&text),
            // After an edit, only what the edit touched is parsed again.
            Some(p) if invalid.is_empty() => {
                syntax::reparse(&text, syntax, &p.text, &p.syntax, last_good.as_deref())
            }
            _ => syntax::parse_invalid(&text, invalid, syntax, last_good.as_deref()),
        });
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

    /// A file that could not be read: empty, with one error saying why.
    pub fn unreadable(path: &Path, detail: String) -> Self {
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
                cited: None,
            }],
            unread: Vec::new(),
        };
        Self {
            path: path.to_path_buf(),
            text: "".into(),
            version: None,
            syntax: Arc::new(tree),
            last_good: None,
        }
    }

    /// The file as Terraform reads it, when its parse skipped items (see
    /// `syntax::File::read_by_terraform`); `None` when Terraform reads every item.
    pub fn read_by_terraform(&self) -> Option<SourceFile> {
        Some(Self {
            path: self.path.clone(),
            text: self.text.clone(),
            version: self.version,
            syntax: Arc::new(self.syntax.read_by_terraform()?),
            last_good: self.last_good.clone(),
        })
    }

    /// The file name without its directory.
    pub fn name(&self) -> &str {
        self.path.file_name().and_then(|n| n.to_str()).unwrap_or("")
    }

    /// Terraform's positions in this file (JSON files count columns as HCL's JSON
    /// scanner does).
    pub fn positions(&self) -> crate::text::SourcePositions {
        match self.syntax.syntax {
            Syntax::Json => crate::text::SourcePositions::json(&self.text),
            Syntax::Native => crate::text::SourcePositions::new(&self.text),
        }
    }

    /// The position of one byte offset, for the odd position in a message: native files
    /// read the text up to it instead of building a whole-file index per message (which
    /// made many messages quadratic).
    pub fn pos(&self, offset: usize) -> crate::text::SourcePos {
        match self.syntax.syntax {
            Syntax::Json => self.positions().at(offset),
            Syntax::Native => crate::text::source_pos(&self.text, offset),
        }
    }
}
