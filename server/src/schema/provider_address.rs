//! Provider source addresses (`registry.terraform.io/hashicorp/aws`): how Terraform and
//! OpenTofu complete a `source` string or a bare local name, and the installation
//! directory each address has under a provider directory (`<host>/<namespace>/<type>`).

use std::fmt;

use super::Dialect;

/// A provider's fully qualified source address.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProviderAddress {
    /// The registry host (`registry.terraform.io`), or `terraform.io` for the builtin.
    pub hostname: String,
    /// The namespace (`hashicorp`), or `builtin`.
    pub namespace: String,
    /// The type (`aws`).
    pub type_name: String,
}

/// The public registry of `dialect`: where a source without a host is looked up.
pub fn default_registry(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Terraform => "registry.terraform.io",
        Dialect::OpenTofu => "registry.opentofu.org",
    }
}

impl ProviderAddress {
    /// Parses a `source` string: `aws`, `hashicorp/aws` or `host/hashicorp/aws`, in any
    /// case (addresses compare lowercased); a part missing its host takes `dialect`'s
    /// registry, a bare type the `hashicorp` namespace. `None` for anything else.
    pub fn parse(source: &str, dialect: Dialect) -> Option<Self> {
        let source = source.trim().to_lowercase();
        let parts: Vec<&str> = source.split('/').collect();
        if parts.iter().any(|p| p.is_empty()) {
            return None;
        }
        let (hostname, namespace, type_name) = match parts.as_slice() {
            [t] => (default_registry(dialect), "hashicorp", *t),
            [ns, t] => (default_registry(dialect), *ns, *t),
            [host, ns, t] => (*host, *ns, *t),
            _ => return None,
        };
        Some(Self {
            hostname: hostname.to_string(),
            namespace: namespace.to_string(),
            type_name: type_name.to_string(),
        })
    }

    /// The provider a local name stands for when `required_providers` does not name it:
    /// `terraform` is the builtin provider, anything else `hashicorp/<name>`.
    pub fn implied(local_name: &str, dialect: Dialect) -> Self {
        if local_name == "terraform" {
            return Self {
                hostname: "terraform.io".into(),
                namespace: "builtin".into(),
                type_name: "terraform".into(),
            };
        }
        Self {
            hostname: default_registry(dialect).into(),
            namespace: "hashicorp".into(),
            type_name: local_name.to_lowercase(),
        }
    }

    /// Whether this is a provider built into Terraform (never installed).
    pub fn is_builtin(&self) -> bool {
        self.hostname == "terraform.io" && self.namespace == "builtin"
    }

    /// The address as Terraform's messages show it (`ForDisplay`): without the host when
    /// it is a default registry (`hashicorp/aws`).
    pub fn for_display(&self) -> String {
        let default = [Dialect::Terraform, Dialect::OpenTofu]
            .iter()
            .any(|d| default_registry(*d) == self.hostname);
        if default {
            format!("{}/{}", self.namespace, self.type_name)
        } else {
            self.to_string()
        }
    }

    /// The `<host>/<namespace>/<type>` path under a provider directory.
    pub fn directory(&self) -> std::path::PathBuf {
        [&self.hostname, &self.namespace, &self.type_name]
            .iter()
            .collect()
    }
}

impl fmt::Display for ProviderAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.hostname, self.namespace, self.type_name)
    }
}
