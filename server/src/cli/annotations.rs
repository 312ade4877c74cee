//! `strata check --format github`: the diagnostics as GitHub Actions workflow commands,
//! one `::error` or `::warning` line each, which the runner turns into annotations on the
//! files of the pull request. Files are named relative to the current directory, the
//! checkout's root in a workflow.

use std::path::Path;

use super::check::Finding;
use crate::check::Severity;

/// One workflow command a line for each finding, files named relative to `cwd`.
pub fn workflow_commands(findings: &[Finding], cwd: &Path) -> String {
    let mut out = String::new();
    for f in findings {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "notice",
        };
        let mut properties = Vec::new();
        if let Some(location) = &f.location {
            let path = match location.path.strip_prefix(cwd) {
                Ok(relative) if !cwd.as_os_str().is_empty() => relative,
                _ => &location.path,
            };
            properties.push(("file", path.to_string_lossy().into_owned()));
            properties.push(("line", location.start.line.to_string()));
            properties.push(("endLine", location.end.line.to_string()));
            properties.push(("col", location.start.column.to_string()));
            // GitHub takes an end column only for a range within one line.
            if location.start.line == location.end.line {
                properties.push(("endColumn", location.end.column.to_string()));
            }
        }
        properties.push(("title", f.summary.clone()));
        let properties: Vec<String> = properties
            .iter()
            .map(|(name, value)| format!("{name}={}", escape_property(value)))
            .collect();
        // The message is the detail below the title; a diagnostic without one repeats
        // the summary, as an empty message shows nothing.
        let message = if f.detail.is_empty() {
            &f.summary
        } else {
            &f.detail
        };
        out.push_str(&format!(
            "::{command} {}::{}\n",
            properties.join(","),
            escape_data(message)
        ));
    }
    out
}

/// A command's message, escaped as the runner unescapes it: `%`, carriage returns and
/// line feeds.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: also `:` and `,`, which end properties.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_runner_reads() {
        assert_eq!(escape_data("50%\r\nnext"), "50%25%0D%0Anext");
        assert_eq!(escape_property("a: b, c"), "a%3A b%2C c");
    }
}
