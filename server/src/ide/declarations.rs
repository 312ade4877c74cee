//! The declarations of one file, named as Terraform names them (`aws_vpc.this`,
//! `var.region`, `local.name`, `module.vpc`), read once per version of the file: what the
//! workspace symbols search matches against, kept between queries.

use std::path::PathBuf;
use std::sync::Arc;

use super::outline::{name_block, name_span, SymbolKind};
use crate::module::SourceFile;
use crate::syntax::Span;
use crate::text::lines::{column, LineIndex};
use crate::text::{Position, PositionEncoding};

/// One declaration of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// As Terraform names it.
    pub name: Box<str>,
    /// What it declares.
    pub kind: SymbolKind,
    /// The name as written (the labels, or a local's name).
    pub span: Span,
    /// The line of the span's start and where that line starts, and the same for its end:
    /// positions in any encoding follow from the text of those lines alone.
    lines: [(u32, u32); 2],
}

/// The declarations of one version of one file.
#[derive(Debug)]
pub struct FileDeclarations {
    /// The file.
    pub path: PathBuf,
    /// The text of the version they were read from (the text alone is kept, not the
    /// tree: the workspace may have moved on).
    pub text: Arc<str>,
    /// The module's directory, as editors show it beside a name.
    pub module: Arc<str>,
    /// In source order.
    pub declared: Vec<Declared>,
}

impl FileDeclarations {
    /// Reads the declarations of `file`, a file of the module in `module`: every
    /// variable, local value, output, module call, resource, data source, ephemeral
    /// resource, provider configuration and check.
    pub fn read(file: &SourceFile, module: Arc<str>) -> Self {
        let mut declared = Vec::new();
        let mut name = String::new();
        let mut add = |name: &str, kind: SymbolKind, span: Span| {
            declared.push(Declared {
                name: name.into(),
                kind,
                span,
                lines: [(0, 0); 2],
            });
        };
        for block in &file.syntax.body.blocks {
            match name_block(block, &mut name) {
                SymbolKind::Locals => {
                    for a in &block.body.attributes {
                        name.clear();
                        name.push_str("local.");
                        name.push_str(&a.name.name);
                        add(&name, SymbolKind::Local, a.name.span);
                    }
                }
                SymbolKind::Settings if block.kind.name.as_ref() != "check" => {}
                kind => add(&name, kind, name_span(block)),
            }
        }
        if !declared.is_empty() {
            let lines = LineIndex::new(&file.text);
            for d in &mut declared {
                for (i, offset) in [d.span.start, d.span.end].into_iter().enumerate() {
                    let (line, start) = lines.line_of(offset as usize);
                    d.lines[i] = (line, start as u32);
                }
            }
        }
        Self {
            path: file.path.clone(),
            text: file.text.clone(),
            module,
            declared,
        }
    }

    /// Whether these are the declarations of `file` as it is.
    pub fn read_from(&self, file: &SourceFile) -> bool {
        Arc::ptr_eq(&self.text, &file.text) && self.path == file.path
    }

    /// Where a declaration's name starts and ends, in `encoding`.
    pub fn range(&self, d: &Declared, encoding: PositionEncoding) -> [Position; 2] {
        let text = &self.text;
        let at = |i: usize, offset: u32| {
            let (line, start) = d.lines[i];
            let prefix = text.get(start as usize..offset as usize).unwrap_or("");
            Position {
                line,
                column: column(prefix, encoding),
            }
        };
        [at(0, d.span.start), at(1, d.span.end)]
    }
}

/// Which characters a name holds, folded to lower case, as bits: letters, digits, `_`,
/// `-`, `.`, one bit for any other ASCII character, and every bit for a name with a
/// character beyond ASCII (which a query may match through Unicode normalisation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CharSet(u64);

impl CharSet {
    /// The characters of a name.
    pub fn of(name: &str) -> Self {
        let mut bits = 0u64;
        for c in name.chars() {
            bits |= Self::bit(c).unwrap_or(u64::MAX);
        }
        Self(bits)
    }

    /// The characters every match of a query must hold: those of `needle`, where
    /// characters beyond ASCII require nothing.
    pub fn required(needle: impl Iterator<Item = char>) -> Self {
        Self(needle.filter_map(Self::bit).fold(0, |bits, b| bits | b))
    }

    /// Whether a name with these characters holds every one of `required`.
    pub fn holds(self, required: CharSet) -> bool {
        self.0 & required.0 == required.0
    }

    /// Whether these are the characters of a name with a character beyond ASCII.
    pub fn beyond_ascii(self) -> bool {
        // ASCII characters have the low 40 bits; a name beyond ASCII has every bit.
        self.0 >> 40 != 0
    }

    fn bit(c: char) -> Option<u64> {
        let c = c.to_ascii_lowercase();
        let index = match c {
            'a'..='z' => c as u32 - 'a' as u32,
            '0'..='9' => 26 + c as u32 - '0' as u32,
            '_' => 36,
            '-' => 37,
            '.' => 38,
            _ if c.is_ascii() => 39,
            _ => return None,
        };
        Some(1 << index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn reads_named_declarations_with_their_places() {
        let text = "variable \"é\" {}\nlocals {\n  a = 1\n}\nterraform {}\ncheck \"c\" {\n}\r\nresource \"t\" \"n\" {}\n";
        let file = SourceFile::parse(PathBuf::from("/m/main.tf"), text.into(), None, None);
        let found = FileDeclarations::read(&file, "/m".into());
        let names: Vec<&str> = found.declared.iter().map(|d| &*d.name).collect();
        assert_eq!(names, ["var.é", "local.a", "check \"c\"", "t.n"]);
        let rope = ropey::Rope::from_str(text);
        for d in &found.declared {
            for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
                let [start, end] = found.range(d, encoding);
                assert_eq!(
                    start,
                    crate::text::position(&rope, d.span.start as usize, encoding)
                );
                assert_eq!(
                    end,
                    crate::text::position(&rope, d.span.end as usize, encoding)
                );
            }
        }
    }

    #[test]
    fn a_name_holds_what_a_query_needs_case_folded() {
        let name = CharSet::of("aws_vpc.this");
        assert!(name.holds(CharSet::required("VPC".chars())));
        assert!(name.holds(CharSet::required("ws.t".chars())));
        assert!(!name.holds(CharSet::required("vpcx".chars())));
        assert!(!name.holds(CharSet::required("a b".chars())));
        // Beyond ASCII: the name may match anything, the query asks nothing.
        assert!(CharSet::of("é").holds(CharSet::required("xyz".chars())));
        assert!(name.holds(CharSet::required("é".chars())));
        assert!(!name.beyond_ascii());
        assert!(!CharSet::of("~!@#$%^&*()_+`-=[]{}|;:,./<>?'\" \t\\").beyond_ascii());
        assert!(CharSet::of("aé").beyond_ascii());
    }
}
