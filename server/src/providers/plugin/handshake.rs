//! go-plugin's handshake: the environment a plugin is started with, and the one line it
//! prints on stdout once it serves, `CORE|APP|NETWORK|ADDRESS|PROTOCOL|SERVER-CERT`.

use base64::Engine;

/// Terraform's magic cookie: a plugin refuses to run without it (protocol fact).
pub const MAGIC_COOKIE_KEY: &str = "TF_PLUGIN_MAGIC_COOKIE";
/// Its value.
pub const MAGIC_COOKIE_VALUE: &str =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/// The plugin protocol versions Strata speaks.
pub const PROTOCOL_VERSIONS: &str = "5,6";

/// Where the plugin listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Address {
    /// A Unix domain socket.
    Unix(String),
    /// A TCP address (`127.0.0.1:10000`).
    Tcp(String),
}

/// The handshake line, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    /// The plugin protocol version the plugin chose (5 or 6).
    pub protocol_version: u32,
    /// Where it listens.
    pub address: Address,
    /// Its TLS certificate (DER), which it must present.
    pub server_cert: Vec<u8>,
}

/// Why a handshake line is not one Strata can use.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HandshakeError {
    /// Not six `|`-separated fields.
    #[error("unexpected handshake line from the plugin: {0:?}")]
    Shape(String),
    /// A go-plugin core protocol other than 1.
    #[error("unsupported go-plugin core protocol version {0}")]
    CoreVersion(String),
    /// A plugin protocol other than 5 or 6.
    #[error("unsupported plugin protocol version {0} (Strata speaks 5 and 6)")]
    ProtocolVersion(String),
    /// A network other than unix or tcp.
    #[error("unsupported plugin network {0:?}")]
    Network(String),
    /// net/rpc instead of gRPC (Terraform's providers all use gRPC).
    #[error("unsupported plugin RPC protocol {0:?} (expected grpc)")]
    Rpc(String),
    /// No certificate: the plugin did not take up automatic mutual TLS.
    #[error("the plugin sent no TLS certificate")]
    NoCertificate,
}

/// Reads the handshake line.
pub fn parse_handshake(line: &str) -> Result<Handshake, HandshakeError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let fields: Vec<&str> = line.split('|').collect();
    let [core, app, network, address, rpc, cert] = fields.as_slice() else {
        return Err(HandshakeError::Shape(line.chars().take(200).collect()));
    };
    if *core != "1" {
        return Err(HandshakeError::CoreVersion(core.to_string()));
    }
    let protocol_version = match *app {
        "5" => 5,
        "6" => 6,
        other => return Err(HandshakeError::ProtocolVersion(other.to_string())),
    };
    let address = match *network {
        "unix" => Address::Unix(address.to_string()),
        "tcp" => Address::Tcp(address.to_string()),
        other => return Err(HandshakeError::Network(other.to_string())),
    };
    if *rpc != "grpc" {
        return Err(HandshakeError::Rpc(rpc.to_string()));
    }
    // go-plugin writes the certificate in base64 without padding; accept it with too.
    let cert = cert.trim_end_matches('=');
    let server_cert = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(cert)
        .ok()
        .filter(|c| !c.is_empty())
        .ok_or(HandshakeError::NoCertificate)?;
    Ok(Handshake {
        protocol_version,
        address,
        server_cert,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_handshake_line_is_read() {
        // The AWS provider 5.100.0's line, its certificate cut short (any bytes decode).
        let line = "1|5|unix|/tmp/plugin40290896|grpc|MIICUDCCAbGgAwIBAgIRAPG60NzT43B55zTN\n";
        let h = parse_handshake(line).unwrap();
        assert_eq!(h.protocol_version, 5);
        assert_eq!(h.address, Address::Unix("/tmp/plugin40290896".into()));
        assert_eq!(&h.server_cert[..4], &[0x30, 0x82, 0x02, 0x50]);
        let padded = "1|6|tcp|127.0.0.1:10001|grpc|AAE=";
        let h = parse_handshake(padded).unwrap();
        assert_eq!((h.protocol_version, h.server_cert), (6, vec![0, 1]));
        assert_eq!(h.address, Address::Tcp("127.0.0.1:10001".into()));
    }

    #[test]
    fn unusable_handshakes_are_errors() {
        use HandshakeError::*;
        let cases = [
            ("Starting provider...", Shape("Starting provider...".into())),
            ("2|5|unix|/s|grpc|AAE", CoreVersion("2".into())),
            ("1|4|unix|/s|grpc|AAE", ProtocolVersion("4".into())),
            ("1|5|pipe|/s|grpc|AAE", Network("pipe".into())),
            ("1|5|unix|/s|netrpc|AAE", Rpc("netrpc".into())),
            ("1|5|unix|/s|grpc|", NoCertificate),
            ("1|5|unix|/s|grpc|%%", NoCertificate),
        ];
        for (line, error) in cases {
            assert_eq!(parse_handshake(line), Err(error), "{line}");
        }
    }
}
