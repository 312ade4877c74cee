//! The planner on generated modules: a root module, a prior state and one local child
//! module that every local `source` of either module loads (so that module calls, their
//! fan-out and their cycles are reachable), planned as `strata plan` plans.
//!
//! Input: the root module's files (joined by NUL bytes), then a byte 0x01 and the state
//! (empty when missing or unreadable), then a byte 0x01 and the child module's files.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use strata::merge::{merge, MergedModule};
use strata::plan::{parse_state, plan, Configuration, PlanOptions, State};
use strata::schema::NoProviderSchemas;
use strata_fuzz::PART_SEPARATOR;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == PART_SEPARATOR);
    let root_files = strata_fuzz::files(parts.next().unwrap_or_default());
    let state = parts
        .next()
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| parse_state(s, "terraform.tfstate").ok())
        .unwrap_or_else(State::default);
    let child_files = strata_fuzz::files(parts.next().unwrap_or_default());

    let root_dir = Path::new("/nonexistent/strata-fuzz/root");
    let child_dir = root_dir.join("child");
    let root = Arc::new(merge(&strata_fuzz::module(root_dir, &root_files)));
    let child = Arc::new(merge(&strata_fuzz::module(&child_dir, &child_files)));
    let find = |_from: &Path, source: &str| -> Option<(PathBuf, Arc<MergedModule>)> {
        (source.starts_with("./") || source.starts_with("../"))
            .then(|| (child_dir.clone(), child.clone()))
    };
    let config = Configuration {
        root_dir: root_dir.to_path_buf(),
        root,
        child: &find,
        schemas: &NoProviderSchemas,
    };
    plan(&config, &state, &PlanOptions::default());
});
