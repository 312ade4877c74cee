//! String functions: case, trimming, splitting and joining, `format`, `replace` and the
//! regular-expression functions (Rust's `regex`, which accepts RE2's syntax).

use regex_automata::Span;

use super::patterns::{compile, Pattern, PatternError, Search};
use super::{element_limit, elements, integer, size_limit, text, Function, Outcome};
use crate::eval::evaluate::Evaluator;
use crate::eval::value::Value;

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
            // The cutset as a set: looking each character up in the cutset's text made
            // a long string and a long cutset quadratic.
            let cut: std::collections::HashSet<char> = text(a, 1)?.chars().collect();
            Ok(Value::String(
                text(a, 0)?.trim_matches(|c| cut.contains(&c)).to_string(),
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
        "split" => split,
        "replace" => replace,
        "regex" => regex_match,
        "regexall" => regex_all,
        "indent" => indent,
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

/// go-cty's `substr`: a negative offset counts from the end (and before the start is the
/// start), an offset past the end gives `""`, a negative length takes the rest.
/// Characters are counted as Unicode scalar values (go-cty counts grapheme clusters).
fn substr(a: &[Value], _: &Evaluator) -> Outcome {
    let s = text(a, 0)?;
    let mut offset = integer(a, 1)?;
    let length = integer(a, 2)?;
    if offset < 0 {
        offset = offset.saturating_add(s.chars().count() as i64);
    } else if length == 0 {
        return Ok(Value::string(""));
    }
    let rest = if offset > 0 {
        match char_end(&s, offset as usize - 1) {
            Some(start) => &s[start..],
            None => return Ok(Value::string("")),
        }
    } else {
        &s[..]
    };
    // go-cty's seek for a length of 0 (reached only with a negative offset) never stops
    // early, so it takes the rest too.
    if length <= 0 {
        return Ok(Value::string(rest));
    }
    let end = char_end(rest, length as usize - 1).unwrap_or(rest.len());
    Ok(Value::string(&rest[..end]))
}

/// The byte offset just past the `n`th character (from 0) of `t`, if it has one: found by
/// walking, not with a table of offsets eight times as large as the string.
fn char_end(t: &str, n: usize) -> Option<usize> {
    t.char_indices().nth(n).map(|(i, c)| i + c.len_utf8())
}

/// `split(separator, string)` as Go's `strings.Split`: an empty separator splits after
/// each character. The parts are counted before any is made.
fn split(a: &[Value], _: &Evaluator) -> Outcome {
    let sep = text(a, 0)?;
    let s = text(a, 1)?;
    if s.is_empty() {
        return Ok(Value::List(vec![Value::string("")].into()));
    }
    if sep.is_empty() {
        element_limit(s.chars().count())?;
        return Ok(Value::List(
            s.chars().map(|c| Value::String(c.to_string())).collect(),
        ));
    }
    element_limit(s.matches(&*sep).count().saturating_add(1))?;
    Ok(Value::List(s.split(&*sep).map(Value::string).collect()))
}

/// `indent(n, s)`: `n` spaces after every line break. go-cty panics on a negative count.
fn indent(a: &[Value], _: &Evaluator) -> Outcome {
    let spaces = integer(a, 0)?;
    let s = text(a, 1)?;
    if spaces < 0 {
        return Err("the number of spaces must not be negative".into());
    }
    let breaks = s.matches('\n').count();
    let spaces = usize::try_from(spaces).unwrap_or(usize::MAX);
    size_limit(spaces.saturating_mul(breaks).saturating_add(s.len()))?;
    if breaks == 0 {
        return Ok(Value::String(s));
    }
    Ok(Value::String(
        s.replace('\n', &format!("\n{}", " ".repeat(spaces))),
    ))
}

fn join(a: &[Value], _: &Evaluator) -> Outcome {
    let sep = text(a, 0)?;
    let mut parts = Vec::new();
    let mut size = 0usize;
    for i in 1..a.len() {
        for item in elements(a, i)? {
            let part = item
                .to_text()
                .ok_or_else(|| format!("element of argument {} is not a string", i + 1))?;
            // A long separator repeated between many parts must stay bounded.
            size = size.saturating_add(part.len()).saturating_add(sep.len());
            size_limit(size)?;
            parts.push(part);
        }
    }
    Ok(Value::String(parts.join(&sep)))
}

/// A pattern written `/.../` in `replace`, as a regular expression.
fn slashed_regex(pattern: &str, ev: &Evaluator) -> Option<Result<Pattern, String>> {
    let inner = pattern.strip_prefix('/')?.strip_suffix('/')?;
    Some(compile(inner, ev).map_err(PatternError::for_replace))
}

fn replace(a: &[Value], ev: &Evaluator) -> Outcome {
    let s = text(a, 0)?;
    let pattern = text(a, 1)?;
    let with = text(a, 2)?;
    let mut out = String::new();
    let mut last = 0;
    match slashed_regex(&pattern, ev) {
        Some(pattern) => {
            let pattern = pattern?;
            // Terraform's `$1` references are Go's, which Rust's `${1}` spells the same way
            // for the forms people write.
            let references = with.matches('$').count();
            let mut search = pattern.search(&s, ev);
            while let Some(m) = search.next_match()? {
                // Each `$n` expands to at most the match: bound the expansion first.
                size_limit(
                    out.len()
                        .saturating_add(with.len())
                        .saturating_add(references.saturating_mul(m.len())),
                )?;
                out.push_str(&s[last..m.start]);
                if references == 0 {
                    out.push_str(&with);
                } else {
                    pattern.expand(&s, &search.groups(m)?, &with, &mut out);
                }
                last = m.end;
                size_limit(out.len())?;
            }
        }
        None => {
            for (start, m) in s.match_indices(&*pattern) {
                out.push_str(&s[last..start]);
                out.push_str(&with);
                last = start + m.len();
                size_limit(out.len())?;
            }
        }
    }
    out.push_str(&s[last..]);
    size_limit(out.len())?;
    Ok(Value::String(out))
}

/// The result of one match `m` in `haystack`: the string, the list of groups, or the
/// object of named groups.
fn match_value(
    pattern: &Pattern,
    search: &mut Search<'_>,
    haystack: &str,
    m: Span,
) -> Result<Value, String> {
    if pattern.group_len() == 1 {
        return Ok(Value::string(&haystack[m.range()]));
    }
    let groups = search.groups(m)?;
    let group = |i: usize| match groups.get(i) {
        Some(Some(span)) => Value::string(&haystack[span.range()]),
        _ => Value::Null,
    };
    let names: Vec<Option<&str>> = pattern.group_names().collect();
    if names.iter().skip(1).any(Option::is_some) {
        return Ok(Value::Object(
            names
                .iter()
                .enumerate()
                .filter_map(|(i, n)| n.map(|n| (n.to_string(), group(i))))
                .collect(),
        ));
    }
    Ok(Value::Tuple((1..groups.len()).map(group).collect()))
}

fn regex_match(a: &[Value], ev: &Evaluator) -> Outcome {
    let pattern = compile(&text(a, 0)?, ev).map_err(PatternError::for_regex)?;
    let s = text(a, 1)?;
    let mut search = pattern.search(&s, ev);
    let Some(m) = search.next_match()? else {
        return Err("pattern did not match any part of the given string".into());
    };
    match_value(&pattern, &mut search, &s, m)
}

fn regex_all(a: &[Value], ev: &Evaluator) -> Outcome {
    let pattern = compile(&text(a, 0)?, ev).map_err(PatternError::for_regex)?;
    let s = text(a, 1)?;
    let mut search = pattern.search(&s, ev);
    let mut matches = Vec::new();
    while let Some(m) = search.next_match()? {
        // An empty pattern matches at every character: bounded as it grows.
        element_limit(matches.len() + 1)?;
        matches.push(match_value(&pattern, &mut search, &s, m)?);
    }
    Ok(Value::List(matches.into()))
}
