//! Templates as HCL parses them: quoted strings and heredocs with their `${}`
//! interpolations and `%{}` directives, and the escape sequences of quoted strings.

use super::{Parser, Tok};

impl Parser<'_> {
    /// The parts of a quoted string or heredoc, after its opening marker, up to `closer`.
    pub(super) fn template(&mut self, closer: Tok) {
        let start = self.peek().span;
        self.newlines.push(true);
        let mut open_directives: Vec<String> = Vec::new();
        loop {
            let next = self.read();
            match next.kind {
                kind if kind == closer => break,
                Tok::QuotedLit if closer == Tok::CQuote => self.escapes(next.span),
                Tok::QuotedLit => {}
                Tok::TemplateInterp => self.with_newlines(false, |p| {
                    p.expression();
                    let close = p.peek();
                    if close.kind == Tok::TemplateSeqEnd {
                        p.read();
                        return;
                    }
                    match close.kind {
                        Tok::Eof => p.first_error(
                            "Unclosed template interpolation sequence",
                            "There is no closing brace for this interpolation sequence before \
                             the end of the file. This might be caused by incorrect nesting \
                             inside the given expression.",
                            start.clone(),
                        ),
                        Tok::Colon => p.first_error(
                            "Extra characters after interpolation expression",
                            "Template interpolation doesn't expect a colon at this location. Did \
                             you intend this to be a literal sequence to be processed as part of \
                             another language? If so, you can escape it by starting with \"$${\" \
                             instead of just \"${\".",
                            close.span,
                        ),
                        Tok::CQuote | Tok::OQuote if closer == Tok::CQuote => p.first_error(
                            "Unclosed template interpolation sequence",
                            "There is no closing brace for this interpolation sequence before \
                             the end of the quoted template. This might be caused by incorrect \
                             nesting inside the given expression.",
                            start.clone(),
                        ),
                        _ => p.first_error(
                            "Extra characters after interpolation expression",
                            "Expected a closing brace to end the interpolation expression, but \
                             found extra characters.\n\nThis can happen when you include \
                             interpolation syntax for another language, such as shell \
                             scripting, but forget to escape the interpolation start token. If \
                             this is an embedded sequence for another language, escape it by \
                             starting with \"$${\" instead of just \"${\".",
                            close.span,
                        ),
                    }
                    p.recover(Tok::TemplateSeqEnd);
                }),
                Tok::TemplateControl => {
                    self.newlines.push(false);
                    if let Some((word, span)) = self.directive(next.span.start) {
                        self.balance(&mut open_directives, word, span);
                    }
                    self.newlines.pop();
                }
                _ => {
                    self.first_error(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        next.span,
                    );
                    self.recover(closer);
                    break;
                }
            }
        }
        self.newlines.pop();
    }

    /// Whether the directives of a template pair up: an `else`, `endif` or `endfor` with
    /// nothing open is reported as HCL reports it. (A mismatch inside an open `if` or `for`
    /// is left to hcl-edit's message: HCL's words for it name the file.)
    fn balance(&mut self, open: &mut Vec<String>, word: String, span: std::ops::Range<usize>) {
        match word.as_str() {
            "if" | "for" => open.push(word),
            "else" if open.last().is_some_and(|o| o == "if") => {
                if let Some(top) = open.last_mut() {
                    *top = "else".into();
                }
            }
            "endif" if open.last().is_some_and(|o| o == "if" || o == "else") => {
                open.pop();
            }
            "endfor" if open.last().is_some_and(|o| o == "for") => {
                open.pop();
            }
            _ if open.is_empty() => self.error(
                &format!("Unexpected {word} directive"),
                "The control directives within this template are unbalanced.",
                span,
            ),
            _ => {}
        }
    }

    /// A `%{ ... }` directive, after its opening marker at `open`; its keyword and extent
    /// when it is well-formed.
    fn directive(&mut self, open: usize) -> Option<(String, std::ops::Range<usize>)> {
        let keyword = self.peek();
        let text = self.text;
        let word = text.get(keyword.span.clone()).unwrap_or("");
        if keyword.kind != Tok::Ident {
            let at = keyword.span;
            self.fail(
                true,
                "Invalid template directive",
                "A template directive keyword (\"if\", \"for\", etc) is expected at the \
                 beginning of a %{ sequence.",
                at,
                Tok::TemplateSeqEnd,
            );
            return None;
        }
        self.read();
        match word {
            "if" => self.expression(),
            "else" | "endif" | "endfor" => {}
            "for" => {
                if !self.for_names(true, Tok::TemplateSeqEnd) {
                    return None;
                }
                self.expression();
            }
            _ => {
                let suggestion = crate::text::names::first_close_name(
                    word,
                    &["if", "for", "else", "endif", "endfor"],
                )
                .map(|s| format!(" Did you mean \"{s}\"?"))
                .unwrap_or_default();
                self.fail(
                    true,
                    "Invalid template control keyword",
                    &format!("\"{word}\" is not a valid template control keyword.{suggestion}"),
                    keyword.span,
                    Tok::TemplateSeqEnd,
                );
                return None;
            }
        }
        let close = self.peek();
        if close.kind == Tok::TemplateSeqEnd {
            self.read();
            Some((word.to_string(), open..close.span.end))
        } else {
            self.fail(
                true,
                &format!("Extra characters in {word} marker"),
                "Expected a closing brace to end the sequence, but found extra characters.",
                close.span,
                Tok::TemplateSeqEnd,
            );
            None
        }
    }

    /// `k, v in` after `for`, in a `for` expression or (with `directive`) a `%{ for }`
    /// directive that `close` ends; false after reporting what is wrong.
    pub(super) fn for_names(&mut self, directive: bool, close: Tok) -> bool {
        let (summary, what) = if directive {
            ("Invalid 'for' directive", "For directive")
        } else {
            ("Invalid 'for' expression", "For expression")
        };
        let expected = if self.peek().kind != Tok::Ident {
            Some("variable name after 'for'")
        } else {
            self.read();
            if self.peek().kind == Tok::Comma {
                self.read();
                if self.peek().kind != Tok::Ident {
                    Some("value variable name after comma")
                } else {
                    self.read();
                    None
                }
            } else {
                None
            }
        };
        let expected = expected.or_else(|| {
            (!self.next_is_keyword("in")).then_some(if directive {
                "'in' keyword after names"
            } else {
                "the 'in' keyword after its name declarations"
            })
        });
        if let Some(expected) = expected {
            let at = self.peek().span;
            self.fail(
                true,
                summary,
                &format!("{what} requires {expected}."),
                at,
                close,
            );
            return false;
        }
        self.read();
        true
    }

    /// The escape sequences of a quoted string's literal part at `span`, as HCL reads them.
    pub(super) fn escapes(&mut self, span: std::ops::Range<usize>) {
        let text = self.text;
        let literal = text.get(span.clone()).unwrap_or("");
        let mut chars = literal.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                continue;
            }
            let at = span.start + i;
            let Some((_, selector)) = chars.next() else {
                self.error(
                    "Invalid escape sequence",
                    "Backslash must be followed by an escape sequence selector character.",
                    at..at + 1,
                );
                continue;
            };
            let detail = match selector {
                'n' | 'r' | 't' | '"' | '\\' => continue,
                'u' | 'U' => {
                    let wanted = if selector == 'u' { 4 } else { 8 };
                    let mut digits = 0;
                    while digits < wanted && chars.next_if(|(_, d)| d.is_ascii_hexdigit()).is_some()
                    {
                        digits += 1;
                    }
                    if digits == wanted {
                        continue;
                    }
                    let (count, width) = if selector == 'u' {
                        ("four", "u")
                    } else {
                        ("eight", "U")
                    };
                    let end = at + 2 + digits;
                    self.error(
                        "Invalid escape sequence",
                        &format!(
                            "The \\{width} escape sequence must be followed by {count} \
                             hexadecimal digits."
                        ),
                        at..end,
                    );
                    continue;
                }
                other => format!("The symbol \"{other}\" is not a valid escape sequence selector."),
            };
            self.error(
                "Invalid escape sequence",
                &detail,
                at..at + 1 + selector.len_utf8(),
            );
        }
    }
}
