//! The hub on the server ([`crate::net::Server`]): the arbiter's hall
//! view (`/`), what it shows as JSON (`/state`) and as a stream of it
//! (`/events`, Server-Sent Events), and the round's games (`/round.pgn`)
//! for a lichess broadcast's source. The hub's loop hands it each view
//! and round it makes and never waits for it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::stream;
use serde::Serialize;
use tokio::sync::watch;

use crate::announce::vocabulary::{DisplayWords, HallWords, Vocabulary};
use crate::mirror::page::{SHARED_JS, VIEW_CSS};
use crate::net::limits::{Lives, MAX_STREAMS, STREAMS_PER_DEVICE};
use crate::net::request::{Credential, Routes};
use crate::net::shares::Shares;
use crate::net::{Error, Peer, Server};

const PAGE: &str = include_str!("page.html");
const HALL_JS: &str = include_str!("hall.js");

/// Where the words go in the page.
const WORDS_AT: &str = "{\"words\":\"here\"}";

/// The words the hall view's script reads.
#[derive(Serialize)]
struct PageWords<'a> {
    display: &'a DisplayWords,
    hall: &'a HallWords,
    white: &'a str,
    black: &'a str,
}

/// The hall view in `words`' language: its words, the mirror's board and
/// clock parts, and its own script.
pub fn page(words: &Vocabulary) -> String {
    let table = PageWords {
        display: &words.display,
        hall: &words.hall,
        white: &words.colors.white,
        black: &words.colors.black,
    };
    let json = serde_json::to_string(&table).unwrap_or_default();
    let json = words.written.apply_to_json(&json).replace('<', "\\u003c");
    let lang: String = words
        .language
        .synthesizer
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    PAGE.replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1)
        .replacen("/*view.css*/", VIEW_CSS, 1)
        .replacen("/*board.js*/", SHARED_JS, 1)
        .replacen("/*hall.js*/", HALL_JS, 1)
        .replacen(WORDS_AT, &json, 1)
}

#[derive(Clone)]
struct Shared {
    page: Arc<str>,
    /// The view as the page reads it.
    view: watch::Receiver<Arc<str>>,
    round: Arc<Mutex<Arc<str>>>,
    holders: Arc<Mutex<Holders>>,
    stream_life: Duration,
}

/// The event streams, shared fairly among the devices that hold them,
/// and what ends each early when a newcomer takes its place.
struct Holders {
    shares: Shares,
    ends: HashMap<u64, Arc<tokio::sync::Notify>>,
}

/// The running server.
pub struct HallServer {
    view: watch::Sender<Arc<str>>,
    round: Arc<Mutex<Arc<str>>>,
    server: Server,
    /// Over HTTPS: the plain address's server, which only redirects.
    redirect: Option<Server>,
    /// The round's games alone, for a broadcast's source.
    broadcast: Option<Server>,
    secure: bool,
}

impl HallServer {
    /// Listens on `listen` (`[hall] listen`), answering to the host
    /// `names` besides IP addresses and `localhost`, the page in `words`'
    /// language.
    /// Over HTTPS when `secure` says so: `listen` is then the HTTPS
    /// address, and the plain one only redirects to it.
    /// With `broadcast_listen` (not ""), the round's games alone are also
    /// served there, over plain HTTP.
    pub fn start(
        listen: &str,
        broadcast_listen: &str,
        names: &[String],
        words: &Vocabulary,
        lives: Lives,
        secure: Option<crate::mirror::Secure>,
    ) -> Result<HallServer, Error> {
        let (view, seen) = watch::channel::<Arc<str>>("{}".into());
        let round: Arc<Mutex<Arc<str>>> = Arc::new(Mutex::new("".into()));
        let shared = Shared {
            page: page(words).into(),
            view: seen,
            round: Arc::clone(&round),
            holders: Arc::new(Mutex::new(Holders {
                shares: Shares::new(MAX_STREAMS, STREAMS_PER_DEVICE),
                ends: HashMap::new(),
            })),
            stream_life: lives.stream,
        };
        let broadcast = if broadcast_listen.trim().is_empty() {
            None
        } else {
            let only_the_round = Router::new()
                .route("/round.pgn", get(round_pgn))
                .with_state(shared.clone());
            // lichess asks for the round by whatever name the organiser
            // gave it (club.example.org): the one public file is served
            // to any.
            Some(Server::start(
                "[hall] broadcast_listen",
                broadcast_listen,
                "hall-broadcast",
                vec![crate::net::request::ANY_HOST.to_string()],
                Routes {
                    router: only_the_round,
                    privilege: crate::net::request::Privilege::none(),
                },
                lives,
                |stopped| async move {
                    let _ = stopped.await;
                },
            )?)
        };
        let app = Router::new()
            .route("/", get(serve_page))
            .route("/state", get(state))
            .route("/events", get(events))
            .route("/round.pgn", get(round_pgn))
            .with_state(shared);
        let routes = Routes {
            router: app,
            privilege: crate::net::request::Privilege::none(),
        };
        let key = if secure.is_some() {
            "[https] listen"
        } else {
            "[hall] listen"
        };
        let server = Server::start_secure(
            key,
            listen,
            "hall-server",
            names.to_vec(),
            routes,
            lives,
            secure.as_ref().map(|s| Arc::clone(&s.tls)),
            |stopped| async move {
                let _ = stopped.await;
            },
        )?;
        let redirect = match &secure {
            Some(s) if !s.redirect_from.trim().is_empty() => Some(crate::net::redirect::start(
                "[hall] listen",
                &s.redirect_from,
                names,
                server.addr().port(),
            )?),
            _ => None,
        };
        Ok(HallServer {
            view,
            round,
            server,
            redirect,
            broadcast,
            secure: secure.is_some(),
        })
    }

    pub fn addr(&self) -> std::net::SocketAddr {
        self.server.addr()
    }

    /// Where it is reached: `https://ADDR` or `http://ADDR`.
    pub fn url(&self) -> String {
        let scheme = if self.secure { "https" } else { "http" };
        format!("{scheme}://{}", self.addr())
    }

    /// The view and the round as they stand; never waits.
    pub fn publish(&self, view: &str, round: &str) {
        self.view.send_replace(view.into());
        *self
            .round
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = round.into();
    }

    /// Where the round's games alone are served, if anywhere.
    pub fn broadcast_addr(&self) -> Option<std::net::SocketAddr> {
        self.broadcast.as_ref().map(Server::addr)
    }

    pub fn stop(self) {
        for s in [self.redirect, self.broadcast].into_iter().flatten() {
            s.stop();
        }
        self.server.stop();
    }
}

async fn serve_page(State(shared): State<Shared>) -> Response {
    crate::net::page::serve(&shared.page, crate::net::page::Frames::Allowed)
}

async fn state(State(shared): State<Shared>) -> Response {
    let json = shared.view.borrow().clone();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        json.to_string(),
    )
        .into_response()
}

async fn round_pgn(State(shared): State<Shared>) -> Response {
    let text = shared
        .round
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        text.to_string(),
    )
        .into_response()
}

/// Counts an event stream while it is open.
struct Open {
    holders: Arc<Mutex<Holders>>,
    from: IpAddr,
    id: u64,
}

impl Drop for Open {
    fn drop(&mut self) {
        let mut holders = self
            .holders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        holders.shares.free(self.from, self.id);
        holders.ends.remove(&self.id);
    }
}

/// A stream ends after its life, or when a newcomer took its place (the
/// page opens it again a second later, and is given the view first).
async fn events(State(shared): State<Shared>, request: axum::http::request::Parts) -> Response {
    let from = request
        .extensions
        .get::<Peer>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |p| p.0.ip());
    let privileged = request
        .extensions
        .get::<Credential>()
        .is_some_and(|c| c.shown(&request.headers));
    let end = Arc::new(tokio::sync::Notify::new());
    let given = {
        let mut holders = shared
            .holders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let given = holders.shares.give(from, privileged);
        if let Some(given) = given {
            if let Some(taken) = given.taken_from_another
                && let Some(other) = holders.ends.remove(&taken)
            {
                other.notify_one();
            }
            holders.ends.insert(given.id, Arc::clone(&end));
        }
        given
    };
    let Some(given) = given else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many viewers\n").into_response();
    };
    let open = Open {
        holders: Arc::clone(&shared.holders),
        from,
        id: given.id,
    };
    let mut view = shared.view.clone();
    let first = view.borrow_and_update().clone();
    let start = stream::iter([Ok::<_, std::convert::Infallible>(
        SseEvent::default()
            .event("state")
            .retry(Duration::from_secs(1))
            .data(&*first),
    )]);
    let rest = stream::unfold((view, open), |(mut view, open)| async move {
        view.changed().await.ok()?;
        let json = view.borrow_and_update().clone();
        Some((
            Ok(SseEvent::default().event("state").data(&*json)),
            (view, open),
        ))
    });
    let life = tokio::time::sleep(shared.stream_life);
    let life = async move {
        tokio::select! {
            _ = life => {}
            _ = end.notified() => {}
        }
    };
    let stream =
        futures_util::StreamExt::take_until(futures_util::StreamExt::chain(start, rest), life);
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}
