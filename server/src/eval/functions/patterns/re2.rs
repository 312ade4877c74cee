//! The parts of RE2's syntax, which Terraform's functions read, that the regex crate
//! gives another meaning: Perl classes and word boundaries are ASCII in RE2 and Unicode
//! in the regex crate. Terraform 1.11.4 answers `regex("\\w+", "héllo")` with `"h"`
//! and `regexall("\\d", "١2")` with `["2"]`; the regex crate, with `"héllo"` and both
//! digits.
//!
//! A parsed pattern is rewritten before it is translated: each `\d`, `\s` and `\w`
//! (negated or not, alone or inside brackets) becomes the bracketed class of RE2's ASCII
//! members, so that case-insensitive matching still folds it as RE2 folds a Perl class
//! (`(?i)\w` matches the Kelvin sign in both), and each word boundary assertion is put in
//! a group with Unicode off, the regex crate's ASCII word boundary.
//!
//! Two forms the regex crate accepts are refused, with Go's errors: a repetition of a
//! repetition (`a**`, which Perl and RE2 do not stack), and a count above 1,000.

use super::errors::{PatternError, INVALID_REPEAT_OP, INVALID_REPEAT_SIZE};
use regex_syntax::ast::{
    Ast, ClassBracketed, ClassPerl, ClassPerlKind, ClassSet, ClassSetItem, ClassSetRange,
    ClassSetUnion, Flag, Flags, FlagsItem, FlagsItemKind, Group, GroupKind, Literal, LiteralKind,
    RepetitionKind, RepetitionRange, Span,
};

/// Rewrites `ast` in place to RE2's ASCII meanings. Recursive: the parser refuses patterns
/// nested more than 250 levels deep.
pub(super) fn to_ascii(ast: &mut Ast) {
    match ast {
        Ast::ClassPerl(perl) => {
            let class = ascii_class(perl);
            *ast = Ast::ClassBracketed(Box::new(class));
        }
        Ast::ClassBracketed(class) => in_set(&mut class.kind),
        Ast::Assertion(assertion) if is_word_boundary(&assertion.kind) => {
            let span = assertion.span;
            let inner = std::mem::replace(ast, Ast::Empty(Box::new(span)));
            *ast = unicode_off(inner, span);
        }
        Ast::Repetition(repetition) => to_ascii(&mut repetition.ast),
        Ast::Group(group) => to_ascii(&mut group.ast),
        Ast::Alternation(alternation) => alternation.asts.iter_mut().for_each(to_ascii),
        Ast::Concat(concat) => concat.asts.iter_mut().for_each(to_ascii),
        Ast::Empty(_)
        | Ast::Flags(_)
        | Ast::Literal(_)
        | Ast::Dot(_)
        | Ast::Assertion(_)
        | Ast::ClassUnicode(_) => {}
    }
}

/// Rewrites the Perl classes of a bracketed class's set.
fn in_set(set: &mut ClassSet) {
    match set {
        ClassSet::Item(item) => in_item(item),
        ClassSet::BinaryOp(op) => {
            in_set(&mut op.lhs);
            in_set(&mut op.rhs);
        }
    }
}

fn in_item(item: &mut ClassSetItem) {
    match item {
        ClassSetItem::Perl(perl) => {
            let class = ascii_class(perl);
            *item = ClassSetItem::Bracketed(Box::new(class));
        }
        ClassSetItem::Bracketed(class) => in_set(&mut class.kind),
        ClassSetItem::Union(union) => union.items.iter_mut().for_each(in_item),
        ClassSetItem::Empty(_)
        | ClassSetItem::Literal(_)
        | ClassSetItem::Range(_)
        | ClassSetItem::Ascii(_)
        | ClassSetItem::Unicode(_) => {}
    }
}

/// RE2's members of a Perl class: `\d` is `[0-9]`, `\s` is `[\t\n\f\r ]` (no vertical
/// tab, unlike POSIX's `[:space:]`), `\w` is `[0-9A-Za-z_]`.
fn ascii_class(perl: &ClassPerl) -> ClassBracketed {
    let span = perl.span;
    let ranges: &[(char, char)] = match perl.kind {
        ClassPerlKind::Digit => &[('0', '9')],
        ClassPerlKind::Space => &[('\t', '\n'), ('\x0C', '\r'), (' ', ' ')],
        ClassPerlKind::Word => &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')],
    };
    let literal = |c: char| Literal {
        span,
        kind: LiteralKind::Verbatim,
        c,
    };
    let items = ranges
        .iter()
        .map(|&(start, end)| {
            ClassSetItem::Range(ClassSetRange {
                span,
                start: literal(start),
                end: literal(end),
            })
        })
        .collect();
    ClassBracketed {
        span,
        negated: perl.negated,
        kind: ClassSet::Item(ClassSetItem::Union(ClassSetUnion { span, items })),
    }
}

fn is_word_boundary(kind: &regex_syntax::ast::AssertionKind) -> bool {
    use regex_syntax::ast::AssertionKind as K;
    !matches!(kind, K::StartLine | K::EndLine | K::StartText | K::EndText)
}

/// `(?-u:inner)`.
fn unicode_off(inner: Ast, span: Span) -> Ast {
    let item = |kind| FlagsItem { span, kind };
    Ast::Group(Box::new(Group {
        span,
        kind: GroupKind::NonCapturing(Flags {
            span,
            items: vec![
                item(FlagsItemKind::Negation),
                item(FlagsItemKind::Flag(Flag::Unicode)),
            ],
        }),
        ast: Box::new(inner),
    }))
}

/// RE2's largest count in a repetition.
const MAX_REPEAT: u32 = 1000;

/// Refuses what RE2 refuses and the regex crate accepts, in Go's words. Recursive, as
/// [`to_ascii`] is.
pub(super) fn check(pattern: &str, ast: &Ast) -> Result<(), PatternError> {
    match ast {
        Ast::Repetition(repetition) => {
            let op = &repetition.op;
            if let RepetitionKind::Range(range) = &op.kind {
                let largest = match *range {
                    RepetitionRange::Exactly(n) | RepetitionRange::AtLeast(n) => n,
                    RepetitionRange::Bounded(min, max) => min.max(max),
                };
                if largest > MAX_REPEAT {
                    let (start, end) = (op.span.start.offset, op.span.end.offset);
                    return Err(syntax(INVALID_REPEAT_SIZE, pattern, start, end));
                }
            }
            if let Ast::Repetition(inner) = &*repetition.ast {
                let (start, end) = (inner.op.span.start.offset, op.span.end.offset);
                return Err(syntax(INVALID_REPEAT_OP, pattern, start, end));
            }
            check(pattern, &repetition.ast)
        }
        Ast::Group(group) => check(pattern, &group.ast),
        Ast::Alternation(alternation) => {
            alternation.asts.iter().try_for_each(|a| check(pattern, a))
        }
        Ast::Concat(concat) => concat.asts.iter().try_for_each(|a| check(pattern, a)),
        _ => Ok(()),
    }
}

/// Go's error `code` naming the pattern's bytes from `start` to `end`.
fn syntax(code: &'static str, pattern: &str, start: usize, end: usize) -> PatternError {
    PatternError::Syntax {
        code,
        expr: pattern.get(start..end).unwrap_or_default().to_string(),
    }
}
