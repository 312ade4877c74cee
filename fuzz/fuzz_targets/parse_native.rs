//! The native HCL parser (with its error recovery and HCL's diagnosis): any text parses
//! to a tree without panicking. (Parsing with a last good tree is the reparse target's.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::syntax::{parse, Syntax};

fuzz_target!(|data: &[u8]| {
    let text = strata_fuzz::text(data);
    parse(&text, Syntax::Native, None);
});
