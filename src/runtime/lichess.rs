//! lichess's side of the runtime: where the player's token is kept (the
//! journal directory, as the console's secret is), and the opponent's
//! seat in `play`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use shakmaty::Color;

use crate::config::Config;
use crate::core::game::Reason;
use crate::core::input::Relayed;
use crate::core::online::{OnlineGame, OnlinePlayer, ServerNotice};
use crate::core::{Controller, Event, Input, Stamped};
use crate::lichess::client::{ApiError, Client, Held, Hold, Seek, Terms};
use crate::lichess::link::{Link, Report as LinkReport, Timing};
use crate::lichess::reason;
use crate::lichess::section::{Find, LichessConfig};
use crate::lichess::stream::{self, Event as StreamEvent, GameFull, GameLine, GameState, Side};
use crate::lichess::token::{TOKEN_FILE, Token};
use crate::runtime::error::{Error, Result};
use crate::runtime::keeper::Keeper;
use crate::runtime::outputs::Door as _;

/// Where the token is kept: the journal directory.
pub fn token_path(config: &Config) -> Result<PathBuf> {
    let dir = crate::runtime::keeper::journal_dir(config).ok_or_else(|| {
        Error::Journal(
            "no state directory for the lichess token: set [journal] dir, or HOME".into(),
        )
    })?;
    Ok(dir.join(TOKEN_FILE))
}

/// The file in the state directory that marks a correspondence seek
/// waiting in lichess's lobby.
pub const SEEK_MARK_FILE: &str = "lichess-seek";

/// Whether a lichess token is kept for `config` (the spoken menu then
/// offers opponents there).
pub fn token_kept(config: &Config) -> bool {
    token_path(config)
        .ok()
        .and_then(|path| crate::lichess::token::load(&path).ok().flatten())
        .is_some()
}

/// The opponent on lichess as `play` drives him: the account's event
/// stream kept open, a game found as `[lichess]` says, the game's stream
/// kept open and read into inputs (the game started, the opponent's moves
/// as relayed moves, the server's clocks, the end, the connection lost and
/// back), and the blind player's executed moves posted, each once.
pub(crate) struct LichessSeat {
    client: Arc<Client>,
    config: LichessConfig,
    timing: Timing,
    events: Link,
    /// The game's stream, once a game is found or taken up again.
    game: Option<GameLink>,
    /// A game asked for (a seek held open, a challenge sent), until the
    /// game starts.
    finding: Option<Finding>,
    /// The posts, made in order on a thread of their own…
    posts: Sender<Post>,
    /// …and what became of them.
    posted: Receiver<(Post, std::result::Result<(), ApiError>)>,
    /// How long after the scan that completed a move its post was written
    /// to the connection.
    pub(crate) post_timing: crate::sensors::poller::Lateness,
    /// The links that are lost now, the event stream's and the game's:
    /// the player is told once when the first is lost, and once when
    /// both are back.
    lost: [bool; 2],
    /// The token was refused: told once, nothing more asked.
    refused: bool,
    /// How long each move's post waited, from its scan to its sending.
    waited: Receiver<std::time::Duration>,
    /// No move posted before this instant (game time): the server did not
    /// take the last one (no answer, a 5xx, a 429).
    post_after: u64,
    /// Moves not delivered in a row: each wait after a failure doubles,
    /// up to the links' longest (a server down for maintenance is not
    /// asked every second).
    move_failures: u32,
    /// Posts other than moves not delivered (no answer, a 5xx, a 429),
    /// each to be posted again at its instant, with how often it was
    /// tried.
    retries: Vec<(u64, u32, Post)>,
    /// The posts sent again, with how often they were tried.
    retry_tries: Vec<(Post, u32)>,
    /// The instant of the turn, for `post`.
    now: u64,
    /// Games on the server passed over (another kind than `[lichess]`
    /// asked for, or one pegboard cannot play): never taken up.
    passed: BTreeSet<String>,
    /// Set to close the seek's connection, which is what cancels a seek
    /// on lichess: when a game is taken up, the seek is to pair no other.
    /// Some while a seek is held open.
    seek_cancel: Option<Arc<Hold>>,
    /// When the event stream last opened (none while it is lost): no game
    /// is asked for until it has named the games under way.
    events_open: Option<u64>,
    /// lichess refused to find the game `[lichess]` asks for (a 400 or a
    /// 404: it would refuse it again): the player was told, nothing more
    /// is asked.
    find_refused: bool,
    /// Games of the kind asked for that started while pegboard's game was
    /// over: the first is taken up once the next game is fresh.
    waiting: std::collections::VecDeque<stream::GameInfo>,
    /// Correspondence games under way (named as the event stream opened,
    /// or left here for another), for the player to choose among.
    under_way: Vec<stream::GameInfo>,
    /// The list was handed to the player, who has not chosen yet.
    choosing: bool,
    /// The player chose a new game over those under way.
    chose_new: bool,
    /// The game under way the player chose: taken up whatever its days.
    chosen_game: Option<String>,
    /// The challenge to the player being accepted: no other is, until
    /// its game starts or the acceptance fails.
    accepting: Option<String>,
    /// Every game the event stream has named (started or under way).
    named: BTreeSet<String>,
    /// Challenges to the player, of the kind `[lichess]` accepts, that came
    /// while a game was played or another was being accepted: the first
    /// still standing is accepted once the game is fresh.
    pending: std::collections::VecDeque<stream::Challenge>,
    /// The file that marks a seek of days a move waiting in lichess's
    /// lobby (lichess keeps it until it is taken; the Board API cannot
    /// cancel it): no other is made, in this session or the next, until
    /// a correspondence game from the lobby starts.
    seek_mark: Option<PathBuf>,
    /// The last online game played here: a rematch is of it.
    last_game: Option<OnlineGame>,
    /// The opponent's rematch offer (his challenge's id), after the last
    /// game.
    rematch_offer: Option<String>,
    /// A rematch the player asked for or accepted, until its game starts.
    rematch: Option<RematchAsk>,
    /// The game a rematch started: taken up whatever `[lichess]` asks.
    rematch_game: Option<String>,
    /// What is asked now is a seek (which lichess is told is cancelled).
    asked_seek: bool,
}

/// A rematch of `of`, the player's colour swapped: the opponent's
/// challenge `accepted`, or the player's own to be sent; asked at `since`.
struct RematchAsk {
    of: OnlineGame,
    accepted: Option<String>,
    since: u64,
}

/// How long the player's own rematch waits for the opponent's answer:
/// lichess keeps a challenge alive while its stream is open, so one to a
/// player who has gone would wait for ever.
const REMATCH_WAIT_MS: u64 = 60_000;

impl RematchAsk {
    /// Whether the game that started is this rematch: the offer accepted
    /// (lila gives the game the offer's id), or the same opponent (the
    /// same AI level) with the colours swapped.
    fn fits(&self, info: &stream::GameInfo) -> bool {
        if self.accepted.as_deref() == Some(info.game_id.as_str()) {
            return true;
        }
        let o = self.of.opponent();
        let colour = info.color.map(color_of) != Some(self.of.color);
        let opponent = info.opponent.as_ref().is_some_and(|them| match o.ai {
            Some(level) => them.ai == Some(level),
            None => them
                .username
                .as_deref()
                .or(them.id.as_deref())
                .is_some_and(|n| n.eq_ignore_ascii_case(&o.name)),
        });
        colour && opponent
    }
}

impl Drop for LichessSeat {
    /// A seek still open is not left to pair a game nobody plays: it is
    /// let go, and its cancel awaited a few seconds (lichess would keep
    /// it until it next writes to its connection).
    fn drop(&mut self) {
        let held = self.seek_cancel.is_some();
        self.cancel_seek();
        if held && let Some(Finding::Asking(answer)) = &self.finding {
            let _ = answer.recv_timeout(std::time::Duration::from_secs(3));
        }
    }
}

/// A game's stream, with what pegboard knows of the game on the server.
struct GameLink {
    id: String,
    /// The blind player's colour, as the event stream gave it.
    color: Option<Color>,
    link: Link,
    /// The moves the server has (as its last state said).
    server_moves: Vec<String>,
    /// The plies posted and not yet seen on the server.
    sent: BTreeSet<u32>,
    /// Whether the server still plays the game.
    under_way: bool,
    /// The opponent's takeback request stands (told once).
    takeback_asked: bool,
    /// The server's state has been seen: until then nothing is posted
    /// (a game taken up again after a restart may have them all).
    synced: bool,
    /// The server refused a move of the player's: the next state puts the
    /// game back as the server has it.
    resync: bool,
    /// The first move's time (lichess's `expiration`) was told.
    first_move_told: bool,
    /// The opponent's leaving as last told: gone (true once the win can
    /// be claimed), or none.
    gone: Option<bool>,
    /// A move of the player's the server refused, with its words: told
    /// if the server's state indeed lacks it (a move posted again after
    /// a lost answer is refused for having been taken).
    refused_move: Option<String>,
    /// The event stream's line for it, when it was taken up from there.
    info: Option<stream::GameInfo>,
    /// White moves first in it (its start, as its whole game said).
    white_starts: bool,
}

/// Where the asking for a game stands.
enum Finding {
    /// Asked; the answer comes on the channel.
    Asking(Receiver<std::result::Result<Held, ApiError>>),
    /// The server took the request at this instant: the game starts on
    /// the event stream (a challenge not accepted expires).
    Answered(u64),
    /// The request failed at this instant; asked again this many ms
    /// later.
    Failed(u64, u64),
    /// The challenge was declined at this instant (its stream's last
    /// line): the event stream's word with the reason is awaited a while.
    Declined(u64),
}

/// How long after a request the server took, with no game started, a
/// game is asked for again (lichess lets a challenge expire after 20 s).
const ASK_AGAIN_AFTER_MS: u64 = 30_000;
/// How long after a request that failed a game is asked for again.
const ASK_AGAIN_AFTER_FAILURE_MS: u64 = 5_000;
/// How long after a challenge's stream said it was declined the event
/// stream's word, with the reason, is awaited before the player is told
/// without one.
const DECLINE_REASON_WITHIN_MS: u64 = 3_000;
/// A challenge's stream that says nothing this long is taken as broken:
/// lila sends a keep-alive once nothing was sent for 50 s (its
/// ResponseWriter's `ndJson.addKeepAlive`); three missed.
const CHALLENGE_SILENCE: std::time::Duration = std::time::Duration::from_secs(150);
/// How long after the event stream opened a game is first asked for:
/// lichess names the games under way at once, and a seek made before
/// they are read could pair a second game (its API description: open the
/// event stream first).
const EVENTS_SETTLE_MS: u64 = 1_000;

/// What the seat posts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Post {
    /// A move, with the instant the scan that completed it was taken.
    Move {
        id: String,
        ply: u32,
        uci: String,
        taken: std::time::Instant,
    },
    Draw {
        id: String,
    },
    /// The opponent's draw offer declined (said so, or a piece touched).
    DeclineDraw {
        id: String,
    },
    Resign {
        id: String,
    },
    Takeback {
        id: String,
    },
    ClaimVictory {
        id: String,
    },
    Abort {
        id: String,
    },
    Accept {
        challenge: String,
        /// It waited while a game was played: accepted only if it
        /// still stands.
        waited: bool,
    },
    /// The opponent's takeback request declined.
    DeclineTakeback {
        id: String,
    },
    /// A draw claimed: the opponent left.
    ClaimDraw {
        id: String,
    },
    /// The opponent's rematch (his challenge) declined.
    Decline {
        challenge: String,
    },
}

/// How often a post other than a move is tried before it is given up.
const POST_TRIES: u32 = 5;

impl Post {
    /// The game it is of, if it is of one.
    fn game(&self) -> Option<&str> {
        match self {
            Post::Move { id, .. }
            | Post::Draw { id }
            | Post::DeclineDraw { id }
            | Post::Resign { id }
            | Post::Takeback { id }
            | Post::ClaimVictory { id }
            | Post::Abort { id }
            | Post::DeclineTakeback { id }
            | Post::ClaimDraw { id } => Some(id),
            Post::Accept { .. } | Post::Decline { .. } => None,
        }
    }

    /// What was posted, for the log.
    fn describe(&self) -> String {
        match self {
            Post::Move { id, uci, .. } => format!("the move {uci} in game {id}"),
            Post::Draw { id } => format!("the draw offer in game {id}"),
            Post::DeclineDraw { id } => format!("the declined draw in game {id}"),
            Post::Resign { id } => format!("the resignation in game {id}"),
            Post::Takeback { id } => format!("the takeback in game {id}"),
            Post::ClaimVictory { id } => format!("the claim of the win in game {id}"),
            Post::Abort { id } => format!("the abort of game {id}"),
            Post::Accept { challenge, .. } => format!("the acceptance of challenge {challenge}"),
            Post::DeclineTakeback { id } => format!("the declined takeback in game {id}"),
            Post::ClaimDraw { id } => format!("the claim of a draw in game {id}"),
            Post::Decline { challenge } => format!("the declined challenge {challenge}"),
        }
    }
}

impl LichessSeat {
    /// The seat for `config`, playing with `token`; the event stream opens
    /// at once.
    pub(crate) fn open(
        config: &LichessConfig,
        token: Token,
        timing: Timing,
        period: std::time::Duration,
    ) -> LichessSeat {
        let client = Arc::new(Client::new(&config.server, token));
        let (posts, to_post) = crossbeam_channel::unbounded::<Post>();
        let (done, posted) = crossbeam_channel::unbounded();
        let (waited_tx, waited) = crossbeam_channel::unbounded::<std::time::Duration>();
        let poster = client.clone();
        std::thread::spawn(move || {
            for post in to_post {
                let result = match &post {
                    Post::Move { id, uci, taken, .. } => {
                        // Written to the connection this long after the
                        // scan that completed it.
                        let (result, written) = poster.play(id, uci);
                        if let Some(written) = written {
                            let _ = waited_tx.send(written.saturating_duration_since(*taken));
                        }
                        result
                    }
                    Post::Draw { id } => poster.draw(id, true),
                    Post::DeclineDraw { id } => poster.draw(id, false),
                    Post::Resign { id } => poster.resign(id),
                    Post::Takeback { id } => poster.takeback(id, true),
                    Post::ClaimVictory { id } => poster.claim_victory(id),
                    Post::Abort { id } => poster.abort(id),
                    // One that waited is accepted only while it stands:
                    // lila lets an offline one (its sender gone) be
                    // accepted too.
                    Post::Accept {
                        challenge,
                        waited: true,
                    } => poster.challenge_status(challenge).and_then(|status| {
                        if status == "created" {
                            poster.accept(challenge)
                        } else {
                            Err(ApiError::Refused {
                                status: 404,
                                error: format!("the challenge is {status}"),
                            })
                        }
                    }),
                    Post::Accept { challenge, .. } => poster.accept(challenge),
                    Post::DeclineTakeback { id } => poster.takeback(id, false),
                    Post::ClaimDraw { id } => poster.claim_draw(id),
                    Post::Decline { challenge } => poster.decline(challenge),
                };
                if done.send((post, result)).is_err() {
                    return;
                }
            }
        });
        LichessSeat {
            events: Link::events(client.clone(), timing),
            client,
            config: config.clone(),
            timing,
            game: None,
            finding: None,
            posts,
            posted,
            lost: [false; 2],
            refused: false,
            waited,
            post_timing: crate::sensors::poller::Lateness::new(period),
            post_after: 0,
            move_failures: 0,
            retries: Vec::new(),
            retry_tries: Vec::new(),
            now: 0,
            passed: BTreeSet::new(),
            seek_cancel: None,
            events_open: None,
            find_refused: false,
            waiting: std::collections::VecDeque::new(),
            under_way: Vec::new(),
            choosing: false,
            chose_new: false,
            chosen_game: None,
            accepting: None,
            pending: std::collections::VecDeque::new(),
            named: BTreeSet::new(),
            seek_mark: None,
            last_game: None,
            rematch_offer: None,
            rematch: None,
            rematch_game: None,
            asked_seek: false,
        }
    }

    /// One turn: what the streams said, handed to the game as inputs; a
    /// game looked for when the game is fresh; the posts' failures noted.
    pub(crate) fn feed(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let mut links = Vec::new();
        for report in self.events.reports() {
            links.push((false, report));
        }
        if let Some(g) = &self.game {
            for report in g.link.reports() {
                links.push((true, report));
            }
        }
        for (of_game, report) in links {
            self.report(t, of_game, report, keeper, events, notes);
        }
        // The online game played here, which a rematch would be of.
        if let Some(o) = keeper.controller().online()
            && self.last_game.as_ref().map(|g| &g.id) != Some(&o.id)
        {
            self.last_game = Some(o.clone());
            self.rematch_offer = None;
        }
        // A rematch asked for this turn is what the next game is, before
        // any is looked for.
        let asked: Vec<&'static str> = events
            .iter()
            .filter_map(|e| match &e.event {
                Event::OnlineRequest { request, .. }
                    if matches!(*request, "rematch" | "rematch_accept" | "rematch_decline") =>
                {
                    Some(*request)
                }
                _ => None,
            })
            .collect();
        for request in asked {
            self.rematch_request(t, request, keeper, events, notes);
        }
        let chosen: Vec<Option<String>> = events
            .iter()
            .filter_map(|e| match &e.event {
                Event::OnlineChosen { game, .. } => Some(game.clone()),
                _ => None,
            })
            .collect();
        for game in chosen {
            self.chosen(game.as_deref(), notes);
        }
        self.now = t;
        self.take_posted(t, keeper, events, notes);
        self.find(t, keeper, events, notes);
    }

    /// One report of a link.
    fn report(
        &mut self,
        t: u64,
        of_game: bool,
        report: LinkReport,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        match report {
            LinkReport::Line(line) if of_game => match stream::game_line(&line) {
                Ok(Some(GameLine::Full(full))) => self.full(t, &full, keeper, events, notes),
                Ok(Some(GameLine::State(state))) => self.state(t, &state, keeper, events, notes),
                Ok(Some(GameLine::OpponentGone {
                    gone,
                    claim_win_in_seconds,
                })) => {
                    // lila repeats the line every 5 s while the opponent
                    // is gone, counting down: told when it changes (gone,
                    // claimable now, back) only.
                    let seconds = gone.then(|| claim_win_in_seconds.unwrap_or(0));
                    let told = seconds.map(|s| s == 0);
                    if let Some(g) = self.game.as_mut()
                        && g.gone != told
                    {
                        g.gone = told;
                        keeper.input(t, Input::OnlineGone { seconds }, events);
                    }
                }
                Ok(Some(GameLine::Chat(chat))) if self.config.chat && chat.room == "player" => {
                    let input = Input::OnlineChat {
                        name: printable(&chat.username, 100),
                        text: printable(&chat.text, 1000),
                    };
                    keeper.input(t, input, events);
                }
                Ok(_) => {}
                Err(e) => notes.push(format!("lichess: a game line passed over: {e}")),
            },
            LinkReport::Line(line) => match stream::event(&line) {
                Ok(Some(StreamEvent::GameStart(info))) => {
                    self.game_start(t, &info, keeper, events, notes)
                }
                Ok(Some(StreamEvent::Challenge(c))) => {
                    self.challenged(t, &c, false, keeper, events, notes)
                }
                Ok(Some(StreamEvent::ChallengeDeclined(c))) => {
                    self.declined(t, &c, keeper, events, notes)
                }
                Ok(Some(StreamEvent::ChallengeCanceled(c))) => {
                    self.canceled(t, &c, keeper, events, notes)
                }
                Ok(Some(StreamEvent::GameFinish(info))) => {
                    // A game under way listed to choose is one no more.
                    self.under_way.retain(|g| g.game_id != info.game_id);
                }
                Ok(_) => {}
                Err(e) => notes.push(format!("lichess: an event line passed over: {e}")),
            },
            LinkReport::Opened if !of_game => self.events_open = Some(t),
            LinkReport::Opened => {}
            LinkReport::Gone(why) => {
                // No such game (or none for this account): followed no
                // more.
                notes.push(format!("lichess: {why}; the stream is opened no more"));
                if of_game && let Some(g) = self.game.take() {
                    let c = keeper.controller();
                    let played = c.online().is_some_and(|o| o.id == g.id) && !c.game().is_over();
                    self.passed.insert(g.id);
                    self.link_back(t, true, keeper, events);
                    // The game played here, gone from lichess: told.
                    if played {
                        let notice = ServerNotice::GameGone;
                        keeper.input(t, Input::OnlineNotice(notice), events);
                    }
                }
            }
            LinkReport::Lost(why) => {
                if !of_game {
                    self.events_open = None;
                }
                notes.push(format!("lichess: connection lost ({why}); trying again"));
                let was = self.lost.contains(&true);
                self.lost[usize::from(of_game)] = true;
                if !was {
                    keeper.input(t, Input::OnlineLost, events);
                }
            }
            LinkReport::Back => {
                notes.push("lichess: connected again".into());
                self.link_back(t, of_game, keeper, events);
            }
            LinkReport::Refused(why) => self.token_refused(t, &why, keeper, events, notes),
        }
    }

    /// lichess refused the token (a 401, on a stream or a request):
    /// nothing more is asked, and the player is told once.
    fn token_refused(
        &mut self,
        t: u64,
        why: &str,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        if self.refused {
            return;
        }
        self.refused = true;
        notes.push(format!("lichess: {why}; nothing more is asked"));
        keeper.input(t, Input::OnlineNotice(ServerNotice::TokenRefused), events);
    }

    /// A link is back: the player is told once none is lost.
    fn link_back(&mut self, t: u64, of_game: bool, keeper: &mut Keeper, events: &mut Vec<Stamped>) {
        let was = self.lost.contains(&true);
        self.lost[usize::from(of_game)] = false;
        if was && !self.lost.contains(&true) {
            keeper.input(t, Input::OnlineBack, events);
        }
    }

    /// A game started on the server, or under way when the event stream
    /// opened (lichess names every game under way, a correspondence game
    /// of days ago too): its stream is opened when it is this game taken
    /// up again, or when pegboard's game is fresh, no other is followed,
    /// and it is the kind of game `[lichess]` asks for; a seek still open
    /// is then cancelled. One of another kind, or one that starts while
    /// another is played, is passed over, and the player told; one of
    /// the kind asked for that starts while pegboard's game is over waits
    /// for the next.
    fn game_start(
        &mut self,
        t: u64,
        info: &stream::GameInfo,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let c = keeper.controller();
        let ours = c.online().map(|o| o.id.clone());
        let over = c.game().is_over();
        let id = info.game_id.as_str();
        if self.named.len() < 10_000 {
            self.named.insert(id.to_string());
        }
        if let Some(g) = self.game.as_mut().filter(|g| g.id == id) {
            // (A game taken up again from the journal learns its line.)
            g.info.get_or_insert_with(|| info.clone());
            return;
        }
        if self.passed.contains(id) {
            return;
        }
        if ours.as_deref() == Some(id) {
            let mut game = self.follow(id, info.color.map(color_of));
            game.info = Some(info.clone());
            self.game = Some(game);
            return;
        }
        self.seek_taken(info, notes);
        // A game is played here while it goes on here and on lichess.
        let playing = !over && (ours.is_some() || self.game.as_ref().is_some_and(|g| g.under_way));
        if self.listed(t, info, playing) {
            notes.push(format!("lichess: game {id} under way, listed to choose"));
            return;
        }
        let rematch = !playing && self.rematch.as_ref().is_some_and(|r| r.fits(info));
        let why = match self.config.unlike(info) {
            _ if rematch => None,
            Some(why) => Some(why),
            None if playing => Some("another game is played here".to_string()),
            None => None,
        };
        if rematch {
            notes.push(format!("lichess: game {id} is the rematch"));
            self.rematch = None;
            self.rematch_game = Some(id.to_string());
        }
        if let Some(why) = why {
            notes.push(format!("lichess: game {id} passed over: {why}"));
            self.passed.insert(id.to_string());
            let opponent = info
                .opponent
                .as_ref()
                .and_then(|o| o.username.clone())
                .map_or_else(|| "?".to_string(), |n| printable(&n, 100));
            let notice = ServerNotice::OtherGame { opponent };
            keeper.input(t, Input::OnlineNotice(notice), events);
            return;
        }
        if over || self.game.is_some() {
            // Taken up once the next game begins.
            if !self.waiting.iter().any(|w| w.game_id == info.game_id) {
                self.waiting.push_back(info.clone());
            }
            return;
        }
        self.take_up(info);
    }

    /// Game `info` taken up: its stream opened, the asking for a game
    /// ended.
    fn take_up(&mut self, info: &stream::GameInfo) {
        // The player's challenge accepted: its game has its id, and its
        // cancel would abort that game (lila's cancel aborts a game not
        // yet played): left to end on its own.
        let accepted = self
            .seek_cancel
            .as_ref()
            .and_then(|h| h.challenge())
            .is_some_and(|c| c == info.game_id);
        if accepted {
            self.seek_cancel = None;
        }
        self.cancel_seek();
        self.finding = None;
        self.accepting = None;
        self.move_failures = 0;
        // A correspondence game from the lobby: the seek waiting there is
        // taken.
        if self.config.days.is_some()
            && matches!(info.source.as_deref(), Some("lobby" | "pool"))
            && let Some(mark) = &self.seek_mark
        {
            let _ = std::fs::remove_file(mark);
        }
        // A game begun while the player chose among those under way: the
        // list is offered anew after it.
        self.choosing = false;
        let mut game = self.follow(&info.game_id, info.color.map(color_of));
        game.info = Some(info.clone());
        self.game = Some(game);
        // After this game, the games under way are offered again.
        self.chose_new = false;
    }

    /// A correspondence game under way when the event stream opened, or
    /// one that started while another is `playing` here: listed for the
    /// player to choose, when `[lichess]` plays days a move and it is
    /// such a game (however it was made).
    fn listed(&mut self, t: u64, info: &stream::GameInfo, playing: bool) -> bool {
        let opening = self.events_open.is_some_and(|at| t < at + EVENTS_SETTLE_MS);
        let mut any_source = info.clone();
        any_source.source = None;
        if self.config.days.is_none()
            || !(opening || playing)
            || self.config.unlike(&any_source).is_some()
        {
            return false;
        }
        if !self.under_way.iter().any(|g| g.game_id == info.game_id) {
            self.under_way.push(info.clone());
        }
        true
    }

    /// A correspondence game from lichess's lobby that was not under way
    /// when the seek marked as waiting there was made (the mark names
    /// those): the seek was taken, and another may be made.
    fn seek_taken(&mut self, info: &stream::GameInfo, notes: &mut Vec<String>) {
        let Some(mark) = self.seek_mark.as_ref() else {
            return;
        };
        let Ok(text) = std::fs::read_to_string(mark) else {
            return;
        };
        let lobby = info.source.as_deref() == Some("lobby")
            && info.speed.as_deref() == Some("correspondence");
        let known = text
            .lines()
            .filter_map(|l| l.strip_prefix("game "))
            .any(|id| id.trim() == info.game_id);
        if lobby && !known {
            notes.push(format!(
                "lichess: game {} came of the seek waiting in the lobby",
                info.game_id
            ));
            let _ = std::fs::remove_file(mark);
        }
    }

    /// The correspondence games under way, handed to the player to
    /// choose among (once, until he chooses); true while he chooses.
    fn offer_under_way(&mut self, t: u64, keeper: &mut Keeper, events: &mut Vec<Stamped>) -> bool {
        if self.config.days.is_none() || self.chose_new || self.under_way.is_empty() {
            return false;
        }
        if !self.choosing {
            self.choosing = true;
            let games = self
                .under_way
                .iter()
                .take(crate::core::online::MAX_CHOICES)
                .map(|g| crate::core::online::OnlineChoice {
                    id: printable(&g.game_id, 100),
                    opponent: printable(
                        &g.opponent
                            .as_ref()
                            .and_then(|o| o.username.clone())
                            .unwrap_or_else(|| "?".to_string()),
                        100,
                    ),
                    my_turn: g.is_my_turn.unwrap_or(false),
                })
                .collect();
            keeper.input(t, Input::OnlineGames(games), events);
        }
        true
    }

    /// The player's choice among the games under way: one of them, taken
    /// up; or a new game, looked for as `[lichess]` says.
    fn chosen(&mut self, game: Option<&str>, notes: &mut Vec<String>) {
        self.choosing = false;
        let Some(id) = game else {
            self.chose_new = true;
            return;
        };
        match self.under_way.iter().position(|g| g.game_id == id) {
            Some(i) => {
                let info = self.under_way.remove(i);
                notes.push(format!("lichess: game {} chosen", info.game_id));
                self.chosen_game = Some(info.game_id.clone());
                self.take_up(&info);
            }
            // Ended meanwhile: the list as it is now is offered.
            None => notes.push(format!("lichess: game {id} chosen is over; the list again")),
        }
    }

    /// A correspondence game left here for another (`new_game`): it goes
    /// on on lichess, no more followed here, and is listed again.
    fn left_under_way(&mut self, keeper: &Keeper) {
        let c = keeper.controller();
        let left = self.config.days.is_some()
            && c.online().is_none()
            && !c.game().is_over()
            && self.game.as_ref().is_some_and(|g| g.synced && g.under_way);
        if !left {
            return;
        }
        let Some(mut g) = self.game.take() else {
            return;
        };
        g.link.stop();
        if let Some(mut info) = g.info.take() {
            let white = g.color != Some(Color::Black);
            let white_moves = g.server_moves.len().is_multiple_of(2) == g.white_starts;
            info.is_my_turn = Some(white_moves == white);
            self.under_way.push(info);
        }
        self.chose_new = false;
    }

    /// Cancels the seek (or the challenge) held open, if one is: its
    /// thread lets it go and cancels it on lichess (`let_go`).
    fn cancel_seek(&mut self) {
        // A seek lichess paired has ended already: nothing to cancel.
        let ended = match &self.finding {
            Some(Finding::Asking(answer)) => !answer.is_empty(),
            _ => true,
        };
        if let Some(hold) = self.seek_cancel.take().filter(|_| !ended) {
            hold.let_go();
        }
    }

    /// Game `id`'s stream opened, the blind player playing `color`; nothing
    /// yet known of the game on the server.
    fn follow(&self, id: &str, color: Option<Color>) -> GameLink {
        GameLink {
            id: id.to_string(),
            color,
            link: Link::game(self.client.clone(), id, self.timing),
            server_moves: Vec::new(),
            sent: BTreeSet::new(),
            under_way: true,
            takeback_asked: false,
            synced: false,
            resync: false,
            first_move_told: false,
            gone: None,
            refused_move: None,
            info: None,
            white_starts: true,
        }
    }

    /// A challenge to the player: accepted when `[lichess]` waits for one
    /// from its sender (or anyone's) at its clock, in standard chess.
    fn challenged(
        &mut self,
        t: u64,
        c: &stream::Challenge,
        waited: bool,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let last = self.last_game.as_ref().map(|g| g.id.as_str());
        if c.rematch_of.is_some() && c.rematch_of.as_deref() == last {
            self.rematch_offered(t, c, keeper, events, notes);
            return;
        }
        // lichess names the player's own challenges on his event stream
        // too: never his to accept.
        let me = self.last_game.as_ref().map(|g| match g.color {
            Color::White => g.white.name.to_ascii_lowercase(),
            Color::Black => g.black.name.to_ascii_lowercase(),
        });
        let from = c.challenger.as_ref();
        let from = from.and_then(|u| u.name.clone().or_else(|| u.id.clone()));
        if me.is_some() && from.map(|f| f.to_ascii_lowercase()) == me {
            return;
        }
        if self.config.find != Find::Accept {
            return;
        }
        let from = c.challenger.as_ref().and_then(|u| u.id.clone());
        let wanted = self.config.opponent_id();
        let sender_ok = wanted.is_none() || from.as_ref().map(|f| f.to_ascii_lowercase()) == wanted;
        // lila writes a challenge's clock, or its days a move
        // (`{"type":"correspondence","daysPerTurn":N}`).
        let clock_ok = c
            .time_control
            .as_ref()
            .is_some_and(|tc| match self.config.days {
                Some(days) => tc.kind == "correspondence" && tc.days_per_turn == Some(days),
                None => {
                    tc.kind == "clock"
                        && tc.limit == Some(u64::from(self.config.time) * 60)
                        && tc.increment == Some(u64::from(self.config.increment))
                }
            });
        // A challenge names its variant (lila's ChallengeJson); one from
        // a set position is standard chess.
        let variant = c.variant.as_ref().map_or("standard", |v| v.key.as_str());
        let variant_ok = self.config.variant.takes(variant);
        let to_me = c.dest_user.is_some();
        if sender_ok && clock_ok && variant_ok && to_me {
            // Two challenges accepted at once would be two games; one
            // that comes while a game is played waits for the next (lila
            // names a challenge once, as it comes, and again only when
            // the event stream opens anew).
            if self.game.is_some() || self.accepting.is_some() {
                if !self.pending.iter().any(|p| p.id == c.id) {
                    notes.push(format!(
                        "lichess: challenge {} waits: a game is under way or being accepted",
                        c.id
                    ));
                    self.pending.push_back(c.clone());
                }
                return;
            }
            self.accepting = Some(c.id.clone());
            notes.push(format!(
                "lichess: challenge {} from {} accepted",
                c.id,
                from.unwrap_or_default()
            ));
            self.send_post(Post::Accept {
                challenge: c.id.clone(),
                waited,
            });
        }
    }
}

impl LichessSeat {
    /// The player's challenge declined (lichess says so on the event
    /// stream, with its reason): he is told, and it is not sent again.
    fn declined(
        &mut self,
        t: u64,
        c: &stream::Challenge,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let to = c.dest_user.as_ref();
        let to_id = to
            .and_then(|u| u.id.clone().or_else(|| u.name.clone()))
            .map(|n| n.to_ascii_lowercase());
        let rematch_to = self
            .rematch
            .as_ref()
            .filter(|r| r.accepted.is_none() && r.of.opponent().ai.is_none())
            .map(|r| r.of.opponent().name.to_ascii_lowercase());
        let rematch = rematch_to.is_some() && to_id == rematch_to;
        if !rematch && (self.config.find != Find::Challenge || to_id != self.config.opponent_id()) {
            return;
        }
        // Told already (its own stream said it first).
        if !rematch && self.find_refused {
            return;
        }
        if rematch {
            self.rematch = None;
            self.seek_cancel = None;
        }
        let by = to
            .and_then(|u| u.name.clone().or_else(|| u.id.clone()))
            .map_or_else(|| "?".to_string(), |n| printable(&n, 100));
        // lichess's reason, by its key; else its words, else none given.
        let why = reason::of_decline(c.decline_reason_key.as_deref()).map_or_else(
            || printable(c.decline_reason.as_deref().unwrap_or("generic"), 1000),
            str::to_string,
        );
        notes.push(format!(
            "lichess: challenge {} declined by {by}: {why}; not sent again",
            c.id
        ));
        self.find_refused = true;
        self.finding = None;
        keeper.input(
            t,
            Input::OnlineNotice(ServerNotice::Declined { by, why }),
            events,
        );
    }

    /// The whole game, as its stream opens (and opens again): the game
    /// started, when pegboard's is not yet online, then its state.
    fn full(
        &mut self,
        t: u64,
        full: &GameFull,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        g.white_starts = full.initial_fen.split(' ').nth(1) != Some("b");
        let g = &*g;
        if keeper.controller().online().is_none() {
            let key = full.variant.key.as_str();
            let playable = matches!(key, "standard" | "chess960" | "fromPosition");
            let unlike = if !playable {
                Some(format!("it is {key}, which pegboard does not play"))
            } else if !full.state.under_way() {
                Some("it is over".to_string())
            } else if let Err(e) = g.color.map_or(Ok(()), |color| {
                online_game(&self.config.server, full, color).check()
            }) {
                Some(format!("its start cannot be played: {e}"))
            } else if self.rematch_game.as_ref() == Some(&full.id)
                || self.chosen_game.as_ref() == Some(&full.id)
            {
                // The rematch asked for, of the last game's kind; the
                // game under way the player chose.
                None
            } else if !self.config.variant.takes(key) {
                Some(format!("it is {key}, not {}", self.config.variant.as_str()))
            } else if let Some(color) = g.color {
                self.config.unlike_full(full, color == Color::White)
            } else {
                None
            };
            if let Some(why) = unlike {
                // Passed over for good, and told: the next game is looked
                // for.
                notes.push(format!("lichess: game {} passed over: {why}", full.id));
                let white = g.color != Some(Color::Black);
                let them = if white { &full.black } else { &full.white };
                let opponent = printable(&player_name(them), 100);
                self.passed.insert(full.id.clone());
                self.game = None;
                self.link_back(t, true, keeper, events);
                let notice = ServerNotice::OtherGame { opponent };
                keeper.input(t, Input::OnlineNotice(notice), events);
                return;
            }
            let Some(color) = g.color else {
                notes.push(format!(
                    "lichess: game {} names no colour for the player",
                    full.id
                ));
                return;
            };
            // Moves made before the game was found are taken back.
            if keeper.controller().game().ply() > 0 {
                keeper.input(t, Input::Retrace(0), events);
            }
            let game = online_game(&self.config.server, full, color);
            keeper.input(t, Input::OnlineGame(Box::new(game)), events);
        }
        self.state(t, &full.state, keeper, events, notes);
    }

    /// The game's state on the server, reconciled with pegboard's: the
    /// server's moves pegboard lacks are relayed (a game taken back there
    /// is retraced here first), its clocks set pegboard's, and its end
    /// ends the game. Moves pegboard has and the server lacks are the
    /// blind player's, still to be posted (`post`).
    fn state(
        &mut self,
        t: u64,
        state: &GameState,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let Some(g) = &mut self.game else {
            return;
        };
        if keeper.controller().online().map(|o| o.id.as_str()) != Some(g.id.as_str()) {
            // Not the game pegboard plays (given up here meanwhile): its
            // end still ends the following of it, and the next game is
            // looked for.
            if !state.under_way() {
                g.under_way = false;
                g.link.stop();
            }
            return;
        }
        let theirs = as_played(keeper.controller(), state.moves());
        if std::mem::take(&mut g.resync) {
            // A move of the player's the server refused: the game goes
            // back to the server's, the board to be put so.
            let ours = played(keeper.controller());
            let common = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
            let why = g.refused_move.take();
            if !state.under_way() {
                // Refused because the game had ended (lila: "Not your
                // turn, or game already over"): the end stands, told as
                // lichess's state says.
                notes.push("lichess: a move refused after the game's end".into());
            } else if ours.len() > common {
                if let Some(why) = why {
                    let notice = ServerNotice::MoveRefused { why };
                    keeper.input(t, Input::OnlineNotice(notice), events);
                }
                notes.push(format!(
                    "lichess: the game goes back to ply {common}, as lichess has it"
                ));
                keeper.input(t, Input::Retrace(common as u32), events);
            }
        }
        reconcile(t, g, &theirs, keeper, events, notes);
        g.sent.retain(|&ply| ply as usize > theirs.len());
        g.server_moves = theirs;
        g.synced = true;
        g.under_way = state.under_way();
        if !g.under_way {
            // Only a final state ends the game: its stream is opened no
            // more.
            g.link.stop();
        }
        if keeper.controller().clock().is_some() {
            keeper.input(
                t,
                Input::OnlineClock {
                    white_ms: state.wtime,
                    black_ms: state.btime,
                },
                events,
            );
        }
        offers(t, g, state, keeper, events);
        first_move(t, g, state, keeper, events);
        if !state.under_way() {
            keeper.input(
                t,
                Input::OnlineEnd {
                    status: state.status.clone(),
                    winner: state.winner.map(color_of),
                },
                events,
            );
        }
    }

    /// A game looked for, when pegboard's game is fresh (no move, not
    /// online, not over) and none is being looked for: a game of the kind
    /// asked for that started meanwhile, else as `[lichess] find` says,
    /// once the event stream has named the games under way. A game under
    /// way online whose stream is not open (a restart) is taken up again.
    fn find(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        if self.refused {
            return;
        }
        let c = keeper.controller();
        if let Some(online) = c.online() {
            // (A game lichess said is not there is not asked for again.)
            if self.game.is_none() && !c.game().is_over() && !self.passed.contains(&online.id) {
                self.game = Some(self.follow(&online.id, Some(online.color)));
            }
            return;
        }
        if c.game().is_over() {
            return;
        }
        self.left_under_way(keeper);
        if let Some(g) = &self.game
            && !g.under_way
        {
            // The last game is over on the server: the next is looked for.
            self.game = None;
            self.link_back(t, true, keeper, events);
        }
        if self.game.is_some() {
            return;
        }
        if self.rematch.is_some() {
            self.find_rematch(t, keeper, events, notes);
            return;
        }
        if let Some(info) = self.waiting.pop_front() {
            self.take_up(&info);
            return;
        }
        let settled = self
            .events_open
            .is_some_and(|at| t >= at + EVENTS_SETTLE_MS);
        if settled && self.offer_under_way(t, keeper, events) {
            return;
        }
        if self.config.find == Find::Accept && self.accepting.is_none() {
            if let Some(c) = self.pending.pop_front() {
                self.challenged(t, &c, true, keeper, events, notes);
            }
            return;
        }
        if self.config.find == Find::Accept || self.find_refused {
            return;
        }
        if self.events_open.is_none_or(|at| t < at + EVENTS_SETTLE_MS) {
            return;
        }
        match &self.finding {
            Some(Finding::Asking(answer)) => {
                match answer.try_recv() {
                    Err(crossbeam_channel::TryRecvError::Empty) => {}
                    Ok(asked) => self.finding = self.answered(t, asked, keeper, events, notes),
                    Err(crossbeam_channel::TryRecvError::Disconnected) => {
                        self.seek_cancel = None;
                        self.finding = Some(Finding::Failed(t, ASK_AGAIN_AFTER_FAILURE_MS));
                    }
                }
                return;
            }
            // A seek of days a move waits in lichess's lobby until it is
            // taken: not made again.
            Some(Finding::Answered(_)) if self.config.days.is_some() => return,
            Some(Finding::Answered(at)) if t < at + ASK_AGAIN_AFTER_MS => return,
            Some(Finding::Failed(at, wait)) if t < at + wait => return,
            Some(Finding::Declined(at)) => {
                if t >= at + DECLINE_REASON_WITHIN_MS {
                    self.declined_unsaid(t, keeper, events);
                }
                return;
            }
            _ => {}
        }
        if self.config.days.is_some()
            && self.config.find == Find::Seek
            && self.seek_mark.as_ref().is_some_and(|m| m.exists())
        {
            notes.push(
                "lichess: a seek of days a move made before waits in lichess's lobby; no other is made"
                    .into(),
            );
            self.finding = Some(Finding::Answered(t));
            keeper.input(t, Input::OnlineNotice(ServerNotice::SeekWaiting), events);
            return;
        }
        let (answer, cancel) = self.ask_for_game();
        self.seek_cancel = cancel;
        self.asked_seek = self.config.find == Find::Seek;
        self.finding = Some(Finding::Asking(answer));
    }

    /// The opponent's rematch offer (`c`, a challenge with `rematchOf`
    /// the last game): the player hears it and decides; if he asked for
    /// one himself meanwhile, it is accepted, and his own challenge
    /// withdrawn.
    fn rematch_offered(
        &mut self,
        t: u64,
        c: &stream::Challenge,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        notes.push(format!("lichess: challenge {} offers a rematch", c.id));
        if let Some(r) = self.rematch.as_mut().filter(|r| r.accepted.is_none()) {
            if let Some(hold) = self.seek_cancel.take() {
                hold.let_go();
            }
            r.accepted = Some(c.id.clone());
            self.finding = None;
            self.send_post(Post::Accept {
                challenge: c.id.clone(),
                waited: false,
            });
            return;
        }
        let ours = keeper.controller().online().map(|o| o.id.as_str());
        if ours == c.rematch_of.as_deref() && keeper.controller().game().is_over() {
            self.rematch_offer = Some(c.id.clone());
            keeper.input(t, Input::OnlineRematch, events);
        }
    }

    /// A challenge withdrawn: the opponent's rematch offer is gone; the
    /// one the player accepted comes to nothing, and he is told.
    fn canceled(
        &mut self,
        t: u64,
        c: &stream::Challenge,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        if self.rematch_offer.as_deref() == Some(c.id.as_str()) {
            self.rematch_offer = None;
        }
        if self.accepting.as_deref() == Some(c.id.as_str()) {
            self.accepting = None;
        }
        self.pending.retain(|p| p.id != c.id);
        let accepted = self.rematch.as_ref().and_then(|r| r.accepted.as_deref());
        if accepted == Some(c.id.as_str()) {
            self.no_rematch(t, "the offer was withdrawn", keeper, events, notes);
        }
    }

    /// The player's rematch: the opponent's offer accepted (or declined),
    /// else his own asked for (`find_rematch`); with no opponent to ask
    /// (none named, no clock), none, and he is told.
    fn rematch_request(
        &mut self,
        t: u64,
        request: &str,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        if request == "rematch_decline" {
            if let Some(challenge) = self.rematch_offer.take() {
                self.send_post(Post::Decline { challenge });
            }
            return;
        }
        // An offer that stands is what a rematch asked for becomes.
        let accepted = self.rematch_offer.take();
        let of = self.last_game.clone();
        let askable = |g: &OnlineGame| {
            let them = g.opponent();
            g.initial_ms.is_some() && (them.ai.is_some() || (them.name != "?"))
        };
        match of {
            Some(of) if accepted.is_some() || askable(&of) => {
                if let Some(challenge) = &accepted {
                    self.send_post(Post::Accept {
                        challenge: challenge.clone(),
                        waited: false,
                    });
                }
                self.finding = None;
                self.rematch = Some(RematchAsk {
                    of,
                    accepted,
                    since: t,
                });
            }
            _ => {
                let of = self.last_game.clone();
                self.rematch = of.map(|of| RematchAsk {
                    of,
                    accepted: None,
                    since: t,
                });
                self.no_rematch(t, "there is no opponent to ask", keeper, events, notes);
            }
        }
    }

    /// The rematch came to nothing (`why`, for the log): its challenge
    /// withdrawn, the player told, nothing more asked until a new game.
    fn no_rematch(
        &mut self,
        t: u64,
        why: &str,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        notes.push(format!("lichess: no rematch: {why}; nothing more is asked"));
        if let Some(hold) = self.seek_cancel.take() {
            hold.let_go();
        }
        let opponent = self
            .rematch
            .take()
            .map_or_else(|| "?".to_string(), |r| r.of.opponent().name.clone());
        self.finding = None;
        self.find_refused = true;
        let notice = ServerNotice::NoRematch { opponent };
        keeper.input(t, Input::OnlineNotice(notice), events);
    }

    /// The rematch under way: the player's challenge (the same opponent,
    /// the same clock, the colours swapped) sent once and its answer
    /// awaited, sent again only after a failure of the network or the
    /// server. When lichess took it (or the opponent's was accepted) and
    /// no game started within `ASK_AGAIN_AFTER_MS`, or lichess refused
    /// it, it is given up, and nothing more is asked until a new game.
    fn find_rematch(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let Some(r) = &self.rematch else {
            return;
        };
        let accepted = r.accepted.is_some();
        if !accepted && t >= r.since + REMATCH_WAIT_MS {
            self.no_rematch(t, "no answer", keeper, events, notes);
            return;
        }
        match &self.finding {
            None if accepted => self.finding = Some(Finding::Answered(t)),
            None => {
                let (answer, cancel) = self.ask_for_game();
                self.seek_cancel = cancel;
                self.asked_seek = false;
                self.finding = Some(Finding::Asking(answer));
            }
            Some(Finding::Asking(answer)) => match answer.try_recv() {
                Err(crossbeam_channel::TryRecvError::Empty) => {}
                Ok(asked) => {
                    self.finding = self.answered(t, asked, keeper, events, notes);
                    if self.finding.is_none() {
                        self.rematch = None;
                    }
                }
                Err(crossbeam_channel::TryRecvError::Disconnected) => {
                    self.seek_cancel = None;
                    self.finding = Some(Finding::Failed(t, ASK_AGAIN_AFTER_FAILURE_MS));
                }
            },
            Some(Finding::Answered(at)) if t >= at + ASK_AGAIN_AFTER_MS => {
                self.no_rematch(t, "no game came of it", keeper, events, notes);
            }
            Some(Finding::Failed(at, wait)) if t >= at + wait => self.finding = None,
            Some(Finding::Declined(at)) if t >= at + DECLINE_REASON_WITHIN_MS => {
                self.declined_unsaid(t, keeper, events);
                self.rematch = None;
            }
            _ => {}
        }
    }

    /// The player's challenge, declined on its own stream, was not told
    /// on the event stream with lichess's reason in time: he is told
    /// without one, and it is not sent again.
    fn declined_unsaid(&mut self, t: u64, keeper: &mut Keeper, events: &mut Vec<Stamped>) {
        let by = match &self.rematch {
            Some(r) => r.of.opponent().name.clone(),
            None => self.config.opponent.clone().unwrap_or_default(),
        };
        self.finding = None;
        self.find_refused = true;
        let notice = ServerNotice::Declined {
            by: printable(by.trim(), 100),
            why: "generic".into(),
        };
        keeper.input(t, Input::OnlineNotice(notice), events);
    }

    /// What became of the asking for a game: the next step of the
    /// finding (none: nothing more is asked).
    fn answered(
        &mut self,
        t: u64,
        asked: std::result::Result<Held, ApiError>,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) -> Option<Finding> {
        match asked {
            Ok(Held::Done(done)) if done == "declined" => {
                // Not sent again; the event stream says why.
                self.seek_cancel = None;
                notes.push("lichess: the challenge was declined".into());
                Some(Finding::Declined(t))
            }
            Ok(_) => {
                // A seek ends when lichess pairs it: nothing to
                // cancel.
                self.seek_cancel = None;
                if self.asked_seek
                    && self.config.days.is_some()
                    && let Some(mark) = &self.seek_mark
                {
                    let made = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs());
                    // The games under way as it was made: a lobby game not
                    // among them is the one that comes of it.
                    let known: String = self
                        .named
                        .iter()
                        .map(|id| format!("game {}\n", printable(id, 100)))
                        .collect();
                    let text = format!(
                        "# A seek of {} days a move made at this time (Unix seconds) waits in\n\
                         # lichess's lobby: pegboard makes no other until a game comes of it.\n\
                         # Delete this file (and the seek on lichess) to seek again.\n{made}\n\
                         # The games under way then:\n{known}",
                        self.config.days.unwrap_or_default()
                    );
                    if let Err(e) = crate::record::journal::replace_file(mark, &text) {
                        notes.push(format!("lichess: {}: {e}", mark.display()));
                    }
                }
                Some(Finding::Answered(t))
            }
            Err(ApiError::Unauthorized) => {
                // The token: asking again would not help.
                self.seek_cancel = None;
                let why = ApiError::Unauthorized.to_string();
                self.token_refused(t, &why, keeper, events, notes);
                None
            }
            Err(
                e @ ApiError::Refused {
                    status: 400 | 404, ..
                },
            ) => {
                // lichess would refuse it again: told once.
                self.seek_cancel = None;
                self.find_refused = true;
                notes.push(format!("lichess: no game found ({e}); nothing more asked"));
                let why = match &e {
                    ApiError::Refused { error, .. } => told(error),
                    _ => String::new(),
                };
                let notice = ServerNotice::FindRefused { why };
                keeper.input(t, Input::OnlineNotice(notice), events);
                None
            }
            Err(e) => {
                self.seek_cancel = None;
                // After a 429 lichess asks for a full minute.
                let wait = match e {
                    ApiError::TooManyRequests => self.timing.too_many.as_millis() as u64,
                    _ => ASK_AGAIN_AFTER_FAILURE_MS,
                };
                notes.push(format!(
                    "lichess: no game found ({e}); asking again in {} s",
                    wait.div_ceil(1000)
                ));
                Some(Finding::Failed(t, wait))
            }
        }
    }

    /// Asks the server for a game, on a thread of its own (a seek is held
    /// open until an opponent is found, or until the flag returned with it
    /// is set: its connection is closed at its next line, lichess's
    /// keep-alive every 10 s); the answer comes on the channel.
    fn ask_for_game(
        &self,
    ) -> (
        Receiver<std::result::Result<Held, ApiError>>,
        Option<Arc<Hold>>,
    ) {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let client = self.client.clone();
        let c = self.config.clone();
        let cancel = Arc::new(Hold::default());
        let cancelled = cancel.clone();
        let silence = self.timing.silence;
        let rematch = self.rematch.as_ref().map(|r| r.of.clone());
        std::thread::spawn(move || {
            if let Some(last) = rematch {
                // The last game again, the colours swapped, in its
                // variant from its start.
                let terms = Terms {
                    limit: last.initial_ms.map_or(0, |ms| (ms / 1000) as u32),
                    increment: (last.increment_ms / 1000) as u32,
                    rated: last.rated,
                    color: match last.color {
                        Color::White => "black",
                        Color::Black => "white",
                    }
                    .to_string(),
                    variant: match (last.chess960, &last.initial_fen) {
                        (true, _) => "chess960",
                        (false, Some(_)) => "fromPosition",
                        (false, None) => "standard",
                    }
                    .to_string(),
                    // The same start (lila's own rematch keeps a Chess960
                    // position too; a set position's game is casual).
                    fen: last.initial_fen.clone(),
                    days: last.days,
                };
                let them = last.opponent();
                let asked = match them.ai {
                    Some(level) => client.challenge_ai(level, &terms).map(|()| Held::Closed),
                    None => let_go(
                        &client,
                        client
                            .challenge(&them.name, &terms)
                            .and_then(|lines| lines.hold(&cancelled, CHALLENGE_SILENCE)),
                        false,
                    ),
                };
                let _ = tx.send(asked);
                return;
            }
            let terms = Terms {
                limit: c.time * 60,
                increment: c.increment,
                rated: c.rated,
                color: c.color.as_str().to_string(),
                variant: c.variant.as_str().to_string(),
                fen: None,
                days: c.days,
            };
            let asked = match c.find {
                Find::Seek => client
                    .seek(
                        match c.days {
                            Some(days) => Seek::Days(days),
                            None => Seek::Clock {
                                minutes: c.time,
                                increment: c.increment,
                            },
                        },
                        c.rated,
                        c.variant.as_str(),
                    )
                    .and_then(|lines| let_go(&client, lines.hold(&cancelled, silence), true)),
                Find::Ai => client.challenge_ai(c.level, &terms).map(|()| Held::Closed),
                Find::Challenge => let_go(
                    &client,
                    client
                        .challenge(c.opponent.as_deref().unwrap_or_default().trim(), &terms)
                        .and_then(|lines| lines.hold(&cancelled, CHALLENGE_SILENCE)),
                    false,
                ),
                Find::Accept => Ok(Held::Closed),
            };
            let _ = tx.send(asked);
        });
        let held_open = match &self.rematch {
            Some(r) => r.of.opponent().ai.is_none(),
            None => matches!(self.config.find, Find::Seek | Find::Challenge),
        };
        (rx, held_open.then_some(cancel))
    }

    /// The posts' answers: a move or a claim the server refused (a 400 or
    /// a 404, which it would refuse again) is told to the player, and a
    /// refused move puts the game back as the server has it (its stream
    /// opened anew: the whole game); one not delivered (no answer, a 5xx,
    /// a 429) is posted again a while later (a minute after a 429, as
    /// lichess asks). Every failure is logged.
    fn take_posted(
        &mut self,
        t: u64,
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        for waited in self.waited.try_iter() {
            self.post_timing.record(waited);
        }
        self.post_again(t);
        let answers: Vec<_> = self.posted.try_iter().collect();
        for (post, result) in answers {
            let Err(e) = result else {
                if matches!(post, Post::Move { .. }) {
                    self.move_failures = 0;
                }
                self.retry_count(&post);
                continue;
            };
            notes.push(format!("lichess: {} failed: {e}", post.describe()));
            if e == ApiError::Unauthorized {
                self.token_refused(t, &e.to_string(), keeper, events, notes);
                continue;
            }
            let again = match &e {
                ApiError::TooManyRequests => Some(self.timing.too_many),
                ApiError::Transport(_) => Some(self.timing.first),
                ApiError::Refused { status, .. } if *status >= 500 => Some(self.timing.first),
                _ => None,
            };
            // A resignation, an offer, a claim not delivered is posted
            // again later (a minute after a 429, as lichess asks), a few
            // times.
            if let Some(wait) = again
                && !matches!(post, Post::Move { .. })
            {
                let tried = self.retry_count(&post) + 1;
                if tried < POST_TRIES {
                    let at = t + wait.as_millis() as u64;
                    notes.push(format!(
                        "lichess: {} posted again in {} s",
                        post.describe(),
                        wait.as_secs()
                    ));
                    self.retries.push((at, tried, post));
                } else {
                    notes.push(format!("lichess: {} given up", post.describe()));
                    if let Post::Accept { challenge, .. } = &post
                        && self.accepting.as_ref() == Some(challenge)
                    {
                        self.accepting = None;
                    }
                }
                continue;
            }
            let words = match &e {
                ApiError::Refused {
                    status: 400 | 404,
                    error,
                } => Some(told(error)),
                _ => None,
            };
            if let (Post::Accept { challenge, .. }, None) = (&post, again)
                && self.accepting.as_ref() == Some(challenge)
            {
                // Refused (gone, withdrawn): the next challenge may be.
                self.accepting = None;
            }
            if let (Post::Accept { challenge, .. }, None, Some(why)) = (&post, again, &words)
                && self.rematch.as_ref().and_then(|r| r.accepted.as_ref()) == Some(challenge)
            {
                // The rematch accepted is gone (withdrawn): told, given up.
                self.rematch = None;
                self.finding = None;
                self.find_refused = true;
                let notice = ServerNotice::FindRefused { why: why.clone() };
                keeper.input(t, Input::OnlineNotice(notice), events);
                continue;
            }
            self.game_post_failed(t, &post, (again, words), keeper, events, notes);
        }
    }

    /// A post of the game's the server did not take (`again`: after this
    /// wait; else refused, with lichess's `words`): a move posted again
    /// ever later, or put back as the server has it (unless the game is
    /// over); an abort too late made a resignation; a claim's refusal
    /// told.
    fn game_post_failed(
        &mut self,
        t: u64,
        post: &Post,
        (again, words): (Option<std::time::Duration>, Option<String>),
        keeper: &mut Keeper,
        events: &mut Vec<Stamped>,
        notes: &mut Vec<String>,
    ) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        match (post, again, words) {
            (Post::Move { id, ply, .. }, Some(wait), _) if g.id == *id => {
                g.sent.remove(ply);
                let doubled = wait.saturating_mul(1 << self.move_failures.min(6));
                let wait = doubled.min(self.timing.most.max(wait));
                self.move_failures += 1;
                self.post_after = self.now + wait.as_millis() as u64;
            }
            (Post::Move { id, .. }, None, Some(_))
                if g.id == *id && (!g.under_way || keeper.controller().game().is_over()) =>
            {
                // The game is over (lichess refuses a move after its
                // end): nothing to put back.
            }
            (Post::Move { id, .. }, None, Some(why)) if g.id == *id => {
                // Told once the server's state shows it lacks the move.
                g.resync = true;
                g.refused_move = Some(why);
                g.sent.clear();
                g.synced = false;
                g.link = Link::game(self.client.clone(), id, self.timing);
            }
            (Post::Abort { id }, None, Some(_)) if g.id == *id && g.under_way => {
                // Too late to abort (lila: "This game can no longer be
                // aborted": a move crossed the player's resignation):
                // what he asked for is the end of the game, so he
                // resigns it.
                notes.push(format!("lichess: game {id} resigned, too late to abort"));
                self.send_post(Post::Resign { id: id.clone() });
            }
            (Post::ClaimVictory { id } | Post::ClaimDraw { id }, None, Some(why))
                if g.id == *id =>
            {
                let notice = ServerNotice::ClaimRefused { why };
                keeper.input(t, Input::OnlineNotice(notice), events);
            }
            _ => {}
        }
    }

    /// `post` handed to the posting thread, unless lichess refused the
    /// token: then nothing more is asked of it.
    fn send_post(&self, post: Post) {
        if !self.refused {
            let _ = self.posts.send(post);
        }
    }

    /// How often `post` was tried again already (its count is taken).
    fn retry_count(&mut self, post: &Post) -> u32 {
        self.retry_tries
            .iter()
            .position(|(p, _)| p == post)
            .map_or(0, |i| self.retry_tries.remove(i).1)
    }

    /// The posts due again at `t` posted, but those of a game lichess
    /// has ended.
    fn post_again(&mut self, t: u64) {
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.retries)
            .into_iter()
            .partition(|(at, _, _)| *at <= t);
        self.retries = later;
        for (_, tried, post) in due {
            let over = self
                .game
                .as_ref()
                .is_some_and(|g| Some(g.id.as_str()) == post.game() && !g.under_way);
            if over {
                continue;
            }
            self.retry_tries.push((post.clone(), tried));
            self.send_post(post);
        }
    }

    /// A new game begun at the board this turn: asked for anew (a
    /// rematch asked for ended); the online game left for it resigned (or
    /// aborted) on lichess.
    fn new_game_or_left(&mut self, turn_events: &[Stamped]) {
        for e in turn_events {
            match &e.event {
                // A new game: asked for anew, whatever was refused before.
                Event::NewGame { .. } => {
                    self.find_refused = false;
                    // A new game begun at the board after a rematch was
                    // asked for ends the rematch.
                    if self.rematch.as_ref().is_some_and(|r| r.since != e.t) {
                        self.rematch = None;
                        self.finding = None;
                        if let Some(hold) = self.seek_cancel.take() {
                            hold.let_go();
                        }
                    }
                }
                // The game left for a new one at the board is resigned on
                // lichess (pegboard's game is a fresh one by now).
                Event::OnlineRequest { request, .. } if matches!(*request, "resign" | "abort") => {
                    if let Some(g) = self.game.as_ref().filter(|g| g.under_way) {
                        let id = g.id.clone();
                        let post = if *request == "resign" {
                            Post::Resign { id }
                        } else {
                            Post::Abort { id }
                        };
                        self.send_post(post);
                    }
                }
                _ => {}
            }
        }
    }

    /// After the turn: each of the blind player's executed moves the
    /// server lacks is posted once; his resignation and his draw offer
    /// (or acceptance) this turn are posted.
    pub(crate) fn post(
        &mut self,
        c: &Controller,
        turn_events: &[Stamped],
        taken: std::time::Instant,
    ) {
        self.new_game_or_left(turn_events);
        // Nothing more is asked of lichess once it refused the token.
        if self.refused {
            return;
        }
        let (Some(g), Some(online)) = (&mut self.game, c.online()) else {
            return;
        };
        if online.id != g.id || !g.under_way || !g.synced {
            return;
        }
        let mine = online.color;
        let castling = online.castling_uci();
        let moves = c.game().moves();
        // Moves wait a while after one the server did not take.
        let first = if self.now < self.post_after {
            moves.len() + 1
        } else {
            g.server_moves.len() + 1
        };
        for ply in first..=moves.len() {
            let m = &moves[ply - 1];
            let ply = ply as u32;
            if m.color != mine || g.sent.contains(&ply) {
                continue;
            }
            g.sent.insert(ply);
            let _ = self.posts.send(Post::Move {
                id: g.id.clone(),
                ply,
                uci: m.m.to_uci(castling).to_string(),
                taken,
            });
        }
        for e in turn_events {
            let post = match &e.event {
                Event::DrawOffer { color, .. } if color.0 == mine => {
                    Post::Draw { id: g.id.clone() }
                }
                Event::DrawDeclined { color, .. } if color.0 == mine => {
                    Post::DeclineDraw { id: g.id.clone() }
                }
                Event::GameOver {
                    reason: Reason::Resignation,
                    ..
                } if c.game().ending().and_then(|e| e.by) == Some(mine) => {
                    Post::Resign { id: g.id.clone() }
                }
                Event::OnlineRequest { request, .. } => {
                    let id = g.id.clone();
                    match *request {
                        "takeback" => Post::Takeback { id },
                        "takeback_decline" => Post::DeclineTakeback { id },
                        "claim_victory" => Post::ClaimVictory { id },
                        "claim_draw" => Post::ClaimDraw { id },
                        // lichess's draw/yes claims a repetition.
                        "draw_claim" | "draw_accept" => Post::Draw { id },
                        // (Posted above.)
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let _ = self.posts.send(post);
        }
    }
}

/// A seek (`seek`) or a challenge pegboard let go or gave up (`held`),
/// cancelled on lichess: lichess notices its connection closed only when
/// it next writes to it. (A challenge let go before its first line, or
/// given up, is left to expire.)
fn let_go(
    client: &Client,
    held: std::result::Result<Held, ApiError>,
    seek: bool,
) -> std::result::Result<Held, ApiError> {
    match &held {
        Ok(Held::LetGo(_)) | Err(_) if seek => {
            let _ = client.cancel_seek();
        }
        Ok(Held::LetGo(Some(challenge))) => {
            let _ = client.cancel_challenge(challenge);
        }
        _ => {}
    }
    held
}

/// The server's moves `theirs` against pegboard's game: moves the server
/// took back, or a game that differs, retraced to where they agree; the
/// server's moves pegboard lacks relayed (one refused here is logged and
/// stops the rest).
fn reconcile(
    t: u64,
    g: &mut GameLink,
    theirs: &[String],
    keeper: &mut Keeper,
    events: &mut Vec<Stamped>,
    notes: &mut Vec<String>,
) {
    let ours = played(keeper.controller());
    let common = ours.iter().zip(theirs).take_while(|(a, b)| a == b).count();
    if theirs.len() < g.server_moves.len() && common == theirs.len() && ours.len() > common {
        // Moves the server had are gone from it: taken back there.
        notes.push(format!(
            "lichess: moves taken back on the server; the game goes back to ply {common}"
        ));
        keeper.input(t, Input::Retrace(common as u32), events);
        g.sent.clear();
    } else if common < ours.len() && common < theirs.len() {
        notes.push(format!(
            "lichess: the server's game differs from ply {}; taken back to it",
            common + 1
        ));
        keeper.input(t, Input::Retrace(common as u32), events);
    }
    for uci in &theirs[common.min(theirs.len())..] {
        if keeper.controller().game().ply() as usize >= theirs.len() {
            break;
        }
        let Ok(m) = uci.parse() else {
            notes.push(format!("lichess: the server's move {uci} is no UCI move"));
            break;
        };
        let input = Input::Move(Relayed::Uci(m));
        if let Some(refused) = keeper.controller().refusal(t, &input) {
            let why = match &refused.event {
                Event::Refused { reason, .. } => *reason,
                _ => "refused",
            };
            notes.push(format!(
                "lichess: the server's move {uci} cannot be played here ({why})"
            ));
            break;
        }
        keeper.input(t, input, events);
    }
}

/// The time left for the player's first move before lichess aborts the
/// game (its `expiration`, given while the game may still be aborted):
/// told once, when it is his move.
fn first_move(
    t: u64,
    g: &mut GameLink,
    state: &GameState,
    keeper: &mut Keeper,
    events: &mut Vec<Stamped>,
) {
    let c = keeper.controller();
    let (Some(e), Some(online)) = (state.expiration, c.online()) else {
        return;
    };
    if g.first_move_told || c.game().turn() != online.color {
        return;
    }
    g.first_move_told = true;
    let seconds = e.millis_to_move.saturating_sub(e.idle_millis) / 1000;
    let notice = ServerNotice::FirstMove {
        seconds: u32::try_from(seconds).unwrap_or(u32::MAX),
    };
    keeper.input(t, Input::OnlineNotice(notice), events);
}

/// The opponent's draw offer (told as his offer) and takeback request
/// (told once while it stands) in the server's `state`.
fn offers(
    t: u64,
    g: &mut GameLink,
    state: &GameState,
    keeper: &mut Keeper,
    events: &mut Vec<Stamped>,
) {
    let Some(mine) = keeper.controller().online().map(|o| o.color) else {
        return;
    };
    let (draws, asks) = match !mine {
        Color::White => (state.wdraw, state.wtakeback),
        Color::Black => (state.bdraw, state.btakeback),
    };
    if draws && keeper.controller().game().draw_offer() != Some(!mine) {
        keeper.input(t, Input::DrawOffer(!mine), events);
    }
    if asks && !g.takeback_asked {
        keeper.input(t, Input::OnlineTakeback, events);
    }
    g.takeback_asked = asks;
}

/// A text from the server as the game may keep it: control characters
/// made spaces, at most `most` bytes.
/// lichess's words `error` as the player is told them: the reason
/// pegboard knows them by, else the words themselves.
fn told(error: &str) -> String {
    reason::of_error(error).map_or_else(|| printable(error, 1000), str::to_string)
}

fn printable(text: &str, most: usize) -> String {
    let mut out = String::new();
    for c in text.chars().map(|c| if c.is_control() { ' ' } else { c }) {
        if out.len() + c.len_utf8() > most {
            break;
        }
        out.push(c);
    }
    out
}

/// The game's moves in UCI, as lichess writes them (castling as the
/// online game's variant has it).
fn played(c: &Controller) -> Vec<String> {
    let castling = castling_uci(c);
    c.game()
        .moves()
        .iter()
        .map(|m| m.m.to_uci(castling).to_string())
        .collect()
}

/// The server's moves written as `played` writes pegboard's (castling
/// as the game's variant has it here), whichever way lichess wrote
/// castling: they are compared as moves, not as lichess's spelling of
/// them. A move that cannot be read, and those after it, stay as given.
fn as_played<'a>(c: &Controller, theirs: impl Iterator<Item = &'a str>) -> Vec<String> {
    use shakmaty::Position as _;
    let castling = castling_uci(c);
    let mut pos = c.game().start_position().clone();
    let mut readable = true;
    theirs
        .map(|uci| {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .filter(|_| readable);
            match m {
                Some(m) => {
                    pos.play_unchecked(m);
                    m.to_uci(castling).to_string()
                }
                None => {
                    readable = false;
                    uci.to_string()
                }
            }
        })
        .collect()
}

/// How lichess writes castling in the game played.
fn castling_uci(c: &Controller) -> shakmaty::CastlingMode {
    c.online()
        .map_or(shakmaty::CastlingMode::Standard, OnlineGame::castling_uci)
}

fn color_of(side: Side) -> Color {
    match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

/// A player's name as the server's whole game gives it: lila names its AI
/// by its level alone (no id, no name), as its game pages call it.
fn player_name(p: &stream::Player) -> String {
    match (&p.name, p.ai_level) {
        (Some(name), _) => name.clone(),
        (None, Some(level)) => format!("Stockfish level {level}"),
        (None, None) => "?".to_string(),
    }
}

/// The online game the server's whole game describes, `color` the blind
/// player's.
fn online_game(server: &str, full: &GameFull, color: Color) -> OnlineGame {
    let player = |p: &stream::Player| OnlinePlayer {
        name: player_name(p),
        rating: p.rating,
        ai: p.ai_level,
    };
    OnlineGame {
        id: full.id.clone(),
        site: format!("{}/{}", server.trim_end_matches('/'), full.id),
        color,
        white: player(&full.white),
        black: player(&full.black),
        initial_ms: full.clock.map(|c| c.initial),
        increment_ms: full.clock.map_or(0, |c| c.increment),
        rated: full.rated,
        initial_fen: (full.initial_fen != "startpos").then(|| full.initial_fen.clone()),
        chess960: full.variant.key == "chess960",
        days: full.days_per_turn,
    }
}

/// Whether `config` seats an opponent on lichess.
fn online(config: &Config) -> bool {
    [&config.game.white_moves_on, &config.game.black_moves_on]
        .iter()
        .any(|s| s.as_str() == "lichess")
}

/// What `check-config` says of the token when `config` seats an opponent
/// on lichess and none is kept: `play` would not start.
pub fn missing_token(config: &Config) -> Option<String> {
    if !online(config) {
        return None;
    }
    let path = match token_path(config) {
        Ok(path) => path,
        Err(e) => return Some(e.to_string()),
    };
    match crate::lichess::token::load(&path) {
        Ok(Some(_)) => None,
        Ok(None) => Some(format!(
            "no lichess token in {}: keep one with `pegboard lichess-token` before `play`",
            path.display()
        )),
        Err(e) => Some(e.to_string()),
    }
}

/// The opponent's seat on lichess, when `config` seats him (`[game]
/// …_moves_on = "lichess"`): the token kept in the state directory is
/// needed, and its absence says how to keep one.
pub(crate) fn seat(config: &Config) -> Result<Option<LichessSeat>> {
    if !online(config) {
        return Ok(None);
    }
    let path = token_path(config)?;
    match crate::lichess::token::load(&path).map_err(Error::Token)? {
        Some(token) => {
            let mut seat = LichessSeat::open(
                &config.lichess,
                token,
                Timing::default(),
                std::time::Duration::from_secs_f64(1.0 / f64::from(config.sensors.scan_hz.max(1))),
            );
            seat.seek_mark = path.parent().map(|dir| dir.join(SEEK_MARK_FILE));
            Ok(Some(seat))
        }
        None => Err(Error::Token(crate::lichess::token::TokenError(format!(
            "no lichess token in {}: keep one with `pegboard lichess-token` (a token with the \
             board:play scope, made at {})",
            path.display(),
            crate::lichess::token::create_address(&config.lichess.server)
        )))),
    }
}
