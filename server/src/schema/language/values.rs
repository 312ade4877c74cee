//! Named values: `variable` (with `validation`), `locals`, `output`, and the condition
//! blocks they share with resources (`precondition`, `postcondition`).

use crate::schema::{arg, block, BlockSchema, Dialects, Form, Rest};

pub(super) fn variable() -> BlockSchema {
    block("An input variable of the module, set by the caller or, in a root module, by -var, tfvars files or TF_VAR_ variables.")
        .label("name")
        .attrs([
            arg("description", "string", "What the variable is for.").form(Form::Constant),
            arg("default", "any", "The value used when none is given; without it the variable is required.")
                .form(Form::Constant),
            arg("type", "type", "The type constraint values are converted to.").form(Form::TypeConstraint),
            arg("sensitive", "bool", "Hides the value in plan and apply output.").form(Form::Constant),
            arg("ephemeral", "bool", "The value is available only during a run and is never stored.")
                .form(Form::Constant),
            arg("nullable", "bool", "Whether null is a valid value (default true).").form(Form::Constant),
            arg("deprecated", "string", "Why callers should stop setting this variable (OpenTofu).")
                .form(Form::Constant)
                .only(Dialects::OpenTofu),
            arg("const", "bool", "The value must be known while the configuration loads (OpenTofu).")
                .form(Form::Constant)
                .only(Dialects::OpenTofu),
        ])
        .child("validation", condition("A rule the variable's value must satisfy."))
}

pub(super) fn locals() -> BlockSchema {
    block("Local values: names for expressions, referred to as `local.<name>`.")
        .rest(Rest::Attributes)
}

pub(super) fn output() -> BlockSchema {
    block("An output value of the module, shown after apply or read by the caller as `module.<name>.<output>`.")
        .name_label("name", "Invalid output name")
        .attrs([
            arg("description", "string", "What the output is.").form(Form::Constant),
            arg("value", "any", "The value.").required(),
            arg("depends_on", "list", "Extra dependencies the value does not express.")
                .form(Form::ReferenceList),
            arg("sensitive", "bool", "Hides the value in output.").form(Form::Constant),
            arg("ephemeral", "bool", "The value is available only during a run (child modules only).")
                .form(Form::Constant),
            arg("deprecated", "string", "Why callers should stop using this output (OpenTofu).")
                .form(Form::Constant)
                .only(Dialects::OpenTofu),
        ])
        .child("precondition", condition("A condition checked before the value is used."))
        .child("postcondition", condition("Not allowed: outputs take only preconditions."))
}

/// `precondition`, `postcondition`, `validation` and a check's `assert`.
pub(super) fn condition(doc: &str) -> BlockSchema {
    block(doc).attrs([
        arg("condition", "bool", "The expression that must be true.").required(),
        arg(
            "error_message",
            "string",
            "The message when the condition is false.",
        )
        .required(),
    ])
}
