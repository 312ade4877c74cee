//! A provider source address as terraform-registry-address's `ParseProviderSource`
//! parses it (`[hostname/][namespace/]type`): the parts, the type, the namespace (or the
//! legacy `-`), the hostname (`svchost.rs`), then the rules across parts: the legacy
//! namespace only on the public registry, no `terraform-` prefix on a type.

use super::providers::provider_part;
use super::svchost::for_comparison;

/// The public registry's host, where a source without one lives.
const DEFAULT_HOST: &str = "registry.terraform.io";

/// The namespace of legacy addresses, tolerated on the public registry.
const LEGACY_NAMESPACE: &str = "-";

/// What Terraform says of a provider source address it cannot parse (summary, detail);
/// `None` for a valid one, and for one whose hostname needs IDNA tables Strata does not
/// hold (`svchost::for_comparison`).
pub(super) fn source_error(source: &str) -> Option<(&'static str, String)> {
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
                format!("Invalid provider type {given_type:?} in source {source:?}: {why}\""),
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
                    format!("Invalid provider namespace \"\" in source {source:?}: {why}\""),
                ))
            }
        },
    };
    let host = match parts.as_slice() {
        [given, _, _] => match for_comparison(given) {
            Ok(Some(host)) => host,
            Ok(None) => return None,
            // Terraform names the hostname it failed to produce: always empty.
            Err(why) => {
                return Some((
                    "Invalid provider source hostname",
                    format!(
                    "Invalid provider source hostname namespace \"\" in source {source:?}: {why}\""
                ),
                ))
            }
        },
        _ => DEFAULT_HOST.to_string(),
    };
    if namespace == LEGACY_NAMESPACE && host != DEFAULT_HOST {
        return Some((
            "Invalid provider namespace",
            format!("The legacy provider namespace \"-\" can be used only with hostname {DEFAULT_HOST}."),
        ));
    }
    type_prefix(&host, &namespace, &type_name)
}

/// `Invalid provider type` for a type named `terraform-...`: the `terraform-provider-`
/// of a repository's name, with the address meant when the rest is a valid type, or
/// the redundant `terraform-` prefix.
fn type_prefix(host: &str, namespace: &str, type_name: &str) -> Option<(&'static str, String)> {
    const REDUNDANT: &str = "terraform-";
    const REPOSITORY: &str = "terraform-provider-";
    if !type_name.starts_with(REDUNDANT) {
        return None;
    }
    // `Provider.ForDisplay` leaves the public registry's host out; `String` does not.
    let display = |t: &str| match host {
        DEFAULT_HOST => format!("{namespace}/{t}"),
        _ => format!("{host}/{namespace}/{t}"),
    };
    if let Some(meant) = type_name.strip_prefix(REPOSITORY) {
        if provider_part(meant).is_ok() {
            return Some((
                "Invalid provider type",
                format!(
                    "Provider source {:?} has a type with the prefix {REPOSITORY:?}, which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean {:?}?",
                    display(type_name),
                    display(meant)
                ),
            ));
        }
    }
    let full = format!("{host}/{namespace}/{type_name}");
    Some((
        "Invalid provider type",
        format!("Provider source {full:?} has a type with the prefix {REDUNDANT:?}, which isn't allowed because it would be redundant to name a Terraform provider with that prefix. If you are the author of this provider, rename it to not include the prefix."),
    ))
}

#[cfg(test)]
mod tests {
    use super::source_error;

    fn summary(source: &str) -> Option<&'static str> {
        source_error(source).map(|(s, _)| s)
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
        let (_, detail) = source_error("Example.com/NS/terraform-provider-x").unwrap();
        assert!(
            detail.contains("\"example.com/ns/terraform-provider-x\""),
            "{detail}"
        );
        assert!(
            detail.ends_with("Did you mean \"example.com/ns/x\"?"),
            "{detail}"
        );
        let (_, detail) = source_error("hashicorp/terraform-x").unwrap();
        assert!(
            detail.starts_with("Provider source \"registry.terraform.io/hashicorp/terraform-x\"")
        );
    }
}
