//! A small scripted HTTP/1.1 server on 127.0.0.1 for the hostile-server tests: each
//! connection carries one request, which is recorded and answered by the script (an
//! answer, a dropped connection, or silence). Nothing here is the simulator: these
//! servers misbehave on purpose.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;

/// A request as the server received it.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Seen {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The request as text, the way an echoing server would put it in its answer.
    pub(crate) fn as_text(&self) -> String {
        let mut text = format!("{} {}\n", self.method, self.path);
        for (k, v) in &self.headers {
            text.push_str(&format!("{k}: {v}\n"));
        }
        text.push_str(&String::from_utf8_lossy(&self.body));
        text
    }
}

/// What the script does with a request.
pub(crate) enum Act {
    /// Answer with these bytes (a whole HTTP response).
    Reply(Vec<u8>),
    /// Send this status line and headers, then a body of `total` bytes of `x` (or
    /// forever, bounded by the client closing), in chunks.
    Stream { head: String, total: u64 },
    /// Close the connection without answering (after reading the request).
    Close,
    /// Keep the connection open and say nothing.
    Hang,
}

/// A response with a JSON body (or any body) and a status.
pub(crate) fn reply(status: u16, content_type: &str, body: &str) -> Act {
    reply_with(status, &[("content-type", content_type)], body)
}

pub(crate) fn reply_with(status: u16, headers: &[(&str, &str)], body: &str) -> Act {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    Act::Reply(bytes)
}

type Script = dyn Fn(usize, &Seen) -> Act + Send + Sync;

/// A running scripted server.
pub(crate) struct Server {
    pub(crate) base_url: String,
    pub(crate) port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    /// Starts a plain-HTTP server; `script(n, request)` decides the answer to the
    /// `n`-th request (from 0).
    pub(crate) async fn start(
        script: impl Fn(usize, &Seen) -> Act + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(script, None).await
    }

    /// Starts a server speaking TLS with `acceptor`.
    pub(crate) async fn start_tls(
        script: impl Fn(usize, &Seen) -> Act + Send + Sync + 'static,
        acceptor: tokio_rustls::TlsAcceptor,
    ) -> Self {
        Self::start_with(script, Some(acceptor)).await
    }

    async fn start_with(
        script: impl Fn(usize, &Seen) -> Act + Send + Sync + 'static,
        tls: Option<tokio_rustls::TlsAcceptor>,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("address").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        let record = seen.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let script = script.clone();
                let record = record.clone();
                let tls = tls.clone();
                tokio::spawn(async move {
                    match tls {
                        Some(acceptor) => {
                            if let Ok(stream) = acceptor.accept(socket).await {
                                serve(stream, script, record).await;
                            }
                        }
                        None => serve(socket, script, record).await,
                    }
                });
            }
        });
        Self {
            base_url: format!("http://127.0.0.1:{port}"),
            port,
            seen,
            task,
        }
    }

    /// The requests received so far.
    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    mut socket: S,
    script: Arc<Script>,
    record: Arc<Mutex<Vec<Seen>>>,
) {
    let Some(request) = read_request(&mut socket).await else {
        return;
    };
    let index = {
        let mut seen = record.lock().unwrap();
        seen.push(request.clone());
        seen.len() - 1
    };
    match script(index, &request) {
        Act::Reply(bytes) => {
            let _ = socket.write_all(&bytes).await;
            let _ = socket.shutdown().await;
        }
        Act::Stream { head, total } => {
            if socket.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            let chunk = vec![b'x'; 64 * 1024];
            let mut sent = 0u64;
            // Bounded by `total`, and by the client closing the connection.
            while sent < total {
                if socket.write_all(&chunk).await.is_err() {
                    return;
                }
                sent += chunk.len() as u64;
            }
        }
        Act::Close => {}
        Act::Hang => tokio::time::sleep(Duration::from_secs(30)).await,
    }
}

async fn read_request<S: AsyncRead + Unpin>(socket: &mut S) -> Option<Seen> {
    let mut buffer = Vec::new();
    let mut byte = [0u8; 1];
    while !buffer.ends_with(b"\r\n\r\n") {
        if buffer.len() > 64 * 1024 || socket.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        buffer.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buffer).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_owned();
    let path = first.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length.min(1024 * 1024)];
    socket.read_exact(&mut body).await.ok()?;
    Some(Seen {
        method,
        path,
        headers,
        body,
    })
}
