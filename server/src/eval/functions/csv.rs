//! `csvdecode`: CSV text as a list of objects, one per row after the header row, read as
//! Go's `encoding/csv` reads it (RFC 4180 quoting, blank lines skipped, every row as
//! many fields as the header), with its errors.

use std::collections::BTreeMap;

use super::{text, Function};
use crate::eval::value::Value;

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "csvdecode" => |a, _| csvdecode(&text(a, 0)?),
        _ => return None,
    })
}

fn csvdecode(s: &str) -> Result<Value, String> {
    let mut reader = Reader {
        src: s.as_bytes(),
        at: 0,
        line: 0,
        fields: None,
    };
    let headers = match reader.record()? {
        Some(h) => h,
        None => return Err("missing header line".into()),
    };
    for (i, name) in headers.iter().enumerate() {
        if headers[..i].contains(name) {
            return Err(format!("duplicate column name {name:?}"));
        }
    }
    let mut rows = Vec::new();
    while let Some(fields) = reader.record()? {
        super::element_limit(rows.len() + 1)?;
        let row: BTreeMap<String, Value> = headers
            .iter()
            .cloned()
            .zip(fields.into_iter().map(Value::String))
            .collect();
        rows.push(Value::Object(row.into()));
    }
    Ok(Value::List(rows.into()))
}

/// Go's `csv.Reader` with its defaults (comma, no comments, strict quotes).
struct Reader<'a> {
    src: &'a [u8],
    at: usize,
    /// Lines read so far.
    line: usize,
    /// The fields every record must have: the first record's count.
    fields: Option<usize>,
}

/// The length of a line ending (`\n`) at the end of `b`.
fn newline_len(b: &[u8]) -> usize {
    usize::from(b.last() == Some(&b'\n'))
}

/// Go's `ParseError` as go-cty words it.
fn parse_error(line: usize, what: &str) -> String {
    format!("CSV parse error on line {line}: {what}")
}

const BARE_QUOTE: &str = "bare \" in non-quoted-field";
const QUOTE: &str = "extraneous or missing \" in quoted-field";

impl Reader<'_> {
    /// The next line with its `\n` (`\r\n` read as `\n`; a `\r` before the end of input
    /// dropped), or `None` at the end.
    fn read_line(&mut self) -> Option<Vec<u8>> {
        let rest = &self.src[self.at..];
        if rest.is_empty() {
            return None;
        }
        let len = rest
            .iter()
            .position(|&c| c == b'\n')
            .map_or(rest.len(), |i| i + 1);
        let mut line = rest[..len].to_vec();
        self.at += len;
        self.line += 1;
        if line.last() == Some(&b'\r') && self.at == self.src.len() {
            line.pop();
        }
        let n = line.len();
        if n >= 2 && line[n - 2] == b'\r' && line[n - 1] == b'\n' {
            line.truncate(n - 2);
            line.push(b'\n');
        }
        Some(line)
    }

    /// The next record's fields, or `None` at the end of input.
    fn record(&mut self) -> Result<Option<Vec<String>>, String> {
        let mut line = loop {
            match self.read_line() {
                None => return Ok(None),
                Some(l) if l.len() == newline_len(&l) => continue,
                Some(l) => break l,
            }
        };
        let record_line = self.line;
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let mut rest: &[u8] = &line;
        let mut owned;
        'field: loop {
            if rest.first() != Some(&b'"') {
                let comma = rest.iter().position(|&c| c == b',');
                let field = match comma {
                    Some(i) => &rest[..i],
                    None => &rest[..rest.len() - newline_len(rest)],
                };
                if field.contains(&b'"') {
                    return Err(parse_error(self.line, BARE_QUOTE));
                }
                fields.push(field.to_vec());
                match comma {
                    Some(i) => rest = &rest[i + 1..],
                    None => break 'field,
                }
                continue;
            }
            let mut field = Vec::new();
            rest = &rest[1..];
            let mut quote_line = self.line;
            loop {
                if let Some(i) = rest.iter().position(|&c| c == b'"') {
                    field.extend_from_slice(&rest[..i]);
                    rest = &rest[i + 1..];
                    match rest.first() {
                        Some(b'"') => {
                            field.push(b'"');
                            rest = &rest[1..];
                        }
                        Some(b',') => {
                            rest = &rest[1..];
                            fields.push(field);
                            continue 'field;
                        }
                        _ if newline_len(rest) == rest.len() => {
                            fields.push(field);
                            break 'field;
                        }
                        _ => return Err(parse_error(self.line, QUOTE)),
                    }
                } else if !rest.is_empty() {
                    // The field goes on past the end of the line.
                    field.extend_from_slice(rest);
                    line = self.read_line().unwrap_or_default();
                    if !line.is_empty() {
                        quote_line += 1;
                    }
                    owned = std::mem::take(&mut line);
                    rest = &owned;
                } else {
                    return Err(parse_error(quote_line, QUOTE));
                }
            }
        }
        let fields: Vec<String> = fields
            .into_iter()
            .map(|f| String::from_utf8_lossy(&f).into_owned())
            .collect();
        match self.fields {
            Some(n) if n != fields.len() => Err(parse_error(record_line, "wrong number of fields")),
            Some(_) => Ok(Some(fields)),
            None => {
                self.fields = Some(fields.len());
                Ok(Some(fields))
            }
        }
    }
}
