//! The server: axum on a single-thread tokio runtime in a thread of its
//! own. It serves the routes its owner gives, with the request head
//! bounded, silent connections closed, every connection's life and
//! requests bounded, and connections counted per network and in all, some
//! kept for requests with a credential ([`super::limits`]), beside one task
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
    HEAD_WITHIN, Lives, MAX_CONNECTIONS_PER_NETWORK, MAX_HEAD_BYTES, RESERVED_CONNECTIONS,
    connection_cap, network,
};
use super::request::{Credential, Peer, Privilege, Routes, own_host, refuse};
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

/// The connections open now: those in the places open to all, per
/// network and in all, and those in the places kept for credentials.
#[derive(Clone)]
struct Gate {
    cap: usize,
    open: Arc<Mutex<Open>>,
}

#[derive(Default)]
struct Open {
    general: usize,
    by_network: HashMap<IpAddr, usize>,
    kept: usize,
    /// The kept places whose connection has shown no credential yet,
    /// oldest first, with the signal that closes each.
    pending: std::collections::VecDeque<(u64, Arc<tokio::sync::Notify>)>,
    next: u64,
}

/// Where a connection was let in.
enum Place {
    /// A place open to all, counted in its network's share.
    General(IpAddr),
    /// A place kept for credentials: every request on it must show one.
    /// Until one has, a newer connection may take the place (`evicted`
    /// tells it to close): holding kept places without a credential gets
    /// nobody anything.
    Kept {
        id: u64,
        evicted: Arc<tokio::sync::Notify>,
    },
}

/// One connection let in; it is counted until dropped.
struct Admitted {
    gate: Gate,
    place: Place,
}

impl Admitted {
    fn kept(&self) -> bool {
        matches!(self.place, Place::Kept { .. })
    }
}

impl Gate {
    fn new(cap: usize) -> Gate {
        Gate {
            cap,
            open: Arc::new(Mutex::new(Open::default())),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Lets a connection from `from` in: into the places open to all while
    /// they and its network's share last, else into those kept for
    /// credentials, taking the oldest one that has shown none when they
    /// are all taken.
    fn admit(&self, from: IpAddr) -> Option<Admitted> {
        let network = network(from);
        let mut open = self.lock();
        let mine = open.by_network.get(&network).copied().unwrap_or(0);
        let open_to_all = self.cap.saturating_sub(RESERVED_CONNECTIONS);
        if open.general < open_to_all && mine < MAX_CONNECTIONS_PER_NETWORK {
            open.by_network.insert(network, mine + 1);
            open.general += 1;
            return Some(Admitted {
                gate: self.clone(),
                place: Place::General(network),
            });
        }
        let kept_places = self.cap.min(RESERVED_CONNECTIONS);
        if open.kept >= kept_places {
            let (_, oldest) = open.pending.pop_front()?;
            oldest.notify_one();
        }
        open.kept += 1;
        open.next += 1;
        let id = open.next;
        let evicted = Arc::new(tokio::sync::Notify::new());
        open.pending.push_back((id, Arc::clone(&evicted)));
        Some(Admitted {
            gate: self.clone(),
            place: Place::Kept { id, evicted },
        })
    }

    /// The kept place `id` has shown a credential: no newer connection
    /// takes it.
    fn proven(&self, id: u64) {
        self.lock().pending.retain(|(p, _)| *p != id);
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.gate.lock();
        match &self.place {
            Place::General(network) => {
                open.general = open.general.saturating_sub(1);
                if let Some(n) = open.by_network.get_mut(network) {
                    *n -= 1;
                    if *n == 0 {
                        open.by_network.remove(network);
                    }
                }
            }
            Place::Kept { id, .. } => {
                open.kept = open.kept.saturating_sub(1);
                open.pending.retain(|(p, _)| p != id);
            }
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
}

/// Takes connections and serves each on a task of its own, with the peer's
/// address and whether it shows a credential on every request. One past
/// the gate's caps is closed at once.
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
        tokio::spawn(serve(socket, peer, served.clone(), admitted));
    }
}

/// Serves one connection until it closes, its requests run out or its
/// life ends (then it is closed once the answer under way is given, and
/// dropped if that takes longer than a head may).
async fn serve(
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    served: Served,
    admitted: Admitted,
) {
    let kept = admitted.kept();
    let (evicted, prove) = match &admitted.place {
        Place::Kept { id, evicted } => {
            let (gate, id) = (admitted.gate.clone(), *id);
            (
                Some(Arc::clone(evicted)),
                Some(Arc::new(move || gate.proven(id))),
            )
        }
        Place::General(_) => (None, None),
    };
    let requests = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let Served {
        app,
        privilege,
        names,
        lives,
    } = served;
    let service =
        hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            let path = req.uri().path();
            let answer = Answer::of(path.starts_with("/api/") || path == "/state");
            let n = requests.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            let last = n >= lives.requests;
            // Judged here only on a place kept for credentials; the routes
            // ask when they need to know.
            let privileged = kept && privilege.holds(req.headers(), peer.ip());
            if privileged && let Some(prove) = &prove {
                prove();
            }
            let answered = if !own_host(req.headers(), &names) {
                let refused = refuse(
                    StatusCode::MISDIRECTED_REQUEST,
                    "this server does not answer to that host name",
                );
                Either::Left(std::future::ready(Ok(refused)))
            } else if kept && !privileged {
                let refused = refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is full; try again soon",
                );
                Either::Left(std::future::ready(Ok(refused)))
            } else {
                req.extensions_mut().insert(Peer(peer));
                let judged = kept.then_some(privileged);
                req.extensions_mut()
                    .insert(Credential::new(privilege.clone(), peer.ip(), judged));
                let mut app = app.clone();
                Either::Right(tower_service::Service::call(&mut app, req))
            };
            // A place kept for credentials is given up with a request that
            // showed none, or one the routes refused.
            answered.map(move |r| {
                r.map(|response| {
                    let close =
                        last || (kept && (!privileged || response.status().is_client_error()));
                    answer.harden(response, close)
                })
            })
        });
    let connection = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD_BYTES)
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEAD_WITHIN)
        .serve_connection(hyper_util::rt::TokioIo::new(socket), service);
    tokio::pin!(connection);
    let evicted = async {
        match evicted {
            Some(e) => e.notified().await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = connection.as_mut() => return,
        // A newer connection took its kept place: closed at once.
        _ = evicted => return,
        _ = tokio::time::sleep(lives.connection) => {}
    }
    connection.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(HEAD_WITHIN, connection).await;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_counts_per_network_and_in_all_and_keeps_places_for_credentials() {
        let here = IpAddr::from([192, 168, 1, 20]);
        let same_network = IpAddr::from([192, 168, 1, 99]);
        let there = IpAddr::from([192, 168, 2, 21]);
        let cap = RESERVED_CONNECTIONS + 40;
        let gate = Gate::new(cap);
        // One laptop with many addresses in its network: its network's
        // share of the places open to all…
        let mine: Vec<Admitted> = (0..MAX_CONNECTIONS_PER_NETWORK)
            .map(|i| {
                let from = if i % 2 == 0 { here } else { same_network };
                let a = gate.admit(from).expect("within the network's share");
                assert!(!a.kept());
                a
            })
            .collect();
        // …then only the places kept for credentials.
        let kept = gate.admit(same_network).expect("a kept place");
        assert!(kept.kept());
        drop(kept);
        let theirs: Vec<Admitted> = (0..40 - MAX_CONNECTIONS_PER_NETWORK)
            .map(|_| gate.admit(there).expect("within the places open to all"))
            .collect();
        assert!(theirs.iter().all(|a| !a.kept()));
        // All open places taken: the kept ones remain…
        let reserve: Vec<Admitted> = (0..RESERVED_CONNECTIONS)
            .map(|_| gate.admit(there).expect("a kept place"))
            .collect();
        assert!(reserve.iter().all(Admitted::kept));
        // …and when they are all taken too, a newer connection takes the
        // oldest that has shown no credential; one that has keeps its own.
        let Place::Kept { id: first, .. } = &reserve[0].place else {
            panic!("kept")
        };
        gate.proven(*first);
        let newer = gate.admit(there).expect("takes a place shown nothing");
        assert!(newer.kept());
        assert_eq!(gate.lock().pending.len(), RESERVED_CONNECTIONS - 1);
        assert!(gate.lock().pending.iter().all(|(id, _)| id != first));
        drop(mine);
        let again = gate
            .admit(here)
            .expect("a closed connection frees its place");
        assert!(!again.kept());
        drop((again, theirs, reserve, newer));
        let open = gate.lock();
        assert_eq!(
            (
                open.general,
                open.kept,
                open.by_network.len(),
                open.pending.len()
            ),
            (0, 0, 0, 0),
            "nothing left counted"
        );
    }
}
