//! hcl-edit and Strata's model of HCL's parser (`diagnose`) agree on which texts are
//! valid: a text Strata parses without a syntax error must be one HCL's parser reads
//! without one too. Where they disagree Strata either misses an error Terraform reports
//! or reports one it does not (the keyword and multi-line-string findings of the reparse
//! fuzz target were such cases). Checked on every `.tf` file of `fixtures/` and on
//! mangled copies of them (deterministic: the same copies every run).

use super::diagnose;
use super::{parse, Syntax};

/// The characters a mangled copy inserts: those that open, close or separate.
const INSERTED: &[&str] = &[
    "{", "}", "[", "]", "(", ")", "\"", "=", ",", ".", "#", "/", "*", "<", "$", "%", "\n", "x",
    " in ", "if", ":", "?", "<<EOT\n", "${", "%{", "~", "!", "-",
];

/// A small deterministic generator (SplitMix64), so every run mangles the same way.
struct Rng(u64);

impl Rng {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % below.max(1) as u64) as usize
    }
}

/// `text` with one character deleted, or one of [`INSERTED`] inserted, at a random place.
fn mangled(text: &str, rng: &mut Rng) -> String {
    let mut at = rng.next(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    if rng.next(3) == 0 && at < text.len() {
        let mut end = at + 1;
        while !text.is_char_boundary(end) {
            end += 1;
        }
        format!("{}{}", &text[..at], &text[end..])
    } else {
        let insert = INSERTED[rng.next(INSERTED.len())];
        format!("{}{insert}{}", &text[..at], &text[at..])
    }
}

fn tf_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            tf_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "tf") {
            out.push(path);
        }
    }
}

/// The texts among `texts` that Strata parses cleanly but HCL's model refuses, each with
/// the model's first error.
fn disagreements(texts: impl Iterator<Item = String>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for text in texts {
        if !parse(&text, Syntax::Native, None).diagnostics.is_empty() {
            continue;
        }
        if let Some(first) = diagnose::whole_file(&text).into_iter().next() {
            let at = first.span.start as usize;
            let from = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let to = text[at..].find('\n').map_or(text.len(), |i| at + i);
            if let Ok(dir) = std::env::var("STRATA_AGREEMENT_DUMP") {
                let path = format!("{dir}/{}.tf", found.len());
                std::fs::write(path, &text).unwrap_or_default();
            }
            found.push((first.summary, text[from..to].to_string()));
        }
    }
    found
}

#[test]
fn hcl_edit_and_hcls_parser_agree_on_valid_texts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = Vec::new();
    tf_files(&root, &mut files);
    if let Ok(extra) = std::env::var("STRATA_AGREEMENT_DIR") {
        tf_files(std::path::Path::new(&extra), &mut files);
    }
    let copies: usize = std::env::var("STRATA_AGREEMENT_COPIES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    let mut rng = Rng(25);
    let texts = files.iter().flat_map(|path| {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let text = crate::text::without_bom(&text).into_owned();
        let mut out = vec![text.clone()];
        for _ in 0..copies {
            out.push(mangled(&text, &mut rng));
        }
        out
    });
    let found = disagreements(texts);
    assert!(
        found.is_empty(),
        "{} texts parse cleanly but HCL's parser refuses them, e.g.:\n{}",
        found.len(),
        found
            .iter()
            .take(40)
            .map(|(summary, line)| format!("  {summary}: {line:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
