//! The prior-state reader: any text is a state or one of Terraform's load errors.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata::plan::parse_state;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_state(text, "terraform.tfstate");
    }
});
