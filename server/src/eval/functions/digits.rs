//! Exact digits of `f64` numbers, for `format`: whole numbers in any radix (Terraform
//! prints `%d` of `1e30` in full, not saturated to 64 bits) and decimal significant
//! digits as Go's big decimal conversion gives them.

/// A number's decimal digits: `0.mant × 10^exp`, `mant` without trailing zeros (empty for
/// zero).
pub(super) struct Decimal {
    pub(super) mant: String,
    pub(super) exp: i64,
}

/// Significant digits past this are zeros for every `f64` (it has at most 767).
const MAX_SIGNIFICANT: usize = 800;

impl Decimal {
    /// The digits of `|n|`: the shortest that read back as `n`, or rounded to
    /// `significant` digits.
    pub(super) fn of(n: f64, significant: Option<usize>) -> Self {
        let n = n.abs();
        let text = match significant {
            None => format!("{n:e}"),
            Some(k) => format!("{n:.*e}", k.clamp(1, MAX_SIGNIFICANT) - 1),
        };
        let (mant, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let mant: String = mant.chars().filter(char::is_ascii_digit).collect();
        let mant = mant.trim_end_matches('0').to_string();
        let exp = exp.parse::<i64>().unwrap_or(0) + 1;
        if mant.is_empty() {
            return Self { mant, exp: 0 };
        }
        Self { mant, exp }
    }
}

/// The digits of the whole number `n` (finite, integral, not negative) in `radix`. Past
/// 2^53 an `f64` stands for the literal it was read from, so the digits are those of its
/// shortest decimal form (`1e30` is 10^30, as Terraform's big numbers hold it).
pub(super) fn whole_digits(n: f64, radix: u32) -> String {
    let d = Decimal::of(n, None);
    let zeros = usize::try_from(d.exp)
        .unwrap_or(0)
        .saturating_sub(d.mant.len());
    let decimal = format!("{}{}", d.mant, "0".repeat(zeros));
    if decimal.is_empty() {
        return "0".into();
    }
    if radix == 10 {
        return decimal;
    }
    // Little-endian 32-bit limbs of the number, built digit by digit.
    let mut limbs: Vec<u32> = Vec::new();
    for digit in decimal.bytes().map(|b| u64::from(b - b'0')) {
        let mut carry = digit;
        for limb in &mut limbs {
            let cur = u64::from(*limb) * 10 + carry;
            *limb = cur as u32;
            carry = cur >> 32;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    // Repeated division by the radix, least significant digit first.
    let mut digits = Vec::new();
    while !limbs.is_empty() {
        let mut rem = 0u64;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / u64::from(radix)) as u32;
            rem = cur % u64::from(radix);
        }
        digits.push(std::char::from_digit(rem as u32, radix).unwrap_or('0'));
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
    }
    digits.iter().rev().collect()
}
