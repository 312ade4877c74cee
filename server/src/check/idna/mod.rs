//! golang.org/x/net/idna's `Lookup.ToASCII` (x/net 0.36, which Terraform 1.11 holds), the
//! IDNA that terraform-svchost normalises hostnames with: UTS-46 mapping with STD3 rules
//! (`mapping.rs`), each label decoded from punycode where it starts with `xn--`
//! (`punycode.rs`) and checked (`label.rs`), the bidi rule over every label of a name
//! with a right-to-left rune (`bidi_rule.rs`), then punycode for the labels outside ASCII.
//!
//! The first failure wins, in Go's order, and its error text is Go's: the first
//! disallowed rune of the whole name; else the first label that does not decode (the
//! text after `xn--`), or whose decoded form is not NFC or holds a rune that is not
//! valid, or that breaks the label rules (the decoded or mapped label); else, for the
//! bidi rule, the whole mapped name. Empty labels are never wrong here.
//!
//! `Lookup.ToUnicode` of the ASCII form, which Terraform displays, is the labels as they
//! were before punycode: `lookup_to_ascii` gives both.
//!
//! The Unicode data is the `idna` crate's back end's (Unicode 16), where Go's is Unicode
//! 15.0: runes assigned since then are valid here and disallowed in Terraform.

mod bidi_rule;
mod label;
mod mapping;
mod punycode;

use crate::text::go_quote::go_quote;

/// The prefix of a label written in punycode.
const ACE_PREFIX: &str = "xn--";

/// Why IDNA refuses a name, displayed as x/net words it.
#[derive(Debug, PartialEq, thiserror::Error)]
pub(super) enum IdnaError {
    /// A rune the mapping disallows.
    #[error("idna: disallowed rune U+{:04X}", u32::from(*.0))]
    DisallowedRune(char),
    /// A label (or, for the bidi rule, the whole name) that fails a check.
    #[error("idna: invalid label {}", go_quote(.0))]
    InvalidLabel(String),
}

/// A name IDNA accepts, in its two forms.
#[derive(Debug, PartialEq)]
pub(super) struct Converted {
    /// `Lookup.ToASCII`: lowercase, punycode for the labels outside ASCII.
    pub(super) ascii: String,
    /// `Lookup.ToUnicode` of that: the mapped labels, decoded from punycode.
    pub(super) unicode: String,
}

/// `idna.Lookup.ToASCII(given)`: the name in ASCII (with its Unicode form), or the first
/// reason IDNA refuses it.
pub(super) fn lookup_to_ascii(given: &str) -> Result<Converted, IdnaError> {
    let mapped = mapping::map_for_lookup(given);
    if let Some(rune) = mapped.disallowed {
        return Err(IdnaError::DisallowedRune(rune));
    }
    let mut bidi = mapped.bidi;
    let mut labels: Vec<String> = mapped.name.split('.').map(str::to_string).collect();
    for label in labels.iter_mut() {
        let Some(encoded) = label.strip_prefix(ACE_PREFIX) else {
            if !label::valid(label) {
                return Err(IdnaError::InvalidLabel(label.clone()));
            }
            continue;
        };
        let Some(decoded) = punycode::decode(encoded) else {
            return Err(IdnaError::InvalidLabel(encoded.to_string()));
        };
        if !mapping::valid_from_punycode(&decoded) || !label::valid(&decoded) {
            return Err(IdnaError::InvalidLabel(decoded));
        }
        bidi = bidi || bidi_rule::has_right_to_left(&decoded);
        *label = decoded;
    }
    if bidi && !labels.iter().all(|label| bidi_rule::valid(label)) {
        return Err(IdnaError::InvalidLabel(mapped.name));
    }
    let unicode = labels.join(".");
    for label in labels.iter_mut() {
        if !label.is_ascii() {
            *label = match punycode::encode(ACE_PREFIX, label) {
                Some(encoded) => encoded,
                None => return Err(IdnaError::InvalidLabel(label.clone())),
            };
        }
    }
    Ok(Converted {
        ascii: labels.join("."),
        unicode,
    })
}

#[cfg(test)]
mod tests {
    use super::{lookup_to_ascii, IdnaError};

    #[test]
    fn names_convert_as_x_net_lookup_converts_them() {
        let ok = |given: &str, want: &str| {
            let got = lookup_to_ascii(given).map(|converted| converted.ascii);
            assert_eq!(got, Ok(want.to_string()), "{given}")
        };
        ok("ＥＸＡＭＰＬＥ.com", "example.com");
        ok("ex™.com", "extm.com");
        ok("x。y", "x.y");
        ok("Bücher.example", "xn--bcher-kva.example");
        ok("faß.de", "xn--fa-hia.de");
        ok("ex\u{ad}ample.com", "example.com");
        ok("שלום1.com", "xn--1-9hcuf1d.com");
        ok("xn--bcher-kva.com", "xn--bcher-kva.com");
        ok("xn--abc-.com", "abc.com");
        ok("ok.xn--", "ok.");
        ok("a..b.", "a..b.");
        let unicode = lookup_to_ascii("BÜCHER.xn--9dbne9b").map(|converted| converted.unicode);
        assert_eq!(unicode, Ok("bücher.שלום".to_string()));
        let err = |given: &str, want: &str| {
            let got = lookup_to_ascii(given).map_err(|e| e.to_string());
            assert_eq!(got, Err(want.to_string()), "{given}")
        };
        err("a b.com", "idna: disallowed rune U+0020");
        err("ab--cd.a⑴", "idna: disallowed rune U+2474");
        err("ok.XN--abc", r#"idna: invalid label "\u0082\u0081\u0080""#);
        err("XN---abc.com", r#"idna: invalid label "-abc""#);
        err("xn--bcher-2pa.com", r#"idna: invalid label "bÜcher""#);
        err("xn--uber-vwc.com", "idna: invalid label \"u\u{308}ber\"");
        err("xn--ab--cd-.com", r#"idna: invalid label "ab--cd""#);
        err("a\u{200d}b.com", r#"idna: invalid label "a\u200db""#);
        err("Ａ١.COM", r#"idna: invalid label "a١.com""#);
        err("ü--xyz.com", r#"idna: invalid label "ü--xyz""#);
        assert_eq!(
            lookup_to_ascii("a\u{e000}"),
            Err(IdnaError::DisallowedRune('\u{e000}'))
        );
    }
}
