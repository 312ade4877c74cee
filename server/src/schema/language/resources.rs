//! `resource`, `data`, `ephemeral` and `module` blocks: their meta-arguments,
//! `lifecycle`, `connection`, provisioners (with the built-in provisioners' own
//! arguments), `dynamic` blocks, and the `_` escaping block.

use std::sync::Arc;

use super::values::condition;
use crate::schema::{
    arg, block, AttributeSchema, BlockRole, BlockSchema, Dialects, Duplicate, Form, Nesting,
    ProviderBody, Rest,
};

/// The meta-arguments every resource-like block takes.
fn meta_arguments() -> [AttributeSchema; 4] {
    [
        arg(
            "count",
            "number",
            "How many instances to declare; refer to each one's index as `count.index`.",
        ),
        arg(
            "for_each",
            "map or set of strings",
            "One instance per element; refer to it as `each.key` and `each.value`.",
        ),
        arg(
            "provider",
            "provider",
            "The provider configuration to use, as `<name>` or `<name>.<alias>`.",
        )
        .form(Form::Reference),
        arg(
            "depends_on",
            "list",
            "Dependencies the configuration does not express through references.",
        )
        .form(Form::ReferenceList),
    ]
}

/// The `_` block of a body whose remaining content belongs to `body`.
fn escape(body: ProviderBody, detail: &str) -> (BlockSchema, Option<Duplicate>) {
    (
        block("Arguments given to the provider even where their names are meta-arguments.")
            .rest(Rest::Provider(body)),
        Duplicate::new("Duplicate escaping block", detail),
    )
}

fn escape_detail(what: &str, block: &str) -> String {
    format!("The special block type \"_\" can be used to force particular arguments to be interpreted as {what} rather than as meta-arguments, but each {block} block can have only one such block. The first escaping block was at {{range}}.")
}

/// A `dynamic` block: generates nested blocks of the type its label names.
fn dynamic(body: ProviderBody) -> BlockSchema {
    block("Generates one nested block per element of a collection.")
        .label("name")
        .attrs([
            arg(
                "for_each",
                "collection",
                "The collection to generate one block per element of.",
            )
            .required(),
            arg(
                "iterator",
                "name",
                "The name of the iteration variable (default: the block type).",
            )
            .form(Form::Reference),
            arg(
                "labels",
                "list(string)",
                "The labels of each generated block.",
            ),
        ])
        .child(
            "content",
            block("The body of each generated block.").rest(Rest::Provider(body)),
        )
}

/// A resource-like body's `dynamic` blocks and its remaining, provider-defined content.
fn provider_content(schema: BlockSchema, body: ProviderBody) -> BlockSchema {
    schema
        .nested(
            "dynamic",
            dynamic(body),
            Nesting::List,
            BlockRole::Dynamic,
            None,
        )
        .rest(Rest::Provider(body))
}

fn lifecycle() -> BlockSchema {
    block("How Terraform creates, updates and destroys the resource's objects.")
        .attrs([
            arg(
                "create_before_destroy",
                "bool",
                "Create the replacement before destroying the old object.",
            )
            .form(Form::Constant),
            arg(
                "prevent_destroy",
                "bool",
                "Refuse any plan that would destroy the object.",
            )
            .form(Form::Constant),
            arg(
                "ignore_changes",
                "list",
                "Arguments whose changes are ignored, or `all`.",
            )
            .form(Form::RelativePaths),
            arg(
                "replace_triggered_by",
                "list",
                "Replace the object when one of these resources changes.",
            )
            .form(Form::ReferenceList),
            arg(
                "enabled",
                "bool",
                "Whether the resource is declared at all (OpenTofu).",
            )
            .only(Dialects::OpenTofu),
            arg(
                "destroy",
                "bool",
                "Whether removing the resource destroys its object (OpenTofu).",
            )
            .form(Form::Constant)
            .only(Dialects::OpenTofu),
        ])
        .child(
            "precondition",
            condition("A condition checked before the change is planned."),
        )
        .child(
            "postcondition",
            condition("A condition checked after the change; `self` is the object."),
        )
}

fn once(name: &str) -> (String, String) {
    (
        format!("Duplicate {name} block"),
        format!("This resource already has a {name} block at {{range}}."),
    )
}

pub(super) fn resource() -> BlockSchema {
    let (escape, dup) = escape(
        ProviderBody::Resource,
        &escape_detail("resource-type-specific", "resource"),
    );
    let (lc, lc_detail) = once("lifecycle");
    let (cn, cn_detail) = once("connection");
    let schema = block(
        "A managed resource: an infrastructure object Terraform creates, updates and destroys.",
    )
    .name_label("type", "Invalid resource type name")
    .name_label("name", "Invalid resource name")
    .attrs(meta_arguments())
    .reserved("locals")
    .child_once("lifecycle", lifecycle(), &lc, &lc_detail)
    .child_once("connection", connection(), &cn, &cn_detail)
    .child("provisioner", provisioner())
    .nested("_", escape, Nesting::Single, BlockRole::Escape, dup);
    provider_content(schema, ProviderBody::Resource)
}

pub(super) fn data() -> BlockSchema {
    let doc = "A data source: information read from a provider while planning.";
    read_only(
        block(doc)
            .name_label("type", "Invalid data source name")
            .name_label("name", "Invalid data resource name"),
        ProviderBody::DataSource,
    )
}

pub(super) fn ephemeral() -> BlockSchema {
    let doc = "An ephemeral resource: a value opened during a run and never stored.";
    read_only(
        block(doc)
            .name_label_in(
                "type",
                "Invalid ephemeral resource type",
                "Invalid ephemeral resource type name",
            )
            .name_label("name", "Invalid ephemeral resource name"),
        ProviderBody::EphemeralResource,
    )
}

/// A `data` or `ephemeral` block (`labelled` is its doc and labels): meta-arguments and
/// `lifecycle`, but no provisioners.
fn read_only(labelled: BlockSchema, body: ProviderBody) -> BlockSchema {
    // Terraform 1.11 says "data block" in the escaping-block message of both.
    let (escape, dup) = escape(body, &escape_detail("resource-type-specific", "data"));
    let (lc, lc_detail) = once("lifecycle");
    let schema = labelled
        .attrs(meta_arguments())
        .child_once("lifecycle", lifecycle(), &lc, &lc_detail)
        .reserved("locals")
        .nested("_", escape, Nesting::Single, BlockRole::Escape, dup);
    provider_content(schema, body)
}

/// The arguments of a `connection` block (Terraform's superset of every communicator's).
pub(super) fn connection() -> BlockSchema {
    let strings = [
        ("type", "The connection type: `ssh` (default) or `winrm`."),
        ("user", "The user to connect as."),
        ("password", "The password."),
        ("timeout", "How long to wait for the connection, e.g. `5m`."),
        (
            "script_path",
            "Where scripts are copied on the remote host.",
        ),
        ("target_platform", "`unix` or `windows`."),
        ("private_key", "The SSH private key's contents."),
        ("certificate", "A signed SSH certificate."),
        ("host_key", "The remote host's public key, to verify it."),
        ("agent_identity", "The identity the SSH agent offers."),
        ("proxy_scheme", "The proxy's scheme."),
        ("proxy_host", "The proxy host."),
        ("proxy_user_name", "The proxy user."),
        ("proxy_user_password", "The proxy password."),
        ("bastion_host", "A bastion host to connect through."),
        ("bastion_host_key", "The bastion's public key."),
        ("bastion_user", "The bastion user."),
        ("bastion_password", "The bastion password."),
        ("bastion_private_key", "The bastion private key."),
        ("bastion_certificate", "The bastion certificate."),
        ("cacert", "The CA certificate for WinRM over HTTPS."),
    ];
    let mut schema = block("How provisioners reach the remote host.")
        .attr(arg("host", "string", "The address of the host.").required());
    for (name, doc) in strings {
        schema = schema.attr(arg(name, "string", doc));
    }
    schema.attrs([
        arg("port", "number", "The port to connect to."),
        arg("agent", "bool", "Whether to use the SSH agent."),
        arg("proxy_port", "number", "The proxy port."),
        arg("bastion_port", "number", "The bastion port."),
        arg("https", "bool", "Use HTTPS for WinRM."),
        arg("insecure", "bool", "Skip WinRM certificate checks."),
        arg("use_ntlm", "bool", "Use NTLM authentication for WinRM."),
    ])
}

/// A `provisioner` block: its meta-arguments; the provisioner type decides the rest.
pub(super) fn provisioner() -> BlockSchema {
    block("An action run on the machine Terraform runs on, or a remote host, when the resource is created or destroyed.")
        .label("type")
        .attrs([
            arg("when", "keyword", "`create` (default) or `destroy`.").keywords(&["create", "destroy"]),
            arg("on_failure", "keyword", "`fail` (default) or `continue`.").keywords(&["continue", "fail"]),
        ])
        .nested(
            "_",
            block("Provisioner arguments whose names are meta-arguments.")
                .rest(Rest::Provider(ProviderBody::Provisioner)),
            Nesting::Single,
            BlockRole::Escape,
            // Terraform's own spelling, "typpe" included.
            Duplicate::new("Duplicate escaping block", "The special block type \"_\" can be used to force particular arguments to be interpreted as provisioner-typpe-specific rather than as meta-arguments, but each provisioner block can have only one such block. The first escaping block was at {range}."),
        )
        .child_once(
            "connection",
            connection(),
            "Duplicate connection block",
            "This provisioner already has a connection block at {range}.",
        )
        .reserved("lifecycle")
        .rest(Rest::Provider(ProviderBody::Provisioner))
}

/// The arguments of a built-in provisioner; `None` for a type Terraform does not have.
pub fn provisioner_schema(kind: &str) -> Option<Arc<BlockSchema>> {
    let schema = match kind {
        "local-exec" => block("Runs a command on the machine Terraform runs on.").attrs([
            arg("command", "string", "The command to run.").required(),
            arg(
                "interpreter",
                "list(string)",
                "The interpreter and its arguments, before the command.",
            ),
            arg(
                "working_dir",
                "string",
                "The directory to run the command in.",
            ),
            arg(
                "environment",
                "map(string)",
                "Environment variables for the command.",
            ),
            arg("quiet", "bool", "Do not print the command."),
        ]),
        "remote-exec" => block("Runs commands on the remote host.").attrs([
            arg("inline", "list(string)", "Commands to run, in order."),
            arg("script", "string", "A local script to copy and run."),
            arg(
                "scripts",
                "list(string)",
                "Local scripts to copy and run, in order.",
            ),
        ]),
        "file" => block("Copies a file or directory to the remote host.").attrs([
            arg("source", "string", "The local file or directory."),
            arg(
                "content",
                "string",
                "The content to write instead of a source file.",
            ),
            arg("destination", "string", "The path on the remote host.").required(),
        ]),
        _ => return None,
    };
    Some(Arc::new(schema))
}

pub(super) fn module() -> BlockSchema {
    let (escape, dup) = escape(
        ProviderBody::Resource,
        &escape_detail("module input variables", "module"),
    );
    block("A call to a child module.")
        .name_label("name", "Invalid module instance name")
        .attrs([
            arg(
                "source",
                "string",
                "Where the module's code is: a local path, a registry address or a remote source.",
            )
            .required()
            .form(Form::Constant),
            arg(
                "version",
                "string",
                "The versions of a registry module to accept.",
            )
            .form(Form::VersionConstraint),
            arg(
                "count",
                "number",
                "How many instances of the module to create.",
            ),
            arg(
                "for_each",
                "map or set of strings",
                "One module instance per element.",
            ),
            arg(
                "depends_on",
                "list",
                "Dependencies the arguments do not express.",
            )
            .form(Form::ReferenceList),
            arg(
                "providers",
                "map",
                "Which provider configurations the module's providers use.",
            )
            .form(Form::ReferenceMap),
        ])
        .nested(
            "_",
            escape.rest(Rest::Open),
            Nesting::Single,
            BlockRole::Escape,
            dup,
        )
        .child(
            "lifecycle",
            block("Whether the module call is enabled (OpenTofu).").attr(arg(
                "enabled",
                "bool",
                "Whether the module's instances are declared at all.",
            )),
        )
        .child_only(Dialects::OpenTofu)
        .reserved("lifecycle")
        .child_only(Dialects::Terraform)
        .reserved("locals")
        .nested(
            "provider",
            block("Reserved for a future version.").label("type"),
            Nesting::List,
            BlockRole::Reserved,
            None,
        )
        .rest(Rest::Open)
}
