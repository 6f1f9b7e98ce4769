//! `--tls`: at each start, a certificate authority made afresh and a
//! server certificate it signs for the names the simulator is reached by.
//! Only the authority's certificate is written (`ca.pem`, for clients to
//! trust); both private keys stay in memory and die with the process.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

use crate::SimError;

/// A TLS setup ready to serve.
pub(crate) struct Tls {
    pub(crate) acceptor: tokio_rustls::TlsAcceptor,
    /// The authority's certificate, PEM.
    pub(crate) ca_pem: String,
    /// Where `ca_pem` was written.
    pub(crate) ca_file: PathBuf,
}

/// The names every certificate covers: the loopback names.
const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A fresh directory name for this process's `n`-th simulator.
fn default_dir() -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("hostapi-sim-tls-{}-{n}", std::process::id()))
}

fn tls_err(what: &str, e: impl std::fmt::Display) -> SimError {
    SimError::Tls(format!("{what}: {e}"))
}

/// Make the authority and the server certificate for `names` (plus the
/// loopback names), write the authority's certificate to `dir/ca.pem`
/// (`dir` a fresh temporary directory when None), and build the acceptor.
pub(crate) fn make(names: &[String], dir: Option<&Path>) -> Result<Tls, SimError> {
    let mut all: Vec<String> = LOOPBACK_NAMES.iter().map(|s| s.to_string()).collect();
    for n in names {
        let n = n.trim();
        if n.is_empty() {
            return Err(SimError::Config("tls name: empty".into()));
        }
        if !all.iter().any(|a| a.eq_ignore_ascii_case(n)) {
            all.push(n.to_string());
        }
    }

    let ca_key = KeyPair::generate().map_err(|e| tls_err("authority key", e))?;
    let mut ca_params =
        CertificateParams::new(Vec::<String>::new()).map_err(|e| tls_err("authority", e))?;
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "hostapi-sim test authority");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_cert = ca_params
        .self_signed(&ca_key)
        .map_err(|e| tls_err("authority certificate", e))?;
    let issuer = Issuer::new(ca_params, ca_key);

    let key = KeyPair::generate().map_err(|e| tls_err("server key", e))?;
    let mut params = CertificateParams::new(all.clone())
        .map_err(|e| tls_err(&format!("server certificate for {all:?}"), e))?;
    params
        .distinguished_name
        .push(DnType::CommonName, "hostapi-sim");
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let cert = params
        .signed_by(&key, &issuer)
        .map_err(|e| tls_err("server certificate", e))?;

    let dir = dir.map_or_else(default_dir, Path::to_path_buf);
    std::fs::create_dir_all(&dir).map_err(|e| tls_err(&dir.display().to_string(), e))?;
    let ca_file = dir.join("ca.pem");
    let ca_pem = ca_cert.pem();
    std::fs::write(&ca_file, &ca_pem).map_err(|e| tls_err(&ca_file.display().to_string(), e))?;

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_err("protocol versions", e))?
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.der().clone(), ca_cert.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        )
        .map_err(|e| tls_err("server configuration", e))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Tls {
        acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)),
        ca_pem,
        ca_file,
    })
}
