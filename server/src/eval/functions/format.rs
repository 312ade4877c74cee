//! `format` and `formatlist` as go-cty implements them: its verb syntax
//! (`%[flags][width][.precision][[n]]verb`), strings and `%v` padded by go-cty's own rules,
//! and numbers printed as Go's `fmt` prints big numbers, which go-cty leans on. That
//! includes Go's refusal of a width or precision of more than about ten million, printed
//! as `%!(NOVERB)` instead of building the string.

use super::digits::{whole_digits, Decimal};
use super::{size_limit, text, Function, Outcome};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "format" => |a, _| format(&text(a, 0)?, &a[1..]).map(Value::String),
        "formatlist" => formatlist,
        _ => return None,
    })
}

fn formatlist(a: &[Value], ev: &crate::eval::evaluate::Evaluator) -> Outcome {
    let spec = text(a, 0)?;
    let args = &a[1..];
    let mut len: Option<(usize, usize)> = None;
    for (i, v) in args.iter().enumerate() {
        if let Some(items) = v.elements() {
            match len {
                Some((l, first)) if l != items.len() => {
                    return Err(format!(
                        "argument {} has length {}, which is inconsistent with argument {} of length {l}",
                        i + 2,
                        items.len(),
                        first + 2
                    ))
                }
                Some(_) => {}
                None => len = Some((items.len(), i)),
            }
        }
    }
    let len = len.map_or(1, |(l, _)| l);
    // An argument that is not a list is copied into every row.
    for v in args.iter().filter(|v| v.elements().is_none()) {
        ev.spend_copies(v, len as u64)?;
    }
    let mut out = Vec::with_capacity(len);
    let mut total = 0usize;
    for i in 0..len {
        let row: Vec<Value> = args
            .iter()
            .map(|v| {
                v.elements()
                    .map_or_else(|| v.clone(), |items| items[i].clone())
            })
            .collect();
        let s = format(&spec, &row).map_err(|e| format!("error on format iteration {i}: {e}"))?;
        // Each string is bounded, but a long list of them must be too.
        total = total.saturating_add(s.len());
        size_limit(total)?;
        out.push(Value::String(s));
    }
    Ok(Value::List(out.into()))
}

/// One `%` sequence of a format string.
#[derive(Default)]
struct Verb<'a> {
    raw: &'a str,
    offset: usize,
    /// The 1-based argument it formats.
    arg: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    width: Option<Count>,
    precision: Option<Count>,
}

/// A width or precision: its value (saturated), and whether Go's `fmt` accepts it (Go
/// gives up on a number once it exceeds 1e6 before its last digit).
#[derive(Clone, Copy)]
struct Count {
    value: usize,
    go_accepts: bool,
}

type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

fn count(chars: &mut Chars) -> Count {
    let mut c = Count {
        value: 0,
        go_accepts: true,
    };
    while let Some(&(_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
        if c.value > 1_000_000 {
            c.go_accepts = false;
        }
        c.value = c
            .value
            .saturating_mul(10)
            .saturating_add(d as usize - '0' as usize);
        chars.next();
    }
    c
}

/// A rune as Go's `%q` shows it.
fn go_rune(c: char) -> String {
    if c.is_control() {
        format!("'{}'", c.escape_default())
    } else {
        format!("'{c}'")
    }
}

/// The next character if it is `accepted`; else go-cty's error for what stands there.
fn expect(
    chars: &mut Chars,
    spec: &str,
    accepted: fn(char) -> bool,
) -> Result<(usize, char), String> {
    match chars.next() {
        Some((i, c)) if accepted(c) => Ok((i, c)),
        Some((i, c)) => Err(format!(
            "unrecognized format character {} at offset {i}",
            go_rune(c)
        )),
        None => Err(format!(
            "invalid format string starting at offset {}",
            spec.len()
        )),
    }
}

/// Terraform's `format`.
pub(super) fn format(spec: &str, args: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut next = 1;
    let mut highest = 0;
    let mut chars = spec.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek().map(|&(_, c)| c) == Some('%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut verb = Verb {
            offset: start,
            arg: next,
            ..Verb::default()
        };
        while let Some(&(_, f)) = chars.peek() {
            match f {
                '0' => verb.zero = true,
                '#' => verb.sharp = true,
                '-' => verb.minus = true,
                '+' => verb.plus = true,
                ' ' => verb.space = true,
                _ => break,
            }
            chars.next();
        }
        if chars.peek().is_some_and(|&(_, d)| matches!(d, '1'..='9')) {
            verb.width = Some(count(&mut chars));
        }
        if chars.peek().map(|&(_, c)| c) == Some('.') {
            chars.next();
            verb.precision = Some(count(&mut chars));
        }
        if chars.peek().map(|&(_, c)| c) == Some('[') {
            chars.next();
            if !chars.peek().is_some_and(|&(_, d)| matches!(d, '1'..='9')) {
                expect(&mut chars, spec, |_| false)?;
            }
            verb.arg = count(&mut chars).value;
            expect(&mut chars, spec, |c| c == ']')?;
        }
        let (at, mode) = expect(&mut chars, spec, |c| c.is_ascii_alphabetic())?;
        verb.mode = mode;
        let end = at + 1;
        verb.raw = &spec[start..end];
        highest = highest.max(verb.arg);
        append(&verb, &mut out, args)?;
        size_limit(out.len())?;
        next = verb.arg.saturating_add(1);
    }
    if highest < args.len() {
        return Err(if highest == 0 {
            "too many arguments; no verbs in format string".into()
        } else {
            format!("too many arguments; only {highest} used by format string")
        });
    }
    Ok(out)
}

/// Formats the argument of `verb` onto `out`.
fn append(verb: &Verb, out: &mut String, args: &[Value]) -> Result<(), String> {
    let (raw, at) = (verb.raw, verb.offset);
    let value = args.get(verb.arg - 1).ok_or_else(|| {
        format!(
            "not enough arguments for {raw:?} at {at}: need index {} but have {} total",
            verb.arg,
            args.len()
        )
    })?;
    if verb.mode != 'v' && value.is_null() {
        return Err(format!(
            "unsupported value for {raw:?} at {at}: null value cannot be formatted"
        ));
    }
    let unsupported = |why: &str| format!("unsupported value for {raw:?} at {at}: {why}");
    match verb.mode {
        'v' => {
            let body = match value {
                Value::String(s) if !verb.sharp => s.clone(),
                Value::Number(n) if !verb.sharp => go_float('g', None, *n),
                other => other.to_json().to_string(),
            };
            pad_width(verb, body, out)
        }
        't' => {
            let b = value
                .to_bool()
                .ok_or_else(|| unsupported("bool required"))?;
            out.push_str(if b { "true" } else { "false" });
            Ok(())
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = value
                .to_number()
                .ok_or_else(|| unsupported("a number is required"))?;
            let integral = matches!(verb.mode, 'b' | 'd' | 'o' | 'x' | 'X');
            if integral && (n.fract() != 0.0 || !n.is_finite()) {
                return Err(unsupported("an integer is required"));
            }
            if !verb.width.is_none_or(|w| w.go_accepts)
                || !verb.precision.is_none_or(|p| p.go_accepts)
            {
                // Go's fmt stops at a width or precision it deems crazy, and reports
                // the argument it did not use.
                let kind = if integral { "*big.Int" } else { "*big.Float" };
                out.push_str(&format!(
                    "%!(NOVERB)%!(EXTRA {kind}={})",
                    go_float('g', None, n)
                ));
                return Ok(());
            }
            if integral {
                go_integer(verb, n, out);
            } else {
                go_float_padded(verb, n, out);
            }
            Ok(())
        }
        's' | 'q' => {
            let s = value
                .to_text()
                .ok_or_else(|| unsupported("string required"))?;
            let s = match verb.precision {
                Some(p) if p.value > 0 => match s.char_indices().nth(p.value) {
                    Some((i, _)) => s[..i].to_string(),
                    None => s,
                },
                _ => s,
            };
            let body = if verb.mode == 'q' {
                serde_json::Value::String(s).to_string()
            } else {
                s
            };
            pad_width(verb, body, out)
        }
        other => Err(format!(
            "unsupported format verb {} in {raw:?} at offset {at}",
            go_rune(other)
        )),
    }
}

/// go-cty's padding of strings and `%v`: to the width in characters, with zeros when
/// the `0` flag is given, on the right with `-`.
fn pad_width(verb: &Verb, body: String, out: &mut String) -> Result<(), String> {
    let width = verb.width.map_or(0, |w| w.value);
    let len = body.chars().count();
    if len >= width {
        out.push_str(&body);
        return Ok(());
    }
    size_limit(out.len().saturating_add(width))?;
    let fill = if verb.zero { "0" } else { " " }.repeat(width - len);
    if verb.minus {
        out.push_str(&body);
        out.push_str(&fill);
    } else {
        out.push_str(&fill);
        out.push_str(&body);
    }
    Ok(())
}

/// Go's `big.Int` formatting: `[left pad][sign][prefix][zero pad][digits][right pad]`.
fn go_integer(verb: &Verb, n: f64, out: &mut String) {
    let radix = match verb.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = whole_digits(n.abs(), radix);
    if verb.mode == 'X' {
        digits.make_ascii_uppercase();
    }
    let sign = if n < 0.0 {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let prefix = match (verb.sharp, verb.mode) {
        (true, 'b') => "0b",
        (true, 'o') => "0",
        (true, 'x') => "0x",
        (true, 'X') => "0X",
        _ => "",
    };
    let mut zeros = 0;
    if let Some(p) = verb.precision {
        if digits.len() < p.value {
            zeros = p.value - digits.len();
        } else if digits == "0" && p.value == 0 {
            return;
        }
    }
    let (mut left, mut right) = (0, 0);
    let length = sign.len() + prefix.len() + zeros + digits.len();
    if let Some(w) = verb.width.filter(|w| w.value > length) {
        let d = w.value - length;
        if verb.minus {
            right = d;
        } else if verb.zero && verb.precision.is_none() {
            zeros = d;
        } else {
            left = d;
        }
    }
    out.push_str(&" ".repeat(left));
    out.push_str(sign);
    out.push_str(prefix);
    out.push_str(&"0".repeat(zeros));
    out.push_str(&digits);
    out.push_str(&" ".repeat(right));
}

/// Go's `big.Float` formatting: the text, then a sign and padding (zeros win over `-`).
fn go_float_padded(verb: &Verb, n: f64, out: &mut String) {
    let body = go_float(verb.mode, verb.precision.map(|p| p.value), n);
    let (sign, body) = match body.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => match body.strip_prefix('+') {
            Some(rest) => (if verb.space { " " } else { "+" }, rest),
            None if verb.plus => ("+", body.as_str()),
            None if verb.space => (" ", body.as_str()),
            None => ("", body.as_str()),
        },
    };
    let padding = verb
        .width
        .map_or(0, |w| w.value.saturating_sub(sign.len() + body.len()));
    if verb.zero && n.is_finite() {
        out.push_str(sign);
        out.push_str(&"0".repeat(padding));
        out.push_str(body);
    } else if verb.minus {
        out.push_str(sign);
        out.push_str(body);
        out.push_str(&" ".repeat(padding));
    } else {
        out.push_str(&" ".repeat(padding));
        out.push_str(sign);
        out.push_str(body);
    }
}

/// `big.Float.String()`: `Text('g', 10)`, which cty's set hashes write numbers with.
pub(in crate::eval) fn big_float_string(n: f64) -> String {
    go_float('g', Some(10), n)
}

/// `big.Float.Text(mode, precision)` for `e`, `E`, `f`, `F`, `g` and `G`; `None` is the
/// shortest text that reads back as `n` (and 6 for `e` and `f`).
fn go_float(mode: char, precision: Option<usize>, n: f64) -> String {
    if n.is_infinite() {
        return if n > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    let sign = if n.is_sign_negative() && n != 0.0 {
        "-"
    } else {
        ""
    };
    let text = match mode {
        'e' | 'E' => {
            let p = precision.unwrap_or(6);
            exponent_form(&Decimal::of(n, Some(p + 1)), p, mode)
        }
        'f' | 'F' => fixed(n.abs(), precision.unwrap_or(6)),
        _ => {
            let shortest = precision.is_none();
            let d = match precision {
                None => Decimal::of(n, None),
                Some(p) => Decimal::of(n, Some(p.max(1))),
            };
            let mut prec = precision.map_or(d.mant.len(), |p| p.max(1));
            let mut eprec = prec;
            if eprec > d.mant.len() && d.mant.len() as i64 >= d.exp {
                eprec = d.mant.len();
            }
            if shortest {
                eprec = 6;
            }
            let exp = d.exp - 1;
            if exp < -4 || exp >= eprec as i64 {
                prec = prec.min(d.mant.len());
                let e = if mode == 'G' { 'E' } else { 'e' };
                exponent_form(&d, prec.saturating_sub(1), e)
            } else {
                if prec as i64 > d.exp {
                    prec = d.mant.len();
                }
                fixed_form(&d, (prec as i64 - d.exp).max(0) as usize)
            }
        }
    };
    format!("{sign}{text}")
}

/// `d.ddd` with `p` fractional digits, then `e±dd`.
fn exponent_form(d: &Decimal, p: usize, e: char) -> String {
    let mut s = String::with_capacity(p + 8);
    let mut mant = d.mant.chars();
    s.push(mant.next().unwrap_or('0'));
    if p > 0 {
        s.push('.');
        let rest: String = mant.take(p).collect();
        s.push_str(&rest);
        s.push_str(&"0".repeat(p - rest.len()));
    }
    let exp = if d.mant.is_empty() { 0 } else { d.exp - 1 };
    let (exp_sign, exp) = if exp < 0 { ('-', -exp) } else { ('+', exp) };
    s.push(if e == 'E' { 'E' } else { 'e' });
    s.push(exp_sign);
    s.push_str(&format!("{exp:02}"));
    s
}

/// `n` with `p` fractional digits. An `f64` has at most 1074 fractional digits, so
/// Rust's exact formatting (whose precision is at most 65535) is padded with zeros past
/// that.
fn fixed(n: f64, p: usize) -> String {
    const EXACT: usize = 1100;
    let mut s = format!("{n:.*}", p.min(EXACT));
    if p > EXACT {
        s.push_str(&"0".repeat(p - EXACT));
    }
    s
}

/// The integer part (or `0`), then `p` fractional digits, of a decimal.
fn fixed_form(d: &Decimal, p: usize) -> String {
    let mut s = String::new();
    let digit = |i: i64| -> char {
        if i < 0 {
            '0'
        } else {
            d.mant
                .as_bytes()
                .get(i as usize)
                .map_or('0', |&b| b as char)
        }
    };
    if d.exp > 0 {
        for i in 0..d.exp {
            s.push(digit(i));
        }
    } else {
        s.push('0');
    }
    if p > 0 {
        s.push('.');
        for i in 0..p as i64 {
            s.push(digit(d.exp + i));
        }
    }
    s
}
