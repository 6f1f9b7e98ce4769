//! What failed in an exchange that got no usable answer, told apart from the error
//! chain the HTTP stack gives: so that a certificate problem does not read "could not
//! connect", and so the client knows whether the request may have reached the server.

use std::error::Error as StdError;

/// What failed in an exchange with the server ([`Error::Transport`](crate::Error::Transport)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportCause {
    /// The host name could not be resolved.
    Dns,
    /// Nothing accepts connections at the address (connection refused).
    ConnectionRefused,
    /// The connection could not be made in time.
    ConnectTimeout,
    /// The server's TLS certificate is not trusted (unknown issuer, self-signed).
    CertificateUntrusted,
    /// The server's TLS certificate is not valid for the host name.
    CertificateWrongHost,
    /// The server's TLS certificate has expired or is not valid yet.
    CertificateExpired,
    /// The server does not speak TLS: `https://` to a plain-http port.
    NotTls,
    /// The TLS handshake failed for another reason.
    Tls,
    /// The connection could not be made for another reason.
    Connect,
    /// No whole answer came within the time allowed (the request may have reached
    /// the server).
    Timeout,
    /// The connection was closed or reset before the answer came (the request may have
    /// reached the server).
    ConnectionLost,
    /// The answer's body was cut short.
    BodyCut,
    /// The answer's head is larger than the client reads: more than 100 header
    /// lines, or too long (the request reached the server).
    AnswerHeadTooLarge,
    /// The answer is not valid HTTP: a malformed status line or header (the request
    /// reached the server).
    NotHttp,
    /// Something else failed while sending or receiving.
    Other,
}

impl TransportCause {
    /// Whether the request may have reached the server. `false` when the connection
    /// was never made (or never secured), so nothing of the request left.
    pub fn may_have_reached_server(self) -> bool {
        matches!(
            self,
            Self::Timeout
                | Self::ConnectionLost
                | Self::BodyCut
                | Self::AnswerHeadTooLarge
                | Self::NotHttp
                | Self::Other
        )
    }

    /// Whether trying again may help. A certificate or protocol problem will not pass.
    pub fn is_retryable(self) -> bool {
        !matches!(
            self,
            Self::CertificateUntrusted
                | Self::CertificateWrongHost
                | Self::CertificateExpired
                | Self::NotTls
                | Self::Tls
                | Self::AnswerHeadTooLarge
                | Self::NotHttp
                | Self::Other
        )
    }

    /// One line for a message.
    pub(crate) fn describe(self) -> String {
        match self {
            Self::Dns => "could not resolve the server's host name (DNS)",
            Self::ConnectionRefused => "the server refused the connection (nothing listens there?)",
            Self::ConnectTimeout => "could not connect to the server in time",
            Self::CertificateUntrusted => {
                "the server's TLS certificate is not trusted (unknown issuer or self-signed)"
            }
            Self::CertificateWrongHost => {
                "the server's TLS certificate is not valid for its host name"
            }
            Self::CertificateExpired => {
                "the server's TLS certificate has expired or is not valid yet"
            }
            Self::NotTls => "the server does not speak TLS (https:// to a plain-http port?)",
            Self::Tls => "the TLS handshake with the server failed",
            Self::Connect => "could not connect to the server",
            Self::Timeout => "no answer within the time allowed",
            Self::ConnectionLost => "the connection was closed before the answer came",
            Self::BodyCut => "the answer was cut short (connection closed mid-body)",
            Self::AnswerHeadTooLarge => {
                "the server's answer has more than 100 headers, or a head too large to read \
                 (the request reached the server; not retried)"
            }
            Self::NotHttp => {
                "the server's answer is not valid HTTP (a malformed status line or header; \
                 the request reached the server; not retried)"
            }
            Self::Other => "the exchange with the server failed",
        }
        .to_owned()
    }

    /// The cause of `error`, read from its chain of sources.
    pub(crate) fn of(error: &reqwest::Error) -> Self {
        if let Some(cause) = tls_cause(error) {
            return cause;
        }
        if error.is_connect() {
            if error.is_timeout() {
                return Self::ConnectTimeout;
            }
            return chain(error)
                .into_iter()
                .find_map(|source| {
                    if source.to_string().starts_with("dns error") {
                        return Some(Self::Dns);
                    }
                    let io = source.downcast_ref::<std::io::Error>()?;
                    match io.kind() {
                        std::io::ErrorKind::ConnectionRefused => Some(Self::ConnectionRefused),
                        std::io::ErrorKind::TimedOut => Some(Self::ConnectTimeout),
                        _ => None,
                    }
                })
                .unwrap_or(Self::Connect);
        }
        if error.is_timeout() {
            return Self::Timeout;
        }
        if let Some(cause) = parse_cause(error) {
            return cause;
        }
        if error.is_body() || error.is_decode() {
            return Self::BodyCut;
        }
        if error.is_request() {
            return Self::ConnectionLost;
        }
        Self::Other
    }
}

/// The error and its sources, outermost first.
fn chain<'e>(error: &'e (dyn StdError + 'static)) -> Vec<&'e (dyn StdError + 'static)> {
    let mut chain = vec![error];
    let mut current = error;
    while let Some(source) = current.source() {
        chain.push(source);
        current = source;
    }
    chain
}

/// An answer hyper could not parse, found in the chain (reqwest reports it as a
/// failed request, which would read as a lost connection and be retried).
fn parse_cause(error: &reqwest::Error) -> Option<TransportCause> {
    chain(error).into_iter().find_map(|source| {
        let hyper = source.downcast_ref::<hyper::Error>()?;
        if !hyper.is_parse() {
            return None;
        }
        // hyper tells "too large" apart only with its server feature; its message
        // ("message head is too large") says it in every build.
        if hyper.to_string().contains("too large") {
            Some(TransportCause::AnswerHeadTooLarge)
        } else {
            Some(TransportCause::NotHttp)
        }
    })
}

/// A TLS failure in the chain: rustls's error, as itself or inside I/O errors (the
/// connector wraps it in one I/O error inside another, and an I/O error's `source`
/// skips the error it wraps, so each is opened with `get_ref`).
fn tls_cause(error: &reqwest::Error) -> Option<TransportCause> {
    chain(error).into_iter().find_map(|source| {
        let mut inner: &(dyn StdError + 'static) = source;
        while let Some(io) = inner.downcast_ref::<std::io::Error>() {
            inner = io.get_ref()?;
        }
        let tls = inner.downcast_ref::<rustls::Error>()?;
        Some(match tls {
            rustls::Error::InvalidCertificate(problem) => certificate_cause(problem),
            rustls::Error::InvalidMessage(_) => TransportCause::NotTls,
            _ => TransportCause::Tls,
        })
    })
}

fn certificate_cause(problem: &rustls::CertificateError) -> TransportCause {
    use rustls::CertificateError as C;
    match problem {
        C::NotValidForName | C::NotValidForNameContext { .. } => {
            TransportCause::CertificateWrongHost
        }
        C::Expired | C::ExpiredContext { .. } | C::NotValidYet | C::NotValidYetContext { .. } => {
            TransportCause::CertificateExpired
        }
        _ => TransportCause::CertificateUntrusted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_failures_after_sending_may_have_reached_the_server() {
        for cause in [
            TransportCause::Dns,
            TransportCause::ConnectionRefused,
            TransportCause::CertificateUntrusted,
            TransportCause::NotTls,
        ] {
            assert!(!cause.may_have_reached_server(), "{cause:?}");
        }
        for cause in [
            TransportCause::Timeout,
            TransportCause::ConnectionLost,
            TransportCause::BodyCut,
        ] {
            assert!(cause.may_have_reached_server(), "{cause:?}");
        }
        assert!(!TransportCause::CertificateUntrusted.is_retryable());
        assert!(TransportCause::ConnectionRefused.is_retryable());
    }
}
