//! The native HCL parser (with its error recovery and HCL's diagnosis): any text parses
//! to a tree without panicking, and parsing again with that tree as the last good one
//! (as the editor does after an edit) does too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::syntax::{parse, Syntax};

fuzz_target!(|data: &[u8]| {
    let text = strata_fuzz::text(data);
    let file = parse(&text, Syntax::Native, None);
    parse(&text, Syntax::Native, Some(&file));
});
