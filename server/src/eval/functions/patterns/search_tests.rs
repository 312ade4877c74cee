//! The counted search (`search.rs`) finds what the regex crate finds, and its work stays
//! within the budget where the regex crate's iteration runs away.

use serde_json::{json, Value as Json};

use crate::eval::functions::tests::eval;

/// `s` as an HCL quoted string with no interpolation.
fn hcl(s: &str) -> String {
    serde_json::to_string(s)
        .unwrap_or_default()
        .replace("${", "$${")
        .replace("%{", "%%{")
}

/// What `regexall(pattern, haystack)` is by the regex crate's own iteration, as JSON.
fn by_the_regex_crate(re: &regex::Regex, haystack: &str) -> Json {
    let matches = re.captures_iter(haystack).map(|caps| {
        if re.captures_len() == 1 {
            return json!(caps.get(0).map(|m| m.as_str()));
        }
        let groups: Vec<Json> = (1..re.captures_len())
            .map(|i| json!(caps.get(i).map(|m| m.as_str())))
            .collect();
        Json::Array(groups)
    });
    Json::Array(matches.collect())
}

/// A small deterministic generator (xorshift), so that a failure names its case.
struct Cases(u64);

impl Cases {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// Pieces of patterns whose meaning RE2 and the regex crate share (no Perl classes or
/// word boundaries, no stacked repetitions: a repetition only follows an atom).
const ATOMS: &[&str] = &[
    "a", "b", "é", ".", "[ab]", "[^a]", "[a-é]", "(?s:.)", "^", "$", "(?m:^)", "(?m:$)", "x*",
    "(?i:A)", "\\n", "",
];
const REPEATS: &[&str] = &[
    "", "", "", "*", "+", "?", "*?", "+?", "??", "{1,2}", "{0,3}?",
];
const TEXT: &[&str] = &["a", "b", "é", "\n", " ", "A", "ab", "€"];

fn pattern(cases: &mut Cases, depth: u32) -> String {
    let mut out = String::new();
    for _ in 0..=cases.below(4) {
        let atom = if depth < 2 && cases.below(4) == 0 {
            let open = if cases.below(2) == 0 { "(" } else { "(?:" };
            let inner = pattern(cases, depth + 1);
            let other = pattern(cases, depth + 1);
            let alternative = if cases.below(2) == 0 {
                format!("|{other}")
            } else {
                String::new()
            };
            format!("{open}{inner}{alternative})")
        } else {
            cases.pick(ATOMS).to_string()
        };
        out.push_str(&atom);
        if !atom.is_empty()
            && !matches!(atom.as_str(), "^" | "$" | "(?m:^)" | "(?m:$)")
            && !atom.ends_with('*')
        {
            out.push_str(cases.pick(REPEATS));
        }
        if cases.below(5) == 0 {
            out.push('|');
        }
    }
    out
}

#[test]
fn every_match_and_group_is_the_regex_crate_s() {
    let mut cases = Cases(0x5eed_1234_abcd_9876);
    let mut compared = 0;
    for case in 0..3_000 {
        let pattern = pattern(&mut cases, 0);
        let haystack: String = (0..cases.below(12)).map(|_| cases.pick(TEXT)).collect();
        let Ok(re) = regex::Regex::new(&pattern) else {
            continue;
        };
        let want = by_the_regex_crate(&re, &haystack).to_string();
        let got = eval(&format!("regexall({}, {})", hcl(&pattern), hcl(&haystack)));
        assert_eq!(
            got, want,
            "case {case}: regexall({pattern:?}, {haystack:?})"
        );
        // `replace` with the whole match and each group referenced.
        let with = format!(
            "<$0{}>",
            (1..re.captures_len())
                .map(|i| format!("${{{i}}}"))
                .collect::<String>()
        );
        let want = Json::String(re.replace_all(&haystack, with.as_str()).into_owned()).to_string();
        let got = eval(&format!(
            "replace({}, {}, {})",
            hcl(&haystack),
            hcl(&format!("/{pattern}/")),
            hcl(&with)
        ));
        assert_eq!(
            got, want,
            "case {case}: replace({haystack:?}, /{pattern}/, {with:?})"
        );
        compared += 1;
    }
    assert!(compared > 2_000, "only {compared} patterns compiled");
}

#[test]
fn an_iteration_whose_searches_each_read_to_the_end_ends_in_the_budget_s_error() {
    // Each search reads the rest of the string before it reports a one-byte match (the
    // regex crate's documented worst case): 2^31 bytes read for 64 KiB, 6.1 s in a release
    // build before the reads were counted. Now the budget ends it after about a hundred
    // searches.
    let a = "replace(format(\"%65536s\", \"\"), \" \", \"A\")";
    let result = eval(&format!("length(regexall(\".*[^A-Z]|[A-Z]\", {a}))"));
    assert!(result.contains("took more than"), "{result}");
    // The same pattern over a string it can match at once costs one pass.
    let ab = "replace(format(\"%65536s\", \"\"), \" \", \"a\")";
    assert_eq!(
        eval(&format!("length(regexall(\".*[^A-Z]|[A-Z]\", {ab}))")),
        "1"
    );
}
