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
