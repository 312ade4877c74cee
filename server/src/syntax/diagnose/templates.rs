//! Templates as HCL parses them: quoted strings and heredocs with their `${}`
//! interpolations and `%{}` directives, the escape sequences of quoted strings, and
//! HCL's second pass over the directives that pairs each `if` and `for` with its end.

use std::ops::Range;

use super::{Parser, Tok};

/// A directive as HCL's template structure pass sees it (literals and interpolations
/// play no part in it), or the template's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Control {
    If,
    For,
    Else,
    EndIf,
    EndFor,
    End,
}

impl Control {
    fn of(word: &str) -> Option<Self> {
        Some(match word {
            "if" => Control::If,
            "for" => Control::For,
            "else" => Control::Else,
            "endif" => Control::EndIf,
            "endfor" => Control::EndFor,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Control::If => "if",
            Control::For => "for",
            Control::Else => "else",
            Control::EndIf => "endif",
            Control::EndFor => "endfor",
            Control::End => "end",
        }
    }
}

const UNBALANCED: &str = "The control directives within this template are unbalanced.";

impl Parser<'_> {
    /// The parts of a quoted string or heredoc, after its opening marker, up to `closer`.
    pub(super) fn template(&mut self, closer: Tok) {
        let start = self.peek().span;
        self.newlines.push(true);
        let mut controls: Vec<(Control, Range<usize>)> = Vec::new();
        loop {
            let next = self.read();
            match next.kind {
                kind if kind == closer => {
                    controls.push((Control::End, next.span));
                    break;
                }
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
                    if let Some(directive) = self.directive(next.span.start) {
                        controls.push(directive);
                    }
                    self.newlines.pop();
                }
                _ => {
                    self.first_error(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        next.span,
                    );
                    let last = self.recover(closer);
                    controls.push((Control::End, last.span));
                    break;
                }
            }
        }
        self.newlines.pop();
        self.structure(&controls);
    }

    /// HCL's structure pass over a template's directives (its `parseRoot`): every `if`
    /// and `for` must meet its end before the template's, and an `else`, `endif` or
    /// `endfor` must close what is open. `controls` ends with the template's end.
    fn structure(&mut self, controls: &[(Control, Range<usize>)]) {
        let mut i = 0;
        while controls.get(i).is_some_and(|(c, _)| *c != Control::End) {
            i = self.control(controls, i);
        }
    }

    /// The directive at `i` and what it opens; the index after them.
    fn control(&mut self, controls: &[(Control, Range<usize>)], i: usize) -> usize {
        let (control, span) = controls[i].clone();
        match control {
            Control::If | Control::For => self.opened(controls, i),
            _ => {
                let summary = format!("Unexpected {} directive", control.name());
                self.error(&summary, UNBALANCED, span);
                i + 1
            }
        }
    }

    /// The `if` or `for` at `i` up to its end; the index after it (at the template's
    /// end, which is not consumed, when it never ends).
    fn opened(&mut self, controls: &[(Control, Range<usize>)], i: usize) -> usize {
        let (opener, open) = controls[i].clone();
        let (word, closer) = match opener {
            Control::If => ("if", Control::EndIf),
            _ => ("for", Control::EndFor),
        };
        let mut in_else = false;
        let mut j = i + 1;
        while let Some((control, span)) = controls.get(j).cloned() {
            let unexpected = format!("Unexpected {} directive", control.name());
            match control {
                Control::End => {
                    let detail = format!("The {word} directive at {{range}} is missing its corresponding end{word} directive.");
                    self.error_citing("Unexpected end of template", &detail, span, open);
                    return j;
                }
                c if c == closer => return j + 1,
                Control::Else if opener == Control::If && !in_else => {
                    in_else = true;
                    j += 1;
                }
                Control::Else if opener == Control::If => {
                    let detail = "Already in the else clause for the if started at {range}.";
                    self.error_citing(&unexpected, detail, span, open);
                    return j + 1;
                }
                Control::Else => {
                    let detail = "An else clause is not expected for a for directive.";
                    self.error(&unexpected, detail, span);
                    return j + 1;
                }
                Control::EndIf | Control::EndFor => {
                    let detail = if opener == Control::If {
                        "Expecting an endif directive for the if started at {range}."
                    } else {
                        "Expecting an endfor directive corresponding to the for directive at {range}."
                    };
                    self.error_citing(&unexpected, detail, span, open);
                    return j + 1;
                }
                Control::If | Control::For => j = self.opened(controls, j),
            }
        }
        j
    }

    /// A `%{ ... }` directive, after its opening marker at `open`; its keyword and extent
    /// when it is well-formed.
    fn directive(&mut self, open: usize) -> Option<(Control, Range<usize>)> {
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
        // HCL records the directive up to the token after it, even when that token is
        // not the closing brace.
        let close = self.peek();
        let directive = Control::of(word).map(|c| (c, open..close.span.end));
        if close.kind == Tok::TemplateSeqEnd {
            self.read();
        } else {
            self.fail(
                true,
                &format!("Extra characters in {word} marker"),
                "Expected a closing brace to end the sequence, but found extra characters.",
                close.span,
                Tok::TemplateSeqEnd,
            );
        }
        directive
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
