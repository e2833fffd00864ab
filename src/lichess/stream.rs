//! The lines of lichess's two Board API streams, read into pegboard's own
//! types: the account's event stream (`/api/stream/event`: a game starts
//! or finishes, a challenge comes, is cancelled or declined) and a game's
//! stream (`/api/board/game/stream/{id}`: the whole game first, then its
//! state after each move or offer, chat, and the opponent gone or back).
//!
//! Both are NDJSON: one JSON object a line, an empty line every few
//! seconds to keep the connection alive. A line is read alone; one that
//! is no JSON object, or lacks what its `type` needs, is an error naming
//! what is wrong (the stream goes on: the next line is read as usual); a
//! `type` pegboard does not know is passed over by name, since lichess
//! may add types.

use serde::Deserialize;

/// A colour as lichess writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

/// A line of the account's event stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    GameStart(GameInfo),
    GameFinish(GameInfo),
    /// A challenge to the player, or his own to someone.
    Challenge(Challenge),
    ChallengeCanceled(Challenge),
    ChallengeDeclined(Challenge),
    /// A line of a type pegboard does not know.
    Unknown(String),
}

/// A game as the event stream names it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    pub game_id: String,
    /// The player's colour in it.
    pub color: Option<Side>,
    pub fen: Option<String>,
    pub is_my_turn: Option<bool>,
    pub opponent: Option<Opponent>,
    pub rated: Option<bool>,
    pub winner: Option<Side>,
    /// How the game was made: `lobby` (a seek), `pool`, `friend` (a
    /// challenge), `ai`, `api`, `arena`, `swiss` …
    pub source: Option<String>,
    /// `ultraBullet`, `bullet`, `blitz`, `rapid`, `classical` or
    /// `correspondence`.
    pub speed: Option<String>,
    pub variant: Option<Variant>,
    /// Whether the Board API (`board`) and bots may play it.
    pub compat: Option<Compat>,
}

/// What may play a game, as the event stream says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Compat {
    pub bot: bool,
    pub board: bool,
}

/// The opponent as the event stream names him: a player, or lichess's AI
/// at a level.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Opponent {
    pub id: Option<String>,
    pub username: Option<String>,
    pub rating: Option<u32>,
    pub ai: Option<u8>,
}

/// A challenge, as far as pegboard answers it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    pub id: String,
    pub challenger: Option<User>,
    pub dest_user: Option<User>,
    pub rated: Option<bool>,
    pub variant: Option<Variant>,
    pub time_control: Option<ChallengeClock>,
    /// "white", "black" or "random": the challenger's colour.
    pub color: Option<String>,
    /// Why it was declined, in words (lichess's, in the decliner's
    /// language setting), with its key (`generic`, `later`, `tooFast` …).
    pub decline_reason: Option<String>,
    pub decline_reason_key: Option<String>,
    /// The game this challenge is a rematch of: the opponent's offer of
    /// one, after a game.
    pub rematch_of: Option<String>,
}

/// A player named in a challenge or a game.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct User {
    pub id: Option<String>,
    pub name: Option<String>,
    pub rating: Option<u32>,
}

/// A variant: pegboard plays `standard` and `chess960`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Variant {
    pub key: String,
}

/// A challenge's time control: `clock` (limit and increment in seconds),
/// `correspondence` or `unlimited`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ChallengeClock {
    #[serde(rename = "type")]
    pub kind: String,
    pub limit: Option<u64>,
    pub increment: Option<u64>,
    /// Days a move, in a correspondence challenge.
    #[serde(rename = "daysPerTurn")]
    pub days_per_turn: Option<u32>,
}

/// A line of a game's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameLine {
    /// The whole game: always the first line.
    Full(Box<GameFull>),
    /// The game's state after a move, an offer, or its end.
    State(GameState),
    Chat(ChatLine),
    /// The opponent left the game (`gone`), or came back; after
    /// `claim_win_in_seconds` the player may claim the win.
    OpponentGone {
        gone: bool,
        claim_win_in_seconds: Option<u32>,
    },
    /// A line of a type pegboard does not know.
    Unknown(String),
}

/// The whole game, as its stream opens.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    pub id: String,
    pub rated: bool,
    pub variant: Variant,
    /// Initial time and increment in ms; none in a correspondence or
    /// unlimited game.
    pub clock: Option<FullClock>,
    /// Days a move, in a correspondence game.
    #[serde(default)]
    pub days_per_turn: Option<u32>,
    pub white: Player,
    pub black: Player,
    /// `startpos`, or a FEN.
    pub initial_fen: String,
    pub state: GameState,
}

/// A game's clock: what each player begins with and earns a move, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct FullClock {
    pub initial: u64,
    pub increment: u64,
}

/// A player of a game: a person with his name and rating, or lichess's AI
/// at a level.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Player {
    pub id: Option<String>,
    pub name: Option<String>,
    pub rating: Option<u32>,
    pub ai_level: Option<u8>,
}

/// A game's state: every move so far, both clocks, what is offered, and
/// how the game stands.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GameState {
    /// The moves in UCI, space-separated (Chess960's castling as the king
    /// taking his rook).
    pub moves: String,
    /// Time left, ms.
    pub wtime: u64,
    pub btime: u64,
    /// What each move earns, ms.
    pub winc: u64,
    pub binc: u64,
    /// `started` while the game goes on; `mate`, `resign`, `outoftime`,
    /// `draw`, `aborted` … once it is over.
    pub status: String,
    pub winner: Option<Side>,
    /// A draw offered, a takeback asked for, by White or by Black.
    #[serde(default)]
    pub wdraw: bool,
    #[serde(default)]
    pub bdraw: bool,
    #[serde(default)]
    pub wtakeback: bool,
    #[serde(default)]
    pub btakeback: bool,
    /// While the game may still be aborted for want of a first move (a
    /// game from the lobby, a tournament, before both moved): how long the
    /// player to move has been idle and may be, in ms.
    #[serde(default)]
    pub expiration: Option<Expiration>,
}

/// The first move's time, as lichess gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expiration {
    pub idle_millis: u64,
    pub millis_to_move: u64,
}

impl GameState {
    /// The moves, one UCI move each.
    pub fn moves(&self) -> impl Iterator<Item = &str> {
        self.moves.split_whitespace()
    }

    /// Whether the game goes on.
    pub fn under_way(&self) -> bool {
        matches!(self.status.as_str(), "created" | "started")
    }
}

/// A chat message: `room` is `player` or `spectator`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ChatLine {
    pub room: String,
    pub username: String,
    pub text: String,
}

/// A stream line that cannot be read: what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError(pub String);

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// A line's object and its `type`; `None` for a keep-alive line.
fn typed(line: &str) -> Result<Option<(String, serde_json::Value)>, LineError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| LineError(format!("not a JSON object: {e}")))?;
    let kind = value
        .get("type")
        .and_then(|t| t.as_str())
        .ok_or_else(|| LineError("a line without its `type`".into()))?
        .to_string();
    Ok(Some((kind, value)))
}

fn read<T: serde::de::DeserializeOwned>(
    kind: &str,
    value: serde_json::Value,
) -> Result<T, LineError> {
    serde_json::from_value(value).map_err(|e| LineError(format!("a `{kind}` line: {e}")))
}

/// The wrapped object of an event line (`game` or `challenge`).
#[derive(Deserialize)]
struct Wrapped<T> {
    #[serde(alias = "challenge")]
    game: T,
}

/// A line of the event stream; `None` for a keep-alive line.
pub fn event(line: &str) -> Result<Option<Event>, LineError> {
    let Some((kind, value)) = typed(line)? else {
        return Ok(None);
    };
    Ok(Some(match kind.as_str() {
        "gameStart" => Event::GameStart(read::<Wrapped<GameInfo>>(&kind, value)?.game),
        "gameFinish" => Event::GameFinish(read::<Wrapped<GameInfo>>(&kind, value)?.game),
        "challenge" => Event::Challenge(read::<Wrapped<Challenge>>(&kind, value)?.game),
        "challengeCanceled" => {
            Event::ChallengeCanceled(read::<Wrapped<Challenge>>(&kind, value)?.game)
        }
        "challengeDeclined" => {
            Event::ChallengeDeclined(read::<Wrapped<Challenge>>(&kind, value)?.game)
        }
        _ => Event::Unknown(kind),
    }))
}

/// How a challenge kept alive ended, from the last line of its stream
/// (`keepAliveStream`: `{"done":"accepted"}`, `"declined"` or
/// `"canceled"`); `None` for any other line.
pub fn challenge_done(line: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Done {
        done: String,
    }
    serde_json::from_str::<Done>(line).ok().map(|d| d.done)
}

/// A challenge's id, from the first line of its stream (the challenge,
/// its `id` at the top); `None` for any other line.
pub fn challenge_id(line: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Sent {
        id: String,
    }
    serde_json::from_str::<Sent>(line).ok().map(|c| c.id)
}

/// A line of a game's stream; `None` for a keep-alive line.
pub fn game_line(line: &str) -> Result<Option<GameLine>, LineError> {
    let Some((kind, value)) = typed(line)? else {
        return Ok(None);
    };
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Gone {
        gone: bool,
        claim_win_in_seconds: Option<u32>,
    }
    Ok(Some(match kind.as_str() {
        "gameFull" => GameLine::Full(Box::new(read(&kind, value)?)),
        "gameState" => GameLine::State(read(&kind, value)?),
        "chatLine" => GameLine::Chat(read(&kind, value)?),
        "opponentGone" => {
            let g: Gone = read(&kind, value)?;
            GameLine::OpponentGone {
                gone: g.gone,
                claim_win_in_seconds: g.claim_win_in_seconds,
            }
        }
        _ => GameLine::Unknown(kind),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATE: &str = r#"{"type":"gameState","moves":"e2e4 c7c5 g1f3","wtime":903000,"btime":895000,"winc":10000,"binc":10000,"status":"started","bdraw":true}"#;

    #[test]
    fn a_challenge_kept_alive_says_how_it_ended_on_its_last_line() {
        assert_eq!(
            challenge_done(r#"{"done":"declined"}"#).as_deref(),
            Some("declined")
        );
        assert_eq!(
            challenge_done(r#"{"done":"accepted"}"#).as_deref(),
            Some("accepted")
        );
        assert_eq!(challenge_done(""), None);
        assert_eq!(challenge_done(r#"{"id":"x","status":"created"}"#), None);
        assert_eq!(
            challenge_id(r#"{"id":"x","status":"created"}"#).as_deref(),
            Some("x")
        );
        assert_eq!(challenge_id(r#"{"done":"declined"}"#), None);
    }

    #[test]
    fn a_games_stream_reads_its_whole_game_then_its_states() {
        let full = format!(
            r#"{{"type":"gameFull","id":"aBcD1234","rated":true,"variant":{{"key":"standard","name":"Standard","short":"Std"}},"clock":{{"initial":900000,"increment":10000}},"speed":"rapid","perf":{{"name":"Rapid"}},"createdAt":1764000000000,"white":{{"id":"anna","name":"Anna","title":null,"rating":1650}},"black":{{"aiLevel":3}},"initialFen":"startpos","state":{}}}"#,
            STATE
        );
        let Some(GameLine::Full(game)) = game_line(&full).expect("read") else {
            panic!("not the whole game")
        };
        assert_eq!(game.id, "aBcD1234");
        assert_eq!(game.white.name.as_deref(), Some("Anna"));
        assert_eq!(game.white.rating, Some(1650));
        assert_eq!(game.black.ai_level, Some(3));
        assert_eq!(
            game.clock,
            Some(FullClock {
                initial: 900_000,
                increment: 10_000
            })
        );
        assert_eq!(
            game.state.moves().collect::<Vec<_>>(),
            ["e2e4", "c7c5", "g1f3"]
        );
        assert!(game.state.bdraw && !game.state.wdraw);
        assert!(game.state.under_way());
        let Some(GameLine::State(state)) = game_line(STATE).expect("read") else {
            panic!("not a state")
        };
        assert_eq!((state.wtime, state.btime), (903_000, 895_000));
        // Over: the status says how, the winner who.
        let over = STATE.replace("\"started\"", "\"resign\",\"winner\":\"white\"");
        let Some(GameLine::State(state)) = game_line(&over).expect("read") else {
            panic!("not a state")
        };
        assert!(!state.under_way());
        assert_eq!(state.winner, Some(Side::White));
    }

    #[test]
    fn keep_alive_lines_chat_and_the_opponent_gone_are_read() {
        assert_eq!(game_line(""), Ok(None));
        assert_eq!(game_line("  \r"), Ok(None));
        assert_eq!(
            game_line(
                r#"{"type":"chatLine","room":"player","username":"anna","text":"Viel Glück"}"#
            ),
            Ok(Some(GameLine::Chat(ChatLine {
                room: "player".into(),
                username: "anna".into(),
                text: "Viel Glück".into()
            })))
        );
        assert_eq!(
            game_line(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":8}"#),
            Ok(Some(GameLine::OpponentGone {
                gone: true,
                claim_win_in_seconds: Some(8)
            }))
        );
        assert_eq!(
            game_line(r#"{"type":"somethingNew","x":1}"#),
            Ok(Some(GameLine::Unknown("somethingNew".into())))
        );
    }

    #[test]
    fn the_event_stream_reads_games_and_challenges() {
        let start = r#"{"type":"gameStart","game":{"fullId":"aBcD1234wxyz","gameId":"aBcD1234","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","color":"white","lastMove":"","source":"lobby","variant":{"key":"standard","name":"Standard"},"speed":"rapid","perf":"rapid","rated":true,"hasMoved":false,"opponent":{"id":"bert","username":"Bert","rating":1702},"isMyTurn":true,"secondsLeft":900}}"#;
        let Some(Event::GameStart(game)) = event(start).expect("read") else {
            panic!("not a game start")
        };
        assert_eq!(game.game_id, "aBcD1234");
        assert_eq!(game.color, Some(Side::White));
        assert_eq!(game.is_my_turn, Some(true));
        let opponent = game.opponent.expect("an opponent");
        assert_eq!(opponent.username.as_deref(), Some("Bert"));
        assert_eq!(opponent.rating, Some(1702));
        assert_eq!(
            (game.source.as_deref(), game.speed.as_deref()),
            (Some("lobby"), Some("rapid"))
        );
        let challenge = r#"{"type":"challenge","challenge":{"id":"Xy12Zz34","url":"https://lichess.org/Xy12Zz34","status":"created","challenger":{"id":"bert","name":"Bert","rating":1702},"destUser":{"id":"anna","name":"Anna","rating":1650},"variant":{"key":"standard","name":"Standard"},"rated":false,"speed":"rapid","timeControl":{"type":"clock","limit":900,"increment":10,"show":"15+10"},"color":"random","perf":{"name":"Rapid"}}}"#;
        let Some(Event::Challenge(c)) = event(challenge).expect("read") else {
            panic!("not a challenge")
        };
        assert_eq!(c.id, "Xy12Zz34");
        assert_eq!(c.challenger.and_then(|u| u.name).as_deref(), Some("Bert"));
        let clock = c.time_control.expect("a clock");
        assert_eq!(
            (clock.kind.as_str(), clock.limit, clock.increment),
            ("clock", Some(900), Some(10))
        );
        assert_eq!(event(""), Ok(None));
    }

    #[test]
    fn a_garbage_line_is_an_error_that_says_what_is_wrong() {
        let e = game_line("<html>502 Bad Gateway</html>").expect_err("garbage");
        assert!(e.0.starts_with("not a JSON object"), "{e}");
        let e = game_line(r#"{"moves":"e2e4"}"#).expect_err("no type");
        assert_eq!(e.0, "a line without its `type`");
        let e = game_line(r#"{"type":"gameState","moves":"e2e4"}"#).expect_err("no clocks");
        assert!(
            e.0.starts_with("a `gameState` line: missing field `wtime`"),
            "{e}"
        );
        let e = event(r#"{"type":"gameStart"}"#).expect_err("no game");
        assert!(e.0.contains("missing field `game`"), "{e}");
    }
}
