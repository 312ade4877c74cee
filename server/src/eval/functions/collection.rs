//! Collection functions: lists, maps and sets.

use std::collections::BTreeMap;

use super::{arg, element_limit, elements, integer, number, text, Function, Outcome};
use crate::eval::budget::copies;
use crate::eval::evaluate::Evaluator;
use crate::eval::value::{compare, Value};

pub(super) fn lookup(name: &str) -> Option<Function> {
    Some(match name {
        "length" => length,
        "concat" => |a, _| {
            let mut out = Vec::new();
            for i in 0..a.len() {
                if !a[i].is_known() {
                    return Ok(Value::Unknown);
                }
                out.extend(elements(a, i)?.iter().cloned());
            }
            Ok(Value::Tuple(out.into()))
        },
        "contains" => |a, _| {
            let needle = arg(a, 1)?;
            Ok(Value::Bool(
                elements(a, 0)?.iter().any(|v| v.equals(needle)),
            ))
        },
        "distinct" => |a, _| {
            let items = elements(a, 0)?;
            let first = first_of_each(items);
            Ok(Value::List(
                items
                    .iter()
                    .zip(first)
                    .filter(|(_, first)| *first)
                    .map(|(v, _)| v.clone())
                    .collect(),
            ))
        },
        "element" => |a, _| {
            let items = elements(a, 0)?;
            if items.is_empty() {
                return Err("cannot use element function with an empty list".into());
            }
            let i = integer(a, 1)?;
            // go-cty takes the remainder with the sign of the index: a negative index
            // that divides evenly is the first element; any other panics in Terraform.
            match i.checked_rem(items.len() as i64).unwrap_or(0) {
                0 => Ok(items[0].clone()),
                r if r < 0 => Err("cannot use element function with a negative index".into()),
                r => Ok(items[r as usize].clone()),
            }
        },
        "flatten" => |a, _| {
            let mut out = Vec::new();
            let items = elements(a, 0).map_err(|_| "can only flatten lists, sets and tuples")?;
            flatten_into(items, &mut out)?;
            Ok(Value::Tuple(out.into()))
        },
        "keys" => |a, _| match arg(a, 0)? {
            Value::Unknown => Ok(Value::Unknown),
            v => Ok(Value::List(
                map_of(v)?
                    .keys()
                    .map(|k| Value::string(k.clone()))
                    .collect(),
            )),
        },
        "values" => |a, _| match arg(a, 0)? {
            Value::Unknown => Ok(Value::Unknown),
            v => Ok(Value::Tuple(map_of(v)?.values().cloned().collect())),
        },
        "lookup" => |a, _| {
            let map = arg(a, 0)?;
            if !map.is_known() {
                return Ok(Value::Unknown);
            }
            let key = text(a, 1)?;
            match map_of(map)?.get(&key) {
                Some(v) => Ok(v.clone()),
                None => a
                    .get(2)
                    .cloned()
                    .ok_or_else(|| format!("lookup failed to find key {key:?}")),
            }
        },
        "merge" => |a, _| {
            let mut out = BTreeMap::new();
            for v in a {
                match v {
                    Value::Null => {}
                    Value::Unknown => return Ok(Value::Unknown),
                    v => out.extend(
                        v.attributes()
                            .ok_or_else(|| {
                                format!(
                                    "arguments must be maps or objects, got {:?}",
                                    v.type_name()
                                )
                            })?
                            .clone(),
                    ),
                }
            }
            Ok(Value::Object(out.into()))
        },
        "range" => range,
        "reverse" => |a, _| {
            let v = arg(a, 0)?;
            let mut items = v
                .elements()
                .ok_or_else(|| {
                    format!(
                        "can only reverse list or tuple values, not {}",
                        v.type_name()
                    )
                })?
                .to_vec();
            items.reverse();
            Ok(Value::Tuple(items.into()))
        },
        "slice" => |a, _| {
            let items = elements(a, 0)?;
            let (from, to) = (integer(a, 1)?, integer(a, 2)?);
            // go-cty's checks, in its order.
            if from < 0 {
                return Err("start index must not be less than zero".into());
            }
            if to > items.len() as i64 {
                return Err("end index must not be greater than the length of the list".into());
            }
            if to < 0 {
                return Err("end index must not be less than zero".into());
            }
            if from > to {
                return Err("start index must not be greater than end index".into());
            }
            Ok(Value::List(
                items[from as usize..to as usize].to_vec().into(),
            ))
        },
        "sort" => |a, _| {
            let mut items = elements(a, 0)?
                .iter()
                .map(|v| {
                    v.to_text()
                        .map(Value::String)
                        .ok_or("given list element is not a string")
                })
                .collect::<Result<Vec<_>, _>>()?;
            items.sort_by(compare);
            Ok(Value::List(items.into()))
        },
        "zipmap" => |a, _| {
            let keys = elements(a, 0)?;
            let values = elements(a, 1)?;
            if keys.len() != values.len() {
                return Err(format!(
                    "number of keys ({}) does not match number of values ({})",
                    keys.len(),
                    values.len()
                ));
            }
            let mut out = BTreeMap::new();
            for (k, v) in keys.iter().zip(values) {
                out.insert(k.to_text().ok_or("keys must be strings")?, v.clone());
            }
            Ok(Value::Object(out.into()))
        },
        "coalesce" => |a, _| {
            for v in a {
                match v {
                    Value::Unknown => return Ok(Value::Unknown),
                    Value::Null => {}
                    Value::String(s) if s.is_empty() => {}
                    v => return Ok(v.clone()),
                }
            }
            Err("no non-null, non-empty-string arguments".into())
        },
        "coalescelist" => |a, _| {
            for i in 0..a.len() {
                let items =
                    elements(a, i).map_err(|_| "coalescelist arguments must be lists or tuples")?;
                if !items.is_empty() {
                    return Ok(a[i].clone());
                }
            }
            Err("no non-null arguments".into())
        },
        "compact" => |a, _| {
            let items = elements(a, 0)?;
            if items.iter().any(|v| !v.is_known()) {
                return Ok(Value::Unknown);
            }
            Ok(Value::List(
                items
                    .iter()
                    .filter(|v| !v.is_null() && v.as_str() != Some(""))
                    .cloned()
                    .collect(),
            ))
        },
        "index" => |a, _| {
            let needle = arg(a, 1)?;
            if elements(a, 0)?.is_empty() {
                return Err("cannot search an empty list".into());
            }
            elements(a, 0)?
                .iter()
                .position(|v| v.equals(needle))
                .map(|i| Value::Number(i as f64))
                .ok_or_else(|| "item not found".into())
        },
        "one" => |a, _| match arg(a, 0)? {
            Value::Unknown => Ok(Value::Unknown),
            v => match v.elements() {
                Some([]) => Ok(Value::Null),
                Some([only]) => Ok(only.clone()),
                _ => Err(
                    "must be a list, set, or tuple value with either zero or one elements".into(),
                ),
            },
        },
        "setunion" => |a, _| {
            let mut out = Vec::new();
            for i in 0..a.len() {
                out.extend(elements(a, i)?.iter().cloned());
            }
            Ok(Value::set(out))
        },
        "setintersection" => |a, _| {
            let mut out = elements(a, 0)?.to_vec();
            for i in 1..a.len() {
                let other = Members::of(elements(a, i)?);
                out.retain(|v| other.contains(v));
            }
            Ok(Value::set(out))
        },
        "setsubtract" => |a, _| {
            let other = Members::of(elements(a, 1)?);
            let out = elements(a, 0)?
                .iter()
                .filter(|v| !other.contains(v))
                .cloned()
                .collect();
            Ok(Value::set(out))
        },
        "setproduct" => |a, ev| {
            let mut total = 1usize;
            for i in 0..a.len() {
                total = total.saturating_mul(elements(a, i)?.len());
            }
            // Every row holds one element of each argument.
            element_limit(total.saturating_mul(a.len()))?;
            // Each element of an argument of n elements is copied into total / n rows:
            // the result's read counts them, but they must fit before they are made.
            let mut weight = 0u64;
            for i in 0..a.len() {
                let times = total / elements(a, i)?.len().max(1);
                weight = weight.saturating_add(copies(&a[i], times as u64));
            }
            ev.afford(weight)?;
            let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
            for i in 0..a.len() {
                let items = elements(a, i)?;
                rows = rows
                    .into_iter()
                    .flat_map(|row| {
                        items.iter().map(move |v| {
                            let mut r = row.clone();
                            r.push(v.clone());
                            r
                        })
                    })
                    .collect();
            }
            Ok(Value::List(
                rows.into_iter().map(|r| Value::Tuple(r.into())).collect(),
            ))
        },
        "chunklist" => |a, _| {
            let items = elements(a, 0)?;
            let size = integer(a, 1)?;
            if size < 0 {
                return Err("the size argument must be positive".into());
            }
            if size == 0 {
                return Ok(Value::List(vec![Value::List(items.to_vec().into())].into()));
            }
            Ok(Value::List(
                items
                    .chunks(size as usize)
                    .map(|c| Value::List(c.to_vec().into()))
                    .collect(),
            ))
        },
        "transpose" => |a, _| {
            let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
            for (k, vs) in map_of(arg(a, 0)?)? {
                for v in vs.elements().ok_or("values must be lists of strings")? {
                    out.entry(v.to_text().ok_or("values must be lists of strings")?)
                        .or_default()
                        .push(Value::string(k.clone()));
                }
            }
            Ok(Value::Map(
                out.into_iter()
                    .map(|(k, v)| (k, Value::List(v.into())))
                    .collect(),
            ))
        },
        // Terraform's: a null element is false to alltrue and skipped by anytrue.
        "alltrue" => |a, _| {
            for v in elements(a, 0)? {
                if v.is_null() || !v.to_bool().ok_or("elements must be bools")? {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        },
        "anytrue" => |a, _| {
            for v in elements(a, 0)? {
                if !v.is_null() && v.to_bool().ok_or("elements must be bools")? {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        },
        "sum" => |a, _| {
            let items = elements(a, 0)?;
            if items.is_empty() {
                return Err("cannot sum an empty list".into());
            }
            let mut total = 0.0;
            for i in 0..items.len() {
                total += number(items, i).map_err(|_| {
                    "argument must be list, set, or tuple of number values".to_string()
                })?;
            }
            Ok(Value::Number(total))
        },
        "matchkeys" => |a, _| {
            let values = elements(a, 0)?;
            let keys = elements(a, 1)?;
            let search = elements(a, 2)?;
            if values.len() != keys.len() {
                return Err("length of keys and values should be equal".into());
            }
            let search = Members::of(search);
            Ok(Value::List(
                values
                    .iter()
                    .zip(keys)
                    .filter(|(_, k)| search.contains(k))
                    .map(|(v, _)| v.clone())
                    .collect(),
            ))
        },
        _ => return None,
    })
}

fn length(a: &[Value], _: &Evaluator) -> Outcome {
    match arg(a, 0)? {
        Value::Unknown => Ok(Value::Unknown),
        Value::String(s) => Ok(Value::Number(s.chars().count() as f64)),
        Value::Set(items) if items.iter().any(|v| !v.is_wholly_known()) => {
            Ok(super::refined::set_length(items.len()))
        }
        v => v
            .elements()
            .map(<[Value]>::len)
            .or_else(|| v.attributes().map(BTreeMap::len))
            .map(|n| Value::Number(n as f64))
            .ok_or_else(|| {
                "argument must be a string, a collection type, or a structural type".to_string()
            }),
    }
}

fn range(a: &[Value], _: &Evaluator) -> Outcome {
    let (start, end, step) = match a.len() {
        1 => (0.0, number(a, 0)?, 1.0),
        2 => {
            let (s, e) = (number(a, 0)?, number(a, 1)?);
            (s, e, if e < s { -1.0 } else { 1.0 })
        }
        3 => (number(a, 0)?, number(a, 1)?, number(a, 2)?),
        _ => return Err("must have one, two, or three arguments".into()),
    };
    if step == 0.0 {
        return Err("step must not be zero".into());
    }
    let mut out = Vec::new();
    let mut x = start;
    while (step > 0.0 && x < end) || (step < 0.0 && x > end) {
        out.push(Value::Number(x));
        x += step;
        if out.len() > 1024 {
            return Err("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step".into());
        }
    }
    Ok(Value::List(out.into()))
}

fn flatten_into(items: &[Value], out: &mut Vec<Value>) -> Result<(), String> {
    for item in items {
        match item.elements() {
            Some(inner) => flatten_into(inner, out)?,
            None => out.push(item.clone()),
        }
    }
    Ok(())
}

/// The elements of a collection, in order, to tell in logarithmic time whether a value
/// equals one of them (`equals` is `compare`'s equality), so that the set functions and
/// `matchkeys` take time n log n rather than n times m.
struct Members<'a>(Vec<&'a Value>);

impl<'a> Members<'a> {
    fn of(items: &'a [Value]) -> Self {
        let mut sorted: Vec<&Value> = items.iter().collect();
        sorted.sort_by(|a, b| compare(a, b));
        Self(sorted)
    }

    fn contains(&self, v: &Value) -> bool {
        self.0.binary_search_by(|m| compare(m, v)).is_ok()
    }
}

/// For each of `items`, whether no equal item comes before it (what `distinct` keeps),
/// found by sorting rather than by comparing every pair.
fn first_of_each(items: &[Value]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&i, &j| compare(&items[i], &items[j]).then(i.cmp(&j)));
    let mut first = vec![false; items.len()];
    let mut previous: Option<&Value> = None;
    for i in order {
        if previous.is_none_or(|p| !p.equals(&items[i])) {
            first[i] = true;
        }
        previous = Some(&items[i]);
    }
    first
}

/// A map or object argument.
fn map_of(v: &Value) -> Result<&BTreeMap<String, Value>, String> {
    v.attributes()
        .ok_or_else(|| "must have map or object type".to_string())
}
