//! `← VALUE (FILE)` after an argument that another file's argument replaces: the value
//! in effect as written there.

use super::{one_line, touches, Hint, HintKind};
use crate::ide::overridden::replaced_arguments;
use crate::merge::{FileIndex, MergedModule};
use crate::syntax::Span;

/// The hints for the arguments of file `fi` in `range` that another file replaces.
pub(super) fn hints(m: &MergedModule, fi: FileIndex, range: Span) -> Vec<Hint> {
    replaced_arguments(m, fi)
        .into_iter()
        .filter(|r| touches(r.span, range))
        .filter_map(|r| {
            let by = r.by.filter(|by| by.file != fi)?;
            let value = m.file(by.file).text.get(by.expr().span.range())?;
            Some(Hint {
                offset: r.span.end as usize,
                label: format!("← {} ({})", one_line(value), m.file_name(by.file)),
                kind: HintKind::Override,
            })
        })
        .collect()
}
