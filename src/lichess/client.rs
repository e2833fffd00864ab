//! lichess's Board API over HTTP: its two streams opened and read a line
//! at a time, and the posts that play (a move, a draw or takeback offer
//! and its answer, resignation, abort, a claimed victory) and that find a
//! game (a seek, a challenge, its acceptance, lichess's AI); and the
//! account a token belongs to, with what it may do. Every request
//! carries the player's token as its bearer, to the configured server and
//! nowhere else; no error or log line holds it.
//!
//! TLS is rustls with webpki's roots: no OpenSSL. The client blocks: the
//! runtime reads each stream on a thread of its own.

use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ureq::unversioned::resolver::DefaultResolver;
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, DefaultConnector, NextTimeout, Transport,
};

use super::token::{BOARD_PLAY, Token};

/// lichess's public server, when the configuration names no other.
pub const LICHESS: &str = "https://lichess.org";

/// The token's account.
pub const ACCOUNT: &str = "/api/account";

/// The account's event stream.
pub const EVENT_STREAM: &str = "/api/stream/event";

/// Game `id`'s stream.
pub fn game_stream(id: &str) -> String {
    format!("/api/board/game/stream/{id}")
}

/// A seek's time: a clock (minutes, seconds a move), or days a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seek {
    Clock { minutes: u32, increment: u32 },
    Days(u32),
}

/// What a challenge (or a game against lichess's AI) asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// The clock's seconds, and the seconds added a move.
    pub limit: u32,
    pub increment: u32,
    pub rated: bool,
    /// The player's colour: "white", "black" or "random".
    pub color: String,
    /// lichess's variant key: "standard", "chess960" or "fromPosition".
    pub variant: String,
    /// The start position, in a game from a set position.
    pub fen: Option<String>,
    /// Days a move (a correspondence game, no clock) instead of the
    /// clock.
    pub days: Option<u32>,
}

impl Terms {
    /// Its form fields (`rated` among them when `with_rated`).
    fn form(&self, with_rated: bool) -> Vec<(&'static str, String)> {
        let mut form = match self.days {
            Some(days) => vec![("days", days.to_string())],
            None => vec![
                ("clock.limit", self.limit.to_string()),
                ("clock.increment", self.increment.to_string()),
            ],
        };
        form.push(("color", self.color.clone()));
        form.push(("variant", self.variant.clone()));
        if with_rated {
            form.push(("rated", self.rated.to_string()));
        }
        if let Some(fen) = &self.fen {
            form.push(("fen", fen.clone()));
        }
        form
    }
}

/// How long a connection may take to open.
const CONNECT_WITHIN: Duration = Duration::from_secs(10);
/// How long a post may take to be answered, and a stream to be opened.
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// Why a request came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 429: lichess asks that no request come for a full minute.
    TooManyRequests,
    /// 401 or 403: the token is wrong, revoked, or lacks `board:play`.
    Unauthorized,
    /// Another status, with lichess's `error` text (a move not allowed, a
    /// game not found, a server in trouble).
    Refused { status: u16, error: String },
    /// No answer: the network, TLS, a connection closed.
    Transport(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::TooManyRequests => f.write_str("lichess asks to wait a minute (429)"),
            ApiError::Unauthorized => f.write_str(
                "lichess does not take the token (401): keep a new one with \
                 `pegboard lichess-token`, with the board:play scope",
            ),
            ApiError::Refused { status, error } => write!(f, "lichess answered {status}: {error}"),
            ApiError::Transport(why) => write!(f, "no answer from lichess: {why}"),
        }
    }
}

impl std::error::Error for ApiError {}

/// Whose a token is, and what it may do: lichess's answer to
/// [`Client::account`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The account's name, as lichess writes it (`username`).
    pub username: String,
    /// The token's scopes, as lichess lists them in its `X-OAuth-Scopes`
    /// header (`board:play, challenge:read`); none when the answer had no
    /// such header.
    pub scopes: Option<Vec<String>>,
}

impl Account {
    /// Whether the token may play from a board (`board:play`); none when
    /// lichess did not say.
    pub fn may_play(&self) -> Option<bool> {
        self.scopes
            .as_ref()
            .map(|scopes| scopes.iter().any(|s| s == BOARD_PLAY))
    }
}

/// The account's JSON, of which pegboard reads the name alone.
#[derive(serde::Deserialize)]
struct Me {
    username: String,
}

thread_local! {
    /// When this thread last wrote to a connection.
    static LAST_WRITE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// When this thread's last request was written whole to its connection:
/// ureq is blocking, so a request is written on the thread that makes it,
/// and its last write is the request's end.
fn written() -> Option<Instant> {
    LAST_WRITE.get()
}

/// Stamps every write to a connection ureq opened (plain or TLS) with the
/// instant it was done, for [`written`]: what the lichess benchmark times
/// a move's post to. ureq's transport interface is its `unversioned` one
/// (it may change in a minor version; Cargo.lock holds the one built).
#[derive(Debug)]
struct Stamping;

impl Connector<Box<dyn Transport>> for Stamping {
    type Out = Stamped;

    fn connect(
        &self,
        _: &ConnectionDetails,
        chained: Option<Box<dyn Transport>>,
    ) -> Result<Option<Stamped>, ureq::Error> {
        Ok(chained.map(Stamped))
    }
}

/// A connection whose writes are stamped.
#[derive(Debug)]
struct Stamped(Box<dyn Transport>);

impl Transport for Stamped {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.0.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        let done = self.0.transmit_output(amount, timeout);
        if done.is_ok() {
            LAST_WRITE.set(Some(Instant::now()));
        }
        done
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        self.0.await_input(timeout)
    }

    fn is_open(&mut self) -> bool {
        self.0.is_open()
    }

    fn is_tls(&self) -> bool {
        self.0.is_tls()
    }
}

/// The Board API at one server, with one token.
pub struct Client {
    agent: ureq::Agent,
    server: String,
    token: Token,
    /// How long an answer may take to begin (`ANSWER_WITHIN`).
    answer_within: Duration,
}

/// A stream's lines, each as it comes; keep-alive lines are empty.
pub struct Lines {
    reader: BufReader<ureq::BodyReader<'static>>,
}

impl Iterator for Lines {
    type Item = Result<String, ApiError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => Some(Ok(line.trim_end_matches(['\r', '\n']).to_string())),
            Err(e) => Some(Err(ApiError::Transport(e.to_string()))),
        }
    }
}

/// How a seek or a challenge held open ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Held {
    /// lichess closed it (a seek paired, a challenge answered): a game,
    /// if one came of it, starts on the event stream.
    Closed,
    /// A challenge's last line said how it ended: `accepted`, `declined`
    /// or `canceled`.
    Done(String),
    /// Let go before lichess ended it; a challenge's id, when its first
    /// line gave one. lichess notices a closed connection only when it
    /// next writes to it (a seek's keep-alive every 10 s, a challenge's
    /// after 50 s of nothing), so the seek or the challenge is to be
    /// cancelled outright ([`Client::cancel_seek`],
    /// [`Client::cancel_challenge`]).
    LetGo(Option<String>),
}

/// A seek or a challenge held open, as its holder and its owner share it:
/// the owner lets it go; the holder names the challenge (its id, which
/// is its game's id once accepted).
#[derive(Debug, Default)]
pub struct Hold {
    let_go: AtomicBool,
    challenge: std::sync::Mutex<Option<String>>,
}

impl Hold {
    /// Lets it go: [`Lines::hold`] returns `LetGo`.
    pub fn let_go(&self) {
        self.let_go.store(true, Ordering::Relaxed);
    }

    /// The challenge's id, once its first line gave it.
    pub fn challenge(&self) -> Option<String> {
        self.challenge
            .lock()
            .map_or_else(|e| e.into_inner().clone(), |c| c.clone())
    }

    fn name(&self, id: &str) {
        let mut c = self.challenge.lock().unwrap_or_else(|e| e.into_inner());
        *c = Some(id.to_string());
    }
}

impl Lines {
    /// Holds a seek's or a challenge's connection open, reading its lines
    /// on a thread of its own, until lichess closes it (`Closed`, or
    /// `Done` with a challenge's last word), until `hold` is let go
    /// (`LetGo`), or until it says nothing, not even a keep-alive, for
    /// `silence`: a connection half open, given up (an error).
    pub fn hold(self, hold: &Hold, silence: Duration) -> Result<Held, ApiError> {
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in self {
                let broken = line.is_err();
                if tx.send(line).is_err() || broken {
                    return;
                }
            }
        });
        let mut heard = Instant::now();
        let mut done = None;
        let mut id = None;
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(line) => {
                    let line = line?;
                    if id.is_none() {
                        id = super::stream::challenge_id(&line);
                        if let Some(id) = &id {
                            hold.name(id);
                        }
                    }
                    done = super::stream::challenge_done(&line).or(done);
                    heard = Instant::now();
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    return Ok(done.map_or(Held::Closed, Held::Done));
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
            }
            // (A challenge lichess said was answered is not let go: its
            // cancel would abort the game it made.)
            if let Some(done) = &done {
                return Ok(Held::Done(done.clone()));
            }
            if hold.let_go.load(Ordering::Relaxed) {
                return Ok(Held::LetGo(id));
            }
            if heard.elapsed() >= silence {
                return Err(ApiError::Transport(format!(
                    "lichess said nothing for {:.1} s",
                    silence.as_secs_f64()
                )));
            }
        }
    }
}

impl Client {
    /// The API at `server` (`https://lichess.org`, or a lila of one's own),
    /// asked with `token`.
    pub fn new(server: &str, token: Token) -> Client {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(CONNECT_WITHIN))
            .user_agent(concat!("pegboard/", env!("CARGO_PKG_VERSION")))
            .build();
        // ureq's own connections, each write to them stamped (`written`).
        let connector = DefaultConnector::default().chain(Stamping);
        Client {
            agent: ureq::Agent::with_parts(config, connector, DefaultResolver::default()),
            server: server.trim_end_matches('/').to_string(),
            token,
            answer_within: ANSWER_WITHIN,
        }
    }

    /// The same, waiting `within` for an answer to begin (and for a post's
    /// whole answer) instead of `ANSWER_WITHIN`.
    pub fn answering_within(self, within: Duration) -> Client {
        Client {
            answer_within: within,
            ..self
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server)
    }

    fn bearer(&self) -> String {
        format!("Bearer {}", self.token.secret())
    }

    /// What a status other than 200 means; the body's `error` when it has
    /// one.
    fn refused(status: u16, body: &str) -> ApiError {
        match status {
            429 => ApiError::TooManyRequests,
            401 | 403 => ApiError::Unauthorized,
            _ => ApiError::Refused {
                status,
                error: serde_json::from_str::<serde_json::Value>(body)
                    .ok()
                    .and_then(|v| Client::words(v.get("error")?))
                    .unwrap_or_else(|| body.chars().take(200).collect()),
            },
        }
    }

    /// lichess's words in an answer's `error`: a text, or, for a form it
    /// refused (lila's `{"global":[…],"error":{"global":[…],"field":[…]}}`),
    /// the first of its texts, the form's own before any field's.
    fn words(error: &serde_json::Value) -> Option<String> {
        if let Some(text) = error.as_str() {
            return Some(text.to_string());
        }
        let fields = error.as_object()?;
        let global = fields.get("global").into_iter();
        global
            .chain(
                fields
                    .iter()
                    .filter(|(k, _)| *k != "global")
                    .map(|(_, v)| v),
            )
            .filter_map(|v| v.as_array())
            .flatten()
            .find_map(|t| t.as_str().map(str::to_string))
    }

    fn transport(e: ureq::Error) -> ApiError {
        ApiError::Transport(e.to_string())
    }

    /// Opens a stream (`GET`), to be read a line at a time. A server that
    /// takes the connection but does not answer it within the answer's
    /// bound is no answer: the stream's lines then come as they come, for
    /// as long as the stream lasts.
    pub fn stream(&self, path: &str) -> Result<Lines, ApiError> {
        let response = self
            .agent
            .get(&self.url(path))
            .header("Authorization", &self.bearer())
            .header("Accept", "application/x-ndjson")
            .config()
            .timeout_recv_response(Some(self.answer_within))
            .build()
            .call()
            .map_err(Client::transport)?;
        Client::lines(response)
    }

    fn lines(response: ureq::http::Response<ureq::Body>) -> Result<Lines, ApiError> {
        let status = response.status().as_u16();
        let mut body = response.into_body();
        if status != 200 {
            let text = body.read_to_string().unwrap_or_default();
            return Err(Client::refused(status, &text));
        }
        Ok(Lines {
            reader: BufReader::new(body.into_reader()),
        })
    }

    /// A post with a form, answered whole `within` (none: a seek or a
    /// challenge, held open until lichess closes it; its answer still
    /// begins within `ANSWER_WITHIN`, as lichess answers either at once).
    fn send(
        &self,
        path: &str,
        form: &[(&str, &str)],
        within: Option<Duration>,
    ) -> Result<ureq::http::Response<ureq::Body>, ApiError> {
        self.agent
            .post(&self.url(path))
            .header("Authorization", &self.bearer())
            .config()
            .timeout_global(within)
            .timeout_recv_response(Some(self.answer_within))
            .build()
            .send_form(form.iter().copied())
            .map_err(Client::transport)
    }

    /// A post whose answer is `{"ok":true}` or the like: `Ok` on a 2xx.
    pub fn post(&self, path: &str, form: &[(&str, &str)]) -> Result<(), ApiError> {
        Client::done(self.send(path, form, Some(self.answer_within))?)
    }

    /// An answer that carries nothing pegboard reads: `Ok` on a 2xx (200,
    /// 201 for a game created against the AI, 204 for a seek cancelled),
    /// else what lichess meant.
    fn done(response: ureq::http::Response<ureq::Body>) -> Result<(), ApiError> {
        let status = response.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(());
        }
        let text = response.into_body().read_to_string().unwrap_or_default();
        Err(Client::refused(status, &text))
    }

    /// A `GET` of `path` whose answer is JSON, answered whole within the
    /// answer's time.
    fn get_json(&self, path: &str) -> Result<ureq::http::Response<ureq::Body>, ApiError> {
        self.agent
            .get(&self.url(path))
            .header("Authorization", &self.bearer())
            .header("Accept", "application/json")
            .config()
            .timeout_global(Some(self.answer_within))
            .build()
            .call()
            .map_err(Client::transport)
    }

    /// Whose the token is and what it may do (`GET /api/account`): lichess
    /// answers any token it knows with the account, and names the token's
    /// scopes in a header; one it does not know is a 401.
    pub fn account(&self) -> Result<Account, ApiError> {
        let response = self.get_json(ACCOUNT)?;
        let status = response.status().as_u16();
        let scopes = response
            .headers()
            .get("X-OAuth-Scopes")
            .and_then(|v| v.to_str().ok())
            .map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            });
        let text = response
            .into_body()
            .read_to_string()
            .map_err(Client::transport)?;
        if status != 200 {
            return Err(Client::refused(status, &text));
        }
        let me: Me = serde_json::from_str(&text).map_err(|_| ApiError::Refused {
            status,
            error: "an answer that names no account".into(),
        })?;
        Ok(Account {
            username: me.username,
            scopes,
        })
    }

    /// The account's event stream.
    pub fn events(&self) -> Result<Lines, ApiError> {
        self.stream(EVENT_STREAM)
    }

    /// A game's stream.
    pub fn game(&self, id: &str) -> Result<Lines, ApiError> {
        self.stream(&game_stream(id))
    }

    /// The player's move, in UCI; with the instant its request was
    /// written whole to the connection (none if it never was).
    pub fn play(&self, id: &str, uci: &str) -> (Result<(), ApiError>, Option<Instant>) {
        LAST_WRITE.set(None);
        let result = self.post(&format!("/api/board/game/{id}/move/{uci}"), &[]);
        (result, written())
    }

    /// A draw offered (or an offer accepted), or an offer declined.
    pub fn draw(&self, id: &str, yes: bool) -> Result<(), ApiError> {
        let answer = if yes { "yes" } else { "no" };
        self.post(&format!("/api/board/game/{id}/draw/{answer}"), &[])
    }

    /// A takeback asked for (or accepted), or declined.
    pub fn takeback(&self, id: &str, yes: bool) -> Result<(), ApiError> {
        let answer = if yes { "yes" } else { "no" };
        self.post(&format!("/api/board/game/{id}/takeback/{answer}"), &[])
    }

    pub fn resign(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/board/game/{id}/resign"), &[])
    }

    pub fn abort(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/board/game/{id}/abort"), &[])
    }

    /// The win, claimed when the opponent has been gone long enough.
    pub fn claim_victory(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/board/game/{id}/claim-victory"), &[])
    }

    /// A game against lichess's AI at `level` (1–8) on `terms` (its
    /// `rated` aside: the AI plays casual games only): it starts at once,
    /// on the event stream.
    pub fn challenge_ai(&self, level: u8, terms: &Terms) -> Result<(), ApiError> {
        let level = level.to_string();
        let mut form = terms.form(false);
        form.push(("level", level));
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.post("/api/challenge/ai", &form)
    }

    /// A challenge to the player `username` on `terms`, kept alive while
    /// its lines are read (`keepAliveStream`: lichess lets a challenge
    /// nobody keeps alive expire after 20 s, and counts each one sent
    /// against a day's limit): the challenge first, then keep-alives, and
    /// last `{"done":"accepted"}`, `"declined"` or `"canceled"`. The game
    /// starts on the event stream once he accepts it; dropping the lines
    /// cancels the challenge.
    pub fn challenge(&self, username: &str, terms: &Terms) -> Result<Lines, ApiError> {
        let mut form = terms.form(true);
        form.push(("keepAliveStream", "true".to_string()));
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let response = self.send(&format!("/api/challenge/{username}"), &form, None)?;
        Client::lines(response)
    }

    /// Cancels the challenge `id` the player sent (before it is
    /// accepted: after, it would abort the game it made).
    pub fn cancel_challenge(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/challenge/{id}/cancel"), &[])
    }

    /// The status of the challenge `id` (`GET /api/challenge/{id}/show`):
    /// `created` while it stands, `offline` once its sender no longer
    /// keeps it alive, `canceled`, `declined`, `accepted`.
    pub fn challenge_status(&self, id: &str) -> Result<String, ApiError> {
        let response = self.get_json(&format!("/api/challenge/{id}/show"))?;
        let status = response.status().as_u16();
        let text = response
            .into_body()
            .read_to_string()
            .map_err(Client::transport)?;
        if status != 200 {
            return Err(Client::refused(status, &text));
        }
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("status")?.as_str().map(str::to_string))
            .ok_or_else(|| ApiError::Transport("a challenge without its status".into()))
    }

    /// Accepts the challenge `id` made to the player.
    pub fn accept(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/challenge/{id}/accept"), &[])
    }

    /// Declines the challenge `id` made to the player (lichess's generic
    /// reason).
    pub fn decline(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/challenge/{id}/decline"), &[])
    }

    /// Claims a draw in game `id`: the opponent left (lichess grants it
    /// as it grants the win, `claim_victory`).
    pub fn claim_draw(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/board/game/{id}/claim-draw"), &[])
    }

    /// Cancels the account's seek (lila's `DELETE /api/board/seek`,
    /// answered 204): no other game is paired from it, even before its
    /// connection is closed.
    pub fn cancel_seek(&self) -> Result<(), ApiError> {
        let response = self
            .agent
            .delete(&self.url("/api/board/seek"))
            .header("Authorization", &self.bearer())
            .config()
            .timeout_global(Some(self.answer_within))
            .build()
            .call()
            .map_err(Client::transport)?;
        Client::done(response)
    }

    /// A seek for a game of `minutes` and `increment` seconds a move: the
    /// connection is held open until lichess finds the opponent (the game
    /// then starts on the event stream) and closes it; reading the lines
    /// to their end waits for that. A seek of days a move is answered at
    /// once with its id: it waits in lichess's lobby, and its game starts
    /// on the event stream when someone takes it.
    pub fn seek(&self, clock: Seek, rated: bool, variant: &str) -> Result<Lines, ApiError> {
        let rated = if rated { "true" } else { "false" };
        let mut form = match clock {
            Seek::Clock { minutes, increment } => {
                vec![
                    ("time", minutes.to_string()),
                    ("increment", increment.to_string()),
                ]
            }
            Seek::Days(days) => vec![("days", days.to_string())],
        };
        form.push(("rated", rated.to_string()));
        form.push(("variant", variant.to_string()));
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let response = self.send("/api/board/seek", &form, None)?;
        Client::lines(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_says_what_lichess_meant() {
        assert_eq!(Client::refused(429, ""), ApiError::TooManyRequests);
        assert_eq!(Client::refused(401, "{}"), ApiError::Unauthorized);
        // A form lila refused: its words, not its JSON.
        assert_eq!(
            Client::refused(
                400,
                r#"{"global":["Invalid time control"],"error":{"global":["Invalid time control"]}}"#
            ),
            ApiError::Refused {
                status: 400,
                error: "Invalid time control".into()
            }
        );
        assert_eq!(
            Client::refused(400, r#"{"error":{"days":["Invalid value"]}}"#),
            ApiError::Refused {
                status: 400,
                error: "Invalid value".into()
            }
        );
        assert_eq!(
            Client::refused(400, r#"{"error":"Not your turn, or game already over"}"#),
            ApiError::Refused {
                status: 400,
                error: "Not your turn, or game already over".into()
            }
        );
        assert_eq!(
            Client::refused(502, "<html>Bad Gateway</html>"),
            ApiError::Refused {
                status: 502,
                error: "<html>Bad Gateway</html>".into()
            }
        );
    }
}
