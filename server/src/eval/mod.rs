//! Static evaluation of expressions. So far: the references an expression makes (as
//! Terraform lists them) and the constant value of an expression without references.

mod constant;
mod references;

pub use constant::constant;
pub use references::{reference_at, references, Reference};
