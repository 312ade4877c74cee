//! Which of a module's places (a span in a file, tagged with a value: an object of the
//! validate graph, an evaluation unit) holds a diagnostic. Asked once per diagnostic,
//! so the spans are indexed once per file (sorted, each linked to the span around it)
//! rather than scanned for every question: a module of 20,000 locals each with its own
//! error made the scans quadratic (issue 12).

use std::collections::HashMap;
use std::path::Path;

use crate::merge::MergedModule;
use crate::syntax::Span;

/// One place of a file.
struct Entry<T> {
    span: Span,
    /// Its position among all the places given, which breaks ties.
    order: usize,
    value: T,
    /// The index (in the file's entries) of the innermost other span holding this one.
    parent: Option<usize>,
}

/// A file's places, sorted by start (the longer first).
enum FileSpans<T> {
    /// Every two spans are nested or apart with a gap, so the spans holding a place are
    /// the last one starting before it and spans around that one.
    Nested(Vec<Entry<T>>),
    /// Some spans overlap or touch without nesting: each question scans them all.
    Tangled(Vec<Entry<T>>),
}

/// The places of a module, by file path.
pub(super) struct Places<'m, T> {
    files: HashMap<&'m Path, FileSpans<T>>,
}

impl<'m, T: Copy> Places<'m, T> {
    /// Indexes `places` (file, span and value), in their order.
    pub(super) fn new(m: &'m MergedModule, places: impl Iterator<Item = (u32, Span, T)>) -> Self {
        let mut by_file: HashMap<&'m Path, Vec<Entry<T>>> = HashMap::new();
        for (order, (file, span, value)) in places.enumerate() {
            let entry = Entry {
                span,
                order,
                value,
                parent: None,
            };
            by_file
                .entry(m.file(file).path.as_path())
                .or_default()
                .push(entry);
        }
        let files = by_file
            .into_iter()
            .map(|(path, entries)| (path, index_file(entries)))
            .collect();
        Places { files }
    }

    /// The value of the innermost place around `span` of the file at `path`: the
    /// shortest, and of equal ones the first given.
    pub(super) fn innermost(&self, path: &Path, span: Span) -> Option<T> {
        self.best(path, span, |e| (e.span.end - e.span.start, e.order))
    }

    /// The value of the first place given that holds `span` of the file at `path`.
    pub(super) fn first(&self, path: &Path, span: Span) -> Option<T> {
        self.best(path, span, |e| (0, e.order))
    }

    /// Of the places holding `span`, the value of the one with the least `key`.
    fn best(&self, path: &Path, span: Span, key: impl Fn(&Entry<T>) -> (u32, usize)) -> Option<T> {
        let holding = |e: &&Entry<T>| holds(e.span, span);
        match self.files.get(path)? {
            FileSpans::Nested(entries) => {
                let last = entries.partition_point(|e| e.span.start <= span.start);
                let chain = std::iter::successors(last.checked_sub(1), |&i| {
                    entries.get(i).and_then(|e| e.parent)
                });
                chain
                    .filter_map(|i| entries.get(i))
                    .filter(holding)
                    .min_by_key(|e| key(e))
                    .map(|e| e.value)
            }
            FileSpans::Tangled(entries) => entries
                .iter()
                .filter(holding)
                .min_by_key(|e| key(e))
                .map(|e| e.value),
        }
    }
}

/// Whether `outer` holds `inner`.
fn holds(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Sorts a file's places and links each to the span around it, or keeps them for
/// scanning when they do not nest.
fn index_file<T>(mut entries: Vec<Entry<T>>) -> FileSpans<T> {
    entries.sort_by(|a, b| {
        a.span
            .start
            .cmp(&b.span.start)
            .then(b.span.end.cmp(&a.span.end))
    });
    let mut open: Vec<usize> = Vec::new();
    for i in 0..entries.len() {
        let span = entries[i].span;
        while let Some(&top) = open.last() {
            let around = entries[top].span;
            if holds(around, span) {
                break;
            }
            if around.end >= span.start {
                // Overlapping or touching: a place could be held by spans of two chains.
                return FileSpans::Tangled(entries);
            }
            open.pop();
        }
        entries[i].parent = open.last().copied();
        open.push(i);
    }
    FileSpans::Nested(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// A file whose places are `spans`, place i with value i.
    fn places(spans: &[Span]) -> Places<'static, usize> {
        let entries = spans
            .iter()
            .enumerate()
            .map(|(order, span)| Entry {
                span: *span,
                order,
                value: order,
                parent: None,
            })
            .collect();
        Places {
            files: HashMap::from([(Path::new("a.tf"), index_file(entries))]),
        }
    }

    #[test]
    fn agrees_with_a_scan_of_every_span() {
        let layouts: &[&[Span]] = &[
            // Blocks with attributes, a repeated span, and a gap.
            &[
                span(0, 50),
                span(5, 10),
                span(12, 20),
                span(12, 20),
                span(60, 90),
            ],
            &[
                span(60, 90),
                span(0, 50),
                span(62, 70),
                span(0, 50),
                span(5, 9),
            ],
            // Touching and overlapping spans.
            &[span(0, 5), span(5, 8), span(0, 20)],
            &[span(0, 10), span(5, 15)],
        ];
        for spans in layouts {
            let index = places(spans);
            let holding = |place: Span| {
                let found = spans
                    .iter()
                    .enumerate()
                    .filter(move |(_, s)| holds(**s, place));
                found.map(|(i, s)| (s.end - s.start, i))
            };
            for start in 0..95 {
                for end in start..96 {
                    let place = span(start, end);
                    let innermost = holding(place).min().map(|(_, i)| i);
                    let first = holding(place).map(|(_, i)| i).min();
                    let file = Path::new("a.tf");
                    assert_eq!(
                        index.innermost(file, place),
                        innermost,
                        "{spans:?} {place:?}"
                    );
                    assert_eq!(index.first(file, place), first, "{spans:?} {place:?}");
                }
            }
            assert_eq!(index.first(Path::new("b.tf"), span(0, 1)), None);
        }
    }
}
