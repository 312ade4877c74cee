//! Every bound Strata puts on the work one input may cause, in one place.
//!
//! Terraform itself has almost no such limits (Go's stacks grow to a gigabyte), so each
//! one here is Strata's, chosen far above what real configurations need, and each ends in
//! a diagnostic that names it instead of a crash, a hang or an exhausted memory. The
//! layers below read these constants; nothing else defines a limit of its own.

/// How deeply blocks, brackets, templates and operators may nest in one body item.
///
/// hcl-edit refuses more than this many nested levels in a file it parses whole (its own
/// `MAX_NESTING_DEPTH`); recovery, which parses a broken file piece by piece, and the
/// diagnosis of HCL's errors stop at the same depth, so no syntax tree that the later
/// layers walk recursively is deeper.
pub const MAX_NESTING_DEPTH: usize = 64;

/// The stack of every thread Strata analyses on (index workers, the server's runtime):
/// parsing and the walks over syntax recurse once per nesting level, and at
/// [`MAX_NESTING_DEPTH`] hcl-edit's parser alone needs more than the 2 MiB threads get by
/// default (in debug builds; the main thread has 8 MiB).
pub const THREAD_STACK_BYTES: usize = 16 * 1024 * 1024;

/// How many evaluation steps one expression may take: each expression node evaluated,
/// each element a `for` expression or template directive iterates, and each node of a
/// value read through a reference (counted as a copy, though the copy shares its
/// collections, `eval/shared.rs`). Ends runaway growth such as `l_i = [l_(i-1), l_(i-1)]`
/// and directives over huge collections.
pub const MAX_EVALUATION_STEPS: u64 = 2_000_000;

/// How many bytes of strings count as one evaluation step: those read, copied, built,
/// hashed or encoded (a 64 MiB string is a million steps). Charged in bulk where a value
/// is read or made, so that work proportional to bytes, such as hashing a long string in
/// a `for` over thousands of elements, ends within the step budget too.
pub const BYTES_PER_STEP: u64 = 64;

/// How many evaluation steps a whole plan may take, over every expression it evaluates.
pub const MAX_PLAN_STEPS: u64 = 10_000_000;

/// How deeply a value may nest (lists in lists, objects in objects): deeper values are
/// refused where they are read, before the recursive operations on values meet them.
pub const MAX_VALUE_DEPTH: usize = 256;

/// The longest string a template may produce, in bytes.
pub const MAX_STRING_BYTES: usize = 64 * 1024 * 1024;

/// How many values of a plan may be in computation one inside the other (a local that
/// needs a local that needs ...). Long chains are settled with an explicit work stack
/// first (`plan::planner::chains`), so only reference cycles and what that misses come
/// near it.
pub const MAX_REFERENCE_DEPTH: usize = 256;

/// How many instances one resource or one module call may have (`count`, `for_each`).
pub const MAX_INSTANCES_PER_RESOURCE: usize = 10_000;

/// How many instances, of resources and modules together, one plan may hold.
pub const MAX_INSTANCES_PER_PLAN: usize = 100_000;

/// The detail shared by every limit's diagnostic: what Terraform would do instead.
pub fn beyond_terraform() -> &'static str {
    "Terraform itself has no such limit; Strata stops here so that one input cannot \
     exhaust the time or memory of the editor."
}

/// How many module paths (`module.a.module.b`) `strata check` names one called module by:
/// Terraform walks a module once per path, which grows exponentially with modules that
/// call one child several times, level after level.
pub const MAX_MODULE_PATHS: usize = 64;
