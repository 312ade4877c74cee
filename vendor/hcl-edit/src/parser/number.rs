use super::prelude::*;

use crate::Number;

use std::str::FromStr;
use winnow::combinator::{cut_err, fail};

/// A number literal as HCL's scanner reads one (`NumberLit` in `hclsyntax/scan_tokens.rl`):
/// a digit, then the longest run of digits, dots and exponents (`e` or `E`, an optional
/// sign, a digit) that does not end with a dot. The token is taken whole, as HCL takes it,
/// so `1.5.0` is never `1.5` indexed with `0`, and `1.e5` is a number; a token that is no
/// decimal number (`1.5.0`, `1..2`, `1e5e5`) fails without backtracking, as HCL's parser
/// refuses it (`Invalid number literal`).
pub(super) fn number(input: &mut Input) -> ModalResult<Number> {
    let len = token_len(input.peek_finish().as_bytes());
    if len == 0 {
        return fail.parse_next(input);
    }
    let token = input.next_slice(len);
    match decimal(token) {
        Some(number) => Ok(number),
        None => cut_err(fail)
            .context(StrContext::Label("number"))
            .parse_next(input),
    }
}

fn token_len(rest: &[u8]) -> usize {
    if !rest.first().is_some_and(u8::is_ascii_digit) {
        return 0;
    }
    let (mut at, mut len) = (1, 1);
    loop {
        match rest.get(at) {
            Some(b) if b.is_ascii_digit() => at += 1,
            Some(b'.') => {
                at += 1;
                continue;
            }
            Some(b'e' | b'E') => {
                let sign = usize::from(matches!(rest.get(at + 1), Some(b'+' | b'-')));
                if !rest.get(at + 1 + sign).is_some_and(u8::is_ascii_digit) {
                    return len;
                }
                at += 2 + sign;
            }
            _ => return len,
        }
        len = at;
    }
}

/// The value of a number token: digits with at most one dot, then at most one exponent.
/// Integers that fit a `u64` stay integers; a value too large for a float is read as the
/// largest one (HCL's numbers are arbitrary-precision, hcl-edit's are not).
fn decimal(token: &str) -> Option<Number> {
    if let Ok(n) = u64::from_str(token) {
        return Some(Number::from(n));
    }
    let (mantissa, exponent) = match token.find(['e', 'E']) {
        Some(at) => (&token[..at], Some(&token[at + 1..])),
        None => (token, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !digits(whole) || !digits(fraction) {
        return None;
    }
    if let Some(e) = exponent {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e.is_empty() || !digits(e) {
            return None;
        }
    }
    let value = f64::from_str(token).ok()?;
    Number::from_f64(if value.is_infinite() { f64::MAX } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn parse_number() {
        let tests: &[(&str, Number)] = &[
            ("42", Number::from(42u64)),
            ("1.5", Number::from_f64(1.5).unwrap()),
            ("18446744073709551615", Number::from(u64::MAX)),
            (
                "18446744073709551616",
                Number::from_f64(18_446_744_073_709_551_616.0).unwrap(),
            ),
            (
                "100000000000000000000000000000",
                Number::from_f64(1e29).unwrap(),
            ),
            ("1.0", Number::from_f64(1.0).unwrap()),
            ("1e10", Number::from_f64(10_000_000_000.0).unwrap()),
            ("2.5E3", Number::from_f64(2500.0).unwrap()),
            ("42e-3", Number::from_f64(0.042).unwrap()),
            ("0.1E-4", Number::from_f64(0.00001).unwrap()),
            ("1.e5", Number::from_f64(100_000.0).unwrap()),
            ("1.7976931348623157e308", Number::from_f64(f64::MAX).unwrap()),
            ("1e400", Number::from_f64(f64::MAX).unwrap()),
        ];

        for (input, expected) in tests {
            let parsed = number.parse(new_input(input));
            assert!(parsed.is_ok(), "expected `{input}` to parse correctly");
            let parsed = parsed.unwrap();
            assert_eq!(parsed, *expected);
            assert_eq!(parsed.is_f64(), expected.is_f64());
        }
    }

    #[test]
    fn number_tokens_are_hcl_tokens() {
        // Taken whole and refused.
        for input in ["1.5.0", "1..2", "1e5e5", "1e5.3"] {
            assert!(number.parse(new_input(input)).is_err(), "{input}");
        }
        // A dot or an exponent mark with no digit after it ends the token.
        for (input, rest) in [("1.", "."), ("1e", "e"), ("1e+", "e+"), ("0x10", "x10")] {
            let mut stream = new_input(input);
            assert!(number.parse_next(&mut stream).is_ok(), "{input}");
            assert_eq!(stream.peek_finish(), rest);
        }
    }
}
