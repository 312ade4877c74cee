//! Functions that handle many bytes in the server (issue 12, items 3 and 8): the modules
//! of `support::heavy`, each planned by `strata.planPreview`, end in the evaluation
//! budget's error, and the server goes on answering a normal hover.

use serde_json::json;

use crate::server::assert_hover_works;
use crate::support::{heavy, uri, Client, TempDir};

#[test]
fn plans_whose_functions_handle_many_bytes_end_in_the_evaluation_limit() {
    let dir = TempDir::new("heavy-workspace");
    let modules = heavy::modules();
    for (name, files) in &modules {
        for (file, text) in files {
            dir.write(&format!("{name}/{file}"), text);
        }
    }
    let (mut client, _) = Client::start().initialize(Some(dir.path()), json!({}));
    for (name, _) in &modules {
        let main = dir.path().join(name).join("main.tf");
        let id = client.send_request(
            "workspace/executeCommand",
            json!({ "command": "strata.planPreview", "arguments": [{ "uri": uri(&main) }] }),
        );
        let planned = client.response(id);
        let errors = planned["result"]["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: a plan: {planned}"));
        assert!(
            errors
                .iter()
                .any(|e| e["summary"] == "Evaluation limit reached"
                    && e["detail"]
                        .as_str()
                        .is_some_and(|d| d.contains("every 64 bytes"))),
            "{name}: {planned}"
        );
    }
    assert_hover_works(&mut client);
}
