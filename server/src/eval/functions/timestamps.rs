//! RFC 3339 timestamps as Go's `time.Parse(time.RFC3339, ...)` reads them, with the
//! errors it gives (which element of the layout failed, and on what remaining text),
//! and the words go-cty and Terraform make of those errors.

/// A moment with the UTC offset it was written in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub seconds: i64,
    pub nanos: u32,
    /// The offset east of UTC, in seconds, the timestamp was written with.
    pub offset: i32,
}

/// Go's `time.ParseError`: the layout element that failed, the value text left when it
/// failed, and the message Go adds to some failures (a range error).
#[derive(Debug, PartialEq)]
pub(super) struct ParseError {
    layout_elem: &'static str,
    value_elem: String,
    message: String,
}

impl ParseError {
    fn new(layout_elem: &'static str, value_elem: &str, message: &str) -> ParseError {
        ParseError {
            layout_elem,
            value_elem: value_elem.to_string(),
            message: message.to_string(),
        }
    }

    /// The reason Terraform's and go-cty's `parseTimestamp` give for the error; `strict`
    /// adds go-cty's words for hours and minutes of the wrong width.
    fn reason(&self, strict: bool) -> String {
        let lead = "not a valid RFC3339 timestamp";
        if self.layout_elem.is_empty() && self.value_elem.is_empty() && !self.message.is_empty() {
            return format!("{lead}{}", self.message);
        }
        let what = match self.layout_elem {
            "2006" => "year",
            "01" => "month",
            "02" => "day of month",
            "15" => "hour",
            "04" => "minute",
            "05" => "second",
            "Z07:00" => "UTC offset",
            "T" => return format!("{lead}: missing required time introducer 'T'"),
            ":" | "-" if self.value_elem.is_empty() => {
                return format!(
                    "{lead}: end of string where {:?} is expected",
                    self.layout_elem
                )
            }
            ":" | "-" => {
                return format!(
                    "{lead}: found {:?} where {:?} is expected",
                    self.value_elem, self.layout_elem
                )
            }
            _ => "timestamp segment",
        };
        let v = &self.value_elem;
        match () {
            _ if v.is_empty() => format!("{lead}: end of string before {what}"),
            _ if strict && what == "hour" && v.contains(':') => {
                format!("{lead}: hour must be between 0 and 23 inclusive")
            }
            _ if strict && what == "hour" && v.len() != 2 => {
                format!("{lead}: hour must have exactly two digits")
            }
            _ if strict && what == "minute" && v.len() != 2 => {
                format!("{lead}: minute must have exactly two digits")
            }
            _ => format!("{lead}: cannot use {v:?} as {what}"),
        }
    }
}

/// Parses `s` as Terraform's `timecmp` does (Go's `time.Parse`), failing with its reason.
pub(super) fn parse(s: &str) -> Result<Timestamp, String> {
    go_parse(s).map_err(|e| e.reason(false))
}

/// Parses `s` as go-cty's `formatdate` and `timeadd` do: Go's `time.Parse`, then the
/// stricter checks go-cty adds (two-digit hours, a period before fractions, offsets
/// within a day).
pub(super) fn parse_strict(s: &str) -> Result<Timestamp, String> {
    let t = go_parse(s).map_err(|e| e.reason(true))?;
    let b = s.as_bytes();
    let two = |at: usize| (b[at] - b'0') * 10 + (b[at + 1] - b'0');
    let error = if b.get(12) == Some(&b':') {
        Some(ParseError::new(
            "15",
            &s[11..12],
            ": hour must have two digits",
        ))
    } else if b.get(19) == Some(&b',') {
        Some(ParseError::new(
            ".",
            ",",
            ": sub-second separator must be a period",
        ))
    } else if b.last() != Some(&b'Z') && two(b.len() - 5) >= 24 {
        Some(ParseError::new(
            "Z07:00",
            &s[s.len() - 6..],
            ": timezone hour out of range",
        ))
    } else if b.last() != Some(&b'Z') && two(b.len() - 2) >= 60 {
        Some(ParseError::new(
            "Z07:00",
            &s[s.len() - 6..],
            ": timezone minute out of range",
        ))
    } else {
        None
    };
    match error {
        Some(e) => Err(e.reason(true)),
        None => Ok(t),
    }
}

/// Go's `getnum`: one or two leading digits (exactly two when `fixed`).
fn getnum(s: &str, fixed: bool) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    let digit = |i: usize| {
        b.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| (c - b'0') as i64)
    };
    let first = digit(0)?;
    match digit(1) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None if fixed => None,
        None => Some((first, &s[1..])),
    }
}

/// Go's `skip`: the literal `prefix` at the start of `value`.
fn skip<'a>(value: &'a str, prefix: &'static str) -> Result<&'a str, ParseError> {
    value
        .strip_prefix(prefix)
        .ok_or_else(|| ParseError::new(prefix, value, ""))
}

/// Go's `time.Parse` with the RFC 3339 layout, element by element.
fn go_parse(value: &str) -> Result<Timestamp, ParseError> {
    let bad = |elem: &'static str, hold: &str| ParseError::new(elem, hold, "");
    let range = |elem: &'static str, rest: &str, what: &str| {
        ParseError::new(elem, rest, &format!(": {what} out of range"))
    };
    // The year: four characters.
    if value.len() < 4 || !value.is_char_boundary(4) {
        return Err(bad("2006", value));
    }
    // Go takes four digits (no sign).
    if !value.as_bytes()[..4].iter().all(u8::is_ascii_digit) {
        return Err(bad("2006", value));
    }
    let y: i64 = value[..4].parse().map_err(|_| bad("2006", value))?;
    let v = skip(&value[4..], "-")?;
    let (month, rest) = getnum(v, true).ok_or_else(|| bad("01", v))?;
    if !(1..=12).contains(&month) {
        return Err(range("01", rest, "month"));
    }
    let v = skip(rest, "-")?;
    let (day, rest) = getnum(v, true).ok_or_else(|| bad("02", v))?;
    let v = skip(rest, "T")?;
    let (hour, rest) = getnum(v, false).ok_or_else(|| bad("15", v))?;
    if hour >= 24 {
        return Err(range("15", rest, "hour"));
    }
    let v = skip(rest, ":")?;
    let (minute, rest) = getnum(v, true).ok_or_else(|| bad("04", v))?;
    if minute >= 60 {
        return Err(range("04", rest, "minute"));
    }
    let v = skip(rest, ":")?;
    let (second, mut rest) = getnum(v, true).ok_or_else(|| bad("05", v))?;
    if second >= 60 {
        return Err(range("05", rest, "second"));
    }
    let mut nanos = 0u32;
    let rb = rest.as_bytes();
    if rb.len() >= 2 && (rb[0] == b'.' || rb[0] == b',') && rb[1].is_ascii_digit() {
        let n = 1 + rb[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        // Go reads at most nine digits, and ignores the rest.
        let digits = &rest[1..n.min(10)];
        nanos = format!("{digits:0<9}").parse().unwrap_or(0);
        rest = &rest[n..];
    }
    let (offset, rest) = zone(rest)?;
    if !rest.is_empty() {
        return Err(ParseError::new(
            "",
            rest,
            &format!(": extra text: {rest:?}"),
        ));
    }
    if day < 1 || day > days_in(month, y) {
        return Err(ParseError::new("", "", ": day out of range"));
    }
    let days = days_from_civil(y, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset as i64;
    Ok(Timestamp {
        seconds,
        nanos,
        offset,
    })
}

/// The `Z07:00` element: `Z`, or a signed `hh:mm` offset.
fn zone(value: &str) -> Result<(i32, &str), ParseError> {
    if let Some(rest) = value.strip_prefix('Z') {
        return Ok((0, rest));
    }
    let b = value.as_bytes();
    let bad = || ParseError::new("Z07:00", value, "");
    if b.len() < 6 || b[3] != b':' || !value.is_char_boundary(6) {
        return Err(bad());
    }
    let (hr, _) = getnum(&value[1..3], true).ok_or_else(bad)?;
    let (mm, _) = getnum(&value[4..6], true).ok_or_else(bad)?;
    let rest = &value[6..];
    // Go takes offsets of up to 24 hours or 60 minutes, as some write them.
    if hr > 24 {
        return Err(ParseError::new(
            "Z07:00",
            rest,
            ": time zone offset hour out of range",
        ));
    }
    if mm > 60 {
        return Err(ParseError::new(
            "Z07:00",
            rest,
            ": time zone offset minute out of range",
        ));
    }
    let offset = ((hr * 60 + mm) * 60) as i32;
    match b[0] {
        b'+' => Ok((offset, rest)),
        b'-' => Ok((-offset, rest)),
        _ => Err(bad()),
    }
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// The days of `month` in year `y`.
pub(super) fn days_in(month: i64, y: i64) -> i64 {
    match month {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date (year, month, day) of a day counted from 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A timestamp's fields in the offset it was written with.
pub(super) struct Civil {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    /// 0 for Sunday.
    pub weekday: i64,
}

impl Timestamp {
    /// The date and time on the wall clock of the timestamp's offset.
    pub(super) fn civil(&self) -> Civil {
        let local = self.seconds + self.offset as i64;
        let days = local.div_euclid(86_400);
        let secs = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: secs / 3600,
            minute: secs / 60 % 60,
            second: secs % 60,
            weekday: (days + 4).rem_euclid(7),
        }
    }

    /// The offset as Go formats `-07:00`, or `Z` for UTC when `z`.
    pub(super) fn zone(&self, colon: bool, z: bool) -> String {
        if z && self.offset == 0 {
            return "Z".into();
        }
        let sign = if self.offset < 0 { '-' } else { '+' };
        let m = self.offset.unsigned_abs() / 60;
        let sep = if colon { ":" } else { "" };
        format!("{sign}{:02}{sep}{:02}", m / 60, m % 60)
    }

    /// Go's `Format(time.RFC3339)` (seconds, no fraction).
    pub(super) fn rfc3339(&self) -> String {
        let c = self.civil();
        // Go writes a negative year's sign before four digits.
        let year = if c.year < 0 {
            format!("-{:04}", -c.year)
        } else {
            format!("{:04}", c.year)
        };
        format!(
            "{year}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
            c.month,
            c.day,
            c.hour,
            c.minute,
            c.second,
            self.zone(true, true)
        )
    }

    /// The timestamp `nanos` nanoseconds later (earlier when negative).
    pub(super) fn add(&self, nanos: i128) -> Timestamp {
        let total = self.seconds as i128 * 1_000_000_000 + self.nanos as i128 + nanos;
        Timestamp {
            seconds: total.div_euclid(1_000_000_000) as i64,
            nanos: total.rem_euclid(1_000_000_000) as u32,
            offset: self.offset,
        }
    }

    /// Nanoseconds since 1970, to order two timestamps.
    pub(super) fn instant(&self) -> i128 {
        self.seconds as i128 * 1_000_000_000 + self.nanos as i128
    }
}
