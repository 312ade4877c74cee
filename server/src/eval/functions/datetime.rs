//! Date and time functions: `timeadd` and `formatdate` (go-cty's), `timecmp`
//! (Terraform's). `timestamp` and `plantimestamp` are unknown at plan time (`mod.rs`).

use super::timestamps::{parse, parse_strict, Timestamp};
use super::{text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "timeadd" => |a, _| {
            let t = parse_strict(&text(a, 0)?)?;
            let d = duration(&text(a, 1)?)?;
            Ok(Value::String(t.add(d).rfc3339()))
        },
        "timecmp" => |a, _| {
            let x = parse(&text(a, 0)?)?;
            let y = parse(&text(a, 1)?)?;
            Ok(Value::Number(match x.instant().cmp(&y.instant()) {
                std::cmp::Ordering::Less => -1.0,
                std::cmp::Ordering::Equal => 0.0,
                std::cmp::Ordering::Greater => 1.0,
            }))
        },
        "formatdate" => |a, _| {
            let t = parse_strict(&text(a, 1)?)?;
            format_date(&text(a, 0)?, &t).map(Value::String)
        },
        _ => return None,
    })
}

/// The argument a failed `timecmp` is about: the first timestamp that does not parse.
pub(super) fn timecmp_argument(args: &[Value]) -> usize {
    match text(args, 0).map(|t| parse(&t)) {
        Ok(Ok(_)) => 1,
        _ => 0,
    }
}

/// Go's `time.ParseDuration`: nanoseconds, or its error.
fn duration(orig: &str) -> Result<i128, String> {
    let invalid = || format!("time: invalid duration {}", go_quote(orig));
    let (neg, mut s) = match orig.as_bytes().first() {
        Some(b'-') => (true, &orig[1..]),
        Some(b'+') => (false, &orig[1..]),
        _ => (false, orig),
    };
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u128 = 1 << 63;
    let mut total: u128 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u128 = 0;
        for &c in &b[..int_len] {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u128::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
        }
        s = &s[int_len..];
        let (mut f, mut scale, mut post) = (0u128, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in rest[..n].bytes() {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u128::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = n > 0;
            s = &rest[n..];
        }
        if int_len == 0 && !post {
            return Err(invalid());
        }
        let unit_len = s
            .bytes()
            .take_while(|c| !(*c == b'.' || c.is_ascii_digit()))
            .count();
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", go_quote(orig)));
        }
        let (u, rest) = s.split_at(unit_len);
        s = rest;
        let unit: u128 = match u {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    go_quote(u),
                    go_quote(orig)
                ))
            }
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u128;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        total += v;
        if total > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok(-(total as i128));
    }
    if total > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(total as i128)
}

/// Go's `time` package quoting: ASCII control and non-ASCII bytes as `\xNN`.
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
    }
    out.push('"');
    out
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// go-cty's tokens of a `formatdate` format: a quoted literal (with `''` for a quote),
/// a run of one repeated letter (a verb), or other text up to the next letter or quote.
fn tokens(format: &str) -> Vec<&str> {
    let b = format.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
            } else {
                i += 1;
                while i < b.len() {
                    if b[i] == b'\'' {
                        if b.get(i + 1) == Some(&b'\'') {
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    i += 1;
                }
            }
        } else if b[i].is_ascii_alphabetic() {
            while i < b.len() && b[i] == b[start] {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && b[i] != b'\'' && !b[i].is_ascii_alphabetic() {
                i += 1;
            }
        }
        out.push(&format[start..i]);
    }
    out
}

/// go-cty's `formatdate`: `t` written as `format` says.
fn format_date(format: &str, t: &Timestamp) -> Result<String, String> {
    let c = t.civil();
    let mut out = String::new();
    for tok in tokens(format) {
        // Month and day names are longer than their verbs: the text may grow.
        super::size_limit(out.len())?;
        let first = tok.as_bytes()[0];
        let n = tok.len();
        let invalid = |rule: &str| Err(format!("invalid date format verb {tok:?}{rule}"));
        let two = |v: i64, out: &mut String| out.push_str(&format!("{v:02}"));
        if first == b'\'' {
            if n == 1 || !tok.ends_with('\'') {
                return Err("unterminated literal '".into());
            }
            if n == 2 {
                out.push('\'');
            } else {
                out.push_str(&tok[1..n - 1].replace("''", "'"));
            }
            continue;
        }
        if !first.is_ascii_alphabetic() {
            out.push_str(tok);
            continue;
        }
        match (first, n) {
            (b'Y', 2) => two(c.year.rem_euclid(100), &mut out),
            (b'Y', 4) => out.push_str(&format!("{:04}", c.year)),
            (b'Y', _) => return invalid(": year must either be \"YY\" or \"YYYY\""),
            (b'M', 1) => out.push_str(&c.month.to_string()),
            (b'M', 2) => two(c.month, &mut out),
            (b'M', 3) => out.push_str(&MONTHS[(c.month - 1) as usize][..3]),
            (b'M', 4) => out.push_str(MONTHS[(c.month - 1) as usize]),
            (b'M', _) => return invalid(": month must be \"M\", \"MM\", \"MMM\", or \"MMMM\""),
            (b'D', 1) => out.push_str(&c.day.to_string()),
            (b'D', 2) => two(c.day, &mut out),
            (b'D', _) => return invalid(": day of month must either be \"D\" or \"DD\""),
            (b'E', 3) => out.push_str(&WEEKDAYS[c.weekday as usize][..3]),
            (b'E', 4) => out.push_str(WEEKDAYS[c.weekday as usize]),
            (b'E', _) => return invalid(": day of week must either be \"EEE\" or \"EEEE\""),
            (b'h', 1) => out.push_str(&c.hour.to_string()),
            (b'h', 2) => two(c.hour, &mut out),
            (b'h', _) => return invalid(": 24-hour must either be \"h\" or \"hh\""),
            (b'H', 1 | 2) => {
                let h = match c.hour % 12 {
                    0 => 12,
                    h => h,
                };
                if n == 1 {
                    out.push_str(&h.to_string());
                } else {
                    two(h, &mut out);
                }
            }
            (b'H', _) => return invalid(": 12-hour must either be \"H\" or \"HH\""),
            (b'A' | b'a', 2) => {
                let pm = if c.hour >= 12 { "PM" } else { "AM" };
                out.push_str(&if first == b'A' {
                    pm.to_string()
                } else {
                    pm.to_lowercase()
                });
            }
            (b'A' | b'a', _) => {
                let l = first as char;
                return invalid(&format!(": must be \"{l}{l}\""));
            }
            (b'm', 1) => out.push_str(&c.minute.to_string()),
            (b'm', 2) => two(c.minute, &mut out),
            (b'm', _) => return invalid(": minute must either be \"m\" or \"mm\""),
            (b's', 1) => out.push_str(&c.second.to_string()),
            (b's', 2) => two(c.second, &mut out),
            (b's', _) => return invalid(": second must either be \"s\" or \"ss\""),
            (b'Z', 1) => out.push_str(&t.zone(true, true)),
            (b'Z', 3) => match t.zone(false, false).as_str() {
                "+0000" => out.push_str("UTC"),
                z => out.push_str(z),
            },
            (b'Z', 4) => out.push_str(&t.zone(false, false)),
            (b'Z', 5) => out.push_str(&t.zone(true, false)),
            (b'Z', _) => return invalid(": timezone must be Z, ZZZZ, or ZZZZZ"),
            _ => return invalid(""),
        }
    }
    Ok(out)
}
