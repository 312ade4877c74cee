//! The plugin protocol: starting a provider binary as Terraform does and asking it for its
//! schema. The binary gets go-plugin's handshake environment and nothing else (no
//! credentials, no configuration: the provider is never configured, so it has no reason
//! to reach the network), prints where it listens, and is asked over gRPC with mutual TLS
//! for `GetSchema` (protocol 5) or `GetProviderSchema` (protocol 6); then it is told to
//! shut down, and killed if it does not.
//!
//! The schema's response carries the provider's functions (protocol 5.5 and 6.5 on), and
//! Terraform 1.11 reads them only there; so does the store. `load_functions` asks
//! `GetFunctions` instead, the call that returns the functions alone (a provider that
//! does not implement it answers `Unimplemented`: no functions).

mod convert;
mod handshake;
mod messages;
mod tls;

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};
use tonic::codec::ProstCodec;
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::{Channel, Endpoint, Uri};

use crate::schema::ProviderSchema;
pub use convert::InvalidType;
pub use handshake::{parse_handshake, Address, Handshake, HandshakeError};
use messages::{v5, v6, Empty, SEVERITY_ERROR};
pub use tls::TlsError;

/// How long a plugin may take to print its handshake (Terraform's start timeout).
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a plugin may take to exit once told to.
const STOP_GRACE: Duration = Duration::from_secs(2);
/// The largest response accepted: the AWS provider's schema is tens of megabytes.
const RECEIVE_LIMIT: usize = 256 << 20;

/// A schema read from a provider binary.
#[derive(Debug)]
pub struct LoadedSchema {
    /// The schema.
    pub schema: ProviderSchema,
    /// The protocol the provider spoke (5 or 6).
    pub protocol_version: u32,
    /// The provider's warnings.
    pub warnings: Vec<String>,
    /// How long it took, from start to exit.
    pub elapsed: Duration,
}

/// Why a provider's schema could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// The binary could not be started.
    #[error("cannot start the provider: {0}")]
    Start(std::io::Error),
    /// It exited or closed stdout before its handshake.
    #[error("the provider exited before its handshake")]
    Exited,
    /// It printed nothing in time.
    #[error("the provider printed no handshake within {0:?}")]
    Timeout(Duration),
    /// Its handshake is not one Strata speaks.
    #[error(transparent)]
    Handshake(#[from] HandshakeError),
    /// TLS could not be set up.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The connection failed.
    #[error("cannot connect to the provider: {0}")]
    Connect(String),
    /// The call failed.
    #[error("the provider's schema call failed: {0}")]
    Call(String),
    /// The provider reported errors.
    #[error("the provider reported errors: {}", .0.join("; "))]
    Diagnostics(Vec<String>),
    /// The response is not a valid schema.
    #[error(transparent)]
    Schema(#[from] InvalidType),
}

/// What a session asks the plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    /// `GetSchema` / `GetProviderSchema`: everything.
    Schema,
    /// `GetFunctions`: the functions alone.
    Functions,
}

/// Starts `binary`, reads its schema and stops it.
pub async fn load_schema(binary: &Path) -> Result<LoadedSchema, PluginError> {
    load(binary, Ask::Schema).await
}

/// Starts `binary`, reads its functions with `GetFunctions` and stops it: a schema with
/// only `functions` (none where the provider does not implement the call).
pub async fn load_functions(binary: &Path) -> Result<LoadedSchema, PluginError> {
    load(binary, Ask::Functions).await
}

async fn load(binary: &Path, ask: Ask) -> Result<LoadedSchema, PluginError> {
    let started = Instant::now();
    let identity = tls::client_identity()?;
    let mut command = tokio::process::Command::new(binary);
    command
        .env_clear()
        .env(handshake::MAGIC_COOKIE_KEY, handshake::MAGIC_COOKIE_VALUE)
        .env("PLUGIN_PROTOCOL_VERSIONS", handshake::PROTOCOL_VERSIONS)
        .env("PLUGIN_MIN_PORT", "10000")
        .env("PLUGIN_MAX_PORT", "25000")
        .env("PLUGIN_CLIENT_CERT", &identity.pem)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    // go-plugin makes its Unix socket in the temporary directory.
    if let Some(tmp) = std::env::var_os("TMPDIR") {
        command.env("TMPDIR", tmp);
    }
    let mut child = command.spawn().map_err(PluginError::Start)?;
    let result = match child.stdout.take() {
        Some(stdout) => session(stdout, &identity, ask).await,
        None => Err(PluginError::Exited),
    };
    if tokio::time::timeout(STOP_GRACE, child.wait())
        .await
        .is_err()
    {
        // Best effort: the process is also killed when `child` is dropped.
        let _ = child.kill().await;
    }
    let (schema, protocol_version, warnings) = result?;
    Ok(LoadedSchema {
        schema,
        protocol_version,
        warnings,
        elapsed: started.elapsed(),
    })
}

type Session = (ProviderSchema, u32, Vec<String>);

/// Reads the handshake from `stdout`, asks for the schema (or the functions) and tells the
/// plugin to stop.
async fn session(
    stdout: tokio::process::ChildStdout,
    identity: &tls::ClientIdentity,
    ask: Ask,
) -> Result<Session, PluginError> {
    let mut lines = BufReader::new(stdout).lines();
    let line = match tokio::time::timeout(START_TIMEOUT, lines.next_line()).await {
        Err(_) => return Err(PluginError::Timeout(START_TIMEOUT)),
        Ok(Ok(Some(line))) => line,
        Ok(_) => return Err(PluginError::Exited),
    };
    // Keep reading stdout so that the plugin never blocks writing to it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let handshake = parse_handshake(&line)?;
    let channel = connect(&handshake, identity).await?;
    let response = match ask {
        Ask::Schema => get_schema(channel.clone(), handshake.protocol_version).await,
        Ask::Functions => get_functions(channel.clone(), handshake.protocol_version).await,
    };
    shutdown(channel).await;
    let response = response?;
    let (errors, warnings): (Vec<_>, Vec<_>) = response
        .diagnostics
        .iter()
        .partition(|d| d.severity == SEVERITY_ERROR);
    let text = |d: &messages::Diagnostic| format!("{}: {}", d.summary, d.detail);
    if !errors.is_empty() {
        return Err(PluginError::Diagnostics(
            errors.into_iter().map(text).collect(),
        ));
    }
    let schema = convert::provider_schema(&response)?;
    let warnings = warnings.into_iter().map(text).collect();
    Ok((schema, handshake.protocol_version, warnings))
}

/// A byte stream the TLS connection runs over.
trait Io: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

/// An HTTP/2 channel to the plugin over TLS on the address of its handshake.
async fn connect(h: &Handshake, identity: &tls::ClientIdentity) -> Result<Channel, PluginError> {
    let config = Arc::new(tls::client_config(identity, h.server_cert.clone())?);
    let address = h.address.clone();
    let connector = tower::service_fn(move |_: Uri| {
        let tls = tokio_rustls::TlsConnector::from(config.clone());
        let address = address.clone();
        async move {
            let stream: Box<dyn Io> = match &address {
                #[cfg(unix)]
                Address::Unix(path) => Box::new(tokio::net::UnixStream::connect(path).await?),
                #[cfg(not(unix))]
                Address::Unix(_) => return Err(std::io::ErrorKind::Unsupported.into()),
                Address::Tcp(addr) => Box::new(tokio::net::TcpStream::connect(addr).await?),
            };
            let name = rustls::pki_types::ServerName::from(
                rustls::pki_types::DnsName::try_from("localhost")
                    .map_err(|e| std::io::Error::other(e.to_string()))?,
            );
            let stream = tls.connect(name, stream).await?;
            Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
        }
    });
    // The scheme is http: TLS is the connector's.
    Endpoint::from_static("http://localhost")
        .connect_with_connector(connector)
        .await
        .map_err(|e| PluginError::Connect(error_chain(&e)))
}

/// An error with its causes on one line (tonic keeps them apart).
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// A gRPC client on `channel` that accepts responses up to `RECEIVE_LIMIT`, once ready.
async fn client(channel: Channel) -> Result<tonic::client::Grpc<Channel>, PluginError> {
    let mut grpc = tonic::client::Grpc::new(channel).max_decoding_message_size(RECEIVE_LIMIT);
    grpc.ready()
        .await
        .map_err(|e| PluginError::Connect(error_chain(&e)))?;
    Ok(grpc)
}

/// A failed call's status as an error.
fn call_failed(e: tonic::Status) -> PluginError {
    PluginError::Call(format!("{}: {}", e.code(), e.message()))
}

/// Calls the schema method of `protocol_version`.
async fn get_schema(
    channel: Channel,
    protocol_version: u32,
) -> Result<v6::GetProviderSchemaResponse, PluginError> {
    let mut grpc = client(channel).await?;
    if protocol_version == 5 {
        let path = PathAndQuery::from_static("/tfplugin5.Provider/GetSchema");
        let codec = ProstCodec::<Empty, v5::GetProviderSchemaResponse>::default();
        let response = grpc.unary(tonic::Request::new(Empty {}), path, codec).await;
        Ok(convert::upgrade(
            response.map_err(call_failed)?.into_inner(),
        ))
    } else {
        let path = PathAndQuery::from_static("/tfplugin6.Provider/GetProviderSchema");
        let codec = ProstCodec::<Empty, v6::GetProviderSchemaResponse>::default();
        let response = grpc.unary(tonic::Request::new(Empty {}), path, codec).await;
        Ok(response.map_err(call_failed)?.into_inner())
    }
}

/// Calls `GetFunctions` of `protocol_version`, its answer in the schema's message (with
/// only functions and diagnostics); `Unimplemented` is an answer with no functions.
async fn get_functions(
    channel: Channel,
    protocol_version: u32,
) -> Result<v6::GetProviderSchemaResponse, PluginError> {
    let mut grpc = client(channel).await?;
    let path = if protocol_version == 5 {
        PathAndQuery::from_static("/tfplugin5.Provider/GetFunctions")
    } else {
        PathAndQuery::from_static("/tfplugin6.Provider/GetFunctions")
    };
    let codec = ProstCodec::<Empty, messages::GetFunctionsResponse>::default();
    let response = match grpc.unary(tonic::Request::new(Empty {}), path, codec).await {
        Ok(response) => response.into_inner(),
        Err(e) if e.code() == tonic::Code::Unimplemented => Default::default(),
        Err(e) => return Err(call_failed(e)),
    };
    Ok(v6::GetProviderSchemaResponse {
        functions: response.functions,
        diagnostics: response.diagnostics,
        ..Default::default()
    })
}

/// Asks go-plugin's controller to stop the plugin; failures are left to the kill.
async fn shutdown(channel: Channel) {
    let mut grpc = tonic::client::Grpc::new(channel);
    if grpc.ready().await.is_err() {
        return;
    }
    let path = PathAndQuery::from_static("/plugin.GRPCController/Shutdown");
    let codec = ProstCodec::<Empty, Empty>::default();
    let _ = grpc.unary(tonic::Request::new(Empty {}), path, codec).await;
}

#[cfg(test)]
mod tests;
