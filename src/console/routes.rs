//! The console's routes on the mirror's server: its page, logging in, and
//! inputs. Every request that changes the game must come from the
//! server's own pages (its `Origin`) and carry the console's secret, or a
//! session opened with it; wrong secrets are limited ([`crate::net::auth`]).
//! An input goes to the runtime's one door over a channel and the answer
//! says what the game did.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::{Answer, Door, Request};
use crate::core::Input;
use crate::net::auth::{Limiter, Refusal, SESSION_IDLE_MS, Sessions, same};
use crate::net::limits::MAX_BODY_BYTES;
use crate::net::request::{
    Privilege, Routes, answer, bearer, body, cookie, head, json_body, refuse, same_origin,
};

/// How long a request waits for the game's answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// The session cookie's name.
const COOKIE: &str = "pegboard-session";

struct Guard {
    door: Door,
    page: String,
    /// How the language file's ASCII spellings are written on the page:
    /// applied to the events an answer carries.
    written: crate::announce::spoken::Written,
    sessions: Mutex<Sessions>,
    limiter: Mutex<Limiter>,
    epoch: Instant,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The console's routes, whose inputs go through `door`; `page` is its
/// page in the configured language (made by the runtime from
/// [`super::PAGE`]), and `written` how the language file's words are
/// written for a reader (`[written]`).
pub fn routes(door: Door, page: String, written: crate::announce::spoken::Written) -> Routes {
    let strength = door.strength;
    let guard = Arc::new(Guard {
        door,
        page,
        written,
        sessions: Mutex::new(Sessions::default()),
        limiter: Mutex::new(Limiter::new(strength)),
        epoch: Instant::now(),
    });
    let privilege = {
        let (guard, quiet) = (Arc::clone(&guard), Arc::clone(&guard));
        Privilege::new(
            move |headers, from| guard.privileged(headers, from),
            move |headers| quiet.in_session(headers),
        )
    };
    let router = Router::new()
        .route("/console", get(console_page))
        .route("/api/login", post(login))
        .route("/api/input", post(input))
        .route("/api/logout", post(logout))
        .route("/api/session", get(session_alive))
        .with_state(guard);
    Routes { router, privilege }
}

async fn console_page(State(guard): State<Arc<Guard>>) -> Response {
    crate::net::page::serve(&guard.page, crate::net::page::Frames::Refused)
}

fn session(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, COOKIE)
}

impl Guard {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Whether a request carries a live session's cookie.
    fn in_session(&self, headers: &HeaderMap) -> bool {
        session(headers).is_some_and(|token| lock(&self.sessions).check(token, self.now()))
    }

    /// Whether a request shows a credential, for the places nobody takes:
    /// a live session, or the secret (a wrong one counted as at login, so
    /// that a full server tells a guesser nothing).
    fn privileged(&self, headers: &HeaderMap, from: IpAddr) -> bool {
        let now = self.now();
        if self.in_session(headers) {
            return true;
        }
        bearer(headers).is_some_and(|given| {
            lock(&self.limiter)
                .attempt(from, now, same(given, &self.door.secret))
                .is_ok()
        })
    }

    /// Checks the credential the request carries: a live session (its
    /// token given back, to be renewed), or the secret itself. A wrong
    /// secret is answered only after the limiter's delay.
    async fn authorize(
        &self,
        headers: &HeaderMap,
        from: IpAddr,
    ) -> Result<Option<String>, Response> {
        if let Some(token) = session(headers)
            && lock(&self.sessions).check(token, self.now())
        {
            return Ok(Some(token.to_string()));
        }
        let Some(given) = bearer(headers) else {
            let why = if session(headers).is_some() {
                "the session has ended; log in again"
            } else {
                "log in first: the console's secret, as Authorization: Bearer"
            };
            return Err(refuse(StatusCode::UNAUTHORIZED, why));
        };
        let now = self.now();
        let verdict = lock(&self.limiter).attempt(from, now, same(given, &self.door.secret));
        match verdict {
            Ok(()) => Ok(None),
            Err(Refusal::Shut { until }) => Err(wait_until(
                "too many wrong secrets; wait before trying again",
                until.saturating_sub(now),
            )),
            Err(Refusal::Locked { until }) => Err(wait_until(
                "the PIN is locked: it took its day's wrong guesses; a page already \
                 logged in goes on working",
                until.saturating_sub(now),
            )),
            Err(Refusal::Wrong { wait }) => {
                tokio::time::sleep(Duration::from_millis(wait)).await;
                Err(refuse(StatusCode::UNAUTHORIZED, "wrong secret"))
            }
        }
    }
}

/// A 429 saying `why`, with `Retry-After` in whole seconds (at least one)
/// for `left` milliseconds.
fn wait_until(why: &str, left: u64) -> Response {
    let mut r = refuse(StatusCode::TOO_MANY_REQUESTS, why);
    if let Ok(v) = HeaderValue::from_str(&left.div_ceil(1000).max(1).to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

async fn login(State(guard): State<Arc<Guard>>, request: HttpRequest) -> Response {
    // Logging in carries the secret in a header: the body is never read.
    let (headers, from, _) = match head(request) {
        Ok(r) => r,
        Err(r) => return r.into_response(),
    };
    if bearer(&headers).is_none() {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "the console's secret, as Authorization: Bearer",
        );
    }
    if let Err(r) = guard.authorize(&headers, from).await {
        return r;
    }
    let mut bytes = [0u8; 32];
    if getrandom::fill(&mut bytes).is_err() {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "no random numbers for a session",
        );
    }
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    lock(&guard.sessions).open(token.clone(), guard.now());
    let r = answer(StatusCode::OK, serde_json::json!({ "ok": true }));
    with_cookie(r, &token, SESSION_IDLE_MS / 1000)
}

/// `r` with the session cookie set to `token` for `seconds` (0 ends it in
/// the browser).
fn with_cookie(mut r: Response, token: &str, seconds: u64) -> Response {
    let cookie = format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={seconds}");
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// Whether the request's session is alive (a reloaded page asks, so as
/// not to ask for the secret again); using it renews it.
async fn session_alive(State(guard): State<Arc<Guard>>, request: HttpRequest) -> Response {
    let (headers, _, _) = match head(request) {
        Ok(r) => r,
        Err(r) => return r.into_response(),
    };
    match session(&headers) {
        Some(token) if lock(&guard.sessions).check(token, guard.now()) => with_cookie(
            answer(StatusCode::OK, serde_json::json!({ "ok": true })),
            token,
            SESSION_IDLE_MS / 1000,
        ),
        _ => refuse(StatusCode::UNAUTHORIZED, "no session"),
    }
}

/// Logging out: the session the request carries ends, on the server and
/// in the browser.
async fn logout(State(guard): State<Arc<Guard>>, request: HttpRequest) -> Response {
    let (headers, _, _) = match head(request) {
        Ok(r) => r,
        Err(r) => return r.into_response(),
    };
    if let Some(token) = session(&headers) {
        lock(&guard.sessions).close(token);
    }
    with_cookie(
        answer(StatusCode::OK, serde_json::json!({ "ok": true })),
        "",
        0,
    )
}

/// Why `input` is not one a console may send, if it is not: pegboard's own
/// inputs (the speaker's, the sensors', the engine's, the server's, the
/// classification's) and the blind player's spoken menu, which is his
/// alone.
fn not_a_consoles(input: &Input) -> Option<&'static str> {
    match input {
        Input::Announced(_)
        | Input::Restarted { .. }
        | Input::BoardLost
        | Input::BoardBack
        | Input::BrailleLost
        | Input::BrailleBack
        | Input::Analysis(_)
        | Input::ReviewAnalysis(_)
        | Input::ThreatAnalysis(_)
        | Input::PastGame(_)
        | Input::OpeningClassified { .. }
        | Input::EngineTrouble(_) => Some(
            "`announced`, `restarted`, `board_lost`, `board_back`, `braille_lost`, \
             `braille_back`, the engine's `analysis`, \
             `review_analysis`, `threat_analysis`, `past_game` and `engine_trouble` and the \
             classification's `opening_classified` are pegboard's own inputs (the speaker's, \
             the sensors', the Braille display's, the engine's and the classification's), not a \
             console's",
        ),
        Input::OnlineGame(_)
        | Input::OnlineGames(_)
        | Input::OnlineClock { .. }
        | Input::OnlineEnd { .. }
        | Input::OnlineLost
        | Input::OnlineBack
        | Input::OnlineTakeback
        | Input::OnlineRematch
        | Input::OnlineGone { .. }
        | Input::OnlineChat { .. }
        | Input::OnlineNotice(_) => {
            Some("the `online_…` inputs are what the server says, not a console's")
        }
        Input::CallArbiter => Some("`call_arbiter` is the blind player's own key"),
        Input::Menu(_) | Input::Keyed { .. } => Some(
            "the spoken menu (`menu`, `menu_next`, `menu_select`, `menu_back`) is the blind \
             player's own, on his keys",
        ),
        _ => None,
    }
}

async fn input(State(guard): State<Arc<Guard>>, request: HttpRequest) -> Response {
    let (headers, from, unread) = match head(request) {
        Ok(r) => r,
        Err(r) => return r.into_response(),
    };
    // A browser's request rides on the session's cookie: it must come from
    // the console's own page, which names its origin (a command-line
    // client gives the secret instead).
    if session(&headers).is_some() && !same_origin(&headers) {
        return refuse(
            StatusCode::FORBIDDEN,
            "a request with the console's session must come from its own page (one Origin, \
             this server's)",
        );
    }
    // The right to send first; only then is the body waited for.
    let renewed = match guard.authorize(&headers, from).await {
        Ok(session) => session,
        Err(r) => return r,
    };
    if !json_body(&headers) {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "an input is JSON: send it as Content-Type: application/json",
        );
    }
    let body = match body(unread, MAX_BODY_BYTES).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "the input is not UTF-8 text");
    };
    let input = match Input::from_json(text) {
        Ok(i) => i,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    if let Some(why) = not_a_consoles(&input) {
        return refuse(StatusCode::BAD_REQUEST, why);
    }
    // Resigning ends the game: as with the keypad's key, it is done only
    // when asked twice within its time (the page asks, then sends both),
    // the console's asking apart from the key's.
    let input = match input {
        Input::Resign(color) => Input::ConsoleResign(color),
        other => other,
    };
    let (reply, answered) = tokio::sync::oneshot::channel();
    if guard
        .door
        .requests
        .try_send(Request { input, reply })
        .is_err()
    {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the game is busy; try again",
        );
    }
    let r = match tokio::time::timeout(ANSWER_WITHIN, answered).await {
        Ok(Ok(Answer::Done(events))) => {
            // The answers to the blind player's questions are his voices'
            // alone, even when the console asked for them to be said.
            let events: Vec<_> = events.iter().filter(|e| !e.event.is_private()).collect();
            written_answer(
                StatusCode::OK,
                &guard.written,
                &serde_json::json!({ "events": events }),
            )
        }
        Ok(Ok(Answer::Refused(event))) => written_answer(
            StatusCode::UNPROCESSABLE_ENTITY,
            &guard.written,
            &serde_json::json!({ "refused": event }),
        ),
        _ => refuse(StatusCode::SERVICE_UNAVAILABLE, "the game did not answer"),
    };
    // A session in use is renewed in the browser as on the server.
    match renewed {
        Some(token) => with_cookie(r, &token, SESSION_IDLE_MS / 1000),
        None => r,
    }
}

/// A JSON answer of events, their words written as a reader reads them
/// (`[written]`: "Läufer", not the Laws' "Laeufer").
fn written_answer(
    code: StatusCode,
    written: &crate::announce::spoken::Written,
    body: &serde_json::Value,
) -> Response {
    (
        code,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        written.apply_to_json(&body.to_string()).into_owned(),
    )
        .into_response()
}
