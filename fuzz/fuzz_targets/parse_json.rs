//! HCL's JSON syntax: the scanner, the parser and its recovery, and the unfolding of the
//! value into blocks with the language schema, on any text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::syntax::{parse, Syntax};

fuzz_target!(|data: &[u8]| {
    parse(&strata_fuzz::text(data), Syntax::Json, None);
});
