//! Static evaluation of expressions: the references an expression makes (as Terraform
//! lists them), the constant value of an expression without references, and full
//! evaluation in a scope with Terraform's functions and unknown values.

mod budget;
mod conform;
mod constant;
mod evaluate;
mod every_error;
mod expression_values;
mod for_exprs;
mod functions;
mod marks;
mod operations;
mod parse_ref;
mod references;
mod refinement;
mod set_order;
mod shared;
mod splat;
mod templates;
mod value;

pub use budget::{Budget, EVALUATION_CANCELLED, EVALUATION_LIMIT};
pub use conform::conform;
pub use constant::{constant, json_literal};
pub use evaluate::{evaluate, EvalError, Scope};
pub use every_error::evaluate_every_error;
pub use expression_values::{compact, expression_values, go_quote, Causes, ExpressionValue};
pub use marks::{MarkedPaths, Marks, PathStep};
/// `value[key]` as HCL's `Index` evaluates it, for lookups outside an expression.
pub use operations::index as index_value;
pub use parse_ref::{Key, RefError, Step};
pub use references::{
    parse_references, parse_references_within, parse_traversals, reference_at, references,
    Reference, Traversal,
};
pub use refinement::{
    definitely_not_null, not_null_unknown, Bound, Refine, Refinement, ValueRange,
};
pub use shared::{Attributes, Elements};
pub use value::{compare, format_number, friendly_name, Value};

#[cfg(test)]
mod marks_tests;
