//! Blocks that change how existing objects are treated rather than declaring new ones
//! (`moved`, `removed`, `import`), and `check` blocks.

use super::resources::{connection, data, provisioner};
use super::values::condition;
use crate::schema::{arg, block, BlockSchema, Dialects, Form};

pub(super) fn moved() -> BlockSchema {
    block(
        "Records that an object moved to a new address, so that it is not destroyed and recreated.",
    )
    .attrs([
        arg("from", "address", "The old address.")
            .required()
            .form(Form::Reference),
        arg("to", "address", "The new address.")
            .required()
            .form(Form::Reference),
    ])
}

pub(super) fn removed() -> BlockSchema {
    block("Removes an object from the configuration, and says whether to destroy it.")
        .attr(
            arg(
                "from",
                "address",
                "The address of the removed resource or module.",
            )
            .required()
            .form(Form::Reference),
        )
        .child_once(
            "lifecycle",
            removed_lifecycle(),
            "Duplicate lifecycle block",
            "The removed block already has a lifecycle block at {range}.",
        )
        .child_only(Dialects::OpenTofu)
        // Terraform takes any number of lifecycle blocks here, and checks connection
        // blocks against the target (check/refactoring.rs).
        .child("lifecycle", removed_lifecycle())
        .child_only(Dialects::Terraform)
        .child("connection", connection())
        .child_only(Dialects::Terraform)
        .child("provisioner", provisioner())
}

fn removed_lifecycle() -> BlockSchema {
    block("What happens to the removed objects.").attr(
        arg(
            "destroy",
            "bool",
            "Whether to destroy the objects (default true) or only forget them.",
        )
        .form(Form::Constant),
    )
}

pub(super) fn import() -> BlockSchema {
    block("Imports an existing object into a resource address at the next apply.").attrs([
        arg(
            "provider",
            "provider",
            "The provider configuration that imports it.",
        )
        .form(Form::Reference),
        arg("for_each", "map or set", "One import per element."),
        arg("id", "string", "The object's id in the provider.")
            .required()
            .only(Dialects::Terraform),
        arg(
            "id",
            "string",
            "The object's id in the provider (or give identity).",
        )
        .only(Dialects::OpenTofu),
        arg(
            "to",
            "address",
            "The resource instance address to import into.",
        )
        .required()
        .form(Form::Reference),
        arg(
            "identity",
            "object",
            "The object's identity (OpenTofu, instead of id).",
        )
        .only(Dialects::OpenTofu),
    ])
}

pub(super) fn check() -> BlockSchema {
    block("Assertions about the infrastructure, checked at every plan and apply without blocking them.")
        .name_label("name", "Invalid check block name")
        .child("data", data())
        .child("assert", condition("A condition reported as a warning when false."))
}
