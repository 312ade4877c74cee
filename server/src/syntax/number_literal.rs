//! Number literals as HCL reads them: the token its scanner takes (`NumberLit` in
//! `hclsyntax/scan_tokens.rl`) and whether its parser accepts the token's value
//! (`numberLitValue` in `hclsyntax/parser.go`, which is cty's `ParseNumberVal`: Go's
//! `big.ParseFloat` in base 10 at 512 bits), else `Invalid number literal`.
//!
//! The scanner takes more than a number: `1.5.0`, `1..2` and `1e5e5` are each one token,
//! which the parser then refuses whole; `1.` and `1e` are a `1` and what follows it.

/// The length of the number token at the start of `rest`, 0 if it starts with no digit:
/// a digit, then the longest run of digits, dots and exponents (`e` or `E`, an optional
/// sign, a digit) that does not end with a dot.
pub(super) fn token_len(rest: &[u8]) -> usize {
    if !rest.first().is_some_and(u8::is_ascii_digit) {
        return 0;
    }
    let mut at = 1;
    // The end of the longest run seen so far that does not end with a dot.
    let mut len = 1;
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

/// Whether HCL's parser accepts the number token `token` (one [`token_len`] measured):
/// Go's `big.ParseFloat` reads digits with at most one dot, then at most one exponent
/// whose value fits an `int64`, and refuses a value whose binary exponent leaves the
/// `int32` range (`exponent overflow`): the bits of its digits, less its fraction's digit
/// count, plus its decimal exponent (`10^e` is `5^e 2^e`), so `1e2147483647` is refused
/// and `1e2147483646` is not (its value, too large for any float, is infinite). Zero has
/// no exponent, so any exponent that fits an `int64` is accepted after it.
pub(super) fn is_valid(token: &str) -> bool {
    let (mantissa, exponent) = match token.find(['e', 'E']) {
        Some(at) => (&token[..at], Some(&token[at + 1..])),
        None => (token, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !all_digits(whole) || !all_digits(fraction) {
        return false;
    }
    let exponent = match exponent {
        // Without an exponent the binary exponent is at most the digits' bits (a file
        // far below the gigabytes it takes to leave the range): no need to count them.
        None => return true,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !all_digits(digits) {
                return false;
            }
            match e.trim_start_matches('+').parse::<i64>() {
                Ok(e) => e,
                Err(_) => return false,
            }
        }
    };
    let significant = format!("{whole}{fraction}");
    let significant = significant.trim_start_matches('0');
    if significant.is_empty() {
        return true;
    }
    let binary_exponent =
        i128::from(bit_length(significant)) - fraction.len() as i128 + i128::from(exponent);
    (i128::from(i32::MIN)..=i128::from(i32::MAX)).contains(&binary_exponent)
}

fn all_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// The number of bits of the decimal integer `digits` (no leading zero). Exact up to 38
/// digits; beyond, from the logarithm of the leading 17 digits, which is off by one only
/// for a number within a relative 1e-15 of a power of two: a literal of more than 38
/// digits lying there and also this close to the exponent limit is not one anybody writes.
fn bit_length(digits: &str) -> i64 {
    if let Ok(n) = digits.parse::<u128>() {
        return i64::from(128 - n.leading_zeros());
    }
    let lead: f64 = digits[..17].parse().unwrap_or(1.0);
    let log2 = lead.log2() + (digits.len() - 17) as f64 * std::f64::consts::LOG2_10;
    log2.floor() as i64 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(text: &str) -> &str {
        &text[..token_len(text.as_bytes())]
    }

    #[test]
    fn tokens_are_hcl_scanner_tokens() {
        assert_eq!(token("1.5.0 "), "1.5.0");
        assert_eq!(token("1..2"), "1..2");
        assert_eq!(token("1."), "1");
        assert_eq!(token("5.."), "5");
        assert_eq!(token("1e"), "1");
        assert_eq!(token("1e+"), "1");
        assert_eq!(token("1e+5x"), "1e+5");
        assert_eq!(token("0x10"), "0");
        assert_eq!(token("1.e5"), "1.e5");
        assert_eq!(token("1.2e3."), "1.2e3");
        assert_eq!(token("1_000"), "1");
        assert_eq!(token("1...2"), "1...2");
        assert_eq!(token("1..."), "1");
        assert_eq!(token("x1"), "");
    }

    #[test]
    fn values_are_those_big_parse_float_accepts() {
        for ok in [
            "0",
            "01",
            "0.5",
            "1E-2",
            "1.e5",
            "1e99999999",
            "0e9223372036854775807",
        ] {
            assert!(is_valid(ok), "{ok}");
        }
        for bad in [
            "1.5.0",
            "1..2",
            "1e5e5",
            "1e5.3",
            "1.2.3.4",
            "1e2147483648",
            "1e-99999999999",
            "1e99999999999999999999",
        ] {
            assert!(!is_valid(bad), "{bad}");
        }
        // The decimal exponent counts whole into the binary one (10^e is 5^e 2^e): the
        // value of 1e2147483646 overflows to infinity, but its exponent is still in range.
        assert!(is_valid("1e2147483646"));
        assert!(!is_valid("1e2147483647"));
        assert!(is_valid("1e-2147483649"));
        assert!(!is_valid("1e-2147483650"));
        assert!(is_valid("0.1e-2147483648"));
        assert!(!is_valid("0.1e-2147483649"));
    }
}
