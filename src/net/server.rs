//! The server: axum on a single-thread tokio runtime in a thread of its
//! own. It serves the routes its owner gives, with the request head
//! bounded, silent connections closed and connections counted per address
//! and in all ([`super::limits`]), beside one task of the owner's (the
//! mirror's: taking the runtime's events), and ends when that task does.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use tokio::sync::oneshot;

use super::limits::{HEAD_WITHIN, MAX_CONNECTIONS_PER_ADDRESS, MAX_HEAD_BYTES, connection_cap};
use super::request::{Peer, own_host, refuse};
use axum::http::StatusCode;
use futures_util::FutureExt;
use futures_util::future::Either;

/// Why the server could not start.
#[derive(Debug)]
pub enum Error {
    /// The configuration's `key` holds no address.
    Address { key: &'static str, value: String },
    /// The address cannot be listened on (in use, not ours).
    Bind {
        address: String,
        error: std::io::Error,
    },
    /// The server's thread or runtime could not start.
    Start(std::io::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Address { key, value } => write!(
                f,
                "{key} = \"{}\": not an address and port like \"127.0.0.1:8080\"",
                crate::text::quote::short(value)
            ),
            Error::Bind { address, error } => {
                write!(f, "the server cannot listen on {address}: {error}")
            }
            Error::Start(e) => write!(f, "the server cannot start: {e}"),
        }
    }
}

impl std::error::Error for Error {}

/// A running server.
pub struct Server {
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    addr: SocketAddr,
}

impl Server {
    /// Listens on `listen` (the value of the configuration's `key`, such
    /// as `"127.0.0.1:8080"`; port 0 picks a free one) and serves `app`
    /// from a thread called `name`, to requests whose `Host` is an IP
    /// address, `localhost` or one of `names`. `task` runs beside it and
    /// is given the stop signal; the server ends when the task returns, so
    /// the task can finish what it has to say first.
    pub fn start<T, F>(
        key: &'static str,
        listen: &str,
        name: &str,
        names: Vec<String>,
        app: Router,
        task: T,
    ) -> Result<Server, Error>
    where
        T: FnOnce(oneshot::Receiver<()>) -> F + Send + 'static,
        F: Future<Output = ()>,
    {
        let address: SocketAddr = listen.parse().map_err(|_| Error::Address {
            key,
            value: listen.to_string(),
        })?;
        let listener = std::net::TcpListener::bind(address).map_err(|error| Error::Bind {
            address: listen.to_string(),
            error,
        })?;
        listener.set_nonblocking(true).map_err(Error::Start)?;
        let addr = listener.local_addr().map_err(Error::Start)?;
        let (stop, stopped) = oneshot::channel();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(Error::Start)?;
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    let gate = Gate::new(connection_cap(open_files()));
                    tokio::select! {
                        _ = accept(listener, app, gate, names.into()) => {}
                        _ = task(stopped) => {}
                    }
                });
                // Dropping the runtime ends every connection still open.
                runtime.shutdown_timeout(Duration::from_millis(200));
            })
            .map_err(Error::Start)?;
        Ok(Server {
            stop: Some(stop),
            thread: Some(thread),
            addr,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops serving: the task is told, and the thread joined once it is
    /// done.
    pub fn stop(mut self) {
        self.end();
    }

    fn end(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.end();
    }
}

/// How many files this process may have open (its soft limit).
fn open_files() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given,
    // which lives for the call.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    if got == 0 { limit.rlim_cur } else { 1024 }
}

/// The connections open now, per address and in all.
#[derive(Clone)]
struct Gate {
    cap: usize,
    open: Arc<Mutex<(usize, HashMap<IpAddr, usize>)>>,
}

/// One connection let in; it is counted until dropped.
struct Admitted {
    gate: Gate,
    from: IpAddr,
}

impl Gate {
    fn new(cap: usize) -> Gate {
        Gate {
            cap,
            open: Arc::new(Mutex::new((0, HashMap::new()))),
        }
    }

    /// Lets a connection from `from` in, unless that would pass the cap in
    /// all or the cap for its address.
    fn admit(&self, from: IpAddr) -> Option<Admitted> {
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (total, by_address) = &mut *open;
        let mine = by_address.entry(from).or_insert(0);
        if *total >= self.cap || *mine >= MAX_CONNECTIONS_PER_ADDRESS {
            if *mine == 0 {
                by_address.remove(&from);
            }
            return None;
        }
        *mine += 1;
        *total += 1;
        Some(Admitted {
            gate: self.clone(),
            from,
        })
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self
            .gate
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (total, by_address) = &mut *open;
        *total = total.saturating_sub(1);
        if let Some(n) = by_address.get_mut(&self.from) {
            *n -= 1;
            if *n == 0 {
                by_address.remove(&self.from);
            }
        }
    }
}

/// Takes connections and serves each on a task of its own, with the peer's
/// address on every request. One past the gate's caps is closed at once.
async fn accept(listener: tokio::net::TcpListener, app: Router, gate: Gate, names: Arc<[String]>) {
    loop {
        let (socket, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors, or a connection gone before it was
            // taken: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Some(admitted) = gate.admit(peer.ip()) else {
            drop(socket);
            continue;
        };
        let app = app.clone();
        let names = Arc::clone(&names);
        tokio::spawn(async move {
            let _admitted = admitted;
            let service = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    let path = req.uri().path();
                    let answer = Answer::of(path.starts_with("/api/") || path == "/state");
                    let answered = if own_host(req.headers(), &names) {
                        req.extensions_mut().insert(Peer(peer));
                        let mut app = app.clone();
                        Either::Right(tower_service::Service::call(&mut app, req))
                    } else {
                        let refused = refuse(
                            StatusCode::MISDIRECTED_REQUEST,
                            "this server does not answer to that host name",
                        );
                        Either::Left(std::future::ready(Ok(refused)))
                    };
                    answered.map(move |r| r.map(|response| answer.harden(response)))
                },
            );
            let _ = hyper::server::conn::http1::Builder::new()
                .max_buf_size(MAX_HEAD_BYTES)
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEAD_WITHIN)
                .serve_connection(hyper_util::rt::TokioIo::new(socket), service)
                .await;
        });
    }
}

/// What every answer carries: no content sniffing, no referrer; and for
/// the game's state and the console's answers, no copy kept by a cache.
#[derive(Clone, Copy)]
struct Answer {
    live: bool,
}

impl Answer {
    /// `live`: an answer about the game as it is now (`/state`, `/api/…`).
    fn of(live: bool) -> Answer {
        Answer { live }
    }

    fn harden(self, mut response: axum::response::Response) -> axum::response::Response {
        use axum::http::{HeaderValue, header};
        let h = response.headers_mut();
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        if self.live {
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_counts_per_address_and_in_all() {
        let here = IpAddr::from([192, 168, 1, 20]);
        let there = IpAddr::from([192, 168, 1, 21]);
        let gate = Gate::new(40);
        let mine: Vec<Admitted> = (0..MAX_CONNECTIONS_PER_ADDRESS)
            .map(|_| gate.admit(here).expect("within the address's cap"))
            .collect();
        assert!(gate.admit(here).is_none(), "one address's cap");
        let theirs: Vec<Admitted> = (0..40 - MAX_CONNECTIONS_PER_ADDRESS)
            .map(|_| gate.admit(there).expect("within the cap in all"))
            .collect();
        assert!(gate.admit(there).is_none(), "the cap in all");
        drop(mine);
        assert!(
            gate.admit(here).is_some(),
            "a closed connection frees its place"
        );
        drop(theirs);
        let open = gate.open.lock().expect("lock");
        assert_eq!((open.0, open.1.len()), (0, 0), "nothing left counted");
    }
}
