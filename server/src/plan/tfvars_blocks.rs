//! The blocks of a variable definitions file, which holds arguments only. Terraform
//! first looks for `variable "name"` blocks (one label), the mistake of declaring a
//! variable where a value belongs, and reports each one; when there is none, HCL's
//! reading of the file as arguments alone reports its first block of any type. Either
//! way Terraform reads no value from the file.

use crate::syntax::{Body, Span};

/// One problem with a block of a variable definitions file, in Terraform's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockProblem {
    /// Terraform's summary.
    pub summary: String,
    /// Its detail.
    pub detail: String,
    /// The block's type name, where Terraform points.
    pub span: Span,
}

/// The problems with the blocks of `body`, a variable definitions file shown as
/// `shown`; empty when it has none (its arguments are then read).
pub fn block_problems(shown: &str, body: &Body) -> Vec<BlockProblem> {
    let declarations: Vec<BlockProblem> = body
        .blocks
        .iter()
        .filter(|b| &*b.kind.name == "variable" && b.labels.len() == 1)
        .map(|b| {
            let name = &b.labels[0].name;
            BlockProblem {
                summary: "Variable declaration in .tfvars file".into(),
                detail: format!("A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable \"{name}\", place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in {shown}, use the definition syntax instead:\n    {name} = <value>"),
                span: b.kind.span,
            }
        })
        .collect();
    if !declarations.is_empty() {
        return declarations;
    }
    body.blocks
        .first()
        .map(|b| BlockProblem {
            summary: format!("Unexpected \"{}\" block", b.kind.name),
            detail: "Blocks are not allowed here.".into(),
            span: b.kind.span,
        })
        .into_iter()
        .collect()
}
