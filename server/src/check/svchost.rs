//! A provider source's hostname as terraform-svchost's `ForComparison` reads it: a port
//! after the first `:`, labels between dots (no empty one, none given in punycode), then
//! IDNA's `Lookup.ToASCII` (`idna/`), whose error texts Terraform quotes.

use super::idna::lookup_to_ascii;
use crate::text::go_quote::go_quote;

/// A hostname svchost accepted, with its normalized port.
#[derive(Debug, PartialEq)]
pub(super) struct Hostname {
    /// What `ForComparison` returns and Terraform compares: lowercase, punycode for
    /// labels outside ASCII.
    pub(super) comparison: String,
    /// `Hostname.ForDisplay`, which Terraform's messages print: the labels in Unicode.
    pub(super) display: String,
}

/// What `ForComparison` makes of `given`: the hostname, or the error text Terraform
/// prints.
pub(super) fn for_comparison(given: &str) -> Result<Hostname, String> {
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
                "hostname label {} specified in punycode format; service hostnames must be given in unicode",
                go_quote(label)
            ));
        }
    }
    match lookup_to_ascii(host) {
        Ok(converted) => Ok(Hostname {
            comparison: converted.ascii + &port,
            display: converted.unicode + &port,
        }),
        Err(why) => Err(why.to_string()),
    }
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

/// The labels of a name as svchost's `labelIter` visits them: split at dots, where a
/// name that ends in `.` or `..` has its last label (or two) skipped.
fn labels(host: &str) -> Vec<&str> {
    let mut labels = Vec::new();
    let mut start = 0;
    while start < host.len() {
        let end = host[start..]
            .find('.')
            .map_or(host.len(), |dot| start + dot);
        labels.push(&host[start..end]);
        start = end + 1;
        if start + 1 == host.len() && host[start..].starts_with('.') {
            break;
        }
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::for_comparison;

    #[test]
    fn hostnames_are_compared_as_svchost_compares_them() {
        let ok = |given: &str, want: &str| {
            let got = for_comparison(given).map(|host| host.comparison);
            assert_eq!(got, Ok(want.to_string()), "{given}")
        };
        ok("Example.COM", "example.com");
        ok("example.com:443", "example.com");
        ok("example.com:0443", "example.com");
        ok("example.com:+80", "example.com:80");
        ok("example.com.", "example.com.");
        ok("a--b.com", "a--b.com");
        ok("a..", "a..");
        ok("exÄmple.com", "xn--exmple-cua.com");
        let display = for_comparison("exÄmple.com:80").map(|host| host.display);
        assert_eq!(display, Ok("exämple.com:80".to_string()));
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
        err(
            "a...",
            "hostname contains empty label (two consecutive periods)",
        );
        err(
            "ok.xn--abc",
            "hostname label \"xn--abc\" specified in punycode format; service hostnames must be given in unicode",
        );
        err("ok.XN--abc", r#"idna: invalid label "\u0082\u0081\u0080""#);
    }
}
