//! The `terraform` block (spec §1.2, §1.9): `required_providers` entry by entry,
//! `required_version` replaced per override file, backend and cloud replacing each other.

use std::collections::BTreeMap;

use super::{attr, header_span, nested, Attr, Duplicate, FileIndex, MergedModule, Nested, Origin};
use crate::syntax::Block;

/// The effective settings of a module's `terraform` blocks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TerraformSettings {
    /// Every `terraform` block header, primary files first.
    pub blocks: Vec<Origin>,
    /// `required_providers` entries by local name.
    pub required_providers: BTreeMap<String, Attr>,
    /// The `required_version` constraints in force.
    pub required_version: Vec<Attr>,
    /// The backend, if any.
    pub backend: Option<Nested>,
    /// The `cloud` block, if any.
    pub cloud: Option<Nested>,
    /// The override file whose `required_version` replaced the list last.
    version_file: Option<FileIndex>,
    /// The first `required_providers` block of the primary files.
    required_providers_block: Option<Origin>,
}

pub(super) fn add_primary(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let t = &mut m.terraform;
    t.blocks.push(Origin {
        file,
        span: header_span(block),
    });
    if let Some(v) = block.body.attribute("required_version") {
        t.required_version.push(attr(file, v));
    }
    for rp in block.body.blocks_of("required_providers") {
        let here = Origin {
            file,
            span: header_span(rp),
        };
        match t.required_providers_block {
            Some(first) => m.duplicates.push(Duplicate {
                first_kind: None,
                kind: "required_providers",
                qualifier: None,
                name: String::new(),
                first,
                later: here,
            }),
            None => {
                t.required_providers_block = Some(here);
                for entry in &rp.body.attributes {
                    t.required_providers
                        .insert(entry.name.name.to_string(), attr(file, entry));
                }
            }
        }
    }
    for kind in ["backend", "cloud"] {
        for b in block.body.blocks_of(kind) {
            let t = &mut m.terraform;
            let here = Origin {
                file,
                span: header_span(b),
            };
            let existing = t.backend.as_ref().or(t.cloud.as_ref());
            let existing_kind = if t.backend.is_some() {
                "backend"
            } else {
                "cloud"
            };
            match existing {
                Some(first) => m.duplicates.push(Duplicate {
                    first_kind: Some(existing_kind),
                    qualifier: None,
                    kind: if kind == "backend" {
                        "backend"
                    } else {
                        "cloud"
                    },
                    name: String::new(),
                    first: first.header_origin(),
                    later: here,
                }),
                None if kind == "backend" => t.backend = Some(nested(file, b)),
                None => t.cloud = Some(nested(file, b)),
            }
        }
    }
}

pub(super) fn apply_override(m: &mut MergedModule, file: FileIndex, block: &Block) {
    let t = &mut m.terraform;
    t.blocks.push(Origin {
        file,
        span: header_span(block),
    });
    if let Some(v) = block.body.attribute("required_version") {
        // The first constraint of an override file replaces the module's list.
        if t.version_file != Some(file) {
            t.required_version.clear();
            t.version_file = Some(file);
        }
        t.required_version.push(attr(file, v));
    }
    for rp in block.body.blocks_of("required_providers") {
        for entry in &rp.body.attributes {
            t.required_providers
                .insert(entry.name.name.to_string(), attr(file, entry));
        }
    }
    let mut seen_in_file: Option<Origin> = None;
    for b in &block.body.blocks {
        let kind = &*b.kind.name;
        if kind != "backend" && kind != "cloud" {
            continue;
        }
        let t = &mut m.terraform;
        let here = Origin {
            file,
            span: header_span(b),
        };
        // Two in one override file is an error; across files the later one wins.
        let earlier_here = [t.backend.as_ref(), t.cloud.as_ref()]
            .into_iter()
            .flatten()
            .map(Nested::header_origin)
            .find(|o| o.file == file)
            .or(seen_in_file);
        if let Some(first) = earlier_here {
            m.duplicates.push(Duplicate {
                first_kind: None,
                qualifier: None,
                kind: if kind == "backend" {
                    "override backend"
                } else {
                    "override cloud"
                },
                name: String::new(),
                first,
                later: here,
            });
            continue;
        }
        seen_in_file = Some(here);
        if kind == "backend" {
            t.backend = Some(nested(file, b));
            t.cloud = None;
        } else {
            t.cloud = Some(nested(file, b));
            t.backend = None;
        }
    }
    for meta in block.body.blocks_of("provider_meta") {
        m.set_aside.push(super::SetAside {
            kind: "provider_meta".into(),
            origin: Origin {
                file,
                span: header_span(meta),
            },
            rejected: false,
        });
    }
}
