//! A provider source address as terraform-registry-address's `ParseProviderSource`
//! parses it (`[hostname/][namespace/]type`): the parts, the type, the namespace (or the
//! legacy `-`), the hostname (`svchost.rs`), then the rules across parts: the legacy
//! namespace only on the public registry, no `terraform-` prefix on a type. OpenTofu's
//! parser (opentofu/registry-address `provider.go`) has its own registry and refuses
//! the `opentofu-` prefixes too, in its own words.

use super::providers::provider_part;
use super::svchost::{for_comparison, Hostname};
use crate::schema::{default_registry, Dialect};
use crate::text::go_quote::go_quote;

/// The namespace of legacy addresses, tolerated on the public registry.
const LEGACY_NAMESPACE: &str = "-";

/// What Terraform says of a provider source address it cannot parse (summary, detail);
/// `None` for a valid one. Names are quoted as Go's `%q` quotes them.
pub(super) fn source_error(source: &str, dialect: Dialect) -> Option<(&'static str, String)> {
    let default_host = default_registry(dialect);
    let parts: Vec<&str> = source.split('/').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Some((
            "Invalid provider source string",
            "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\"".into(),
        ));
    }
    let given_type = parts[parts.len() - 1];
    let type_name = match provider_part(given_type) {
        Ok(normalized) => normalized,
        Err(why) => {
            return Some((
                "Invalid provider type",
                format!(
                    "Invalid provider type {} in source {}: {why}\"",
                    go_quote(given_type),
                    go_quote(source)
                ),
            ))
        }
    };
    if parts.len() == 1 {
        return None; // Terraform returns before the rules below.
    }
    let namespace = match parts[parts.len() - 2] {
        LEGACY_NAMESPACE => LEGACY_NAMESPACE.to_string(),
        given => match provider_part(given) {
            Ok(namespace) => namespace,
            // Terraform names the namespace it failed to produce: always empty.
            Err(why) => {
                return Some((
                    "Invalid provider namespace",
                    format!(
                        "Invalid provider namespace \"\" in source {}: {why}\"",
                        go_quote(source)
                    ),
                ))
            }
        },
    };
    let host = match parts.as_slice() {
        [given, _, _] => match for_comparison(given) {
            Ok(host) => host,
            // Terraform names the hostname it failed to produce: always empty.
            Err(why) => {
                return Some((
                    "Invalid provider source hostname",
                    format!(
                        "Invalid provider source hostname namespace \"\" in source {}: {why}\"",
                        go_quote(source)
                    ),
                ))
            }
        },
        _ => Hostname {
            comparison: default_host.to_string(),
            display: default_host.to_string(),
        },
    };
    if namespace == LEGACY_NAMESPACE && host.comparison != default_host {
        return Some((
            "Invalid provider namespace",
            format!("The legacy provider namespace \"-\" can be used only with hostname {default_host}."),
        ));
    }
    let address = Address {
        host: &host,
        default_host,
        namespace: &namespace,
    };
    match type_name.starts_with(TERRAFORM.redundant) {
        true => type_prefix(&address, &type_name, &TERRAFORM),
        false if dialect == Dialect::OpenTofu => type_prefix(&address, &type_name, &OPENTOFU),
        false => None,
    }
}

/// A parsed source's host and namespace, and the registry its dialect leaves unnamed.
struct Address<'a> {
    host: &'a Hostname,
    default_host: &'a str,
    namespace: &'a str,
}

impl Address<'_> {
    /// `Provider.ForDisplay` with `type_name`: without the default registry's host.
    fn for_display(&self, type_name: &str) -> String {
        match self.host.comparison == self.default_host {
            true => format!("{}/{type_name}", self.namespace),
            false => format!("{}/{}/{type_name}", self.host.display, self.namespace),
        }
    }
}

/// The prefixes a provider type may not have, and the words that say so.
struct Prefixes {
    /// `terraform-`: redundant in a provider's name.
    redundant: &'static str,
    /// `terraform-provider-`: a repository's name, not a type.
    repository: &'static str,
    /// Whose repositories carry that name.
    repositories_of: &'static str,
    /// The provider that would be redundantly named.
    redundant_for: &'static str,
}

const TERRAFORM: Prefixes = Prefixes {
    redundant: "terraform-",
    repository: "terraform-provider-",
    repositories_of:
        "often used in the names of version control repositories for Terraform providers",
    redundant_for: "a Terraform provider",
};

/// OpenTofu's own prefixes, checked after Terraform's.
const OPENTOFU: Prefixes = Prefixes {
    redundant: "opentofu-",
    repository: "opentofu-provider-",
    repositories_of:
        "sometimes used in the names of version control repositories for OpenTofu providers",
    redundant_for: "an OpenTofu provider",
};

/// `Invalid provider type` for a type with a `prefixes.redundant` prefix: the
/// repository's prefix, with the address meant when the rest is a valid type, or the
/// redundant prefix alone.
fn type_prefix(
    address: &Address<'_>,
    type_name: &str,
    prefixes: &Prefixes,
) -> Option<(&'static str, String)> {
    let Prefixes {
        redundant,
        repository,
        repositories_of,
        redundant_for,
    } = prefixes;
    if !type_name.starts_with(redundant) {
        return None;
    }
    if let Some(meant) = type_name.strip_prefix(repository) {
        if provider_part(meant).is_ok() {
            return Some((
                "Invalid provider type",
                format!(
                    "Provider source {} has a type with the prefix {repository:?}, which isn't valid. Although that prefix is {repositories_of}, provider source strings should not include it.\n\nDid you mean {}?",
                    go_quote(&address.for_display(type_name)),
                    go_quote(&address.for_display(meant))
                ),
            ));
        }
    }
    // `Provider.String` names the host, the default one too.
    let full = format!("{}/{}/{type_name}", address.host.display, address.namespace);
    Some((
        "Invalid provider type",
        format!("Provider source {} has a type with the prefix {redundant:?}, which isn't allowed because it would be redundant to name {redundant_for} with that prefix. If you are the author of this provider, rename it to not include the prefix.", go_quote(&full)),
    ))
}

#[cfg(test)]
mod tests {
    use super::source_error;
    use crate::schema::Dialect;

    fn summary(source: &str) -> Option<&'static str> {
        source_error(source, Dialect::Terraform).map(|(s, _)| s)
    }

    #[test]
    fn sources_are_parsed_as_terraform_parses_them() {
        for ok in [
            "hashicorp/aws",
            "registry.terraform.io/hashicorp/aws",
            "aws",
            "terraform-provider-aws",
            "-/aws",
            "Registry.Terraform.io:443/-/t",
        ] {
            assert_eq!(summary(ok), None, "{ok}");
        }
        assert_eq!(
            summary("hashicorp/Terraform-provider-x"),
            Some("Invalid provider type")
        );
        assert_eq!(summary("a/b/c/d"), Some("Invalid provider source string"));
        assert_eq!(summary("/x"), Some("Invalid provider source string"));
        assert_eq!(summary("x/a--b"), Some("Invalid provider type"));
        assert_eq!(summary("-x/aws"), Some("Invalid provider namespace"));
        assert_eq!(
            summary("example.com/-/t"),
            Some("Invalid provider namespace")
        );
        assert_eq!(
            summary("a_b.com/ns/t"),
            Some("Invalid provider source hostname")
        );
        let (_, detail) =
            source_error("Example.com/NS/terraform-provider-x", Dialect::Terraform).unwrap();
        assert!(
            detail.contains("\"example.com/ns/terraform-provider-x\""),
            "{detail}"
        );
        assert!(
            detail.ends_with("Did you mean \"example.com/ns/x\"?"),
            "{detail}"
        );
        let (_, detail) = source_error("hashicorp/terraform-x", Dialect::Terraform).unwrap();
        assert!(
            detail.starts_with("Provider source \"registry.terraform.io/hashicorp/terraform-x\"")
        );
        assert_eq!(summary("hashicorp/opentofu-x"), None);
    }

    /// As opentofu/registry-address's `ParseProviderSource` states them (OpenTofu cannot
    /// be run here to record them).
    #[test]
    fn opentofu_has_its_own_registry_and_prefixes() {
        let tofu = |source: &str| source_error(source, Dialect::OpenTofu);
        assert!(tofu("registry.opentofu.org/-/t").is_none());
        let (summary, detail) = tofu("registry.terraform.io/-/t").unwrap();
        assert_eq!(summary, "Invalid provider namespace");
        assert!(
            detail.ends_with("hostname registry.opentofu.org."),
            "{detail}"
        );
        let (_, detail) = tofu("hashicorp/terraform-x").unwrap();
        assert!(
            detail.starts_with("Provider source \"registry.opentofu.org/hashicorp/terraform-x\"")
        );
        let (_, detail) = tofu("ns/opentofu-provider-x").unwrap();
        assert!(detail.contains("version control repositories for OpenTofu providers"));
        assert!(detail.ends_with("Did you mean \"ns/x\"?"), "{detail}");
        let (_, detail) = tofu("example.com/ns/opentofu-x").unwrap();
        assert!(detail.starts_with("Provider source \"example.com/ns/opentofu-x\""));
        assert!(detail.contains("redundant to name an OpenTofu provider"));
    }
}
