//! Unified diffs of two texts line by line (Myers' algorithm, three lines of context), as
//! `diff -u` prints them for `strata fmt --diff`.

/// The unified diff turning `old` into `new`, headed `--- old_name` / `+++ new_name`;
/// empty when they are equal.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = edit_script(&a, &b);
    if ops.iter().all(|op| matches!(op, Op::Same)) {
        return String::new();
    }
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    for hunk in hunks(&ops, 3) {
        write_hunk(
            &mut out,
            &ops[hunk.clone()],
            &a,
            &b,
            position(&ops, hunk.start),
        );
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Delete,
    Insert,
}

/// Beyond this many differing lines the middle of the texts is shown as deleted, then
/// inserted, instead of searching further: the search keeps one frontier per step.
const MAX_DIFFERENCES: usize = 1000;

/// The shortest edit script from `a` to `b`: common ends first, then Myers' search on
/// what is between.
fn edit_script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let middle = myers(&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops = vec![Op::Same; prefix];
    ops.extend(middle);
    ops.extend(std::iter::repeat_n(Op::Same, suffix));
    ops
}

fn myers(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let replace_all = || {
        let mut ops = vec![Op::Delete; a.len()];
        ops.extend(std::iter::repeat_n(Op::Insert, b.len()));
        ops
    };
    // `trace[d]` is the frontier before step `d`: the furthest x on each diagonal k,
    // stored for k in -d..=d at index k + d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut v: Vec<isize> = vec![0; 3];
    let at = |v: &[isize], d: isize, k: isize| v[(k + d) as usize];
    let mut found = false;
    for d in 0..=(n + m).min(MAX_DIFFERENCES as isize) {
        // `v` holds the frontier of step d - 1 for k in -(d-1)..=(d-1), padded by one on each
        // side: re-index it for step d.
        let previous = v;
        let mut next = vec![0isize; (2 * d + 3) as usize];
        let mut k = -d;
        while k <= d {
            let from = |k: isize| if d == 0 { 0 } else { at(&previous, d, k) };
            let mut x = if k == -d || (k != d && from(k - 1) < from(k + 1)) {
                from(k + 1)
            } else {
                from(k - 1) + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            next[(k + d + 1) as usize] = x;
            if x >= n && y >= m {
                found = true;
            }
            k += 2;
        }
        trace.push(previous);
        v = next;
        if found {
            trace.push(v.clone());
            break;
        }
    }
    if !found {
        return replace_all();
    }
    // Walk back from the end: `trace[d + 1]` is the frontier after step d, indexed with
    // padding d + 1.
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..trace.len() as isize - 1).rev() {
        let k = x - y;
        let before = &trace[d as usize];
        let from = |k: isize| if d == 0 { 0 } else { at(before, d, k) };
        let down = k == -d || (k != d && from(k - 1) < from(k + 1));
        let prev_k = if down { k + 1 } else { k - 1 };
        let prev_x = if d == 0 { 0 } else { from(prev_k) };
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y && (d == 0 || x > prev_x + isize::from(!down)) {
            ops.push(Op::Same);
            x -= 1;
            y -= 1;
        }
        if d > 0 {
            ops.push(if down { Op::Insert } else { Op::Delete });
            x = prev_x;
            y = prev_y;
        }
    }
    ops.reverse();
    ops
}

/// The ranges of `ops` that make hunks: each change with `context` unchanged lines
/// around it, changes closer than twice that joined.
fn hunks(ops: &[Op], context: usize) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        if *op == Op::Same {
            continue;
        }
        let start = i.saturating_sub(context);
        let end = (i + 1 + context).min(ops.len());
        match out.last_mut() {
            Some(last) if start <= last.end => last.end = end,
            _ => out.push(start..end),
        }
    }
    out
}

/// The 0-based lines of `a` and `b` where op `at` is.
fn position(ops: &[Op], at: usize) -> (usize, usize) {
    ops[..at].iter().fold((0, 0), |(x, y), op| match op {
        Op::Same => (x + 1, y + 1),
        Op::Delete => (x + 1, y),
        Op::Insert => (x, y + 1),
    })
}

fn write_hunk(out: &mut String, ops: &[Op], a: &[&str], b: &[&str], (x0, y0): (usize, usize)) {
    let old_len = ops.iter().filter(|op| **op != Op::Insert).count();
    let new_len = ops.iter().filter(|op| **op != Op::Delete).count();
    // `diff -u` writes a range of one line as its number alone.
    let range = |first: usize, len: usize| match len {
        0 => format!("{first},0"),
        1 => format!("{}", first + 1),
        _ => format!("{},{len}", first + 1),
    };
    out.push_str(&format!(
        "@@ -{} +{} @@\n",
        range(x0, old_len),
        range(y0, new_len)
    ));
    let (mut x, mut y) = (x0, y0);
    for op in ops {
        let (mark, line) = match op {
            Op::Same => {
                x += 1;
                y += 1;
                (' ', a[x - 1])
            }
            Op::Delete => {
                x += 1;
                ('-', a[x - 1])
            }
            Op::Insert => {
                y += 1;
                ('+', b[y - 1])
            }
        };
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `b` rebuilt from `a` and the script: every `Same` must be a real match.
    fn rebuilt<'a>(a: &[&'a str], b: &[&'a str], ops: &[Op]) -> Vec<&'a str> {
        let (mut x, mut y, mut out) = (0, 0, Vec::new());
        for op in ops {
            match op {
                Op::Same => {
                    assert_eq!(a[x], b[y]);
                    out.push(a[x]);
                    x += 1;
                    y += 1;
                }
                Op::Delete => x += 1,
                Op::Insert => {
                    out.push(b[y]);
                    y += 1;
                }
            }
        }
        assert_eq!((x, y), (a.len(), b.len()));
        out
    }

    #[test]
    fn scripts_are_shortest_and_rebuild_the_new_text() {
        let cases: [(&str, &str, usize); 5] = [
            ("abcabba", "cbabac", 5),
            ("", "xyz", 3),
            ("xyz", "", 3),
            ("same", "same", 0),
            ("a1b2c3d", "ab12cd3", 4),
        ];
        for (a, b, distance) in cases {
            let a: Vec<&str> = a.split("").filter(|s| !s.is_empty()).collect();
            let b: Vec<&str> = b.split("").filter(|s| !s.is_empty()).collect();
            let ops = edit_script(&a, &b);
            assert_eq!(rebuilt(&a, &b, &ops), b);
            let changes = ops.iter().filter(|op| **op != Op::Same).count();
            assert_eq!(changes, distance, "{a:?} -> {b:?}");
        }
    }

    #[test]
    fn hunks_carry_three_lines_of_context_and_line_numbers() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nB\nc\nd\ne\nf\ng\nh\nj\n";
        assert_eq!(
            unified(old, new, "old/x", "new/x"),
            "--- old/x\n+++ new/x\n@@ -1,10 +1,9 @@\n a\n-b\n+B\n c\n d\n e\n f\n g\n h\n-i\n j\n"
        );
        assert_eq!(unified(old, old, "o", "n"), "");
        // As `diff -u` writes them: a one-line range as its number, a missing last line
        // break noted.
        assert_eq!(
            unified("a  = 1", "a = 1", "o", "n"),
            "--- o\n+++ n\n@@ -1 +1 @@\n-a  = 1\n\\ No newline at end of file\n+a = 1\n\\ No newline at end of file\n"
        );
    }
}
