//! Body items as HCL parses them: arguments, block headers and bodies (also the
//! single-line `a { b = 1 }` form), and how HCL skips the rest of a broken item.

use std::ops::Range;

use super::{opening, Parser, Tok};

impl Parser<'_> {
    /// One iteration of HCL's body loop: an item, or the error for what is not one.
    pub(super) fn body_item(&mut self) {
        match self.peek().kind {
            Tok::Ident => self.item(),
            Tok::Newline | Tok::Eof => {}
            _ => self.bad_item_start(Tok::Eof, 0..0),
        }
    }

    /// A token that cannot start a body item, in a body that `end` closes and `open` opened.
    fn bad_item_start(&mut self, end: Tok, open: Range<usize>) {
        let bad = self.read();
        match bad.kind {
            Tok::OQuote => self.first_error(
                "Invalid argument name",
                "Argument names must not be quoted.",
                bad.span,
            ),
            Tok::Eof if end == Tok::CBrace => self.unclosed_block(open),
            Tok::Eof => self.first_error(
                "Unclosed configuration body",
                "Found end of file before the end of this configuration body.",
                open,
            ),
            _ => self.first_error(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                bad.span,
            ),
        }
        self.recover(end);
    }

    fn unclosed_block(&mut self, open: Range<usize>) {
        self.first_error(
            "Unclosed configuration block",
            "There is no closing brace for this block before the end of the file. This may be \
             caused by incorrect brace nesting elsewhere in this file.",
            open,
        );
    }

    /// The items of a block body after its `{` (at `open`), up to `end`.
    fn body(&mut self, end: Tok, open: Range<usize>) {
        loop {
            match self.peek().kind {
                kind if kind == end => {
                    self.read();
                    return;
                }
                Tok::Newline => {
                    self.read();
                }
                Tok::Ident => self.item(),
                _ => return self.bad_item_start(end, open),
            }
        }
    }

    /// An argument or a block, starting at its name.
    fn item(&mut self) {
        let ident = self.read();
        match self.peek().kind {
            Tok::Equal => self.attribute(false),
            Tok::OQuote | Tok::OBrace | Tok::Ident => self.block(),
            _ => self.argument_or_block_required(ident.span),
        }
    }

    fn argument_or_block_required(&mut self, at: Range<usize>) {
        self.recover_after_item();
        self.error(
            "Argument or block definition required",
            "An argument or block definition is required here. To set an argument, use the \
             equals sign \"=\" to introduce the argument value.",
            at,
        );
    }

    /// An argument after its name; one in a single-line block ends at the `}` instead of a
    /// newline.
    fn attribute(&mut self, single_line: bool) {
        self.read();
        if self.failed(Self::expression) && self.recovery {
            return self.recover_after_item();
        }
        if single_line {
            return;
        }
        let end = self.peek();
        if matches!(end.kind, Tok::Newline | Tok::Eof) {
            self.read();
            return;
        }
        let (summary, detail) = if end.kind == Tok::Comma {
            (
                "Unexpected comma after argument",
                "Argument definitions must be separated by newlines, not commas. An argument \
                 definition must end with a newline.",
            )
        } else {
            (
                "Missing newline after argument",
                "An argument definition must end with a newline.",
            )
        };
        self.first_error(summary, detail, end.span);
        self.recover_after_item();
    }

    /// A block after its type: labels, then (with `whole_blocks`) its body.
    fn block(&mut self) {
        loop {
            let token = self.peek();
            let detail = match token.kind {
                Tok::OBrace => break,
                Tok::OQuote => {
                    self.quoted_label();
                    continue;
                }
                Tok::Ident => {
                    self.read();
                    continue;
                }
                Tok::Equal => {
                    "The equals sign \"=\" indicates an argument definition, and must \
                               not be used when defining a block."
                }
                Tok::Newline => {
                    "A block definition must have block content delimited by \"{\" \
                                 and \"}\", starting on the same line as the block header."
                }
                _ if self.recovery => return self.recover_after_item(),
                _ => {
                    "Either a quoted string block label or an opening brace (\"{\") is \
                      expected here."
                }
            };
            self.error("Invalid block definition", detail, token.span);
            return self.recover_after_item();
        }
        if self.whole_blocks {
            self.nested(Self::block_body);
        }
    }

    /// A block's body from its `{`, then the newline that must follow it.
    fn block_body(&mut self) {
        let open = self.read().span;
        if matches!(self.peek().kind, Tok::Newline | Tok::Eof | Tok::CBrace) {
            self.body(Tok::CBrace, open);
        } else {
            self.single_line_body(open);
        }
        let end = self.peek();
        if matches!(end.kind, Tok::Newline | Tok::Eof) {
            self.read();
            return;
        }
        self.first_error(
            "Missing newline after block definition",
            "A block definition must end with a newline.",
            end.span,
        );
        self.recover_after_item();
    }

    /// `{ name = value }` on one line, after the `{` at `open`. Whatever the argument's
    /// fate, HCL then looks for the closing brace where it stopped.
    fn single_line_body(&mut self, open: Range<usize>) {
        self.single_line_argument();
        self.single_line_close(open);
    }

    /// The one argument of a single-line block.
    fn single_line_argument(&mut self) {
        let ident = self.read();
        if ident.kind != Tok::Ident {
            self.recover_after_item();
            return self.error(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                ident.span,
            );
        }
        let next = self.peek();
        match next.kind {
            Tok::Equal => self.attribute(true),
            Tok::OQuote | Tok::OBrace | Tok::Ident => {
                self.recover_after_item();
                let name = self.text.get(ident.span.clone()).unwrap_or("");
                self.error(
                    "Argument definition required",
                    &format!(
                        "A single-line block definition can contain only a single argument. If \
                         you meant to define argument \"{name}\", use an equals sign to assign it \
                         a value. To define a nested block, place it on a line of its own within \
                         its parent block."
                    ),
                    ident.span.start..next.span.end,
                );
            }
            _ => self.argument_or_block_required(ident.span),
        }
    }

    /// The `}` right after a single-line block's argument.
    fn single_line_close(&mut self, open: Range<usize>) {
        let end = self.peek();
        let detail = match end.kind {
            Tok::CBrace => {
                self.read();
                return;
            }
            Tok::Comma => {
                "Single-line block syntax can include only one argument definition. \
                           To define multiple arguments, use the multi-line block syntax with \
                           one argument definition per line."
            }
            Tok::Newline => {
                "An argument definition on the same line as its containing block \
                             creates a single-line block definition, which must also be closed \
                             on the same line. Place the block's closing brace immediately after \
                             the argument definition."
            }
            Tok::Eof => {
                self.unclosed_block(open);
                self.recover(Tok::CBrace);
                return;
            }
            _ if self.recovery => {
                self.recover(Tok::CBrace);
                return;
            }
            _ => {
                "A single-line block definition must end with a closing brace immediately \
                  after its single argument definition."
            }
        };
        self.error("Invalid single-argument block definition", detail, end.span);
        self.recover(Tok::CBrace);
    }

    /// Skips the rest of a broken item: to the next newline outside every bracket.
    pub(super) fn recover_after_item(&mut self) {
        let from = self.skip_from();
        self.recover_after_item_unnoted();
        self.note_skipped(from);
    }

    fn recover_after_item_unnoted(&mut self) {
        self.recovery = true;
        let mut open: Vec<Tok> = Vec::new();
        loop {
            let token = self.read();
            match token.kind {
                Tok::Newline if open.is_empty() => return,
                Tok::Eof => return,
                Tok::OBrace
                | Tok::OBrack
                | Tok::OParen
                | Tok::OQuote
                | Tok::OHeredoc
                | Tok::TemplateInterp
                | Tok::TemplateControl => open.push(token.kind),
                Tok::CBrace | Tok::CBrack | Tok::CParen | Tok::CQuote | Tok::CHeredoc => {
                    let opener = opening(token.kind);
                    while open.last().is_some_and(|o| Some(*o) != opener) {
                        open.pop();
                    }
                    open.pop();
                }
                Tok::TemplateSeqEnd => {
                    while open
                        .last()
                        .is_some_and(|o| !matches!(o, Tok::TemplateInterp | Tok::TemplateControl))
                    {
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }

    /// A quoted block label: a string without template sequences.
    fn quoted_label(&mut self) {
        self.read();
        loop {
            let token = self.read();
            match token.kind {
                Tok::CQuote => return,
                Tok::QuotedLit => self.escapes(token.span),
                Tok::TemplateInterp | Tok::TemplateControl => {
                    let which = if token.kind == Tok::TemplateInterp {
                        '$'
                    } else {
                        '%'
                    };
                    self.fail(
                        false,
                        "Invalid string literal",
                        &format!(
                            "Template sequences are not allowed in this string. To include a \
                             literal \"{which}\", double it (as \"{which}{which}\") to escape it."
                        ),
                        token.span,
                        Tok::TemplateSeqEnd,
                    );
                }
                Tok::Eof => {
                    return self.error(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        token.span,
                    )
                }
                _ => {
                    return self.fail(
                        false,
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        token.span,
                        Tok::CQuote,
                    );
                }
            }
        }
    }
}
