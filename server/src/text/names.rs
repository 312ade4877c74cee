//! Name suggestions, as HCL and Terraform make them: edit distance below three.

/// The first of `candidates`, in their order, within an edit distance of less than three:
/// how HCL suggests a name when decoding a body.
pub fn first_close_name<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates.iter().copied().find(|c| distance(name, c) < 3)
}

/// Levenshtein distance, by characters.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = if ca == *cb {
                previous
            } else {
                1 + previous.min(row[j]).min(row[j + 1])
            };
            previous = current;
        }
    }
    row[b.len()]
}

/// Suggestions among the same candidates, asked again and again (one per undeclared
/// reference): the closest candidate within an edit distance of less than three, the
/// first in order among equally close ones, as [`distance`] over every candidate would
/// find it. After a few questions the candidates are indexed by the strings up to two
/// deletions away from them; two names within distance two share such a string (each
/// edit deletes at most one character on each side), so a question then measures only
/// the candidates its own deletions meet, not all of them.
pub struct CloseNames<'a> {
    candidates: Vec<&'a str>,
    asked: std::cell::Cell<usize>,
    index: std::cell::OnceCell<std::collections::HashMap<String, Vec<usize>>>,
}

/// How many questions are answered by measuring every candidate before indexing them.
const ASKED_BEFORE_INDEX: usize = 16;

impl<'a> CloseNames<'a> {
    /// Suggestions among `candidates`, in their order.
    pub fn new(candidates: impl IntoIterator<Item = &'a str>) -> Self {
        Self {
            candidates: candidates.into_iter().collect(),
            asked: std::cell::Cell::new(0),
            index: std::cell::OnceCell::new(),
        }
    }

    /// The closest candidate to `name` within a distance of less than three.
    pub fn closest(&self, name: &str) -> Option<&'a str> {
        let asked = self.asked.get() + 1;
        self.asked.set(asked);
        let mut best: Option<(usize, usize)> = None;
        let mut consider = |i: usize| {
            let d = distance(name, self.candidates[i]);
            let better = best.is_none_or(|(bi, bd)| d < bd || (d == bd && i < bi));
            if d < 3 && better {
                best = Some((i, d));
            }
        };
        if asked <= ASKED_BEFORE_INDEX {
            (0..self.candidates.len()).for_each(&mut consider);
        } else {
            let index = self.index.get_or_init(|| {
                let mut index: std::collections::HashMap<String, Vec<usize>> =
                    std::collections::HashMap::new();
                for (i, c) in self.candidates.iter().enumerate() {
                    for near in deletions(c) {
                        index.entry(near).or_default().push(i);
                    }
                }
                index
            });
            let mut met: Vec<usize> = deletions(name)
                .iter()
                .filter_map(|near| index.get(near))
                .flatten()
                .copied()
                .collect();
            met.sort_unstable();
            met.dedup();
            met.into_iter().for_each(consider);
        }
        best.map(|(i, _)| self.candidates[i])
    }
}

/// `name` and every string made by deleting one or two of its characters.
fn deletions(name: &str) -> std::collections::HashSet<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = std::collections::HashSet::from([name.to_string()]);
    for i in 0..chars.len() {
        let once: Vec<char> = [&chars[..i], &chars[i + 1..]].concat();
        for j in 0..once.len() {
            out.insert([&once[..j], &once[j + 1..]].concat().into_iter().collect());
        }
        out.insert(once.into_iter().collect());
    }
    out
}
