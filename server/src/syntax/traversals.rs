//! Two traversal forms HCL's parser refuses but hcl-edit accepts (`hclsyntax/parser.go`,
//! `parseExpressionTraversals`):
//! - `foo.0.1`: HCL's scanner reads `0.1` (and `0.1.2`) as one number, so legacy indexes
//!   written one right after the other are `Invalid legacy index syntax`, at that number;
//! - `foo.*.*`: inside an attribute-only splat a second `.*` is `Nested splat expression
//!   not allowed`, at its star (and HCL reads no further steps of that traversal).
//!
//! hcl-edit gives both as ordinary steps, so they are found in the tree, with the digits
//! read from the text.

use super::{Body, Expr, ExprKind, Span, SyntaxDiagnostic, SyntaxSeverity, TraversalStep};

/// The errors of both forms in every expression of `body` (blocks taken from an older
/// tree are skipped: their spans are not this text's); `text` is the file.
pub(super) fn diagnose(text: &str, body: &Body) -> Vec<SyntaxDiagnostic> {
    let mut out = Vec::new();
    body_errors(text, body, &mut out);
    out
}

fn body_errors(text: &str, body: &Body, out: &mut Vec<SyntaxDiagnostic>) {
    for a in &body.attributes {
        a.expr.walk(&mut |e| traversal_errors(text, e, out));
    }
    for b in body.blocks.iter().filter(|b| !b.stale) {
        body_errors(text, &b.body, out);
    }
}

fn traversal_errors(text: &str, expr: &Expr, out: &mut Vec<SyntaxDiagnostic>) {
    let ExprKind::Traversal { steps, .. } = &expr.kind else {
        return;
    };
    // The star of the attribute-only splat the steps are in, if any.
    let mut splat: Option<Span> = None;
    let mut i = 0;
    while i < steps.len() {
        match &steps[i] {
            TraversalStep::AttrSplat(span) => {
                let star = Span::new(span.end as usize - 1, span.end as usize);
                if splat.is_some() {
                    out.push(error(
                        "Nested splat expression not allowed",
                        "A splat expression (*) cannot be used inside another attribute-only splat expression.".into(),
                        star,
                    ));
                    return;
                }
                splat = Some(star);
            }
            TraversalStep::Index(_) | TraversalStep::FullSplat(_) => splat = None,
            TraversalStep::Attr(_) => {}
            TraversalStep::LegacyIndex(..) => {
                let run = number_run(text, &steps[i..]);
                if run.len() > 1 {
                    out.push(chained(text, &run, splat));
                }
                i += run.len().max(1) - 1;
            }
        }
        i += 1;
    }
}

/// The spans of the legacy indexes at the start of `steps` that HCL's scanner reads as one
/// number: `.0.1.2` written without a space is the number `0.1.2`.
fn number_run(text: &str, steps: &[TraversalStep]) -> Vec<Span> {
    let mut run: Vec<Span> = Vec::new();
    for step in steps {
        let TraversalStep::LegacyIndex(_, span) = step else {
            break;
        };
        let digits = text
            .get(span.start as usize..span.end as usize)
            .and_then(|t| {
                t.strip_prefix('.')
                    .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            });
        let adjoins = run.last().is_none_or(|last| last.end == span.start);
        if digits.is_none() || !adjoins {
            break;
        }
        run.push(*span);
    }
    run
}

/// `Invalid legacy index syntax` for a run of legacy indexes read as one number: at that
/// number, or (a quirk of HCL's) at the star of the attribute-only splat it is in.
fn chained(text: &str, run: &[Span], splat: Option<Span>) -> SyntaxDiagnostic {
    let number = Span::new(run[0].start as usize + 1, run[run.len() - 1].end as usize);
    let first = &text[number.start as usize..run[0].end as usize];
    let rest = &text[run[1].start as usize + 1..number.end as usize];
    let advice = if splat.is_some() {
        "Use the proper index syntax with a full splat expression [*] instead"
    } else {
        "Use the proper index syntax instead"
    };
    error(
        "Invalid legacy index syntax",
        format!("When using the legacy index syntax, chaining two indexes together is not permitted. {advice}, like [{first}][{rest}]."),
        splat.unwrap_or(number),
    )
}

fn error(summary: &str, detail: String, span: Span) -> SyntaxDiagnostic {
    SyntaxDiagnostic {
        severity: SyntaxSeverity::Error,
        summary: summary.into(),
        detail,
        span,
        cited: None,
    }
}
