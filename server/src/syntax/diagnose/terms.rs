//! Expression terms as HCL parses them: literals, references and their traversals,
//! function calls, tuples, objects, `for` expressions and templates.

use super::{Parser, Tok};
use crate::syntax::number_literal;

impl Parser<'_> {
    pub(super) fn term(&mut self) {
        let start = self.peek();
        match start.kind {
            Tok::OParen => self.parentheses(),
            Tok::Number => {
                let number = self.read();
                self.number_value(number.span);
            }
            Tok::Ident => {
                let name = self.read();
                if matches!(self.peek().kind, Tok::OParen | Tok::DoubleColon) {
                    self.function_call(name.span);
                }
            }
            Tok::OQuote | Tok::OHeredoc => {
                self.read();
                let closer = if start.kind == Tok::OQuote {
                    Tok::CQuote
                } else {
                    Tok::CHeredoc
                };
                self.template(closer);
            }
            Tok::Minus | Tok::Bang => {
                self.read();
                self.nested(Self::term_with_traversals);
            }
            Tok::OBrack => self.tuple(),
            Tok::OBrace => self.object(),
            Tok::Eof => {
                self.first_error(
                    "Missing expression",
                    "Expected the start of an expression, but found the end of the file.",
                    start.span,
                );
                self.recovery = true;
            }
            _ => {
                self.first_error(
                    "Invalid expression",
                    "Expected the start of an expression, but found an invalid expression token.",
                    start.span,
                );
                self.recovery = true;
            }
        }
    }

    fn parentheses(&mut self) {
        self.read();
        self.with_newlines(false, |p| {
            if p.failed(Self::expression) {
                p.recover(Tok::CParen);
                return;
            }
            let close = p.peek();
            if close.kind != Tok::CParen {
                p.error(
                    "Unbalanced parentheses",
                    "Expected a closing parenthesis to terminate the expression.",
                    close.span,
                );
                p.recovery = true;
            }
            p.read();
        });
    }

    /// Attribute access, indexing and splats after a term.
    pub(super) fn traversals(&mut self) {
        loop {
            match self.peek().kind {
                Tok::Dot => self.dot_traversal(),
                Tok::OBrack => self.index(),
                _ => return,
            }
        }
    }

    fn dot_traversal(&mut self) {
        self.read();
        let attr = self.peek();
        match attr.kind {
            Tok::Ident => {
                self.read();
            }
            Tok::Number => self.legacy_index(" syntax instead"),
            Tok::Star => {
                self.read();
                while self.peek().kind == Tok::Dot {
                    self.read();
                    let next = self.peek();
                    match next.kind {
                        Tok::Number => {
                            self.legacy_index(" syntax with a full splat expression [*] instead")
                        }
                        Tok::Ident => {
                            self.read();
                        }
                        Tok::Star => {
                            self.first_error(
                                "Nested splat expression not allowed",
                                "A splat expression (*) cannot be used inside another \
                                 attribute-only splat expression.",
                                next.span,
                            );
                            self.recovery = true;
                            return;
                        }
                        _ => {
                            self.first_error(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                attr.span,
                            );
                            self.recovery = true;
                            return;
                        }
                    }
                }
            }
            _ => {
                self.error(
                    "Invalid attribute name",
                    "An attribute name is required after a dot.",
                    attr.span,
                );
                self.recovery = true;
            }
        }
    }

    /// A number token's value, which HCL's parser reads with cty's `ParseNumberVal` and
    /// refuses (without recovering) where Go's `big.ParseFloat` does: `1.5.0`, `1e5e5`.
    fn number_value(&mut self, span: std::ops::Range<usize>) {
        let token = self.text.get(span.clone()).unwrap_or("");
        if !number_literal::is_valid(token) {
            self.error(
                "Invalid number literal",
                "Failed to recognize the value of this number literal.",
                span,
            );
        }
    }

    /// `foo.0`, which HCL accepts from HIL, but not `foo.0.1` (a fractional number); an
    /// index without a dot is a number value as any other (`foo.1e5e5` is refused).
    fn legacy_index(&mut self, instead: &str) {
        let number = self.read();
        let digits = self.text.get(number.span.clone()).unwrap_or("");
        match digits.split_once('.') {
            None => self.number_value(number.span),
            Some((first, second)) => self.error(
                "Invalid legacy index syntax",
                &format!(
                    "When using the legacy index syntax, chaining two indexes together is not \
                     permitted. Use the proper index{instead}, like [{first}][{second}]."
                ),
                number.span,
            ),
        }
    }

    fn index(&mut self) {
        self.read();
        if self.peek().kind == Tok::Star {
            self.read();
            let close = self.read();
            if close.kind != Tok::CBrack && !self.recovery {
                // HCL reports this where its recovery stopped, not at `close`.
                let at = self.recover(Tok::CBrack).span;
                self.error(
                    "Missing close bracket on splat index",
                    "The star for a full splat operator must be immediately followed by a \
                     closing bracket (\"]\").",
                    at,
                );
            }
            return;
        }
        self.with_newlines(false, |p| {
            if p.failed(Self::expression) && p.recovery {
                p.recover(Tok::CBrack);
                return;
            }
            let close = p.read();
            if close.kind != Tok::CBrack && !p.recovery {
                // HCL reports this where its recovery stopped, not at `close`.
                let at = p.recover(Tok::CBrack).span;
                p.error(
                    "Missing close bracket on index",
                    "The index operator must end with a closing bracket (\"]\").",
                    at,
                );
            }
        });
    }

    fn function_call(&mut self, name: std::ops::Range<usize>) {
        let mut open = self.read();
        while open.kind == Tok::DoubleColon {
            let next = self.read();
            if next.kind != Tok::Ident {
                self.error(
                    "Missing function name",
                    "Function scope resolution symbol :: must be followed by a function name \
                     in this scope.",
                    next.span,
                );
                return self.recover_over(Tok::OParen);
            }
            open = self.read();
        }
        if open.kind != Tok::OParen {
            self.error(
                "Missing open parenthesis",
                "Function selector must be followed by an open parenthesis to begin the \
                 function call.",
                open.span,
            );
            return self.recover_over(Tok::OParen);
        }
        self.with_newlines(false, |p| loop {
            if p.peek().kind == Tok::CParen {
                p.read();
                return;
            }
            if p.failed(Self::expression) && p.recovery {
                p.recover(Tok::CParen);
                return;
            }
            let separator = p.read();
            match separator.kind {
                Tok::CParen => return,
                Tok::Ellipsis => {
                    if p.peek().kind == Tok::CParen {
                        p.read();
                    } else {
                        p.fail(
                            true,
                            "Missing closing parenthesis",
                            "An expanded function argument (with ...) must be immediately \
                             followed by closing parentheses.",
                            separator.span,
                            Tok::CParen,
                        );
                    }
                    return;
                }
                Tok::Comma => {
                    if p.peek().kind == Tok::CParen {
                        p.read();
                        return;
                    }
                }
                Tok::Eof => {
                    return p.fail(
                        false,
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end \
                         of the file. This may be caused by incorrect parenthesis nesting \
                         elsewhere in this file.",
                        name.start..open.span.end,
                        Tok::CParen,
                    );
                }
                _ => {
                    return p.fail(
                        false,
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        separator.span,
                        Tok::CParen,
                    );
                }
            }
        });
    }

    fn tuple(&mut self) {
        let open = self.read();
        self.with_newlines(false, |p| {
            if p.next_is_keyword("for") {
                return p.for_expression(Tok::CBrack);
            }
            loop {
                if p.peek().kind == Tok::CBrack {
                    p.read();
                    return;
                }
                if p.failed(Self::expression) && p.recovery {
                    p.recover(Tok::CBrack);
                    return;
                }
                let next = p.peek();
                match next.kind {
                    Tok::CBrack => {
                        p.read();
                        return;
                    }
                    Tok::Comma => {
                        p.read();
                    }
                    Tok::Eof => {
                        return p.fail(
                            true,
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the \
                             file. This may be caused by incorrect bracket nesting elsewhere in \
                             this file.",
                            open.span.clone(),
                            Tok::CBrack,
                        );
                    }
                    _ => {
                        return p.fail(
                            true,
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            next.span,
                            Tok::CBrack,
                        );
                    }
                }
            }
        });
    }

    fn object(&mut self) {
        let open = self.read();
        self.newlines.push(false);
        let is_for = self.next_is_keyword("for");
        self.newlines.pop();
        if is_for {
            return self.with_newlines(false, |p| p.for_expression(Tok::CBrace));
        }
        let unterminated = |p: &mut Self| {
            p.first_error(
                "Unterminated object constructor expression",
                "There is no corresponding closing brace before the end of the file. This may \
                 be caused by incorrect brace nesting elsewhere in this file.",
                open.span.clone(),
            );
        };
        self.with_newlines(true, |p| loop {
            match p.peek().kind {
                Tok::Newline => {
                    p.read();
                    continue;
                }
                Tok::CBrace => {
                    p.read();
                    return;
                }
                _ => {}
            }
            if p.failed(Self::expression) && p.recovery {
                p.recover(Tok::CBrace);
                return;
            }
            let next = p.peek();
            if !matches!(next.kind, Tok::Equal | Tok::Colon) {
                match next.kind {
                    Tok::Newline | Tok::Comma => p.first_error(
                        "Missing attribute value",
                        "Expected an attribute value, introduced by an equals sign (\"=\").",
                        next.span,
                    ),
                    Tok::Ident => p.first_error(
                        "Missing key/value separator",
                        "Expected an equals sign (\"=\") to mark the beginning of the attribute \
                         value. If you intended to given an attribute name containing periods \
                         or spaces, write the name in quotes to create a string literal.",
                        next.span,
                    ),
                    Tok::Eof => unterminated(p),
                    _ => p.first_error(
                        "Missing key/value separator",
                        "Expected an equals sign (\"=\") to mark the beginning of the attribute \
                         value.",
                        next.span,
                    ),
                }
                p.recover(Tok::CBrace);
                return;
            }
            p.read();
            if p.failed(Self::expression) && p.recovery {
                p.recover(Tok::CBrace);
                return;
            }
            let next = p.peek();
            match next.kind {
                Tok::CBrace => {
                    p.read();
                    return;
                }
                Tok::Comma | Tok::Newline => {
                    p.read();
                }
                Tok::Eof => {
                    unterminated(p);
                    p.recover(Tok::CBrace);
                    return;
                }
                _ => {
                    return p.fail(
                        true,
                        "Missing attribute separator",
                        "Expected a newline or comma to mark the beginning of the next attribute.",
                        next.span,
                        Tok::CBrace,
                    );
                }
            }
        });
    }

    /// `[for ...]` or `{for ...}`, after its opening bracket; `close` ends it.
    fn for_expression(&mut self, close: Tok) {
        self.read();
        if !self.for_names(false, close) {
            return;
        }
        if self.failed(Self::expression) && self.recovery {
            self.recover(close);
            return;
        }
        if self.peek().kind != Tok::Colon {
            let at = self.peek().span;
            return self.fail(
                true,
                "Invalid 'for' expression",
                "For expression requires a colon after the collection expression.",
                at,
                close,
            );
        }
        self.read();
        let first = self.peek().span.start;
        let mut failed = self.failed(Self::expression);
        let mut key = None;
        let value_start;
        if self.peek().kind == Tok::FatArrow {
            key = Some(first..self.prev_end());
            self.read();
            value_start = self.peek().span.start;
            failed |= self.failed(Self::expression);
        } else {
            value_start = first;
        }
        let value = value_start..self.prev_end();
        if failed && self.recovery {
            self.recover(close);
            return;
        }
        let ellipsis = (self.peek().kind == Tok::Ellipsis).then(|| self.read().span);
        if self.next_is_keyword("if") {
            self.read();
            if self.failed(Self::expression) && self.recovery {
                self.recover(close);
                return;
            }
        }
        if self.peek().kind == close {
            self.read();
        } else {
            let at = self.peek().span;
            self.first_error(
                "Invalid 'for' expression",
                "Extra characters after the end of the 'for' expression.",
                at,
            );
            self.recover(close);
        }
        match (close, key, ellipsis) {
            (Tok::CBrack, Some(key), _) => self.error(
                "Invalid 'for' expression",
                "Key expression is not valid when building a tuple.",
                key,
            ),
            (Tok::CBrack, None, Some(ellipsis)) => self.error(
                "Invalid 'for' expression",
                "Grouping ellipsis (...) cannot be used when building a tuple.",
                ellipsis,
            ),
            (Tok::CBrace, None, _) => self.error(
                "Invalid 'for' expression",
                "Key expression is required when building an object.",
                value,
            ),
            _ => {}
        }
    }

    /// Skips past the next `start` bracket and everything it encloses.
    fn recover_over(&mut self, start: Tok) {
        loop {
            let token = self.read();
            if token.kind == start || token.kind == Tok::Eof {
                break;
            }
        }
        let end = match start {
            Tok::OParen => Tok::CParen,
            Tok::OBrack => Tok::CBrack,
            _ => Tok::CBrace,
        };
        self.recover(end);
    }
}
