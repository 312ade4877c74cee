//! A minimal LSP client for black-box tests: starts the real `strata serve` binary and
//! speaks JSON-RPC over its stdin and stdout. Requests the server sends to the client
//! (`client/registerCapability`, `window/workDoneProgress/create`) are recorded and
//! answered with `null`. Every wait has a deadline, so a broken server fails a test
//! instead of hanging it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod tempdir;
#[allow(unused_imports)] // not every crate that includes this module uses it
pub use tempdir::TempDir;

pub mod heavy;
pub mod recorded_plan;

/// How long any single wait may take before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(20);

/// The path of the `strata` binary built for these tests.
/// `STRATA_BENCH_SERVER` names another binary: a benchmark compares two builds with the
/// same client.
pub fn strata_bin() -> PathBuf {
    match std::env::var_os("STRATA_BENCH_SERVER") {
        Some(other) => PathBuf::from(other),
        None => PathBuf::from(env!("CARGO_BIN_EXE_strata")),
    }
}

/// Says that a test skipped itself. Written straight to the stderr handle, which the test
/// harness does not capture, so the line shows even when the test passes.
pub fn skip(test: &str, reason: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

/// The repository's `fixtures/` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// The `--provider-schemas` arguments of a fixture that needs provider schemas: its
/// `provider-schemas` file names the schema file, relative to the fixture.
pub fn provider_schema_args(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("provider-schemas"))
        .map(|p| {
            let path = dir.join(p.trim());
            vec![
                "--provider-schemas".into(),
                path.to_string_lossy().into_owned(),
            ]
        })
        .unwrap_or_default()
}

/// The fixtures under `fixtures/<folder>` that hold a recording named `file`, each with
/// the recording read as JSON, in name order.
pub fn recordings(folder: &str, file: &str) -> Vec<(PathBuf, Value)> {
    let mut found: Vec<(PathBuf, Value)> = std::fs::read_dir(fixtures().join(folder))
        .expect("fixtures folder")
        .flatten()
        .filter_map(|entry| {
            let dir = entry.path();
            let text = std::fs::read_to_string(dir.join(file)).ok()?;
            let recorded = serde_json::from_str(&text).expect("a recording is JSON");
            Some((dir, recorded))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Decoded semantic tokens: (line, column, length, type, modifiers) of each.
pub fn decode_semantic_tokens(data: &Value) -> Vec<[u64; 5]> {
    let flat: Vec<u64> = data
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let (mut line, mut column) = (0, 0);
    flat.chunks(5)
        .map(|t| {
            line += t[0];
            column = if t[0] == 0 { column + t[1] } else { t[1] };
            [line, column, t[2], t[3], t[4]]
        })
        .collect()
}

/// A `file://` URI for a path.
pub fn uri(path: &Path) -> String {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap().join(path)
    };
    format!("file://{}", abs.display())
}

/// A running server and the messages it sent that no one has looked at yet.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<(Instant, Value)>,
    /// Notifications and server requests received while waiting for something else.
    pub backlog: Vec<Value>,
    /// When the last byte of the message `wait_for` last returned was read, before the
    /// client parsed it (`None` when it came from the backlog): a request's latency
    /// without the client's own work, for benchmarks.
    pub arrived: Option<Instant>,
    /// Whether requests from the server are answered (with `null`) as they arrive.
    pub answers_server_requests: bool,
    next_id: i64,
}

impl Client {
    /// Starts `strata serve --stdio`.
    pub fn start() -> Self {
        Self::start_with_env(&[])
    }

    /// Starts `strata serve --stdio` with the schema cache `cache`, an empty CLI
    /// configuration and a home directory inside the cache's: nothing of the user's
    /// providers is read.
    pub fn start_with_cache(cache: &TempDir) -> Self {
        let config = cache.write("empty.tfrc", "");
        let home = cache.path().join("home");
        Self::start_with_env(&[
            ("STRATA_CACHE_DIR", &cache.path().to_string_lossy()),
            ("TF_CLI_CONFIG_FILE", &config.to_string_lossy()),
            ("HOME", &home.to_string_lossy()),
        ])
    }

    /// Starts `strata serve --stdio` with these environment variables set.
    pub fn start_with_env(env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(strata_bin())
            .args(["serve", "--stdio"])
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start strata serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(msg) = read_message(&mut reader) {
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        Self {
            stdin: child.stdin.take(),
            child,
            incoming: rx,
            backlog: Vec::new(),
            arrived: None,
            answers_server_requests: true,
            next_id: 1,
        }
    }

    /// Starts a server and runs `initialize` + `initialized` with `capabilities`.
    pub fn initialized(root: Option<&Path>, capabilities: Value) -> (Self, Value) {
        Self::start().initialize(root, capabilities)
    }

    /// Runs `initialize` + `initialized` with `capabilities` on a started server.
    pub fn initialize(self, root: Option<&Path>, capabilities: Value) -> (Self, Value) {
        let mut client = self;
        let mut params = json!({ "processId": null, "capabilities": capabilities });
        if let Some(root) = root {
            params["rootUri"] = json!(uri(root));
            params["workspaceFolders"] = json!([{ "uri": uri(root), "name": "root" }]);
        }
        let result = client.request("initialize", params);
        client.notify("initialized", json!({}));
        (client, result)
    }

    /// Starts a server over `root` with the provider schemas of
    /// `fixtures/providers/schemas.json` (`initializationOptions.providerSchemas.files`)
    /// and `capabilities`, and waits until the schemas are loaded.
    pub fn with_fixture_schemas(root: &Path, capabilities: Value) -> (Self, Value) {
        let mut client = Self::start();
        let schemas = fixtures().join("providers").join("schemas.json");
        let initialized = client.request(
            "initialize",
            json!({
                "processId": null,
                "capabilities": capabilities,
                "rootUri": uri(root),
                "initializationOptions": {
                    "providerSchemas": { "files": [schemas.to_string_lossy()] }
                }
            }),
        );
        client.notify("initialized", json!({}));
        // Schemas load in the background; the server says when a load has been applied.
        client.wait_for(|m| m["method"] == "strata/providerSchemaStatus");
        (client, initialized)
    }

    /// Writes raw bytes as one framed message.
    pub fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        stdin.write_all(body).unwrap();
        stdin.flush().unwrap();
    }

    /// Writes bytes exactly as given, header included.
    pub fn send_raw_with_header(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, msg: &Value) {
        self.send_raw(msg.to_string().as_bytes());
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    /// Sends a request and returns its result (panics on an error response).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        let response = self.response(id);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// Waits for the response to request `id` (result or error).
    pub fn response(&mut self, id: i64) -> Value {
        self.wait_for(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// Waits for the first message matching `pred`, looking at the backlog first.
    pub fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            self.arrived = None;
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok((arrived, msg)) => {
                    self.answer_server_request(&msg);
                    if pred(&msg) {
                        self.arrived = Some(arrived);
                        return msg;
                    }
                    self.backlog.push(msg);
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no matching message within {DEADLINE:?}; backlog: {:#?}",
                    self.backlog
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("server closed its output; backlog: {:#?}", self.backlog)
                }
            }
        }
    }

    /// Waits for `textDocument/publishDiagnostics` for `uri` matching `pred`.
    pub fn diagnostics_for(&mut self, uri: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && pred(&m["params"])
        })["params"]
            .clone()
    }

    fn answer_server_request(&mut self, msg: &Value) {
        if self.answers_server_requests && msg.get("method").is_some() && msg.get("id").is_some() {
            let reply = json!({ "jsonrpc": "2.0", "id": msg["id"], "result": null });
            self.send(&reply);
        }
    }

    /// Opens a document.
    pub fn open(&mut self, path: &Path, text: &str, version: i32) -> String {
        let u = uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": u, "languageId": "terraform", "version": version, "text": text
            }}),
        );
        u
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes the server's stdin.
    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next message and when its last byte was read (before it is parsed).
fn read_message(reader: &mut impl BufRead) -> Option<(Instant, Value)> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    let read = Instant::now();
    Some((read, serde_json::from_slice(&body).ok()?))
}
