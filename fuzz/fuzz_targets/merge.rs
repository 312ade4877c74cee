//! Override merging: a module of up to six files (primary and override, native and
//! JSON) is merged, and its effective configuration rendered as `strata merged` does.
//!
//! Input: the files' texts joined by NUL bytes.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use strata::merge::{merge, render::render_module};

fuzz_target!(|data: &[u8]| {
    let files = strata_fuzz::files(data);
    let module = strata_fuzz::module(Path::new("/nonexistent/strata-fuzz"), &files);
    let merged = merge(&module);
    render_module(&merged);
});
