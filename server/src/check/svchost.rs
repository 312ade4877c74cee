//! A provider source's hostname as terraform-svchost's `ForComparison` reads it: a port
//! after the first `:`, labels between dots, then IDNA's UTS-46 `Lookup.ToASCII`
//! (golang.org/x/net/idna), whose error texts Terraform quotes.
//!
//! Strata reads the ASCII part of IDNA exactly: which ASCII runes UTS-46 allows with
//! STD3 rules, lowercase mapping, and the hyphen rules of a label. A name with other
//! characters, or a label IDNA would decode from punycode, needs Unicode's IDNA tables;
//! Strata does not hold them and says nothing of such a name.

/// What `ForComparison` makes of `given`: the hostname Terraform compares (lowercase,
/// with a normalized port), `Err` with the error text Terraform prints, or `Ok(None)`
/// when the answer depends on IDNA tables Strata does not hold.
pub(super) fn for_comparison(given: &str) -> Result<Option<String>, String> {
    let (host, port) = match given.find(':') {
        Some(colon) => given.split_at(colon),
        None => (given, ""),
    };
    let port = match normalize_port(port) {
        Ok(port) => port,
        Err(why) => {
            let lower = host.to_lowercase();
            if lower == "https" || lower == "http" {
                return Err("need just a hostname and optional port number, not a full URL".into());
            }
            return Err(why.into());
        }
    };
    if host.is_empty() {
        return Err("empty string is not a valid hostname".into());
    }
    for label in labels(host) {
        if label.is_empty() {
            return Err("hostname contains empty label (two consecutive periods)".into());
        }
        if label.starts_with(ACE_PREFIX) {
            return Err(format!(
                "hostname label {label:?} specified in punycode format; service hostnames must be given in unicode"
            ));
        }
    }
    Ok(to_ascii(host)?.map(|ascii| ascii + &port))
}

/// The prefix of a label written in punycode.
const ACE_PREFIX: &str = "xn--";

/// `normalizePortPortion`: `:N` as Go's `strconv.Atoi` reads `N` (a sign allowed, 64
/// bits), the default `:443` dropped.
fn normalize_port(port: &str) -> Result<String, &'static str> {
    let Some(digits) = port.strip_prefix(':') else {
        return Ok(String::new()); // empty: `find` put any colon first
    };
    let Ok(number) = digits.parse::<i64>() else {
        return Err("port portion contains non-digit characters");
    };
    match number {
        443 => Ok(String::new()),
        n if n > 65535 => Err("port number is greater than 65535"),
        n => Ok(format!(":{n}")),
    }
}

/// The labels of a name as IDNA's `labelIter` gives them: split at dots, an empty last
/// label (a trailing dot) skipped.
fn labels(host: &str) -> impl Iterator<Item = &str> {
    let mut all: Vec<&str> = host.split('.').collect();
    if all.len() > 1 && all.last() == Some(&"") {
        all.pop();
    }
    all.into_iter()
}

/// `idna.Lookup.ToASCII` over an ASCII name: the first rune UTS-46 disallows with STD3
/// rules wins over any label error, then the first label breaking the hyphen rules.
fn to_ascii(host: &str) -> Result<Option<String>, String> {
    if !host.is_ascii() {
        return Ok(None);
    }
    if let Some(c) = host
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.')))
    {
        return Err(format!("idna: disallowed rune U+{:04X}", c as u32));
    }
    let mapped = host.to_ascii_lowercase();
    for label in labels(&mapped) {
        if label.starts_with(ACE_PREFIX) {
            return Ok(None); // decoded from punycode, then checked against the tables
        }
        let bytes = label.as_bytes();
        let hyphens34 = bytes.len() > 4 && &bytes[2..4] == b"--";
        if hyphens34 || label.starts_with('-') || label.ends_with('-') {
            return Err(format!("idna: invalid label {label:?}"));
        }
    }
    Ok(Some(mapped))
}

#[cfg(test)]
mod tests {
    use super::for_comparison;

    #[test]
    fn hostnames_are_compared_as_svchost_compares_them() {
        let ok = |given: &str, want: &str| {
            assert_eq!(for_comparison(given), Ok(Some(want.to_string())), "{given}")
        };
        ok("Example.COM", "example.com");
        ok("example.com:443", "example.com");
        ok("example.com:0443", "example.com");
        ok("example.com:+80", "example.com:80");
        ok("example.com.", "example.com.");
        ok("a--b.com", "a--b.com");
        let err = |given: &str, want: &str| {
            assert_eq!(for_comparison(given), Err(want.to_string()), "{given}")
        };
        err("x:http", "port portion contains non-digit characters");
        err("x:", "port portion contains non-digit characters");
        err("x:70000", "port number is greater than 65535");
        err(
            "HTTP:8x",
            "need just a hostname and optional port number, not a full URL",
        );
        err(":80", "empty string is not a valid hostname");
        err(
            ".a",
            "hostname contains empty label (two consecutive periods)",
        );
        err("a_b-.com", "idna: disallowed rune U+005F");
        err("BAD-.com", "idna: invalid label \"bad-\"");
        err("ab--cd.com", "idna: invalid label \"ab--cd\"");
        assert_eq!(for_comparison("exämple.com"), Ok(None));
        assert_eq!(for_comparison("ok.XN--abc"), Ok(None));
    }
}
