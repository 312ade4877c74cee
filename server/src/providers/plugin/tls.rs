//! go-plugin's automatic mutual TLS: Strata makes a self-signed client certificate for
//! each start (given to the plugin in `PLUGIN_CLIENT_CERT`), and accepts exactly the
//! certificate the plugin printed in its handshake line — a pin, so no CA or host name
//! check is needed (go-plugin's certificate is a self-signed CA, which WebPKI would refuse
//! as a server certificate). Signatures are still verified with the crypto provider
//! (aws-lc-rs, which has the P-521 curve go-plugin uses).

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};

/// Why TLS could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// Making the client certificate failed.
    #[error("cannot make a client certificate: {0}")]
    Certificate(#[from] rcgen::Error),
    /// rustls refused the configuration.
    #[error("cannot configure TLS: {0}")]
    Config(#[from] rustls::Error),
}

/// A client certificate with its key.
pub struct ClientIdentity {
    /// The certificate, PEM, for `PLUGIN_CLIENT_CERT`.
    pub pem: String,
    der: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
}

/// A fresh self-signed certificate for `localhost` that may authenticate a client, as
/// go-plugin's own client makes one.
pub fn client_identity() -> Result<ClientIdentity, TlsError> {
    use rcgen::{
        BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
        KeyUsagePurpose,
    };
    let key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)?;
    let mut params = CertificateParams::new(vec!["localhost".to_string()])?;
    params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    // The plugin puts this certificate in its pool of roots and checks the client
    // certificate against it: it must be a CA that may sign, used for client auth.
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
        KeyUsagePurpose::KeyCertSign,
    ];
    params.extended_key_usages = vec![
        ExtendedKeyUsagePurpose::ClientAuth,
        ExtendedKeyUsagePurpose::ServerAuth,
    ];
    let cert = params.self_signed(&key)?;
    Ok(ClientIdentity {
        pem: cert.pem(),
        der: cert.der().clone(),
        key: PrivatePkcs8KeyDer::from(key.serialize_der()),
    })
}

/// The client configuration for one plugin: present `identity`, accept only
/// `server_cert`, speak HTTP/2.
pub fn client_config(
    identity: &ClientIdentity,
    server_cert: Vec<u8>,
) -> Result<ClientConfig, TlsError> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let verifier = PinnedServer {
        cert: CertificateDer::from(server_cert),
        provider: provider.clone(),
    };
    let key = PrivateKeyDer::Pkcs8(identity.key.clone_key());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_client_auth_cert(vec![identity.der.clone()], key)?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// Accepts the one certificate the plugin announced.
#[derive(Debug)]
struct PinnedServer {
    cert: CertificateDer<'static>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for PinnedServer {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if end_entity.as_ref() == self.cert.as_ref() {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the plugin presented another certificate than its handshake announced".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.provider.signature_verification_algorithms;
        verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.provider.signature_verification_algorithms;
        verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
