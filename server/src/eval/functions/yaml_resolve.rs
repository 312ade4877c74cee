//! What a YAML scalar is, as cty-yaml 1.1 (Terraform 1.11's) resolves it: its tag, or for
//! an untagged plain scalar YAML 1.1's implicit types (`yes`/`on`/`~`...) with YAML 1.2's
//! number patterns, and timestamps, which become RFC 3339 strings. `<<` is the merge key.

use std::sync::LazyLock;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use libyaml_safer::ScalarStyle;
use regex::Regex;

use super::timestamps::days_in;
use crate::eval::value::Value;
use crate::text::go_quote::go_quote;

const STR: &str = "tag:yaml.org,2002:str";
const BINARY: &str = "tag:yaml.org,2002:binary";
const BOOL: &str = "tag:yaml.org,2002:bool";
const INT: &str = "tag:yaml.org,2002:int";
const FLOAT: &str = "tag:yaml.org,2002:float";
const NULL: &str = "tag:yaml.org,2002:null";
const TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";

/// YAML 1.2's integer pattern, as cty-yaml writes it.
static INTEGER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\A([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\z").expect("valid"));

/// YAML 1.2's float pattern, as cty-yaml writes it.
static FLOATING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z").expect("valid")
});

/// A scalar resolved: a value, or the merge key `<<`.
pub(super) enum Resolved {
    Value(Value),
    Merge,
}

/// cty-yaml's `resolveScalar`: the scalar `src` written in `style` with `tag` (empty when
/// untagged).
pub(super) fn resolve(tag: &str, src: &str, style: ScalarStyle) -> Result<Resolved, String> {
    if !resolvable(tag) {
        return Err(format!("unsupported tag {}", go_quote(tag)));
    }
    let mut tag = tag;
    // The first character hints at what an untagged scalar may be.
    let hint = match src.as_bytes().first() {
        None => Some('N'),
        Some(b'+' | b'-') => Some('S'),
        Some(b'0'..=b'9') => Some('D'),
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
            Some('M')
        }
        Some(b'.') => Some('.'),
        Some(_) => None,
    };
    if let Some(hint) = hint.filter(|_| tag != STR && tag != BINARY) {
        if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
            return Ok(Resolved::Value(Value::String(src.into())));
        }
        if let Some(v) = named(src) {
            return Ok(Resolved::Value(v));
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".into());
        }
        match hint {
            '.' => {
                if let Some(n) = parse_float(src) {
                    return Ok(Resolved::Value(Value::Number(n)));
                }
            }
            'D' | 'S' => {
                if tag.is_empty() || tag == TIMESTAMP {
                    if let Some(t) = timestamp(src) {
                        return Ok(Resolved::Value(Value::String(t)));
                    }
                }
                if INTEGER.is_match(src) {
                    tag = INT;
                } else if FLOATING.is_match(src) {
                    tag = FLOAT;
                }
            }
            _ => {}
        }
    }
    if tag.is_empty() && src == "<<" {
        return Ok(Resolved::Merge);
    }
    let cannot = || format!("cannot parse {} as {tag}", go_quote(src));
    let value = match tag {
        STR | BINARY => {
            if tag == BINARY && go_base64(src).is_none() {
                return Err(format!("{}: not valid base64", cannot()));
            }
            Value::String(src.into())
        }
        BOOL => match named(src) {
            Some(b @ Value::Bool(_)) => b,
            _ => return Err(cannot()),
        },
        INT | FLOAT => {
            let plain = src.replace('_', "");
            match parse_float(&plain).or_else(|| go_parse_int(&plain)) {
                Some(n) => Value::Number(n),
                None => return Err(cannot()),
            }
        }
        TIMESTAMP => Value::String(timestamp(src).ok_or_else(cannot)?),
        NULL => Value::Null,
        "" => Value::String(src.into()),
        _ => return Err(format!("unsupported tag {}", go_quote(tag))),
    };
    Ok(Resolved::Value(value))
}

/// The tags cty-yaml reads scalars with.
fn resolvable(tag: &str) -> bool {
    matches!(
        tag,
        "" | STR | BOOL | INT | FLOAT | NULL | TIMESTAMP | BINARY
    )
}

/// The scalars YAML 1.1 names: booleans, nulls and infinities.
fn named(src: &str) -> Option<Value> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::Number(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Value::Number(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// cty's `ParseNumberVal`: Go's `big.Float` parse in base 10 (a sign, digits with one
/// optional point, an optional `e` or binary `p` exponent; `Inf`).
fn parse_float(s: &str) -> Option<f64> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = if negative { -1.0 } else { 1.0 };
    if body == "Inf" || body == "inf" {
        return Some(sign * f64::INFINITY);
    }
    let exponent_at = body.find(['e', 'E', 'p', 'P']).unwrap_or(body.len());
    let (mantissa, exponent) = body.split_at(exponent_at);
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
    let points = mantissa.bytes().filter(|&b| b == b'.').count();
    if digits == 0 || digits + points != mantissa.len() || points > 1 {
        return None;
    }
    let m: f64 = mantissa.parse().ok()?;
    let Some(marker) = exponent.chars().next() else {
        return Some(sign * m);
    };
    let e = &exponent[1..];
    let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = match marker {
        'p' | 'P' => {
            m * 2f64.powi(e.parse::<i32>().unwrap_or(if e.starts_with('-') {
                i32::MIN
            } else {
                i32::MAX
            }))
        }
        _ => format!("{mantissa}e{e}").parse().ok()?,
    };
    Some(sign * n)
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint`: a sign (for `ParseInt`), then a
/// `0x`, `0o`, `0b` or `0` (octal) prefix or decimal digits.
fn go_parse_int(s: &str) -> Option<f64> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.get(..2).map(str::to_ascii_lowercase);
    let (radix, digits) = match lower.as_deref() {
        Some("0x") => (16, &body[2..]),
        Some("0o") => (8, &body[2..]),
        Some("0b") => (2, &body[2..]),
        _ if body.len() > 1 && body.starts_with('0') => (8, &body[1..]),
        _ => (10, body),
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    match negative {
        // `ParseInt` takes down to -2^63; `ParseUint` takes no sign.
        true if magnitude <= 1 << 63 => Some(-(magnitude as f64)),
        true => None,
        false => Some(magnitude as f64),
    }
}

/// Go's standard base64 decoder, which skips line breaks.
fn go_base64(src: &str) -> Option<Vec<u8>> {
    let compact: String = src.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    STANDARD.decode(compact).ok()
}

/// cty-yaml's `parseTimestamp`: four digits and `-`, then the first of its layouts Go's
/// `time.Parse` reads the whole of, written back in RFC 3339 (fractions dropped).
fn timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    [
        Layout::Zoned('T'),
        Layout::Zoned('t'),
        Layout::Spaced,
        Layout::Date,
    ]
    .into_iter()
    .find_map(|layout| layout.parse(s))
}

/// cty-yaml's layouts: `2006-1-2T15:4:5.999999999Z07:00` (with `T` or `t`),
/// `2006-1-2 15:4:5.999999999` and `2006-1-2`.
#[derive(Clone, Copy)]
enum Layout {
    Zoned(char),
    Spaced,
    Date,
}

impl Layout {
    fn parse(self, s: &str) -> Option<String> {
        let year: i64 = s.get(..4)?.parse().ok()?;
        let rest = s.get(4..)?.strip_prefix('-')?;
        let (month, rest) = getnum(rest)?;
        let rest = rest.strip_prefix('-')?;
        let (day, rest) = getnum(rest)?;
        let (mut hour, mut minute, mut second, mut offset) = (0, 0, 0, 0);
        let rest = match self {
            Layout::Date => rest,
            Layout::Zoned(_) | Layout::Spaced => {
                let rest = match self {
                    Layout::Zoned(t) => rest.strip_prefix(t)?,
                    // A space in a layout matches any run of spaces.
                    _ => rest.strip_prefix(' ')?.trim_start_matches(' '),
                };
                let (h, rest) = getnum(rest)?;
                let (m, rest) = getnum(rest.strip_prefix(':')?)?;
                let (sec, rest) = getnum(rest.strip_prefix(':')?)?;
                (hour, minute, second) = (h, m, sec);
                let rest = fraction(rest);
                match self {
                    Layout::Zoned(_) => {
                        let (o, rest) = zone(rest)?;
                        offset = o;
                        rest
                    }
                    _ => rest,
                }
            }
        };
        let valid = rest.is_empty()
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in(month, year)
            && hour < 24
            && minute < 60
            && second < 60;
        if !valid {
            return None;
        }
        let zone = match offset {
            0 => "Z".to_string(),
            o => {
                let sign = if o < 0 { '-' } else { '+' };
                format!("{sign}{:02}:{:02}", o.abs() / 60, o.abs() % 60)
            }
        };
        Some(format!(
            "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{zone}"
        ))
    }
}

/// Go's `getnum` for a layout field that is not zero-padded: one or two digits.
fn getnum(s: &str) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    let digit = |i: usize| {
        b.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| i64::from(c - b'0'))
    };
    let first = digit(0)?;
    match digit(1) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None => Some((first, &s[1..])),
    }
}

/// The optional fraction of a second: `.` or `,` and digits.
fn fraction(s: &str) -> &str {
    let b = s.as_bytes();
    if b.len() < 2 || !matches!(b[0], b'.' | b',') || !b[1].is_ascii_digit() {
        return s;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    &s[1 + digits..]
}

/// The `Z07:00` element: `Z`, or `±hh:mm` (Go refuses hours past 24 and minutes past
/// 60), as minutes east of UTC.
fn zone(s: &str) -> Option<(i32, &str)> {
    if let Some(rest) = s.strip_prefix('Z') {
        return Some((0, rest));
    }
    let b = s.as_bytes();
    if b.len() < 6 || b[3] != b':' || !matches!(b[0], b'+' | b'-') {
        return None;
    }
    let two = |i: usize| -> Option<i32> {
        let (x, y) = (b[i], b[i + 1]);
        (x.is_ascii_digit() && y.is_ascii_digit())
            .then(|| i32::from(x - b'0') * 10 + i32::from(y - b'0'))
    };
    let (hours, minutes) = (two(1)?, two(4)?);
    if hours > 24 || minutes > 60 {
        return None;
    }
    let sign = if b[0] == b'-' { -1 } else { 1 };
    Some((sign * (hours * 60 + minutes), &s[6..]))
}
