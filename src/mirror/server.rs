//! The mirror on the server ([`crate::net::Server`]): the runtime hands it
//! events over a channel and never waits for it; it serves the page, the
//! state, the event stream (SSE) and the scoresheet, GET only, to any
//! number of readers up to a bound, beside whatever other routes it is
//! given (the console's).

use std::collections::HashMap;
use std::net::IpAddr;
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

use super::page::View;
use super::state::MirrorState;
use crate::core::Stamped;
use crate::net::limits::{FLUSH_WITHIN, Lives, MAX_STREAMS, STREAMS_PER_DEVICE};
use crate::net::request::{Credential, Routes};
use crate::net::shares::Shares;
use crate::net::{Error, Peer, Server};

enum Message {
    Events(Vec<Stamped>),
    Scoresheet(String),
}

struct Inner {
    state: MirrorState,
    /// The state as the page reads it, numbered (`seq`), so that a page
    /// never takes an older one after a newer.
    json: Arc<str>,
    pgn: String,
    /// How many batches of events were taken.
    seq: u64,
    /// This server's run (when it started, in ms since the epoch): a
    /// page compares `seq` within one run only.
    run: u64,
    /// The game's instant of the latest event, and when it was taken.
    latest: Option<(u64, std::time::Instant)>,
}

impl Inner {
    /// The state as it stands now: with the game's instant now (`now`,
    /// the latest event's instant and the time since), which a page
    /// counts a running clock from.
    fn json_now(&self) -> Arc<str> {
        match self.latest {
            Some((t, at)) => {
                let now = t + at.elapsed().as_millis() as u64;
                with_field(&self.json, "now", now).into()
            }
            None => self.json.clone(),
        }
    }

    /// The state's JSON as the page reads it: numbered, within this run.
    fn numbered(&self, json: &str) -> String {
        with_field(&with_field(json, "seq", self.seq), "run", self.run)
    }
}

/// Now in ms since the epoch.
fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// `json` (an object) with `name` set to `value` last.
fn with_field(json: &str, name: &str, value: u64) -> String {
    match json.strip_suffix('}') {
        Some("{") => format!("{{\"{name}\":{value}}}"),
        Some(rest) => format!("{rest},\"{name}\":{value}}}"),
        None => json.to_string(),
    }
}

#[derive(Clone)]
struct Shared {
    /// The page, in the configured language.
    page: Arc<str>,
    /// How words are written for a reader: applied to every event and
    /// state line served.
    written: Arc<crate::announce::spoken::Written>,
    inner: Arc<Mutex<Inner>>,
    /// Each batch of events: the event lines, then the state after them.
    lines: broadcast::Sender<Arc<[Line]>>,
    /// The event streams open now.
    streams: Arc<AtomicUsize>,
    /// Who holds them, and how each is told a newcomer took its place.
    holders: Arc<Mutex<Holders>>,
    /// How long a stream lives.
    stream_life: Duration,
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
    server: Server,
    /// Over HTTPS: the plain address's server, which only redirects.
    redirect: Option<Server>,
    secure: bool,
}

/// Serving over HTTPS: the TLS configuration, and the plain address that
/// then only redirects to it ("" for none).
#[derive(Clone)]
pub struct Secure {
    pub tls: Arc<rustls::ServerConfig>,
    pub redirect_from: String,
}

impl Mirror {
    /// Listens on `listen` (`"127.0.0.1:8080"`; port 0 picks a free one)
    /// and serves `view` from a thread of its own.
    pub fn start(listen: &str, view: View) -> Result<Mirror, Error> {
        Mirror::with_routes(listen, view, Routes::default())
    }

    /// The same, with `more` routes on the same server (the console's).
    pub fn with_routes(listen: &str, view: View, more: Routes) -> Result<Mirror, Error> {
        Mirror::serve(listen, &[], view, more)
    }

    /// The same, answering to the host `names` besides IP addresses and
    /// `localhost` (`[mirror] hosts`).
    pub fn serve(
        listen: &str,
        names: &[String],
        view: View,
        more: Routes,
    ) -> Result<Mirror, Error> {
        Mirror::serve_living(listen, names, view, more, Lives::default())
    }

    /// The same, its connections and streams living as `lives` says.
    pub fn serve_living(
        listen: &str,
        names: &[String],
        view: View,
        more: Routes,
        lives: Lives,
    ) -> Result<Mirror, Error> {
        Mirror::serve_secure(listen, names, view, more, lives, None)
    }

    /// The same over HTTPS when `secure` says so (`listen` is then the
    /// HTTPS address).
    pub fn serve_secure(
        listen: &str,
        names: &[String],
        view: View,
        more: Routes,
        lives: Lives,
        secure: Option<Secure>,
    ) -> Result<Mirror, Error> {
        let shown = MirrorState::new(view.blind, view.orientation);
        let shared = Shared {
            page: view.page.into(),
            written: Arc::new(view.written),
            inner: Arc::new(Mutex::new({
                let mut inner = Inner {
                    json: "{}".into(),
                    state: shown,
                    pgn: String::new(),
                    seq: 0,
                    run: wall_ms(),
                    latest: None,
                };
                inner.json = inner.numbered(&inner.state.to_json()).into();
                inner
            })),
            lines: broadcast::channel(256).0,
            streams: Arc::new(AtomicUsize::new(0)),
            holders: Arc::new(Mutex::new(Holders {
                shares: Shares::new(MAX_STREAMS, STREAMS_PER_DEVICE),
                ends: HashMap::new(),
            })),
            stream_life: lives.stream,
        };
        let app = Router::new()
            .route("/", get(page))
            .route("/state", get(state))
            .route("/events", get(events))
            .route("/pgn", get(pgn))
            .with_state(shared.clone())
            .merge(more.router);
        let routes = Routes {
            router: app,
            privilege: more.privilege,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let key = if secure.is_some() {
            "[https] listen"
        } else {
            "[mirror] listen"
        };
        let server = Server::start_secure(
            key,
            listen,
            "mirror",
            names.to_vec(),
            routes,
            lives,
            secure.as_ref().map(|s| Arc::clone(&s.tls)),
            move |stopped| keep(shared, rx, stopped),
        )?;
        let redirect = match &secure {
            Some(s) if !s.redirect_from.trim().is_empty() => Some(crate::net::redirect::start(
                "[mirror] listen",
                &s.redirect_from,
                names,
                server.addr().port(),
            )?),
            _ => None,
        };
        Ok(Mirror {
            tx,
            server,
            redirect,
            secure: secure.is_some(),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.server.addr()
    }

    /// Where it is reached: `https://ADDR` or `http://ADDR`.
    pub fn url(&self) -> String {
        let scheme = if self.secure { "https" } else { "http" };
        format!("{scheme}://{}", self.addr())
    }

    /// The plain address that redirects to HTTPS, if any.
    pub fn redirect_addr(&self) -> Option<std::net::SocketAddr> {
        self.redirect.as_ref().map(Server::addr)
    }

    /// Events to show; never waits. The answers to the blind player's
    /// questions are his alone: they are not shown, nor streamed.
    pub fn send(&self, events: &[Stamped]) {
        let shown: Vec<Stamped> = events
            .iter()
            .filter(|e| !e.event.is_private())
            .cloned()
            .collect();
        if !shown.is_empty() {
            let _ = self.tx.send(Message::Events(shown));
        }
    }

    /// The current game's scoresheet, for `GET /pgn`.
    pub fn scoresheet(&self, pgn: String) {
        let _ = self.tx.send(Message::Scoresheet(pgn));
    }

    /// Stops serving: open streams end after what was sent before, the
    /// thread is joined.
    pub fn stop(self) {
        if let Some(r) = self.redirect {
            r.stop();
        }
        self.server.stop();
    }
}

/// Takes the runtime's messages into what the page shows, until the stop.
async fn keep(
    shared: Shared,
    mut rx: mpsc::UnboundedReceiver<Message>,
    mut stopped: oneshot::Receiver<()>,
) {
    loop {
        tokio::select! {
            _ = &mut stopped => break,
            message = rx.recv() => match message {
                Some(message) => receive(&shared, message),
                None => break,
            },
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
    let written = |json: String| -> Arc<str> { shared.written.apply_to_json(&json).into() };
    let mut lines: Vec<Line> = events
        .iter()
        .map(|e| Line::Event(written(serde_json::to_string(e).unwrap_or_default())))
        .collect();
    let json = {
        let mut inner = shared.lock();
        for e in events {
            inner.state.observe(e);
        }
        inner.seq += 1;
        let numbered = inner.numbered(&inner.state.to_json());
        inner.json = written(numbered);
        if let Some(last) = events.last() {
            inner.latest = Some((last.t, std::time::Instant::now()));
        }
        inner.json.clone()
    };
    lines.push(Line::State(json));
    let _ = shared.lines.send(lines.into());
}

async fn page(State(shared): State<Shared>) -> Response {
    crate::net::page::serve(&shared.page, crate::net::page::Frames::Allowed)
}

async fn state(State(shared): State<Shared>) -> Response {
    let json = shared.lock().json_now();
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

/// The event streams, shared fairly among the devices that hold them.
struct Holders {
    shares: Shares,
    /// What ends each open stream early, by its place's number.
    ends: HashMap<u64, Arc<tokio::sync::Notify>>,
}

/// Counts an event stream while it is open.
struct Open {
    shared: Shared,
    from: IpAddr,
    id: u64,
    /// Told when a newcomer took this stream's place.
    end: Arc<tokio::sync::Notify>,
}

impl Open {
    /// A stream from `from` (`privileged`: with a credential, bounded by
    /// no share and never ended for another), unless its device has its
    /// share, or all are open and nobody holds more than it would; then
    /// the oldest stream of whoever holds the most ends for it.
    fn new(shared: &Shared, from: IpAddr, privileged: bool) -> Option<Open> {
        let mut holders = shared
            .holders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let given = holders.shares.give(from, privileged)?;
        if let Some(taken) = given.taken_from_another
            && let Some(end) = holders.ends.remove(&taken)
        {
            end.notify_one();
        }
        let end = Arc::new(tokio::sync::Notify::new());
        holders.ends.insert(given.id, Arc::clone(&end));
        shared.streams.fetch_add(1, Ordering::SeqCst);
        Some(Open {
            shared: shared.clone(),
            from,
            id: given.id,
            end,
        })
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.shared.streams.fetch_sub(1, Ordering::SeqCst);
        let mut holders = self
            .shared
            .holders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        holders.shares.free(self.from, self.id);
        holders.ends.remove(&self.id);
    }
}

async fn events(State(shared): State<Shared>, request: axum::http::request::Parts) -> Response {
    let from = request
        .extensions
        .get::<Peer>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |p| p.0.ip());
    let privileged = request
        .extensions
        .get::<Credential>()
        .is_some_and(|c| c.shown(&request.headers));
    let Some(open) = Open::new(&shared, from, privileged) else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many viewers\n").into_response();
    };
    let rx = shared.lines.subscribe();
    let first = shared.lock().json_now();
    // A stream ends after its life, or when a newcomer took its place; the
    // page opens it again a second later (`retry`), and is given the state
    // first as ever.
    let end = Arc::clone(&open.end);
    let life = tokio::time::sleep(shared.stream_life);
    let life = async move {
        tokio::select! {
            _ = life => {}
            _ = end.notified() => {}
        }
    };
    let stream = futures_util::StreamExt::take_until(sse_stream(first, rx, shared, open), life);
    Sse::new(stream)
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
    let start = stream::iter([Ok(SseEvent::default()
        .event("state")
        .retry(Duration::from_secs(1))
        .data(&*first))]);
    let rest = stream::unfold((rx, shared, open), |(mut rx, shared, open)| async move {
        let batch: Vec<Line> = match rx.recv().await {
            Ok(lines) => lines.to_vec(),
            Err(broadcast::error::RecvError::Lagged(_)) => {
                vec![Line::State(shared.lock().json_now())]
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
