//! RFC 3492's punycode with x/net's limits: 32-bit signed arithmetic that fails on
//! overflow, at most 1024 runes decoded, and its leniencies: an encoded label ending in
//! `-` decodes to what precedes it, and the basic part before the last `-` is copied
//! rune by rune, ASCII or not. A decoded surrogate becomes U+FFFD, as Go's runes do.

use std::collections::BTreeMap;

const BASE: i64 = 36;
const DAMP: i64 = 700;
const INITIAL_BIAS: i64 = 72;
const INITIAL_N: i64 = 128;
const SKEW: i64 = 38;
const T_MAX: i64 = 26;
const T_MIN: i64 = 1;

/// Go's `MaxInt32`, where its arithmetic overflows.
const MAX: i64 = i32::MAX as i64;

/// The most runes a decoded label holds.
const MAX_DECODED: usize = 1024;

/// The label `encoded` (after `xn--`) stands for; `None` where Go fails to decode it.
pub(super) fn decode(encoded: &str) -> Option<String> {
    if encoded.is_empty() {
        return Some(String::new());
    }
    let bytes = encoded.as_bytes();
    let mut pos = encoded.rfind('-').map_or(0, |hyphen| hyphen + 1);
    if pos == 1 {
        return None;
    }
    if pos == bytes.len() {
        return Some(encoded[..pos - 1].to_string());
    }
    let mut output: Vec<u32> = match pos {
        0 => Vec::new(),
        _ => encoded[..pos - 1].chars().map(u32::from).collect(),
    };
    let (mut i, mut n, mut bias) = (0i64, INITIAL_N, INITIAL_BIAS);
    while pos < bytes.len() {
        let (old_i, mut w) = (i, 1i64);
        let mut k = BASE;
        loop {
            let digit = decode_digit(*bytes.get(pos)?)?;
            pos += 1;
            i = checked_add(i, digit * w)?;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            w = checked_add(0, w * (BASE - t))?;
            k += BASE;
        }
        if output.len() >= MAX_DECODED {
            return None;
        }
        let x = output.len() as i64 + 1;
        bias = adapt(i - old_i, x, old_i == 0);
        n += i / x;
        i %= x;
        if !(0..=0x10FFFF).contains(&n) {
            return None;
        }
        output.insert(i as usize, n as u32);
        i += 1;
    }
    Some(
        output
            .into_iter()
            .map(|rune| char::from_u32(rune).unwrap_or('\u{FFFD}'))
            .collect(),
    )
}

/// `label` in punycode after `prefix`; `None` where Go's arithmetic overflows (its
/// increment of `delta` after each round is unchecked and wraps, as here).
///
/// Go rescans the label for each distinct rune outside ASCII, counting the runes below
/// it; here those counts come from a Fenwick tree, so that a long label costs
/// `n log n`, not `n²`, with the same result.
pub(super) fn encode(prefix: &str, label: &str) -> Option<String> {
    let runes: Vec<i64> = label.chars().map(|c| i64::from(u32::from(c))).collect();
    let mut output = String::from(prefix);
    output.extend(label.chars().filter(char::is_ascii));
    let mut below = Positions::new(runes.len());
    let mut rounds: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (position, &rune) in runes.iter().enumerate() {
        match rune < 0x80 {
            true => below.insert(position),
            false => rounds.entry(rune).or_default().push(position),
        }
    }
    let basic = (runes.len() - rounds.values().map(Vec::len).sum::<usize>()) as i64;
    if basic > 0 {
        output.push('-');
    }
    let (mut delta, mut n, mut bias, mut handled) = (0i64, INITIAL_N, INITIAL_BIAS, basic);
    for (m, positions) in rounds {
        delta = checked_add(delta, (m - n) * (handled + 1))?;
        n = m;
        let mut from = 0;
        for &position in &positions {
            delta = count_below(delta, below.between(from, position))?;
            let mut q = delta;
            let mut k = BASE;
            loop {
                let t = threshold(k, bias);
                if q < t {
                    break;
                }
                output.push(encode_digit(t + (q - t) % (BASE - t))?);
                q = (q - t) / (BASE - t);
                k += BASE;
            }
            output.push(encode_digit(q)?);
            bias = adapt(delta, handled + 1, handled == basic);
            delta = 0;
            handled += 1;
            from = position + 1;
        }
        delta = count_below(delta, below.between(from, runes.len()))?;
        positions
            .iter()
            .for_each(|&position| below.insert(position));
        delta = wrapping_increment(delta); // unchecked in Go
        n += 1;
    }
    Some(output)
}

/// `delta` after Go's one-by-one increments for `count` runes below `n`, each checked:
/// any increment of a negative (wrapped) `delta`, or past `int32`, fails.
fn count_below(delta: i64, count: i64) -> Option<i64> {
    match count {
        0 => Some(delta),
        _ if delta < 0 => None,
        _ => checked_add(delta, count),
    }
}

/// The positions of the runes below the current `n` (a Fenwick tree of counts).
struct Positions(Vec<i64>);

impl Positions {
    fn new(len: usize) -> Self {
        Positions(vec![0; len + 1])
    }

    fn insert(&mut self, position: usize) {
        let mut i = position + 1;
        while i < self.0.len() {
            self.0[i] += 1;
            i += i & i.wrapping_neg();
        }
    }

    /// How many positions are below `end`.
    fn before(&self, end: usize) -> i64 {
        let (mut i, mut count) = (end, 0);
        while i > 0 {
            count += self.0[i];
            i -= i & i.wrapping_neg();
        }
        count
    }

    /// How many positions are in `start..end`.
    fn between(&self, start: usize, end: usize) -> i64 {
        self.before(end) - self.before(start)
    }
}

/// `a + b` where it fits Go's `int32`.
fn checked_add(a: i64, b: i64) -> Option<i64> {
    (b <= MAX - a).then_some(a + b)
}

/// `delta + 1` in Go's `int32`, wrapping past its maximum.
fn wrapping_increment(delta: i64) -> i64 {
    match delta {
        MAX => i64::from(i32::MIN),
        _ => delta + 1,
    }
}

/// The threshold `t` of digit position `k`.
fn threshold(k: i64, bias: i64) -> i64 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

/// RFC 3492's bias adaptation.
fn adapt(delta: i64, points: i64, first: bool) -> i64 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

/// A digit's value: `a`–`z` (either case) are 0–25, `0`–`9` are 26–35.
fn decode_digit(byte: u8) -> Option<i64> {
    match byte {
        b'0'..=b'9' => Some(i64::from(byte - b'0') + 26),
        b'A'..=b'Z' => Some(i64::from(byte - b'A')),
        b'a'..=b'z' => Some(i64::from(byte - b'a')),
        _ => None,
    }
}

/// The lowercase digit of a value below 36; `None` for a negative one, which only a
/// wrapped `delta` gives and where Go panics.
fn encode_digit(digit: i64) -> Option<char> {
    match u8::try_from(digit) {
        Ok(d @ 0..=25) => Some(char::from(b'a' + d)),
        Ok(d @ 26..=35) => Some(char::from(b'0' + d - 26)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};

    #[test]
    fn labels_decode_as_go_decodes_them() {
        assert_eq!(decode("bcher-kva").as_deref(), Some("bücher"));
        assert_eq!(decode("abc").as_deref(), Some("\u{82}\u{81}\u{80}"));
        assert_eq!(decode("ab--cd-").as_deref(), Some("ab--cd"));
        assert_eq!(decode("").as_deref(), Some(""));
        assert_eq!(decode("a").as_deref(), Some("\u{80}"));
        assert_eq!(decode("ib9b").as_deref(), Some("\u{fffd}"));
        assert_eq!(decode("a-h023p").as_deref(), Some("a\u{10ffff}"));
        assert_eq!(decode("-abc"), None);
        assert_eq!(decode("9"), None);
        assert_eq!(decode("a!"), None);
    }

    #[test]
    fn labels_encode_as_rfc_3492_says() {
        assert_eq!(encode("xn--", "bücher").as_deref(), Some("xn--bcher-kva"));
        assert_eq!(encode("xn--", "ü").as_deref(), Some("xn--tda"));
        assert_eq!(encode("xn--", "faß").as_deref(), Some("xn--fa-hia"));
        assert_eq!(encode("xn--", "שלום").as_deref(), Some("xn--9dbne9b"));
        assert_eq!(encode("", "bücherüé").as_deref(), Some("bcher-fsa2ke"));
        let long: String = (0..200_000u32)
            .filter_map(|i| char::from_u32(0x4e00 + i % 20_000))
            .collect();
        assert!(encode("xn--", &long).is_some_and(|out| out.starts_with("xn--")));
    }
}
