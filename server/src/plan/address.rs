//! Addresses of module instances, resources and resource instances: parsed from the
//! strings Terraform writes (state `module` paths, `-replace=`, `moved`/`removed`
//! endpoints), printed as Terraform prints them, and ordered as Terraform sorts
//! `resource_changes`.

use std::cmp::Ordering;
use std::fmt;

use super::state::{InstanceKey, ResourceMode};

/// A module instance path: `module.a["x"].module.b`; empty for the root module.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ModulePath(pub Vec<(String, InstanceKey)>);

/// A resource in a module instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResourceAddr {
    /// The module instance.
    pub module: ModulePath,
    /// Managed or data.
    pub mode: ResourceMode,
    /// The resource type.
    pub type_name: String,
    /// The resource name.
    pub name: String,
}

/// One instance of a resource.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstanceAddr {
    /// The resource.
    pub resource: ResourceAddr,
    /// The instance key.
    pub key: InstanceKey,
}

/// What a `moved`/`removed` endpoint or a `-replace` argument names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `module.a` (every instance of a module call) or `module.a[0]` (one instance):
    /// the path up to the call, the call's name, and the key when one is given.
    Module {
        /// The module instance containing the call.
        parent: ModulePath,
        /// The call's name.
        name: String,
        /// The instance key, when the endpoint names one instance.
        key: Option<InstanceKey>,
    },
    /// `aws_instance.a` (every instance).
    Resource(ResourceAddr),
    /// `aws_instance.a[0]`, or `aws_instance.a` read as its no-key instance.
    Instance(InstanceAddr),
}

impl ModulePath {
    /// The root module.
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// Whether this is the root module.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The child instance `module.name[key]`.
    pub fn child(&self, name: &str, key: InstanceKey) -> Self {
        let mut steps = self.0.clone();
        steps.push((name.to_string(), key));
        Self(steps)
    }

    /// Parses a state `module` string (`module.a["x"].module.b[0]`).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.is_empty() {
            return Ok(Self::root());
        }
        let mut p = Parser::new(text);
        let path = p.module_path()?;
        p.end()?;
        Ok(path)
    }

    /// The path with every key removed, as calls are identified in configuration.
    pub fn calls(&self) -> Vec<&str> {
        self.0.iter().map(|(n, _)| n.as_str()).collect()
    }
}

impl fmt::Display for ModulePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, key)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{name}{key}")?;
        }
        Ok(())
    }
}

impl fmt::Display for InstanceKey {
    /// `""`, `[0]` or `["a"]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::None => Ok(()),
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::String(s) => write!(f, "[{}]", serde_json::Value::String(s.clone())),
        }
    }
}

impl ResourceAddr {
    /// The address within its module: `aws_instance.a`, `data.t.n`.
    pub fn local(&self) -> String {
        match self.mode {
            ResourceMode::Managed => format!("{}.{}", self.type_name, self.name),
            ResourceMode::Data => format!("data.{}.{}", self.type_name, self.name),
        }
    }

    /// The instance with `key`.
    pub fn instance(&self, key: InstanceKey) -> InstanceAddr {
        InstanceAddr {
            resource: self.clone(),
            key,
        }
    }
}

impl fmt::Display for ResourceAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_root() {
            write!(f, "{}.", self.module)?;
        }
        f.write_str(&self.local())
    }
}

impl fmt::Display for InstanceAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.resource, self.key)
    }
}

impl Target {
    /// Parses an endpoint written relative to the module instance `within`.
    pub fn parse(text: &str, within: &ModulePath) -> Result<Self, String> {
        let mut p = Parser::new(text.trim());
        let mut module = within.clone();
        loop {
            if !p.at_keyword("module") {
                break;
            }
            p.expect_word("module")?;
            p.expect(".")?;
            let name = p.word()?;
            let key = p.key()?;
            if p.done() {
                return Ok(Target::Module {
                    parent: module,
                    name,
                    key,
                });
            }
            p.expect(".")?;
            module = module.child(&name, key.unwrap_or(InstanceKey::None));
        }
        let mode = if p.at_keyword("data") {
            p.expect_word("data")?;
            p.expect(".")?;
            ResourceMode::Data
        } else {
            ResourceMode::Managed
        };
        let type_name = p.word()?;
        p.expect(".")?;
        let name = p.word()?;
        let key = p.key()?;
        p.end()?;
        let resource = ResourceAddr {
            module,
            mode,
            type_name,
            name,
        };
        Ok(match key {
            Some(key) => Target::Instance(resource.instance(key)),
            None => Target::Resource(resource),
        })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Module { parent, name, key } => {
                if !parent.is_root() {
                    write!(f, "{parent}.")?;
                }
                write!(f, "module.{name}")?;
                if let Some(key) = key {
                    write!(f, "{key}")?;
                }
                Ok(())
            }
            Target::Resource(r) => write!(f, "{r}"),
            Target::Instance(i) => write!(f, "{i}"),
        }
    }
}

/// Terraform's order of instance keys: no key, then integers, then strings.
pub fn compare_keys(a: &InstanceKey, b: &InstanceKey) -> Ordering {
    let rank = |k: &InstanceKey| match k {
        InstanceKey::None => 0,
        InstanceKey::Int(_) => 1,
        InstanceKey::String(_) => 2,
    };
    rank(a).cmp(&rank(b)).then_with(|| match (a, b) {
        (InstanceKey::Int(x), InstanceKey::Int(y)) => x.cmp(y),
        (InstanceKey::String(x), InstanceKey::String(y)) => x.cmp(y),
        _ => Ordering::Equal,
    })
}

/// Terraform's order of instance addresses (spec §4.16): module path (shorter first, then
/// name, then key), data before managed, then type, name and key.
pub fn compare_instances(a: &InstanceAddr, b: &InstanceAddr) -> Ordering {
    let (ma, mb) = (&a.resource.module.0, &b.resource.module.0);
    let modules = ma.len().cmp(&mb.len()).then_with(|| {
        ma.iter()
            .zip(mb)
            .map(|((na, ka), (nb, kb))| na.cmp(nb).then_with(|| compare_keys(ka, kb)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    });
    let mode_rank = |m: ResourceMode| match m {
        ResourceMode::Data => 0,
        ResourceMode::Managed => 1,
    };
    modules
        .then_with(|| mode_rank(a.resource.mode).cmp(&mode_rank(b.resource.mode)))
        .then_with(|| a.resource.type_name.cmp(&b.resource.type_name))
        .then_with(|| a.resource.name.cmp(&b.resource.name))
        .then_with(|| compare_keys(&a.key, &b.key))
}

/// A small reader for address strings.
struct Parser<'a> {
    rest: &'a str,
    text: &'a str,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Self { rest: text, text }
    }

    fn error(&self, what: &str) -> String {
        format!("invalid address {:?}: {what}", self.text)
    }

    fn done(&self) -> bool {
        self.rest.is_empty()
    }

    fn end(&self) -> Result<(), String> {
        if self.done() {
            Ok(())
        } else {
            Err(self.error(&format!("unexpected {:?}", self.rest)))
        }
    }

    fn at_keyword(&self, word: &str) -> bool {
        self.rest
            .strip_prefix(word)
            .is_some_and(|r| r.starts_with('.'))
    }

    fn expect(&mut self, token: &str) -> Result<(), String> {
        self.rest = self
            .rest
            .strip_prefix(token)
            .ok_or_else(|| self.error(&format!("expected {token:?}")))?;
        Ok(())
    }

    fn expect_word(&mut self, word: &str) -> Result<(), String> {
        self.expect(word)
    }

    fn word(&mut self) -> Result<String, String> {
        let end = self
            .rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(self.rest.len());
        if end == 0 {
            return Err(self.error("expected a name"));
        }
        let (word, rest) = self.rest.split_at(end);
        self.rest = rest;
        Ok(word.to_string())
    }

    fn key(&mut self) -> Result<Option<InstanceKey>, String> {
        let Some(rest) = self.rest.strip_prefix('[') else {
            return Ok(None);
        };
        let close = rest.find(']').ok_or_else(|| self.error("unclosed ["))?;
        let inner = rest[..close].trim();
        let key = if inner.starts_with('"') {
            let s: String =
                serde_json::from_str(inner).map_err(|_| self.error("invalid string key"))?;
            InstanceKey::String(s)
        } else {
            InstanceKey::Int(
                inner
                    .parse()
                    .map_err(|_| self.error("an instance key must be a number or a string"))?,
            )
        };
        self.rest = &rest[close + 1..];
        Ok(Some(key))
    }

    fn module_path(&mut self) -> Result<ModulePath, String> {
        let mut path = ModulePath::root();
        loop {
            self.expect_word("module")?;
            self.expect(".")?;
            let name = self.word()?;
            let key = self.key()?.unwrap_or(InstanceKey::None);
            path = path.child(&name, key);
            if self.done() {
                return Ok(path);
            }
            self.expect(".")?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_and_print_back() {
        for text in [
            "aws_instance.a",
            "aws_instance.a[0]",
            "data.t.n[\"x\"]",
            "module.m",
            "module.m[1]",
            "module.a[\"x\"].module.b.t.n[2]",
        ] {
            let target = Target::parse(text, &ModulePath::root()).unwrap();
            assert_eq!(target.to_string(), text);
        }
        assert!(Target::parse("aws_instance", &ModulePath::root()).is_err());
        assert!(Target::parse("a.b[x]", &ModulePath::root()).is_err());
        let path = ModulePath::parse("module.a[\"x\"].module.b[0]").unwrap();
        assert_eq!(path.to_string(), "module.a[\"x\"].module.b[0]");
    }

    #[test]
    fn instances_sort_as_terraform_sorts_them() {
        let parse = |t: &str| match Target::parse(t, &ModulePath::root()).unwrap() {
            Target::Instance(i) => i,
            Target::Resource(r) => r.instance(InstanceKey::None),
            Target::Module { .. } => unreachable!(),
        };
        let mut list: Vec<InstanceAddr> = [
            "module.z.a.b",
            "b.a",
            "a.b[\"x\"]",
            "a.b[10]",
            "a.b[2]",
            "a.b",
            "data.z.z",
            "module.a[1].a.b",
            "module.a[0].a.b",
        ]
        .into_iter()
        .map(parse)
        .collect();
        list.sort_by(compare_instances);
        let shown: Vec<String> = list.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "data.z.z",
                "a.b",
                "a.b[2]",
                "a.b[10]",
                "a.b[\"x\"]",
                "b.a",
                "module.a[0].a.b",
                "module.a[1].a.b",
                "module.z.a.b",
            ]
        );
    }
}
