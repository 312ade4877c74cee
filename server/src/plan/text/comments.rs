//! The comment lines above each resource change (`resourceChangeComment`): what happens
//! to the object, why it is deleted, where it moved from and what it is imported from.

use super::super::{Action, InstanceKey, ResourceChange, ResourceMode};

/// The lines (each ending in a newline) above change `c`, in `tool`'s words.
pub(super) fn comment(c: &ResourceChange, tool: &str) -> String {
    let addr = match &c.deposed {
        Some(d) => format!("{} (deposed object {d})", c.addr),
        None => c.addr.to_string(),
    };
    let moved_from = c.previous.as_ref().filter(|p| **p != c.addr);
    let mut printed_moved = false;
    let mut printed_imported = false;
    let mut out = match c.action {
        Action::Create => format!("  # {addr} will be created"),
        Action::Read => {
            let why = match c.reason {
                Some("read_because_config_unknown") => {
                    "\n  # (config refers to values not yet known)"
                }
                Some("read_because_dependency_pending") => {
                    "\n  # (depends on a resource or a module with changes pending)"
                }
                Some("read_because_check_nested") => {
                    "\n  # (config will be reloaded to verify a check block)"
                }
                _ => "",
            };
            format!("  # {addr} will be read during apply{why}")
        }
        Action::Update => format!("  # {addr} will be updated in-place"),
        Action::CreateThenDelete | Action::DeleteThenCreate => match c.reason {
            Some("replace_because_tainted") => {
                format!("  # {addr} is tainted, so must be replaced")
            }
            Some("replace_by_request") => format!("  # {addr} will be replaced, as requested"),
            Some("replace_by_triggers") => {
                format!("  # {addr} will be replaced due to changes in replace_triggered_by")
            }
            _ => format!("  # {addr} must be replaced"),
        },
        Action::Forget => {
            let head = match c.deposed {
                Some(_) => format!(
                    " # {addr} will be removed from {tool} state, but will not be destroyed\n # (left over from a partially-failed replacement of this instance)"
                ),
                None => format!(
                    " # {addr} will no longer be managed by {tool}, but will not be destroyed"
                ),
            };
            format!("{head}\n # (destroy = false is set in the configuration)")
        }
        Action::Delete => format!("  # {addr} will be destroyed{}", deleted_because(c)),
        Action::NoOp => match (moved_from, &c.importing) {
            (Some(p), _) => {
                printed_moved = true;
                format!("  # {p} has moved to {addr}")
            }
            (None, Some(_)) => {
                printed_imported = true;
                format!("  # {addr} will be imported")
            }
            (None, None) => {
                format!("{addr} has an action the plan renderer doesn't support (this is a bug)")
            }
        },
    };
    out.push('\n');
    if let (Some(p), false) = (moved_from, printed_moved) {
        out.push_str(&format!("  # (moved from {p})\n"));
    }
    if let (Some(importing), false) = (&c.importing, printed_imported) {
        let id = importing
            .attributes()
            .and_then(|a| a.get("id")?.to_text())
            .unwrap_or_default();
        match id.is_empty() {
            true => out.push_str("  # (will be imported first)\n"),
            false => out.push_str(&format!("  # (imported from \"{id}\")\n")),
        }
        if c.action.is_replace() {
            out.push_str("  # Warning: this will destroy the imported resource\n");
        }
    }
    if let Some(caveat) = c.caveat {
        out.push_str(&format!("  # (Strata: {caveat})\n"));
    }
    out
}

/// Why an object is deleted, on its own comment line (none when the plan gives no
/// reason Terraform words).
fn deleted_because(c: &ResourceChange) -> String {
    let why = match c.reason {
        Some("delete_because_no_resource_config") => format!(
            "(because {}.{} is not in configuration)",
            c.addr.resource.type_name, c.addr.resource.name
        ),
        Some("delete_because_no_move_target") => format!(
            "(because {} was moved to {}, which is not in configuration)",
            c.previous
                .as_ref()
                .map_or_else(String::new, ToString::to_string),
            c.addr
        ),
        Some("delete_because_no_module") => format!(
            "(because {} is not in configuration)",
            c.addr.resource.module
        ),
        // Terraform words it by the key the object has.
        Some("delete_because_wrong_repetition") => match c.addr.key {
            InstanceKey::None => "(because resource uses count or for_each)".into(),
            InstanceKey::Int(_) => "(because resource does not use count)".into(),
            InstanceKey::String(_) => "(because resource does not use for_each)".into(),
        },
        Some("delete_because_count_index") => {
            format!(
                "(because index [{}] is out of range for count)",
                index_json(&c.addr.key)
            )
        }
        Some("delete_because_each_key") => {
            format!(
                "(because key [{}] is not in for_each map)",
                index_json(&c.addr.key)
            )
        }
        // OpenTofu's `enabled` meta-argument.
        Some("delete_because_enabled_false") => "(because enabled is false)".into(),
        _ => String::new(),
    };
    let mut out = match why.is_empty() {
        true => String::new(),
        false => format!("\n  # {why}"),
    };
    if c.deposed.is_some() {
        out.push_str("\n  # (left over from a partially-failed replacement of this instance)");
    }
    out
}

/// An instance key as `show -json` writes its `index`: Go's JSON encoding, which escapes
/// `<`, `>` and `&` in strings.
fn index_json(key: &InstanceKey) -> String {
    match key {
        InstanceKey::None => "null".into(),
        InstanceKey::Int(i) => i.to_string(),
        InstanceKey::String(s) => serde_json::Value::String(s.clone())
            .to_string()
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026")
            .replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029"),
    }
}

/// `resource "TYPE" "NAME"` or `data "TYPE" "NAME"`.
pub(super) fn header(c: &ResourceChange) -> String {
    let mode = match c.addr.resource.mode {
        ResourceMode::Managed => "resource",
        ResourceMode::Data => "data",
    };
    format!(
        "{mode} \"{}\" \"{}\"",
        c.addr.resource.type_name, c.addr.resource.name
    )
}
