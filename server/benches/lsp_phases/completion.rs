//! The LSP benchmark's completion phase: completion with the AWS provider's schema
//! (5.100.0, from the filesystem mirror `TF_PLUGIN_MIRROR`, else `/opt/tf-plugins`) in a
//! copy of the corpus's `terraform-aws-modules__terraform-aws-vpc` root module locked to
//! that version, a second workspace folder beside the corpus (or the 30,000-file
//! workspace). The schema is read from the provider binary once into a cache of the
//! benchmark's own, then from that cache.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};

use super::support::{self, Client, TempDir};
use super::{measure, Params};

/// The module copied, relative to the corpus.
const MODULE: &str = "terraform-aws-modules__terraform-aws-vpc";

/// The AWS provider's version in the mirror.
const VERSION: &str = "5.100.0";

/// The AWS module, its schema cache and the CLI configuration naming the mirror.
pub struct Aws {
    module: TempDir,
    cache: TempDir,
    config: PathBuf,
}

impl Aws {
    /// The module and a fresh cache; `None` (the phase is skipped) without the provider
    /// in the mirror or the module in the corpus.
    pub fn new(corpus: &Path) -> Option<Self> {
        let mirror = std::env::var_os("TF_PLUGIN_MIRROR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/opt/tf-plugins"));
        let package = mirror.join(format!(
            "registry.terraform.io/hashicorp/aws/{VERSION}/linux_amd64"
        ));
        let source = corpus.join(MODULE);
        if !package.is_dir() || !source.is_dir() {
            eprintln!(
                "SKIPPED AWS completion: no {} or no {}",
                package.display(),
                source.display()
            );
            return None;
        }
        let module = TempDir::new("bench-aws-module");
        for entry in std::fs::read_dir(&source).ok()?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            // Its own versions.tf asks for a later provider than the mirror holds.
            if name.ends_with(".tf") && name != "versions.tf" {
                std::fs::copy(entry.path(), module.path().join(&name)).ok()?;
            }
        }
        module.write(
            "versions.tf",
            "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n",
        );
        module.write(
            ".terraform.lock.hcl",
            &format!("provider \"registry.terraform.io/hashicorp/aws\" {{\n  version = \"{VERSION}\"\n}}\n"),
        );
        let cache = TempDir::new("bench-aws-cache");
        let config = cache.write(
            "cli.tfrc",
            &format!(
                "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
                mirror.display()
            ),
        );
        let aws = Self {
            module,
            cache,
            config,
        };
        // The first load hashes the 700 MB binary and runs it: longer than a client waits
        // for one message. `strata schemas status` fills the cache the server then reads.
        let status = aws
            .command()
            .args(["schemas", "status", "--dir"])
            .arg(aws.module.path())
            .output()
            .ok()?;
        print!("{}", String::from_utf8_lossy(&status.stdout));
        Some(aws)
    }

    /// The environment of every `strata` this phase runs: its cache and configuration.
    fn env(&self) -> [(&'static str, String); 3] {
        let home = self.cache.path().join("home");
        [
            (
                "STRATA_CACHE_DIR",
                self.cache.path().to_string_lossy().into_owned(),
            ),
            (
                "TF_CLI_CONFIG_FILE",
                self.config.to_string_lossy().into_owned(),
            ),
            ("HOME", home.to_string_lossy().into_owned()),
        ]
    }

    fn command(&self) -> std::process::Command {
        let mut command = std::process::Command::new(support::strata_bin());
        command.envs(self.env());
        command
    }

    /// A server over `root` and the AWS module, once indexing is done and the provider
    /// schemas are loaded; the seconds both took.
    pub fn start(&self, root: &Path) -> (Client, f64) {
        let env = self.env();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut client = Client::start_with_env(&env);
        let start = Instant::now();
        client.request(
            "initialize",
            json!({
                "processId": null,
                "capabilities": { "window": { "workDoneProgress": true } },
                "workspaceFolders": [
                    { "uri": support::uri(root), "name": "root" },
                    { "uri": support::uri(self.module.path()), "name": "aws" },
                ],
            }),
        );
        client.notify("initialized", json!({}));
        while client.wait_for(|m| m["method"] == "$/progress")["params"]["value"]["kind"] != "end" {
        }
        let logged = client.wait_for(|m| {
            m["method"] == "window/logMessage"
                && m["params"]["message"]
                    .as_str()
                    .is_some_and(|s| s.contains("provider schemas:"))
        });
        let took = start.elapsed().as_secs_f64();
        println!("[{}] {}", root.display(), logged["params"]["message"]);
        client.backlog.clear();
        (client, took)
    }

    /// Completion in the AWS module's `main.tf`: resource types after `resource "aws_`,
    /// the arguments of `aws_vpc`, the attributes after `aws_vpc.this[0].`.
    pub fn completion(&self, label: &str, client: &mut Client) {
        let file = self.module.path().join("main.tf");
        let Ok(text) = std::fs::read_to_string(&file) else {
            return;
        };
        let text = text.replacen(
            "resource \"aws_vpc\" \"this\" {\n",
            "resource \"aws_vpc\" \"this\" {\n  \n",
            1,
        );
        let u = support::uri(&file);
        client.open(&file, &text, 0);
        let at = |offset: usize| {
            let line = text[..offset].matches('\n').count();
            let character = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
            json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } })
        };
        let after = |needle: &str| text.find(needle).map(|i| at(i + needle.len()));
        // An empty line opening the body: every argument not yet written.
        let header = "resource \"aws_vpc\" \"this\" {\n";
        let body = text.find(header).map(|i| at(i + header.len() + 2));
        let cases: [(&str, Option<Value>, usize); 3] = [
            (
                "completion of AWS resource types",
                after("resource \"aws_"),
                1000,
            ),
            ("completion of aws_vpc's arguments", body, 5),
            (
                "completion of aws_vpc's attributes",
                after("aws_vpc.this[0]."),
                20,
            ),
        ];
        for (name, params, least) in cases {
            let Some(params) = params else {
                eprintln!("SKIPPED {name}: not found in {}", file.display());
                continue;
            };
            let items = client.request("textDocument/completion", params.clone());
            let count = items.as_array().map_or(0, Vec::len);
            // Without the schema the figures would measure something else.
            assert!(
                count >= least,
                "{name}: {count} items, expected at least {least}"
            );
            let params: Params = Box::new(move |_| params.clone());
            measure(
                &format!("{label}; {count} items"),
                name,
                client,
                "textDocument/completion",
                &params,
            );
        }
    }
}
