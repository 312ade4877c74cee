//! The `terraform` block (`required_version`, `required_providers`, `backend`, `cloud`,
//! `provider_meta`, OpenTofu's `encryption`), OpenTofu's top-level `language` block, and
//! `provider` configuration blocks.

use crate::schema::{arg, block, BlockRole, BlockSchema, Dialects, Duplicate, Form, Nesting, Rest};

pub(super) fn terraform() -> BlockSchema {
    block("Settings of the module: the Terraform versions and providers it needs, where its state is stored.")
        .attr(
            arg("required_version", "string", "The Terraform versions this module works with, as a version constraint.")
                .form(Form::VersionConstraint),
        )
        .attr(
            arg("experiments", "list", "Opt-in language experiments, as bare keywords.")
                .form(Form::ReferenceList),
        )
        .attr(
            arg("language", "string", "The language edition the module is written in.")
                .form(Form::Constant),
        )
        .child(
            "backend",
            block("Where this module's state is stored when it is the root module.")
                .label("type")
                .rest(Rest::Provider(crate::schema::ProviderBody::Backend)),
        )
        .child("cloud", cloud())
        .child("required_providers", required_providers())
        .child(
            "provider_meta",
            block("Module metadata sent to a provider.")
                .label("provider")
                .rest(Rest::Open),
        )
        .child(
            "encryption",
            block("State and plan encryption (OpenTofu).").rest(Rest::Open),
        )
        .child_only(Dialects::OpenTofu)
}

fn cloud() -> BlockSchema {
    block("HCP Terraform or Terraform Enterprise settings.")
        .attrs([
            arg("organization", "string", "The organization to use."),
            arg(
                "hostname",
                "string",
                "The host name of HCP Terraform or Terraform Enterprise.",
            ),
            arg(
                "token",
                "string",
                "The API token (better given in the CLI configuration).",
            ),
        ])
        .child(
            "workspaces",
            block("Which remote workspaces this configuration uses.")
                .attrs([
                    arg("name", "string", "A single workspace's name."),
                    arg("tags", "list(string)", "Workspaces with all these tags."),
                    arg("project", "string", "The project of new workspaces."),
                ])
                .rest(Rest::Open),
        )
        .rest(Rest::Open)
}

/// `required_providers`: one argument per provider local name.
pub(super) fn required_providers() -> BlockSchema {
    block(
        "The providers this module needs: `local_name = { source = \"...\", version = \"...\" }`.",
    )
    .rest(Rest::Attributes)
}

/// OpenTofu's top-level `language` block.
pub(super) fn language() -> BlockSchema {
    block("Language edition and experiments of the module (OpenTofu).")
        .attrs([
            arg("edition", "string", "The language edition."),
            arg("experiments", "list", "Opt-in language experiments."),
        ])
        .child(
            "compatible_with",
            block("The versions of OpenTofu this module works with.")
                .attr(
                    arg("opentofu", "string", "A version constraint.")
                        .form(Form::VersionConstraint),
                )
                .rest(Rest::Open),
        )
}

pub(super) fn provider() -> BlockSchema {
    let escape =
        block("Arguments given to the provider even where their names are meta-arguments.")
            .rest(Rest::Provider(crate::schema::ProviderBody::Provider));
    block("The configuration of a provider; `alias` names additional configurations.")
        .label("name")
        .attrs([
            arg("alias", "string", "Names an additional configuration of this provider, referred to as `<provider>.<alias>`.")
                .form(Form::Constant),
            arg("version", "string", "Provider version constraints (deprecated: use required_providers).")
                .form(Form::VersionConstraint)
                .deprecated("Version constraints inside provider configuration blocks are deprecated; use required_providers."),
            arg("count", "number", "Reserved for a future version.").reserved(),
            arg("depends_on", "list", "Reserved for a future version.").reserved(),
            arg("for_each", "map", "Reserved for a future version.").reserved(),
            arg("source", "string", "Reserved for a future version.").reserved(),
        ])
        .nested(
            "_",
            escape,
            Nesting::Single,
            BlockRole::Escape,
            Duplicate::new(
                "Duplicate escaping block",
                "The special block type \"_\" can be used to force particular arguments to be interpreted as provider-specific rather than as meta-arguments, but each provider block can have only one such block. The first escaping block was at {range}.",
            ),
        )
        .reserved("lifecycle")
        .reserved("locals")
        .rest(Rest::Provider(crate::schema::ProviderBody::Provider))
}
