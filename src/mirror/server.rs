//! The mirror's web server: axum on a single-thread tokio runtime in a
//! thread of its own. The runtime hands it events over a channel and never
//! waits for it; it serves the page, the state, the event stream (SSE) and
//! the scoresheet, GET only, to any number of readers up to a bound.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::stream::{self, Stream};

use tokio::sync::{broadcast, mpsc, oneshot};

use super::console::{Door, Peer};
use super::page::View;
use super::state::MirrorState;
use crate::core::Stamped;

/// At most this many event streams at once; more get 503.
pub const MAX_STREAMS: usize = 64;

/// A request's head (request line and headers) may be at most this long.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A connection that sends no request head within this long is closed.
const HEAD_WITHIN: Duration = Duration::from_secs(10);

/// How long a stop waits for the open event streams to write what was
/// sent before it; a viewer that reads nothing is not waited for longer.
const FLUSH_WITHIN: Duration = Duration::from_millis(500);

/// Why the mirror could not start.
#[derive(Debug)]
pub enum Error {
    /// `[mirror] listen` is no address.
    Address(String),
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
            Error::Address(a) => write!(
                f,
                "[mirror] listen = \"{}\": not an address and port like \"127.0.0.1:8080\"",
                crate::text::quote::short(a)
            ),
            Error::Bind { address, error } => {
                write!(f, "the mirror cannot listen on {address}: {error}")
            }
            Error::Start(e) => write!(f, "the mirror cannot start: {e}"),
        }
    }
}

impl std::error::Error for Error {}

enum Message {
    Events(Vec<Stamped>),
    Scoresheet(String),
}

struct Inner {
    state: MirrorState,
    json: Arc<str>,
    pgn: String,
}

#[derive(Clone)]
struct Shared {
    /// The page, in the configured language.
    page: axum::body::Bytes,
    inner: Arc<Mutex<Inner>>,
    /// Each batch of events: the event lines, then the state after them.
    lines: broadcast::Sender<Arc<[Line]>>,
    streams: Arc<AtomicUsize>,
}

#[derive(Clone)]
enum Line {
    Event(Arc<str>),
    State(Arc<str>),
    /// The mirror stops: a stream ends here, after everything before it.
    End,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The running mirror.
pub struct Mirror {
    tx: mpsc::UnboundedSender<Message>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    addr: SocketAddr,
}

impl Mirror {
    /// Listens on `listen` (`"127.0.0.1:8080"`; port 0 picks a free one)
    /// and serves `view` from a thread of its own.
    pub fn start(listen: &str, view: View) -> Result<Mirror, Error> {
        Mirror::open(listen, view, None)
    }

    /// The same, with the console (`/console`, `/api/…`) whose inputs go
    /// through `door`.
    pub fn with_console(listen: &str, view: View, door: Door) -> Result<Mirror, Error> {
        Mirror::open(listen, view, Some(door))
    }

    fn open(listen: &str, view: View, door: Option<Door>) -> Result<Mirror, Error> {
        let address: SocketAddr = listen
            .parse()
            .map_err(|_| Error::Address(listen.to_string()))?;
        let listener = std::net::TcpListener::bind(address).map_err(|error| Error::Bind {
            address: listen.to_string(),
            error,
        })?;
        listener.set_nonblocking(true).map_err(Error::Start)?;
        let addr = listener.local_addr().map_err(Error::Start)?;
        let state = MirrorState::new(view.blind, view.orientation);
        let shared = Shared {
            page: view.page.into(),
            inner: Arc::new(Mutex::new(Inner {
                json: state.to_json().into(),
                state,
                pgn: String::new(),
            })),
            lines: broadcast::channel(256).0,
            streams: Arc::new(AtomicUsize::new(0)),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let (stop, stopped) = oneshot::channel();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(Error::Start)?;
        let thread = std::thread::Builder::new()
            .name("mirror".into())
            .spawn(move || {
                runtime.block_on(serve(listener, shared, door, rx, stopped));
                // Dropping the runtime ends every connection still open.
                runtime.shutdown_timeout(Duration::from_millis(200));
            })
            .map_err(Error::Start)?;
        Ok(Mirror {
            tx,
            stop: Some(stop),
            thread: Some(thread),
            addr,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Events to show; never waits.
    pub fn send(&self, events: &[Stamped]) {
        if !events.is_empty() {
            let _ = self.tx.send(Message::Events(events.to_vec()));
        }
    }

    /// The current game's scoresheet, for `GET /pgn`.
    pub fn scoresheet(&self, pgn: String) {
        let _ = self.tx.send(Message::Scoresheet(pgn));
    }

    /// Stops serving: open streams end, the thread is joined.
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

impl Drop for Mirror {
    fn drop(&mut self) {
        self.end();
    }
}

async fn serve(
    listener: std::net::TcpListener,
    shared: Shared,
    door: Option<Door>,
    mut rx: mpsc::UnboundedReceiver<Message>,
    mut stopped: oneshot::Receiver<()>,
) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    let mut app = Router::new()
        .route("/", get(page))
        .route("/state", get(state))
        .route("/events", get(events))
        .route("/pgn", get(pgn))
        .with_state(shared.clone());
    if let Some(door) = door {
        app = app.merge(super::console::routes(door));
    }
    loop {
        tokio::select! {
            _ = &mut stopped => break,
            message = rx.recv() => match message {
                Some(message) => receive(&shared, message),
                None => break,
            },
            accepted = listener.accept() => {
                let Ok((socket, peer)) = accepted else { continue };
                let app = app.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
                        req.extensions_mut().insert(Peer(peer));
                        let mut app = app.clone();
                        tower_service::Service::call(&mut app, req)
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .max_buf_size(MAX_HEAD_BYTES)
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(HEAD_WITHIN)
                        .serve_connection(hyper_util::rt::TokioIo::new(socket), service)
                        .await;
                });
            }
        }
    }
    // What was handed over before the stop still reaches every viewer: the
    // events waiting here are taken, each stream ends after them, and the
    // streams are given a moment to write them out.
    while let Ok(message) = rx.try_recv() {
        receive(&shared, message);
    }
    let _ = shared.lines.send([Line::End].into());
    let flushed = async {
        while shared.streams.load(Ordering::SeqCst) > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    let _ = tokio::time::timeout(FLUSH_WITHIN, flushed).await;
    // A stream that has ended still has its last bytes to write.
    tokio::time::sleep(Duration::from_millis(10)).await;
}

/// One message from the runtime, taken into what the page shows.
fn receive(shared: &Shared, message: Message) {
    match message {
        Message::Events(events) => take(shared, &events),
        Message::Scoresheet(text) => shared.lock().pgn = text,
    }
}

/// Events into the state, and out to every stream.
fn take(shared: &Shared, events: &[Stamped]) {
    let mut lines: Vec<Line> = events
        .iter()
        .map(|e| Line::Event(serde_json::to_string(e).unwrap_or_default().into()))
        .collect();
    let json = {
        let mut inner = shared.lock();
        for e in events {
            inner.state.observe(e);
        }
        inner.json = inner.state.to_json().into();
        inner.json.clone()
    };
    lines.push(Line::State(json));
    let _ = shared.lines.send(lines.into());
}

async fn page(State(shared): State<Shared>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        shared.page.clone(),
    )
        .into_response()
}

async fn state(State(shared): State<Shared>) -> Response {
    let json = shared.lock().json.clone();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        json.to_string(),
    )
        .into_response()
}

async fn pgn(State(shared): State<Shared>) -> Response {
    let text = shared.lock().pgn.clone();
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
        )],
        text,
    )
        .into_response()
}

/// Counts an event stream while it is open.
struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn events(State(shared): State<Shared>) -> Response {
    if shared.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::SERVICE_UNAVAILABLE, "too many viewers\n").into_response();
    }
    let open = Open(Arc::clone(&shared.streams));
    let rx = shared.lines.subscribe();
    let first = shared.lock().json.clone();
    Sse::new(sse_stream(first, rx, shared, open))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// The state first, then each batch's event lines and the state after
/// them. A reader that fell behind gets the state again.
fn sse_stream(
    first: Arc<str>,
    rx: broadcast::Receiver<Arc<[Line]>>,
    shared: Shared,
    open: Open,
) -> impl Stream<Item = Result<SseEvent, std::convert::Infallible>> {
    let start = stream::iter([Ok(SseEvent::default().event("state").data(&*first))]);
    let rest = stream::unfold((rx, shared, open), |(mut rx, shared, open)| async move {
        let batch: Vec<Line> = match rx.recv().await {
            Ok(lines) => lines.to_vec(),
            Err(broadcast::error::RecvError::Lagged(_)) => {
                vec![Line::State(shared.lock().json.clone())]
            }
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        if matches!(batch.first(), Some(Line::End)) {
            return None;
        }
        let events: Vec<Result<SseEvent, std::convert::Infallible>> = batch
            .into_iter()
            .filter_map(|l| match l {
                Line::Event(text) => Some(Ok(SseEvent::default().data(&*text))),
                Line::State(text) => Some(Ok(SseEvent::default().event("state").data(&*text))),
                Line::End => None,
            })
            .collect();
        Some((stream::iter(events), (rx, shared, open)))
    });
    futures_util::StreamExt::chain(start, futures_util::StreamExt::flatten(rest))
}
