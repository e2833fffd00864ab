//! HTTPS: the certificate the pages are served with (one named in
//! `[https]`, or a self-signed one made on first run and kept in the state
//! directory), its SHA-256 fingerprint (which `console-token` prints, and
//! a hall hub pins), the server's TLS configuration, and a client
//! connection that trusts one certificate by its fingerprint alone.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls_pki_types::pem::PemObject as _;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use serde::Deserialize;

/// The file names of a self-signed certificate and its key, in the state
/// directory.
pub const MADE_CERTIFICATE: &str = "https-certificate.pem";
pub const MADE_KEY: &str = "https-key.pem";

/// `[https]`: serving the pages over HTTPS.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpsConfig {
    /// The address and port served over HTTPS ("0.0.0.0:8443"); "" serves
    /// plain HTTP only. With it, the plain address (`[mirror] listen`,
    /// `[hall] listen`) only sends each request on to HTTPS.
    pub listen: String,
    /// A certificate (PEM, its chain) and its private key (PEM); both ""
    /// makes a self-signed one on first run, kept in the state directory.
    pub certificate: String,
    pub key: String,
}

impl HttpsConfig {
    pub fn check(&self) -> Result<(), crate::text::key::KeyProblem> {
        use crate::text::key::KeyProblem;
        if !self.listen.is_empty() && self.listen.parse::<std::net::SocketAddr>().is_err() {
            return Err(KeyProblem::at(
                &["https", "listen"],
                format!(
                    "[https] listen = \"{}\": an address and port like \"0.0.0.0:8443\"",
                    crate::text::quote::short(&self.listen)
                ),
            ));
        }
        if self.certificate.is_empty() != self.key.is_empty() {
            let missing = if self.key.is_empty() {
                "key"
            } else {
                "certificate"
            };
            return Err(KeyProblem::at(
                &["https", missing],
                "[https] certificate and key go together: name both files, or neither for a \
                 self-signed certificate"
                    .into(),
            ));
        }
        Ok(())
    }
}

/// Why the certificate cannot serve: a file that cannot be read, a
/// certificate that cannot be made or kept, a key that does not fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsError(pub String);

impl std::fmt::Display for TlsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TlsError {}

impl From<String> for TlsError {
    fn from(why: String) -> TlsError {
        TlsError(why)
    }
}

/// A certificate and its key, ready to serve.
#[derive(Debug)]
pub struct Identity {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    /// Where it was read from.
    pub from: PathBuf,
}

/// `AB:CD:…`, the SHA-256 of a certificate (DER), as browsers show it.
pub fn fingerprint(der: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, der);
    digest
        .as_ref()
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// A fingerprint as written in a configuration: its hex digits, in
/// capitals, without separators (`ab:cd`, `AB CD` and `abcd` are one).
pub fn plain_fingerprint(text: &str) -> Option<String> {
    let hex: String = text
        .chars()
        .filter(|c| !matches!(c, ':' | ' ' | '-'))
        .collect::<String>()
        .to_ascii_uppercase();
    (hex.len() == 64 && hex.chars().all(|c| c.is_ascii_hexdigit())).then_some(hex)
}

impl Identity {
    /// The certificate's fingerprint ([`fingerprint`]).
    pub fn fingerprint(&self) -> String {
        self.chain
            .first()
            .map_or_else(String::new, |c| fingerprint(c.as_ref()))
    }

    /// Reads a certificate chain and its key (PEM).
    pub fn read(certificate: &Path, key: &Path) -> Result<Identity, TlsError> {
        let chain = CertificateDer::pem_file_iter(certificate)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| {
                format!(
                    "{}: no certificate could be read: {e}",
                    certificate.display()
                )
            })?;
        if chain.is_empty() {
            return Err(TlsError(format!(
                "{}: holds no certificate",
                certificate.display()
            )));
        }
        let key = PrivateKeyDer::from_pem_file(key)
            .map_err(|e| format!("{}: no private key could be read: {e}", key.display()))?;
        Ok(Identity {
            chain,
            key,
            from: certificate.to_path_buf(),
        })
    }

    /// The one `config` names, or the self-signed one kept in `dir` (made
    /// there now, for `names` and `localhost`, if there is none yet).
    pub fn configured(
        config: &HttpsConfig,
        dir: &Path,
        names: &[String],
    ) -> Result<Identity, TlsError> {
        if !config.certificate.is_empty() {
            return Identity::read(Path::new(&config.certificate), Path::new(&config.key));
        }
        let (cert, key) = (dir.join(MADE_CERTIFICATE), dir.join(MADE_KEY));
        if !cert.exists() || !key.exists() {
            make(&cert, &key, names)?;
        }
        Identity::read(&cert, &key)
    }

    /// The server's TLS configuration: HTTP/1.1 over TLS 1.2 or 1.3.
    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, TlsError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_single_cert(self.chain.clone(), self.key.clone_key())
            .map_err(|e| {
                format!(
                    "{}: the certificate and key do not serve: {e}",
                    self.from.display()
                )
            })?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }
}

/// Makes a self-signed certificate for `names` and `localhost`, its key
/// readable by its owner alone; each file written whole or not at all.
fn make(cert: &Path, key: &Path, names: &[String]) -> Result<(), String> {
    let mut sans: Vec<String> = vec!["localhost".into(), "pegboard.local".into()];
    sans.extend(names.iter().cloned());
    sans.dedup();
    let made = rcgen::generate_simple_self_signed(sans)
        .map_err(|e| format!("no self-signed certificate could be made: {e}"))?;
    if let Some(dir) = cert.parent() {
        private_dir(dir)?;
    }
    write_whole(key, made.signing_key.serialize_pem().as_bytes(), 0o600)?;
    write_whole(cert, made.cert.pem().as_bytes(), 0o644)
}

/// `dir`, made for its owner alone (0700) if it is not there; one others
/// may write to is refused: anyone could put a key of his own in it.
fn private_dir(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let mode = std::fs::metadata(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .permissions()
        .mode();
    if mode & 0o022 != 0 {
        return Err(format!(
            "{} can be written by others (mode {:03o}): anyone could put a certificate and key \
             of his own in it; chmod 700 it, or set [journal] dir to a folder of pegboard's own",
            dir.display(),
            mode & 0o777
        ));
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file, synced and renamed.
fn write_whole(path: &Path, bytes: &[u8], mode: u32) -> Result<(), String> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let temporary = path.with_extension("part");
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    // A leftover of an interrupted write keeps its own mode: gone first,
    // so that the file is made anew with `mode`.
    let _ = std::fs::remove_file(&temporary);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(&temporary)
        .map_err(fail)?;
    file.write_all(bytes).map_err(fail)?;
    file.sync_data().map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)?;
    if let Some(dir) = path.parent()
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A TLS client that trusts exactly one certificate, by its SHA-256
/// fingerprint: a hall hub following a board's self-signed one. The
/// handshake's signatures are checked as ever.
#[derive(Debug)]
pub struct Pinned {
    fingerprint: String,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl Pinned {
    /// The client configuration for the certificate whose fingerprint is
    /// `fingerprint` (see [`plain_fingerprint`]).
    pub fn client_config(fingerprint: &str) -> Arc<rustls::ClientConfig> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let pinned = Pinned {
            fingerprint: plain_fingerprint(fingerprint).unwrap_or_default(),
            provider: Arc::clone(&provider),
        };
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map(|b| {
                b.dangerous()
                    .with_custom_certificate_verifier(Arc::new(pinned))
                    .with_no_client_auth()
            });
        match config {
            Ok(c) => Arc::new(c),
            // ring's defaults always build; a verifier that trusts nothing
            // otherwise.
            Err(_) => Arc::new(
                rustls::ClientConfig::builder()
                    .with_root_certificates(rustls::RootCertStore::empty())
                    .with_no_client_auth(),
            ),
        }
    }
}

impl rustls::client::danger::ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &rustls_pki_types::ServerName<'_>,
        _ocsp: &[u8],
        _now: rustls_pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        let seen = fingerprint(end_entity.as_ref()).replace(':', "");
        if !self.fingerprint.is_empty() && seen == self.fingerprint {
            Ok(rustls::client::danger::ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A ureq connection to a server whose certificate is pinned by its
/// fingerprint ([`Pinned`]): the hub's to a board served over HTTPS.
pub mod pinned {
    use std::io::{Read as _, Write as _};
    use std::sync::Arc;

    use ureq::unversioned::transport::{
        Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, TcpConnector,
        Transport, TransportAdapter,
    };

    /// An agent that reaches `https://` addresses trusting only the
    /// certificate whose fingerprint is `fingerprint` (and `http://` ones
    /// as they are), configured by `config`.
    pub fn agent(config: ureq::config::Config, fingerprint: &str) -> ureq::Agent {
        let connector = ().chain(TcpConnector::default()).chain(Wrap {
            config: super::Pinned::client_config(fingerprint),
        });
        ureq::Agent::with_parts(
            config,
            connector,
            ureq::unversioned::resolver::DefaultResolver::default(),
        )
    }

    #[derive(Debug)]
    struct Wrap {
        config: Arc<rustls::ClientConfig>,
    }

    impl<In: Transport> Connector<In> for Wrap {
        type Out = Either<In, Secured>;

        fn connect(
            &self,
            details: &ConnectionDetails,
            chained: Option<In>,
        ) -> Result<Option<Self::Out>, ureq::Error> {
            let Some(transport) = chained else {
                return Ok(None);
            };
            if !details.needs_tls() || transport.is_tls() {
                return Ok(Some(Either::A(transport)));
            }
            let host = details
                .uri
                .host()
                .unwrap_or_default()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string();
            let name = rustls_pki_types::ServerName::try_from(host)
                .map_err(|_| ureq::Error::Tls("no server name"))?;
            let mut conn = rustls::ClientConnection::new(Arc::clone(&self.config), name)
                .map_err(|_| ureq::Error::Tls("the TLS connection could not begin"))?;
            let mut sock = TransportAdapter::new(transport.boxed(), details.current_time.clone());
            sock.set_timeout(details.timeout);
            conn.complete_io(&mut sock)
                .map_err(|_| ureq::Error::Tls("the board's certificate is not the one pinned"))?;
            let buffers = LazyBuffers::new(
                details.config.input_buffer_size(),
                details.config.output_buffer_size(),
            );
            Ok(Some(Either::B(Secured {
                buffers,
                stream: rustls::StreamOwned { conn, sock },
            })))
        }
    }

    /// The TLS connection, as ureq reads and writes it.
    pub struct Secured {
        buffers: LazyBuffers,
        stream: rustls::StreamOwned<rustls::ClientConnection, TransportAdapter>,
    }

    impl std::fmt::Debug for Secured {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("Secured(pinned TLS)")
        }
    }

    impl Transport for Secured {
        fn buffers(&mut self) -> &mut dyn Buffers {
            &mut self.buffers
        }

        fn transmit_output(
            &mut self,
            amount: usize,
            timeout: NextTimeout,
        ) -> Result<(), ureq::Error> {
            self.stream.get_mut().set_timeout(timeout);
            let output = &self.buffers.output()[..amount];
            self.stream.write_all(output)?;
            Ok(())
        }

        fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
            self.stream.get_mut().set_timeout(timeout);
            let input = self.buffers.input_append_buf();
            let amount = self.stream.read(input)?;
            self.buffers.input_appended(amount);
            Ok(amount > 0)
        }

        fn is_open(&mut self) -> bool {
            self.stream.get_mut().get_mut().is_open()
        }

        fn is_tls(&self) -> bool {
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_certificate_is_made_once_kept_and_read_back_with_its_fingerprint() {
        let dir = std::env::temp_dir().join(format!("pegboard-tls-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let names = vec!["board-3.local".to_string()];
        let first = Identity::configured(&HttpsConfig::default(), &dir, &names).expect("made");
        let mode = std::fs::metadata(dir.join(MADE_KEY))
            .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777)
            .expect("kept");
        assert_eq!(mode, 0o600, "the key is its owner's alone");
        let again = Identity::configured(&HttpsConfig::default(), &dir, &names).expect("read");
        assert_eq!(first.fingerprint(), again.fingerprint(), "made once");
        let f = first.fingerprint();
        assert_eq!(f.len(), 32 * 3 - 1, "{f}");
        assert!(first.server_config().is_ok());
        // openssl, which pegboard did not write, computes the same.
        let out = std::process::Command::new("openssl")
            .args(["x509", "-noout", "-fingerprint", "-sha256", "-in"])
            .arg(dir.join(MADE_CERTIFICATE))
            .output()
            .expect("openssl runs (.ci/setup.sh installs it)");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.trim().ends_with(&f), "{text} vs {f}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_fingerprint_is_read_however_it_is_written() {
        let f = "ab:".repeat(31) + "ab";
        assert_eq!(plain_fingerprint(&f), Some("AB".repeat(32)));
        assert_eq!(plain_fingerprint(&"AB ".repeat(32)), Some("AB".repeat(32)));
        assert_eq!(plain_fingerprint("AB:CD"), None);
        assert_eq!(plain_fingerprint(&"XY".repeat(32)), None);
    }

    #[test]
    fn half_a_certificate_is_named_at_its_key() {
        let c = HttpsConfig {
            certificate: "cert.pem".into(),
            ..HttpsConfig::default()
        };
        assert!(c.check().is_err_and(|p| p.path == ["https", "key"]));
    }
}
