//! String functions: case, trimming, splitting and joining, `format`, `replace` and the
//! regular-expression functions (Rust's `regex`, which accepts RE2's syntax).

use regex::Regex;

use super::{elements, integer, text, Function, Outcome};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::{format_number, Value};

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "upper" => |a, _| Ok(Value::String(text(a, 0)?.to_uppercase())),
        "lower" => |a, _| Ok(Value::String(text(a, 0)?.to_lowercase())),
        "title" => title,
        "chomp" => |a, _| {
            let s = text(a, 0)?;
            Ok(Value::String(s.trim_end_matches(['\n', '\r']).to_string()))
        },
        "trimspace" => |a, _| Ok(Value::String(text(a, 0)?.trim().to_string())),
        "trim" => |a, _| {
            let cut = text(a, 1)?;
            Ok(Value::String(
                text(a, 0)?.trim_matches(|c| cut.contains(c)).to_string(),
            ))
        },
        "trimprefix" => |a, _| {
            let s = text(a, 0)?;
            let p = text(a, 1)?;
            Ok(Value::String(s.strip_prefix(&*p).unwrap_or(&s).to_string()))
        },
        "trimsuffix" => |a, _| {
            let s = text(a, 0)?;
            let p = text(a, 1)?;
            Ok(Value::String(s.strip_suffix(&*p).unwrap_or(&s).to_string()))
        },
        "strrev" => |a, _| Ok(Value::String(text(a, 0)?.chars().rev().collect())),
        "startswith" => |a, _| Ok(Value::Bool(text(a, 0)?.starts_with(&*text(a, 1)?))),
        "endswith" => |a, _| Ok(Value::Bool(text(a, 0)?.ends_with(&*text(a, 1)?))),
        "strcontains" => |a, _| Ok(Value::Bool(text(a, 0)?.contains(&*text(a, 1)?))),
        "substr" => substr,
        "join" => join,
        "split" => |a, _| {
            let sep = text(a, 0)?;
            let s = text(a, 1)?;
            let parts = if s.is_empty() {
                vec![Value::string("")]
            } else {
                s.split(&*sep).map(Value::string).collect()
            };
            Ok(Value::List(parts))
        },
        "replace" => replace,
        "regex" => regex_match,
        "regexall" => regex_all,
        "indent" => |a, _| {
            let pad = " ".repeat(integer(a, 0)?.max(0) as usize);
            let s = text(a, 1)?;
            Ok(Value::String(s.replace('\n', &format!("\n{pad}"))))
        },
        "format" => |a, _| format(&text(a, 0)?, &a[1..]).map(Value::String),
        "formatlist" => formatlist,
        _ => return None,
    })
}

fn title(a: &[Value], _: &Evaluator) -> Outcome {
    let mut out = String::new();
    let mut at_word_start = true;
    for c in text(a, 0)?.chars() {
        if at_word_start && c.is_alphabetic() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        at_word_start = !c.is_alphanumeric();
    }
    Ok(Value::String(out))
}

fn substr(a: &[Value], _: &Evaluator) -> Outcome {
    let chars: Vec<char> = text(a, 0)?.chars().collect();
    let len = chars.len() as i64;
    let mut offset = integer(a, 1)?;
    let length = integer(a, 2)?;
    if offset < 0 {
        offset += len;
    }
    if offset < 0 || offset > len {
        return Err("offset must be within the string".into());
    }
    let end = if length < 0 {
        len
    } else {
        (offset + length).min(len)
    };
    Ok(Value::String(
        chars[offset as usize..end as usize].iter().collect(),
    ))
}

fn join(a: &[Value], _: &Evaluator) -> Outcome {
    let sep = text(a, 0)?;
    let mut parts = Vec::new();
    for i in 1..a.len() {
        for item in elements(a, i)? {
            parts.push(
                item.to_text()
                    .ok_or_else(|| format!("element of argument {} is not a string", i + 1))?,
            );
        }
    }
    Ok(Value::String(parts.join(&sep)))
}

/// A pattern written `/.../` in `replace`, as a regular expression.
fn slashed_regex(pattern: &str) -> Option<Result<Regex, String>> {
    let inner = pattern.strip_prefix('/')?.strip_suffix('/')?;
    Some(Regex::new(inner).map_err(|e| format!("invalid regular expression: {e}")))
}

fn replace(a: &[Value], _: &Evaluator) -> Outcome {
    let s = text(a, 0)?;
    let pattern = text(a, 1)?;
    let with = text(a, 2)?;
    Ok(Value::String(match slashed_regex(&pattern) {
        Some(re) => {
            // Terraform's `$1` references are Go's, which Rust's `${1}` spells the same way
            // for the forms people write.
            re?.replace_all(&s, with.as_str()).into_owned()
        }
        None => s.replace(&pattern, &with),
    }))
}

fn compile(a: &[Value]) -> Result<Regex, String> {
    Regex::new(&text(a, 0)?).map_err(|e| format!("invalid regular expression: {e}"))
}

/// The result of one match: the string, the list of groups, or the object of named groups.
fn captures_value(re: &Regex, caps: &regex::Captures) -> Value {
    let names: Vec<Option<&str>> = re.capture_names().collect();
    if names.iter().skip(1).any(Option::is_some) {
        return Value::Object(
            names
                .iter()
                .enumerate()
                .filter_map(|(i, n)| n.map(|n| (n.to_string(), i)))
                .map(|(n, i)| {
                    (
                        n,
                        caps.get(i)
                            .map_or(Value::Null, |m| Value::string(m.as_str())),
                    )
                })
                .collect(),
        );
    }
    if re.captures_len() > 1 {
        return Value::Tuple(
            (1..re.captures_len())
                .map(|i| {
                    caps.get(i)
                        .map_or(Value::Null, |m| Value::string(m.as_str()))
                })
                .collect(),
        );
    }
    Value::string(caps.get(0).map_or("", |m| m.as_str()))
}

fn regex_match(a: &[Value], _: &Evaluator) -> Outcome {
    let re = compile(a)?;
    let s = text(a, 1)?;
    re.captures(&s)
        .map(|c| captures_value(&re, &c))
        .ok_or_else(|| "pattern did not match any part of the given string".into())
}

fn regex_all(a: &[Value], _: &Evaluator) -> Outcome {
    let re = compile(a)?;
    let s = text(a, 1)?;
    Ok(Value::List(
        re.captures_iter(&s)
            .map(|c| captures_value(&re, &c))
            .collect(),
    ))
}

fn formatlist(a: &[Value], _: &Evaluator) -> Outcome {
    let spec = text(a, 0)?;
    let args = &a[1..];
    let mut len: Option<usize> = None;
    for v in args {
        if let Some(items) = v.elements() {
            if len.is_some_and(|l| l != items.len()) {
                return Err("all list arguments must have the same length".into());
            }
            len = Some(items.len());
        }
    }
    let len = len.unwrap_or(1);
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let row: Vec<Value> = args
            .iter()
            .map(|v| {
                v.elements()
                    .map_or_else(|| v.clone(), |items| items[i].clone())
            })
            .collect();
        out.push(Value::String(format(&spec, &row)?));
    }
    Ok(Value::List(out))
}

/// Terraform's `format`: `%s %d %f %t %v %q %x %X %o %b %e %g %%` with flags, width and
/// precision.
pub(super) fn format(spec: &str, args: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = spec.chars().peekable();
    let mut next = 0;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek().filter(|f| "-+ 0#".contains(**f)) {
            flags.push(f);
            chars.next();
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            chars.next();
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                chars.next();
            }
            precision = Some(p.parse().unwrap_or(0));
        }
        let verb = chars.next().ok_or("unterminated format verb")?;
        if verb == '%' {
            out.push('%');
            continue;
        }
        let value = args
            .get(next)
            .ok_or_else(|| format!("not enough arguments for %{verb}"))?;
        next += 1;
        let body = format_verb(verb, value, precision, &flags)?;
        out.push_str(&pad(body, &flags, width.parse().unwrap_or(0)));
    }
    if next < args.len() {
        return Err(format!(
            "too many arguments; only {next} used by format string"
        ));
    }
    Ok(out)
}

fn format_verb(
    verb: char,
    value: &Value,
    precision: Option<usize>,
    flags: &str,
) -> Result<String, String> {
    let number = || {
        value
            .to_number()
            .ok_or_else(|| format!("unsupported value for \"%{verb}\": number required"))
    };
    Ok(match verb {
        's' => {
            let s = value
                .to_text()
                .ok_or_else(|| "unsupported value for \"%s\": string required".to_string())?;
            match precision {
                Some(p) => s.chars().take(p).collect(),
                None => s,
            }
        }
        'q' => serde_json::Value::String(
            value
                .to_text()
                .ok_or_else(|| "unsupported value for \"%q\": string required".to_string())?,
        )
        .to_string(),
        'v' if flags.contains('#') => value.to_json().to_string(),
        'v' => match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => format_number(*n),
            Value::Bool(b) => b.to_string(),
            Value::Null => "null".into(),
            other => other.to_json().to_string(),
        },
        't' => value
            .to_bool()
            .ok_or_else(|| "unsupported value for \"%t\": bool required".to_string())?
            .to_string(),
        'd' => {
            let n = number()?;
            let s = format!("{}", n.trunc() as i64);
            if flags.contains('+') && n >= 0.0 {
                format!("+{s}")
            } else {
                s
            }
        }
        'f' | 'F' => format!("{:.*}", precision.unwrap_or(6), number()?),
        'e' => format!("{:.*e}", precision.unwrap_or(6), number()?),
        'g' | 'G' => format_number(number()?),
        'x' => format!("{:x}", number()? as i64),
        'X' => format!("{:X}", number()? as i64),
        'o' => format!("{:o}", number()? as i64),
        'b' => format!("{:b}", number()? as i64),
        other => return Err(format!("unsupported format verb %{other}")),
    })
}

fn pad(body: String, flags: &str, width: usize) -> String {
    let len = body.chars().count();
    if len >= width {
        return body;
    }
    let fill = width - len;
    if flags.contains('-') {
        format!("{body}{}", " ".repeat(fill))
    } else if flags.contains('0') {
        match body.strip_prefix('-') {
            Some(rest) => format!("-{}{rest}", "0".repeat(fill)),
            None => format!("{}{body}", "0".repeat(fill)),
        }
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}
