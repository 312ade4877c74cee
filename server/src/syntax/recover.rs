//! Error-tolerant parsing of native HCL.
//!
//! hcl-edit parses a whole text or fails with one error. To keep working while a file is
//! half-typed, a file that fails is parsed again piece by piece:
//! 1. the whole file with the newlines HCL ignores blanked (hcl-edit rejects some of them);
//! 2. top-level item by item, so one broken block hides nothing else; an unclosed block is
//!    reported at its opening brace and parsed as if closed; after a token that cannot
//!    start an item (a stray `{`) HCL skips to the end of the file, Strata reads on (so
//!    one stray brace does not take every later declaration out of the model) and marks
//!    what HCL skips as unread (`File::unread`), reporting nothing there but the
//!    scanner's errors;
//! 3. inside a broken block, item by item again, recursively, so the block keeps every
//!    attribute and nested block that is well-formed.
//!
//! A top-level block that cannot be understood at all is taken from the last good tree of
//! the file, marked `stale`.

use std::ops::Range;
use std::sync::Arc;

use super::depth::{is_nesting_error, nested_too_deeply};
use super::diagnose::{self, Scope};
use super::native::Converter;
use super::scan::{self, Item};
use super::stale::stale_block;
use super::unanalysed::unanalysed_attribute;
use super::{repeated_keys, traversals};
use super::{Attribute, Block, Body, File, Ident, Span, Syntax, SyntaxDiagnostic, SyntaxSeverity};
use crate::limits::MAX_NESTING_DEPTH;

/// Parses a native-syntax file; see the module documentation.
pub fn parse_native(text: &str, previous: Option<&File>) -> File {
    let whole = hcl_edit::parser::parse_body(text).ok().or_else(|| {
        let blanked = scan::blank_ignored_newlines(text)?;
        hcl_edit::parser::parse_body(&blanked).ok()
    });
    // hcl-edit reads a quoted string on across lines, and a carriage return alone as a
    // line break; HCL refuses both (and reads on in recovery mode), which only the
    // item-by-item parse reports.
    let whole = whole.filter(|_| !scan::hcl_refuses(text, 0..text.len()));
    if let Some(body) = whole {
        let body = Converter::new(0).body(body);
        let diagnostics = traversals::diagnose(text, &body);
        return file(Recovered {
            body,
            diagnostics,
            unread: Vec::new(),
        });
    }
    file(recover_range(text, 0..text.len(), previous, &[]))
}

/// A body parsed item by item.
pub(super) struct Recovered {
    /// Every item that could be understood.
    pub body: Body,
    /// What HCL reports of them.
    pub diagnostics: Vec<SyntaxDiagnostic>,
    /// What HCL's parser skips (`File::unread`).
    pub unread: Vec<Span>,
}

/// Parses the top-level items in `range` of `text` one by one, reporting each problem
/// where it is and taking blocks that cannot be understood at all from `previous`. The
/// bytes at `invalid` were not UTF-8 (`bad_bytes.rs`). HCL's parser reads `range` from
/// its start outside recovery mode.
pub(super) fn recover_range(
    text: &str,
    range: Range<usize>,
    previous: Option<&File>,
    invalid: &[usize],
) -> Recovered {
    let mut recovery = Recovery {
        text,
        diagnostics: Vec::new(),
        after_error: false,
        depth: 0,
        item_recovering: None,
        invalid,
    };
    let mut body = Body::default();
    for item in scan::items(text, range.clone()) {
        match recovery.body_item(&item) {
            Some(parsed) => recovery.add(&mut body, parsed),
            None => {
                if let Some(stale) = previous.and_then(|p| stale_block(p, text, &item)) {
                    body.blocks.push(Arc::new(stale));
                }
            }
        }
    }
    let mut diagnostics = recovery.diagnostics;
    diagnostics.extend(traversals::diagnose(text, &body));
    // The items are read on after a token HCL's parser skips from (one stray brace must
    // not take every later declaration out of the editor's model), but of what it skips
    // HCL reports only its scanner's errors.
    let skipped = diagnose::skipped(text, range, invalid);
    diagnostics.retain(|d| skipped.reports(d));
    diagnostics.sort_by_key(|d| d.span.start);
    // An item's errors are looked for past its end where HCL reads on (an unclosed
    // string, a stray token's recovery), so two items can find one scanner error.
    let mut unique: Vec<SyntaxDiagnostic> = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        let mut same_start = unique
            .iter()
            .rev()
            .take_while(|u| u.span.start == d.span.start);
        if !same_start.any(|u| *u == d) {
            unique.push(d);
        }
    }
    Recovered {
        body,
        diagnostics: unique,
        unread: skipped.regions,
    }
}

pub(super) fn file(recovered: Recovered) -> File {
    File {
        syntax: Syntax::Native,
        body: recovered.body,
        diagnostics: recovered.diagnostics,
        unread: recovered.unread,
    }
}

/// HCL's summary for an argument set twice in one body.
const ATTRIBUTE_REDEFINED: &str = "Attribute redefined";

enum Parsed {
    Attribute(Attribute),
    Block(Block),
}

struct Recovery<'a> {
    text: &'a str,
    diagnostics: Vec<SyntaxDiagnostic>,
    /// An item before the current one failed: HCL's parser is in recovery mode, which
    /// lasts to the end of the file (see [`Scope`]).
    after_error: bool,
    /// How many broken blocks the current item is inside.
    depth: usize,
    /// Whether HCL's parser ended the current item in recovery mode, as far as the item's
    /// diagnoses said (`None` before one): an item whose errors all leave it outside
    /// recovery mode does not silence what follows.
    item_recovering: Option<bool>,
    /// The offsets of the file's bytes that are not UTF-8 (outside comments).
    invalid: &'a [usize],
}

impl Recovery<'_> {
    /// Parses one item of a body, noting whether it failed for every later one (HCL's
    /// parser never leaves recovery mode once in it).
    fn body_item(&mut self, item: &Item) -> Option<Parsed> {
        let before = self.diagnostics.len();
        let recovering = self.after_error;
        let outer = self.item_recovering.take();
        let parsed = self.item(item);
        let failed = self
            .diagnostics
            .get(before..)
            .is_some_and(|new| new.iter().any(|d| d.severity == SyntaxSeverity::Error));
        let quiet = self.item_recovering == Some(false);
        self.item_recovering = outer;
        self.after_error = recovering || (failed && !quiet);
        parsed
    }

    /// HCL's own errors for `item`, reading on to the end of the file as HCL would (see
    /// [`diagnose::body_item`]).
    fn diagnose(&mut self, item: Range<usize>, whole_blocks: bool) -> Vec<SyntaxDiagnostic> {
        let scope = Scope {
            whole_blocks,
            after_error: self.after_error,
            invalid: self.invalid,
        };
        let (found, recovering) =
            diagnose::body_item_and_mode(self.text, item, self.text.len(), scope);
        self.item_recovering = Some(self.item_recovering.unwrap_or(false) || recovering);
        found
    }

    /// Parses one item of a body; `None` when nothing of it could be understood.
    fn item(&mut self, item: &Item) -> Option<Parsed> {
        if let Some(open) = item.unclosed_at {
            // Something in the item never closes; HCL's error may be anywhere inside it, so
            // it is found over the whole item and the piecewise parse below stays quiet.
            let found = self.diagnose(item.span.clone(), true);
            // HCL says this only outside recovery mode.
            if found.is_empty() && !self.after_error {
                self.error(
                    "Unclosed configuration block",
                    "There is no closing brace for this block before the end of the file. \
                     This may be caused by incorrect brace nesting elsewhere in this file.",
                    Span::new(open, open + 1),
                );
            }
            let closed = format!("{}\n{}", &self.text[item.span.clone()], item.closers);
            if let Some(parsed) = parse_piece(&closed, item.span.start) {
                self.diagnostics.extend(found);
                return Some(clamp(parsed, item.span.end));
            }
            let keep = self.diagnostics.len();
            let parsed = self.piecewise(item.span.clone());
            // HCL's body loop reports an argument set twice whatever else went wrong;
            // the rest of what the pieces found, the whole item's parse says.
            let mut pieces = self.diagnostics.split_off(keep);
            pieces.retain(|d| d.summary == ATTRIBUTE_REDEFINED);
            self.diagnostics.extend(pieces);
            self.diagnostics.extend(found);
            return parsed;
        }
        let slice = &self.text[item.span.clone()];
        match hcl_edit::parser::parse_body(slice) {
            Ok(body) if !self.holds_what_hcl_refuses(&item.span) => {
                single(Converter::new(item.span.start).body(body))
            }
            _ => self.piecewise(item.span.clone()),
        }
    }

    /// Adds a parsed item to a body, reporting an attribute set twice as hcl-edit would
    /// have had it parsed the body whole.
    fn add(&mut self, body: &mut Body, parsed: Parsed) {
        match parsed {
            Parsed::Block(b) => body.blocks.push(Arc::new(b)),
            Parsed::Attribute(a) => {
                if let Some(first) = body.attribute(&a.name.name) {
                    // HCL names the first definition's range (`{range}`).
                    let cited = first.name.span;
                    // HCL parsed the second definition's value too, and reports its
                    // traversals as it does the first's.
                    let second = Body {
                        attributes: vec![Arc::new(a.clone())],
                        blocks: Vec::new(),
                    };
                    let traversal_errors = traversals::diagnose(self.text, &second);
                    self.diagnostics.extend(traversal_errors);
                    self.error(
                        ATTRIBUTE_REDEFINED,
                        &format!(
                            "The argument \"{}\" was already set at {{range}}. Each argument \
                             may be set only once.",
                            a.name.name
                        ),
                        a.name.span,
                    );
                    if let Some(d) = self.diagnostics.last_mut() {
                        d.cited = Some(cited);
                    }
                } else {
                    body.attributes.push(Arc::new(a));
                }
            }
        }
    }

    /// Parses an item that failed as a whole: a block body by body item, an attribute
    /// with the newlines HCL ignores blanked, or else reports the error where it is.
    fn piecewise(&mut self, range: Range<usize>) -> Option<Parsed> {
        match scan::body_open(self.text, range.clone()) {
            Some(open) => self.block(range, open).map(Parsed::Block),
            None => self.attribute(range),
        }
    }

    fn block(&mut self, range: Range<usize>, open: usize) -> Option<Block> {
        let recovering = self.after_error;
        let header = parse_header(self.text, range.start..open);
        let scope = Scope {
            whole_blocks: false,
            after_error: self.after_error,
            invalid: self.invalid,
        };
        // Read on to the item's end: after a broken header HCL skips the body, and its
        // scanner's errors there are still reported.
        let found = diagnose::body_item(self.text, range.start..open + 1, range.end, scope);
        // HCL keeps a block whose label holds a template sequence, with the sequence
        // replaced, and goes on to check its name; any other header error loses the block.
        let only_templates = found.iter().all(|d| d.summary == "Invalid string literal");
        let header_failed = !found.is_empty();
        let keep = self.diagnostics.len();
        self.diagnostics.extend(found);
        if !header_failed && starts_single_line(self.text, open) {
            if let Some(block) = self.block_before_more(&range) {
                return Some(block);
            }
        }
        let (kind, labels) = match header {
            Ok((kind, labels)) if only_templates => {
                (kind, labels.into_iter().map(label_as_hcl).collect())
            }
            Ok(_) => return None,
            Err(at) => {
                if !header_failed && !self.after_error {
                    self.error(
                        "Invalid block definition",
                        "Either a quoted string block label or an opening brace (\"{\") is \
                         expected here.",
                        Span::new(at, at + 1),
                    );
                }
                return None;
            }
        };
        if self.depth >= MAX_NESTING_DEPTH {
            // Each level below was refused whole (hcl-edit's own limit), so reading on
            // would recurse once per level.
            self.diagnostics.truncate(keep);
            self.diagnostics
                .push(nested_too_deeply(Span::new(open, open + 1)));
            return None;
        }
        let inner_end = scan::body_close(self.text, open, range.end).unwrap_or(range.end);
        let mut body = Body::default();
        self.depth += 1;
        for item in scan::items(self.text, open + 1..inner_end) {
            if let Some(parsed) = self.body_item(&item) {
                self.add(&mut body, parsed);
            }
        }
        self.depth -= 1;
        // HCL's parser leaves the body in recovery mode only if one of its items put it
        // there (an argument set twice does not).
        self.item_recovering =
            Some(self.item_recovering.unwrap_or(false) || self.after_error || header_failed);
        // The whole block is read again below from its start, in the state it began in.
        self.after_error = recovering;
        // hcl-edit refused the block, yet each of its items parsed (`x = 1 }` closes a body
        // on the line of its last item), or a single-line block broke HCL's rules for
        // those (`a { b = 1, c = 2 }`): only the whole block shows what HCL says.
        let added = self.diagnostics.len() > keep;
        if !added || starts_single_line(self.text, open) {
            let found = self.diagnose(range.clone(), true);
            // A single-line body without an argument is none at all to HCL: the block
            // is kept, empty.
            if found.iter().any(lacks_single_argument) {
                body = Body::default();
            }
            if !found.is_empty() {
                self.diagnostics.truncate(keep);
                self.diagnostics.extend(found);
            }
        }
        Some(Block {
            kind,
            labels,
            body,
            span: Span::new(range.start, range.end),
            json_open: None,
            stale: false,
        })
    }

    /// `a { b = 1 } c {}`: the single-line block before what follows it on its line, and
    /// HCL's error for the rest (which HCL, too, leaves out).
    fn block_before_more(&mut self, range: &Range<usize>) -> Option<Block> {
        const MISSING_NEWLINE: &str = "Missing newline after block definition";
        let found = self.diagnose(range.clone(), true);
        let more = found
            .iter()
            .find(|d| d.summary == MISSING_NEWLINE)?
            .span
            .start as usize;
        let end = range.start + self.text[range.start..more].trim_end().len();
        let Some(Parsed::Block(block)) = parse_piece(&self.text[range.start..end], range.start)
        else {
            return None;
        };
        self.diagnostics.extend(found);
        Some(block)
    }

    /// An item without a body: an argument, or a block header HCL refuses but keeps.
    fn attribute(&mut self, range: Range<usize>) -> Option<Parsed> {
        let slice = &self.text[range.clone()];
        if self.holds_invalid(&range) {
            // hcl-edit reads the placeholder as a character; HCL's scanner does not.
            let found = self.diagnose(range.clone(), false);
            self.diagnostics.extend(found);
            return unanalysed_attribute(self.text, range.clone()).map(Parsed::Attribute);
        }
        let error = match hcl_edit::parser::parse_body(slice) {
            Ok(body) => {
                if scan::hcl_refuses(self.text, range.clone()) {
                    // HCL refuses the line break in a string (or a carriage return alone)
                    // but keeps the argument, as hcl-edit read it.
                    let found = self.diagnose(range.clone(), false);
                    self.diagnostics.extend(found);
                }
                return first_attribute(Converter::new(range.start).body(body));
            }
            Err(e) => e,
        };
        if let Some(blanked) = scan::blank_ignored_newlines(slice) {
            if let Ok(body) = hcl_edit::parser::parse_body(&blanked) {
                return first_attribute(Converter::new(range.start).body(body));
            }
        }
        if repeated_keys::is_repeated_key(&error) {
            let blanked = scan::blank_ignored_newlines(slice);
            let parsed = repeated_keys::parse_body(slice, range.start)
                .or_else(|| repeated_keys::parse_body(blanked.as_deref()?, range.start));
            if let Some(parsed) = parsed.and_then(first_attribute) {
                return Some(parsed);
            }
            if let Some(attr) = unanalysed_attribute(self.text, range.clone()) {
                self.diagnostics.push(SyntaxDiagnostic {
                    severity: SyntaxSeverity::Note,
                    summary: "Expression not analysed".into(),
                    detail: format!(
                        "The value of \"{}\" repeats an object key. Terraform accepts this \
                         (the last value wins), but Strata's parser does not, so this one \
                         expression is left out of analysis; the rest of the file is \
                         understood.",
                        attr.name.name
                    ),
                    span: attr.expr.span,
                    cited: None,
                });
                return Some(Parsed::Attribute(attr));
            }
        }
        let found = self.diagnose(range.clone(), false);
        if !found.is_empty() {
            // HCL keeps an argument whose value is broken, and a block header without a
            // body (as an empty block); Terraform goes on to decode both.
            let headless = found
                .iter()
                .any(|d| d.summary == "Invalid block definition");
            self.diagnostics.extend(found);
            if !headless {
                return unanalysed_attribute(self.text, range.clone()).map(Parsed::Attribute);
            }
            let (kind, labels) = parse_header(self.text, range.clone()).ok()?;
            return Some(Parsed::Block(Block {
                kind,
                labels,
                body: Body::default(),
                span: Span::new(range.start, range.end),
                json_open: None,
                stale: false,
            }));
        }
        let at = range.start + error.location().offset();
        if is_nesting_error(error.message()) {
            self.diagnostics.push(nested_too_deeply(Span::new(
                at,
                (at + 1).min(range.end.max(at)),
            )));
            return None;
        }
        if self.after_error {
            // HCL's parser is in recovery mode and says nothing more here; it keeps what
            // it read of an argument.
            return unanalysed_attribute(self.text, range.clone()).map(Parsed::Attribute);
        }
        self.error(
            summary_for(error.message()),
            &format!("{}.", capitalised(error.message())),
            Span::new(at, (at + 1).min(range.end.max(at))),
        );
        None
    }

    /// Whether `range` holds a byte of the file that is not UTF-8.
    fn holds_invalid(&self, range: &Range<usize>) -> bool {
        let from = self.invalid.partition_point(|&at| at < range.start);
        self.invalid.get(from).is_some_and(|&at| at < range.end)
    }

    /// Whether `range` holds what hcl-edit accepts and HCL's scanner refuses: a byte
    /// that is not UTF-8, or what `scan::hcl_refuses` finds.
    fn holds_what_hcl_refuses(&self, range: &Range<usize>) -> bool {
        self.holds_invalid(range) || scan::hcl_refuses(self.text, range.clone())
    }

    fn error(&mut self, summary: &str, detail: &str, span: Span) {
        self.diagnostics.push(SyntaxDiagnostic {
            severity: SyntaxSeverity::Error,
            summary: summary.into(),
            detail: detail.into(),
            span,
            cited: None,
        });
    }
}

/// Whether `d` is HCL's error for a single-line block body that does not start with an
/// argument (HCL then gives the block an empty body).
fn lacks_single_argument(d: &SyntaxDiagnostic) -> bool {
    d.summary == "Argument definition required"
        || (d.summary == "Argument or block definition required"
            && d.detail == "An argument or block definition is required here.")
}

/// Whether the body opening at `open` has content on the same line: a single-line block.
fn starts_single_line(text: &str, open: usize) -> bool {
    !text[open + 1..]
        .trim_start_matches([' ', '\t'])
        .starts_with(['\n', '\r', '#', '/', '}'])
}

/// Parses a piece of text that starts at `base` in the file; `Some` only when it holds
/// exactly one item.
fn parse_piece(text: &str, base: usize) -> Option<Parsed> {
    let body = hcl_edit::parser::parse_body(text).ok()?;
    single(Converter::new(base).body(body))
}

fn single(body: Body) -> Option<Parsed> {
    let Body {
        mut attributes,
        mut blocks,
    } = body;
    match (attributes.len(), blocks.len()) {
        (1, 0) => attributes.pop().map(|a| Parsed::Attribute(unshare(a))),
        (0, 1) => blocks.pop().map(|b| Parsed::Block(unshare(b))),
        _ => None,
    }
}

fn first_attribute(body: Body) -> Option<Parsed> {
    body.attributes
        .into_iter()
        .next()
        .map(|a| Parsed::Attribute(unshare(a)))
}

/// A label as HCL keeps it after refusing its template sequences: each one written as
/// `${ ... }` (or `%{ ... }`).
fn label_as_hcl(mut label: Ident) -> Ident {
    let name = label.name.to_string();
    let mut out = String::new();
    let mut rest = name.as_str();
    while let Some(at) = rest.find(['$', '%']) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let sign = &from[..1];
        if from[1..].starts_with(sign) && from[2..].starts_with('{') {
            out.push_str(&from[..3]);
            rest = &from[3..];
        } else if from[1..].starts_with('{') {
            out.push_str(sign);
            out.push_str("{ ... }");
            rest = from.find('}').map_or("", |end| &from[end + 1..]);
        } else {
            out.push_str(sign);
            rest = &from[1..];
        }
    }
    out.push_str(rest);
    label.name = out.into();
    label
}

/// The node itself; freshly parsed nodes are not shared yet, so this never copies.
fn unshare<T: Clone>(node: Arc<T>) -> T {
    Arc::try_unwrap(node).unwrap_or_else(|shared| (*shared).clone())
}

/// Spans of a piece parsed with closers appended must not point past the real text.
fn clamp(parsed: Parsed, end: usize) -> Parsed {
    match parsed {
        Parsed::Block(mut b) => {
            b.span.end = b.span.end.min(end as u32);
            Parsed::Block(b)
        }
        Parsed::Attribute(mut a) => {
            a.span.end = a.span.end.min(end as u32);
            a.expr.span.end = a.expr.span.end.min(end as u32);
            Parsed::Attribute(a)
        }
    }
}

/// Block type and labels from the text before the body's `{`; on failure, the offset of
/// the first character that does not fit. `/* */` comments between them are skipped, as
/// HCL's parser skips them (a `#` or `//` comment ends the line, which HCL refuses).
fn parse_header(text: &str, range: Range<usize>) -> Result<(Ident, Vec<Ident>), usize> {
    let mut pos = range.start;
    let bytes = text.as_bytes();
    let skip_blank = |pos: &mut usize| loop {
        while *pos < range.end && matches!(bytes[*pos], b' ' | b'\t') {
            *pos += 1;
        }
        let rest = &bytes[*pos..range.end];
        match rest.strip_prefix(b"/*") {
            Some(comment) => match memchr::memmem::find(comment, b"*/") {
                Some(close) => *pos += 2 + close + 2,
                None => return,
            },
            None => return,
        }
    };
    let ident = |pos: &mut usize| -> Option<Ident> {
        let start = *pos;
        if *pos < range.end && (bytes[*pos].is_ascii_alphabetic() || bytes[*pos] == b'_') {
            while *pos < range.end
                && (bytes[*pos].is_ascii_alphanumeric() || matches!(bytes[*pos], b'_' | b'-'))
            {
                *pos += 1;
            }
            return Some(Ident {
                name: text[start..*pos].into(),
                span: Span::new(start, *pos),
            });
        }
        None
    };
    skip_blank(&mut pos);
    let kind = ident(&mut pos).ok_or(pos)?;
    let mut labels = Vec::new();
    loop {
        skip_blank(&mut pos);
        if pos >= range.end {
            return Ok((kind, labels));
        }
        if bytes[pos] == b'"' {
            let close = text[pos + 1..range.end].find('"').ok_or(pos)?;
            let end = pos + 1 + close + 1;
            labels.push(Ident {
                name: text[pos + 1..end - 1].into(),
                span: Span::new(pos, end),
            });
            pos = end;
        } else {
            labels.push(ident(&mut pos).ok_or(pos)?);
        }
    }
}

/// HCL-style summaries for hcl-edit's messages.
fn summary_for(message: &str) -> &'static str {
    if message.contains("redefined attribute") {
        ATTRIBUTE_REDEFINED
    } else if message.contains("expression") || message.contains("expected") {
        "Invalid expression"
    } else {
        "Invalid syntax"
    }
}

fn capitalised(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
