//! The server: axum on a single-thread tokio runtime in a thread of its
//! own. It serves the routes its owner gives, with the request head
//! bounded, silent connections closed, every connection's life and
//! requests bounded, and connections shared fairly among the devices
//! ([`super::shares`], [`super::limits`]), beside one task
//! of the owner's (the mirror's: taking the runtime's events), and ends
//! when that task does.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use tokio::sync::oneshot;

use super::limits::{
    CLOSING_AT_MOST, CONNECTIONS_PER_DEVICE, Lives, MAX_HEAD_BYTES, TAKEN_CLOSES_WITHIN,
    connection_cap,
};
use super::request::{Credential, Peer, Privilege, Routes, own_host, refuse};
use super::shares::Shares;
use axum::http::StatusCode;
use futures_util::FutureExt;
use futures_util::future::Either;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    /// as `"127.0.0.1:8080"`; port 0 picks a free one) and serves `routes`
    /// from a thread called `name`, to requests whose `Host` is an IP
    /// address, `localhost` or one of `names`, each connection living at
    /// most as `lives` says. `task` runs beside it and is given the stop
    /// signal; the server ends when the task returns, so the task can
    /// finish what it has to say first.
    pub fn start<T, F>(
        key: &'static str,
        listen: &str,
        name: &str,
        names: Vec<String>,
        routes: Routes,
        lives: Lives,
        task: T,
    ) -> Result<Server, Error>
    where
        T: FnOnce(oneshot::Receiver<()>) -> F + Send + 'static,
        F: Future<Output = ()>,
    {
        Server::start_secure(key, listen, name, names, routes, lives, None, task)
    }

    /// The same over TLS when `tls` is given: every connection's handshake
    /// must be done within the time a request's head may take.
    #[allow(clippy::too_many_arguments)]
    pub fn start_secure<T, F>(
        key: &'static str,
        listen: &str,
        name: &str,
        names: Vec<String>,
        routes: Routes,
        lives: Lives,
        tls: Option<Arc<rustls::ServerConfig>>,
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
                    let served = Served {
                        app: routes.router,
                        privilege: routes.privilege,
                        names: names.into(),
                        lives,
                        tls: tls.map(tokio_rustls::TlsAcceptor::from),
                    };
                    tokio::select! {
                        _ = accept(listener, served, gate) => {}
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

/// The connections open now, shared fairly among the devices that hold
/// them ([`Shares`]), and those whose place a newcomer took, still
/// closing.
#[derive(Clone)]
struct Gate {
    open: Arc<Mutex<Open>>,
    closing: Arc<AtomicUsize>,
}

struct Open {
    shares: Shares,
    /// Each open connection's ticket, by its place's number.
    tickets: HashMap<u64, Arc<Ticket>>,
}

/// What a connection is told: a newcomer took its place.
#[derive(Default)]
struct Ticket {
    taken: tokio::sync::Notify,
    was_taken: AtomicBool,
}

/// One connection let in; it is counted until dropped.
struct Admitted {
    gate: Gate,
    from: IpAddr,
    id: u64,
    ticket: Arc<Ticket>,
}

impl Gate {
    fn new(cap: usize) -> Gate {
        Gate {
            open: Arc::new(Mutex::new(Open {
                shares: Shares::new(cap, CONNECTIONS_PER_DEVICE),
                tickets: HashMap::new(),
            })),
            closing: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Lets a connection from `from` in: into a free place within its
    /// device's share, or, when all are taken, into the oldest place of
    /// whoever holds the most (that connection is told to close). Nobody
    /// while too many connections are still closing.
    fn admit(&self, from: IpAddr) -> Option<Admitted> {
        if self.closing.load(Ordering::SeqCst) >= CLOSING_AT_MOST {
            return None;
        }
        let mut open = self.lock();
        let given = open.shares.give(from, false)?;
        if let Some(taken) = given.taken_from_another
            && let Some(ticket) = open.tickets.remove(&taken)
        {
            ticket.was_taken.store(true, Ordering::SeqCst);
            self.closing.fetch_add(1, Ordering::SeqCst);
            ticket.taken.notify_one();
        }
        let ticket = Arc::new(Ticket::default());
        open.tickets.insert(given.id, Arc::clone(&ticket));
        Some(Admitted {
            gate: self.clone(),
            from,
            id: given.id,
            ticket,
        })
    }

    /// The connection `id` of `from` showed a credential: its place is
    /// never taken.
    fn prove(&self, from: IpAddr, id: u64) {
        self.lock().shares.prove(from, id);
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.gate.lock();
        open.shares.free(self.from, self.id);
        open.tickets.remove(&self.id);
        if self.ticket.was_taken.load(Ordering::SeqCst) {
            self.gate.closing.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// What every connection is served with.
#[derive(Clone)]
struct Served {
    app: Router,
    privilege: Privilege,
    names: Arc<[String]>,
    lives: Lives,
    /// Connections are TLS first.
    tls: Option<tokio_rustls::TlsAcceptor>,
}

/// Takes connections and serves each on a task of its own, with the peer's
/// address and whether it shows a credential on every request. One the
/// gate does not let in is closed at once.
async fn accept(listener: tokio::net::TcpListener, served: Served, gate: Gate) {
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
        let served = served.clone();
        match served.tls.clone() {
            None => {
                tokio::spawn(serve(socket, peer, served, admitted));
            }
            // The handshake on the connection's own task, bounded as a
            // request's head is: a silent client holds nothing long.
            Some(acceptor) => {
                tokio::spawn(async move {
                    let head = served.lives.head;
                    if let Ok(Ok(secure)) =
                        tokio::time::timeout(head, acceptor.accept(socket)).await
                    {
                        serve(secure, peer, served, admitted).await;
                    }
                });
            }
        }
    }
}

/// Serves one connection until it closes, its requests run out, a
/// newcomer takes its place (then it is closed once the answer under way
/// is given, within [`TAKEN_CLOSES_WITHIN`]) or its life ends (then it is
/// closed once the answer under way is given: an event stream has its
/// whole life, anything else as long as a head may take).
async fn serve<S>(socket: S, peer: SocketAddr, served: Served, admitted: Admitted)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let requests = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let proven = Arc::new(AtomicBool::new(false));
    let prove: Arc<dyn Fn() + Send + Sync> = {
        let (gate, id, proven) = (admitted.gate.clone(), admitted.id, Arc::clone(&proven));
        Arc::new(move || {
            if !proven.swap(true, Ordering::SeqCst) {
                gate.prove(peer.ip(), id);
            }
        })
    };
    let Served {
        app,
        privilege,
        names,
        lives,
        tls: _,
    } = served;
    let service =
        hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            let path = req.uri().path();
            let answer = Answer::of(path.starts_with("/api/") || path == "/state");
            let n = requests.fetch_add(1, Ordering::SeqCst) + 1;
            let last = n >= lives.requests;
            let answered = if !own_host(req.headers(), &names) {
                let refused = refuse(
                    StatusCode::MISDIRECTED_REQUEST,
                    "this server does not answer to that host name",
                );
                Either::Left(std::future::ready(Ok(refused)))
            } else {
                // A live session makes the connection's place its own; a
                // secret does when a route judges it.
                if privilege.holds_quietly(req.headers()) {
                    prove();
                }
                req.extensions_mut().insert(Peer(peer));
                req.extensions_mut().insert(Credential::new(
                    privilege.clone(),
                    peer.ip(),
                    Some(Arc::clone(&prove)),
                ));
                let mut app = app.clone();
                Either::Right(tower_service::Service::call(&mut app, req))
            };
            answered.map(move |r| r.map(|response| answer.harden(response, last)))
        });
    let connection = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD_BYTES)
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(lives.head)
        .serve_connection(hyper_util::rt::TokioIo::new(socket), service);
    tokio::pin!(connection);
    let grace = tokio::select! {
        _ = connection.as_mut() => return,
        _ = admitted.ticket.taken.notified() => TAKEN_CLOSES_WITHIN,
        _ = tokio::time::sleep(lives.connection) => lives.stream.max(lives.head),
    };
    connection.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(grace, connection).await;
    drop(admitted);
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

    /// The answer with the headers every answer carries; `close`: the
    /// connection ends after it.
    fn harden(
        self,
        mut response: axum::response::Response,
        close: bool,
    ) -> axum::response::Response {
        use axum::http::{HeaderValue, header};
        let h = response.headers_mut();
        if close {
            h.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
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
