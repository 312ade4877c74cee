//! A file that is not all UTF-8, read so that the rest of it can still be analysed as
//! Terraform analyses it: every byte that is not part of a UTF-8 sequence becomes one
//! placeholder byte, so offsets, lines and columns stay those of the file, and where
//! those bytes were is kept for the syntax layer, which reports them as HCL's scanner
//! does (`Invalid character encoding`).

/// What stands for a byte that is not UTF-8: one byte, so that offsets do not move, and
/// no character of the language, so that nothing reads it as part of a name or number;
/// JSON strings take it as they take any byte (a control character below U+0020 they
/// would refuse).
pub const PLACEHOLDER: char = '\u{7f}';

/// `bytes` as text, each byte that is not part of a UTF-8 sequence replaced by
/// [`PLACEHOLDER`], with the offsets of those bytes (in order; empty for UTF-8 text).
pub fn decode_lossless(bytes: Vec<u8>) -> (String, Vec<usize>) {
    let mut bytes = match String::from_utf8(bytes) {
        Ok(text) => return (text, Vec::new()),
        Err(e) => e.into_bytes(),
    };
    let mut invalid = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match std::str::from_utf8(&bytes[at..]) {
            Ok(_) => break,
            Err(e) => {
                let bad = at + e.valid_up_to();
                // Each byte of a broken sequence is one bad byte to HCL's scanner.
                let len = e.error_len().unwrap_or(bytes.len() - bad);
                bytes[bad..bad + len].fill(PLACEHOLDER as u8);
                invalid.extend(bad..bad + len);
                at = bad + len;
            }
        }
    }
    let text = String::from_utf8(bytes).unwrap_or_default(); // valid by construction
    (text, invalid)
}

#[cfg(test)]
mod tests {
    use super::decode_lossless;

    #[test]
    fn bad_bytes_become_one_placeholder_each() {
        assert_eq!(decode_lossless(b"ok".to_vec()), ("ok".into(), vec![]));
        let (text, invalid) = decode_lossless(b"a\xffb\xe2\x82c\xc3".to_vec());
        assert_eq!(text, "a\u{7f}b\u{7f}\u{7f}c\u{7f}");
        assert_eq!(invalid, vec![1, 3, 4, 6]);
        let (text, invalid) = decode_lossless(vec![0xc3, 0xa9, 0xff]);
        assert_eq!(text, "é\u{7f}");
        assert_eq!(invalid, vec![2]);
    }
}
