//! What the mirror shows, kept from the event stream (pure): the
//! position, the moves, the move the sighted player must repeat on his own
//! board, both clocks, and what is going on. Its JSON is `GET /state` and
//! the first Server-Sent Event of every stream.

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position, Role, Square};

use crate::core::{Event, Stamped};

/// A legal move in the game's position, as the console offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    pub san: String,
    pub uci: String,
}

/// One move as the mirror lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    pub ply: u32,
    pub color: &'static str,
    pub san: String,
    /// The SAN with figurines for the pieces ("♘f3").
    pub figurine: String,
    pub uci: String,
    pub say: String,
    pub from: String,
    pub to: String,
    /// The square of the piece taken, if any (for en passant not `to`).
    pub captured: Option<String>,
    /// Castling: the rook's squares, from and to.
    pub rook: Option<(String, String)>,
    /// Promotion: the new piece's figurine.
    pub promotion: Option<String>,
    pub en_passant: bool,
    /// The game time of the move, in ms (a broadcast's delay counts from
    /// it).
    pub t: u64,
}

/// The clock as the page shows it; the running side ticks down in the
/// page from `t` until the next `clock` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockView {
    pub white_ms: u64,
    pub black_ms: u64,
    pub running: Option<&'static str>,
    pub paused: bool,
    pub white_flag: bool,
    pub black_flag: bool,
    /// The game time of the reading, in ms.
    pub t: u64,
}

/// What is going on: the latest notice worth showing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// The event's name: `touch`, `touch_violation`, `illegal`,
    /// `mismatch`, `restored`, `promotion_pending`, `flag`, `draw_offer`,
    /// `game_over`, `resumed`, `new_game`, or `say` for a spoken notice.
    pub kind: &'static str,
    pub text: String,
    /// The squares it is about (a mismatch's missing and extra ones).
    pub squares: Vec<String>,
    /// The article of the Laws it concerns, where the event names one (a
    /// touch violation's, a refused move's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article: Option<&'static str>,
    /// The game time it was set at, in ms (how long a board has differed
    /// from the game, for the arbiter's hall view).
    pub since: u64,
}

/// What the arbiter keeps beside the moves: a report of something that
/// happened after move `ply`, about `color`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub ply: u32,
    /// `illegal` (an illegal move seen on a board, 7.4), `penalty` (time
    /// given to `color` for the opponent's offence, 7.4b, 10.2),
    /// `touch_reported` (E2.9e) or `touch_violation` (4.3).
    pub kind: &'static str,
    pub color: &'static str,
    /// For `illegal`: the player's illegal moves so far.
    pub count: Option<u32>,
    /// The game time it happened at, in ms.
    pub t: u64,
}

/// The whole state of the mirror.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MirrorState {
    pub fen: String,
    pub ply: u32,
    pub to_move: &'static str,
    pub variant: &'static str,
    pub moves: Vec<MoveEntry>,
    /// The reports kept beside the moves, in order.
    pub reports: Vec<Report>,
    pub last_move: Option<MoveEntry>,
    /// The blind player's last move, until the sighted player's next move:
    /// the move to make on the sighted player's board.
    pub repeat: Option<MoveEntry>,
    /// With a sighted player's board pegboard reads: the squares it must
    /// still change to show the game, until it does (`null` then, and
    /// always without such a board).
    pub replicating: Option<Vec<String>>,
    pub clock: Option<ClockView>,
    pub status: Option<Status>,
    pub result: Option<&'static str>,
    /// The square of a piece held in the hand.
    pub touched: Option<String>,
    /// The square of a king in check.
    pub check: Option<String>,
    /// The legal moves in the game's position (none once it is over).
    pub legal: Vec<LegalMove>,
    /// The blind player's colour, and the side the board is seen from.
    pub blind: &'static str,
    pub orientation: &'static str,
    /// The game time of the latest event taken in, in ms: the page counts
    /// a running clock down from its reading's own instant (`clock.t`),
    /// not from whenever a later event brought the state.
    pub t: u64,
    /// What the arbiter must know, kept until it ends (the hall view reads
    /// them): when the blind player called him, until he answers; when a
    /// flag fell (6.9); when the board's sensors were lost, until they are
    /// back; when the game ended (its result is held back as long as its
    /// last move in a delayed broadcast). Game times, in ms.
    pub called: Option<u64>,
    pub flag_fell: Option<u64>,
    pub sensors_lost: Option<u64>,
    pub ended: Option<u64>,
    /// The game time at which this game began (its `ready`): a board's
    /// next game has another, so the hall keeps a finished game apart
    /// from the one set up after it. (Game time starts again with the
    /// board's pegboard: with the server's `run`, it names the game across
    /// restarts.)
    pub game: u64,
    #[serde(skip)]
    position: Chess,
    #[serde(skip)]
    mode: CastlingMode,
    #[serde(skip)]
    blind_color: Color,
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The squares a board differs from the game on: where a piece is
/// missing, then where one is extra.
fn differing(missing: &[crate::core::event::MissingPiece], extra: &[String]) -> Vec<String> {
    missing
        .iter()
        .map(|m| m.square.clone())
        .chain(extra.iter().cloned())
        .collect()
}

/// A piece's figurine, white or black.
pub fn figurine(color: Color, role: Role) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let i = match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    match color {
        Color::White => white[i],
        Color::Black => black[i],
    }
}

/// The SAN with its piece letters as figurines of the mover's colour.
fn figurine_san(san: &str, color: Color) -> String {
    san.chars()
        .map(|c| match Role::from_char(c.to_ascii_lowercase()) {
            Some(role) if c.is_ascii_uppercase() && role != Role::Pawn => figurine(color, role),
            _ => c,
        })
        .collect()
}

impl MirrorState {
    /// An empty mirror, for the blind player's colour `blind`, seen from
    /// `orientation`'s side.
    pub fn new(blind: Color, orientation: Color) -> MirrorState {
        let position = Chess::default();
        let mut state = MirrorState {
            fen: Fen::from_position(&position, shakmaty::EnPassantMode::Legal).to_string(),
            ply: 0,
            to_move: "white",
            variant: "standard",
            moves: Vec::new(),
            reports: Vec::new(),
            last_move: None,
            repeat: None,
            replicating: None,
            clock: None,
            status: None,
            result: None,
            touched: None,
            check: None,
            legal: Vec::new(),
            blind: side(blind),
            orientation: side(orientation),
            t: 0,
            called: None,
            flag_fell: None,
            sensors_lost: None,
            ended: None,
            game: 0,
            position,
            mode: CastlingMode::Standard,
            blind_color: blind,
        };
        let fen = state.fen.clone();
        state.set_position(&fen);
        state
    }

    fn set_position(&mut self, fen: &str) {
        if let Some(pos) = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(self.mode).ok())
        {
            self.to_move = side(pos.turn());
            self.check = pos
                .is_check()
                .then(|| pos.board().king_of(pos.turn()))
                .flatten()
                .map(|s| s.to_string());
            self.legal = pos
                .legal_moves()
                .iter()
                .map(|&m| LegalMove {
                    san: shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string(),
                    uci: m.to_uci(self.mode).to_string(),
                })
                .collect();
            self.position = pos;
        }
        self.fen = fen.to_string();
    }

    /// The details of a move played from the current position.
    fn entry(&self, ply: u32, color: Color, uci: &str, san: &str, say: &str, t: u64) -> MoveEntry {
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&self.position).ok());
        let (from, to) = match &m {
            Some(m) => (
                m.from().map(|s| s.to_string()).unwrap_or_default(),
                m.to().to_string(),
            ),
            None => (
                uci.get(0..2).unwrap_or("").into(),
                uci.get(2..4).unwrap_or("").into(),
            ),
        };
        let mut e = MoveEntry {
            ply,
            color: side(color),
            san: san.to_string(),
            figurine: figurine_san(san, color),
            uci: uci.to_string(),
            say: say.to_string(),
            from,
            to,
            captured: None,
            rook: None,
            promotion: None,
            en_passant: false,
            t,
        };
        if let Some(m) = m {
            if let Some(side) = m.castling_side() {
                let king_to = side.king_to(color);
                let rook_to = side.rook_to(color);
                e.to = king_to.to_string();
                e.rook = Some((m.to().to_string(), rook_to.to_string()));
            } else if m.is_en_passant() {
                e.en_passant = true;
                let captured = Square::from_coords(
                    m.to().file(),
                    m.from().map_or(m.to().rank(), |f| f.rank()),
                );
                e.captured = Some(captured.to_string());
            } else if m.is_capture() {
                e.captured = Some(m.to().to_string());
            }
            e.promotion = m.promotion().map(|r| figurine(color, r).to_string());
        }
        e
    }

    /// Takes in one event.
    pub fn observe(&mut self, e: &Stamped) {
        let since = e.t;
        let status = |kind: &'static str, text: &str, squares: Vec<String>| {
            Some(Status {
                kind,
                text: text.to_string(),
                squares,
                article: None,
                since,
            })
        };
        match &e.event {
            // The same game taken up again after a restart (the position
            // it was left in, moves made): everything shown stays.
            Event::Ready { fen, .. } if *fen == self.fen && self.ply > 0 => {}
            Event::Ready { fen, variant, .. } => {
                // A new stream, or the next game: everything starts anew.
                let (blind, orientation) = (self.blind_color, self.orientation);
                *self = MirrorState::new(blind, Color::White);
                self.orientation = orientation;
                self.game = e.t;
                self.variant = variant;
                self.mode = if *variant == "chess960" {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                self.set_position(fen);
            }
            Event::Move {
                ply,
                color,
                uci,
                san,
                say,
                fen,
                ..
            } => {
                let entry = self.entry(*ply, color.0, uci, san, say.as_str(), e.t);
                self.repeat = (color.0 == self.blind_color).then(|| entry.clone());
                // A touch violation is reported just before the move it
                // concerns (4.3): it stays shown with that move.
                let violated = self.status.as_ref().is_some_and(|s| {
                    s.kind == "touch_violation" && s.squares.get(1) == Some(&entry.from)
                });
                self.moves.push(entry.clone());
                self.last_move = Some(entry);
                self.ply = *ply;
                self.touched = None;
                if !violated {
                    self.status = None;
                }
                self.set_position(fen);
            }
            Event::Clock {
                cause,
                running,
                paused,
                white,
                black,
            } => {
                if *cause == crate::core::event::ClockCause::Penalty
                    && let Some(before) = &self.clock
                {
                    let given = if white.remaining_ms > before.white_ms {
                        "white"
                    } else {
                        "black"
                    };
                    self.report(e.t, "penalty", given, None);
                }
                self.clock = Some(ClockView {
                    white_ms: white.remaining_ms,
                    black_ms: black.remaining_ms,
                    running: running.map(|s| side(s.0)),
                    paused: *paused,
                    white_flag: white.flag,
                    black_flag: black.flag,
                    t: e.t,
                });
            }
            Event::Touch { square, .. } => {
                self.touched = Some(square.clone());
                self.status = status("touch", square, vec![square.clone()]);
            }
            Event::TouchViolation {
                color,
                touched,
                moved,
                article,
                say,
                ..
            } => {
                self.report(e.t, "touch_violation", side(color.0), None);
                self.status = status(
                    "touch_violation",
                    say.as_str(),
                    vec![touched.clone(), moved.clone()],
                )
                .map(|s| Status {
                    article: Some(article),
                    ..s
                });
            }
            Event::Illegal {
                color,
                count,
                missing,
                extra,
                say,
                ..
            } => {
                self.report(e.t, "illegal", side(color.0), Some(*count));
                let squares = differing(missing, extra);
                self.status = status("illegal", say.as_str(), squares);
            }
            Event::Mismatch {
                missing,
                extra,
                say,
                ..
            } => {
                let kind = e.event.name();
                let squares = differing(missing, extra);
                self.status = status(kind, say.as_str(), squares);
            }
            Event::Unconfirmed { moves, say, .. } => {
                let squares = moves
                    .iter()
                    .flat_map(|m| [m.get(0..2), m.get(2..4)])
                    .flatten()
                    .map(str::to_string)
                    .collect();
                self.status = status("unconfirmed", say.as_str(), squares);
            }
            Event::Restored { say, .. } => {
                self.touched = None;
                self.status = status("restored", say.as_str(), Vec::new());
            }
            Event::PromotionPending { square, say, .. } => {
                self.status = status("promotion_pending", say.as_str(), vec![square.clone()]);
            }
            Event::PromotionUnmade {
                square,
                say,
                article,
                ..
            } => {
                self.status =
                    status("promotion_unmade", say.as_str(), vec![square.clone()]).map(|s| {
                        Status {
                            article: Some(article),
                            ..s
                        }
                    });
            }
            Event::DrawDeclined { say, .. } => {
                self.status = status("draw_declined", say.as_str(), Vec::new())
            }
            Event::Flag { say, .. } => {
                self.flag_fell.get_or_insert(e.t);
                self.status = status("flag", say.as_str(), Vec::new());
            }
            Event::DrawOffer { say, .. } => {
                self.status = status("draw_offer", say.as_str(), Vec::new())
            }
            Event::GameOver { result, say, .. } => {
                self.result = Some(result);
                self.ended = Some(e.t);
                self.legal.clear();
                self.status = status("game_over", say.as_str(), Vec::new());
            }
            Event::Resumed { say, .. } => self.status = status("resumed", say.as_str(), Vec::new()),
            Event::NewGame { say } => self.status = status("new_game", say.as_str(), Vec::new()),
            Event::Say { text } => self.status = status("say", text.as_str(), Vec::new()),
            Event::SensorsLost { say } => {
                self.sensors_lost.get_or_insert(e.t);
                self.status = status("sensors_lost", say.as_str(), Vec::new());
            }
            Event::SensorsBack { say } => {
                self.sensors_lost = None;
                self.status = status("sensors_back", say.as_str(), Vec::new());
            }
            Event::ArbiterCalled { say } => {
                self.called.get_or_insert(e.t);
                self.status = status("arbiter_called", say.as_str(), Vec::new());
            }
            Event::ArbiterComing { say } => {
                self.called = None;
                self.status = status("arbiter_coming", say.as_str(), Vec::new());
            }
            // The blind player's answers are his alone (never handed to
            // the mirror; nothing shown should one come).
            Event::Answer { .. } => {}
            // The blind player's display is his: the mirror says nothing
            // of it.
            Event::BrailleLost { .. } | Event::BrailleBack { .. } => {}
            Event::Replicate {
                board,
                missing,
                extra,
                ..
            } if *board != crate::core::BLIND_BOARD => {
                let squares = differing(missing, extra);
                self.replicating = Some(squares);
            }
            Event::Replicated { board, .. } if *board != crate::core::BLIND_BOARD => {
                // The sighted player's board shows the move: done.
                self.replicating = None;
                self.repeat = None;
                if self.status.as_ref().is_some_and(|s| s.kind == "diverged") {
                    self.status = None;
                }
            }
            Event::Diverged {
                missing,
                extra,
                say,
                ..
            } => {
                let squares = differing(missing, extra);
                self.status = status("diverged", say.as_str(), squares);
            }
            Event::Retraced { ply, fen, say } => {
                self.moves.truncate(*ply as usize);
                self.ply = *ply;
                self.last_move = self.moves.last().cloned();
                self.repeat = None;
                self.touched = None;
                self.result = None;
                self.ended = None;
                self.set_position(fen);
                self.status = status("retraced", say.as_str(), Vec::new());
            }
            Event::TouchReported { color } => {
                self.report(e.t, "touch_reported", side(color.0), None)
            }
            Event::Refused { say, article, .. } => {
                self.status = status("refused", say.as_str(), Vec::new()).map(|s| Status {
                    article: *article,
                    ..s
                });
            }
            Event::Adjourned { say, .. } => {
                self.status = status("adjourned", say.as_str(), Vec::new())
            }
            // Practice: shown as said, for a player who can read some.
            Event::Hint { say, .. } => self.status = status("hint", say.as_str(), Vec::new()),
            Event::Evaluation { say, .. } => {
                self.status = status("evaluation", say.as_str(), Vec::new())
            }
            Event::Review { say, .. } => self.status = status("review", say.as_str(), Vec::new()),
            Event::ReviewStep { say, .. } => {
                self.status = status("review", say.as_str(), Vec::new())
            }
            Event::Threat { say, .. } => self.status = status("threat", say.as_str(), Vec::new()),
            Event::Opening { say, .. } => self.status = status("opening", say.as_str(), Vec::new()),
            // The blind player's menu is his own.
            Event::Menu { .. }
            | Event::Choices { .. }
            | Event::OnlineGames { .. }
            | Event::OnlineChosen { .. } => {}
            Event::OnlineGame { say, .. } => {
                self.status = status("online_game", say.as_str(), Vec::new())
            }
            Event::Online { connection, say } => {
                self.status = status(connection, say.as_str(), Vec::new());
            }
            Event::OnlineOffer { say, .. } => {
                self.status = status("online_offer", say.as_str(), Vec::new())
            }
            Event::OnlineOpponent { say, .. } => {
                self.status = status("online_opponent", say.as_str(), Vec::new());
            }
            Event::OnlineRequest { say, .. } => {
                self.status = status("online_request", say.as_str(), Vec::new());
            }
            Event::OnlineNotice { say, .. } => {
                self.status = status("online_notice", say.as_str(), Vec::new());
            }
            // The opponent at the table sees that the engine is in trouble.
            Event::EngineTrouble { say, .. } => {
                self.status = status("engine_trouble", say.as_str(), Vec::new());
            }
            // The blind player's chat is his own.
            Event::OnlineChat { .. } => {}
            Event::Replicate { .. }
            | Event::Replicated { .. }
            | Event::Announced { .. }
            | Event::TimeWarning { .. } => {}
        }
        self.t = self.t.max(e.t);
    }

    fn report(&mut self, t: u64, kind: &'static str, color: &'static str, count: Option<u32>) {
        self.reports.push(Report {
            ply: self.ply,
            kind,
            color,
            count,
            t,
        });
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::announce::Phrasebook;
    use crate::core::{BLIND_BOARD, Settings};
    use crate::runtime::replay::{Until, replay};

    /// The mirror after the trace `text`, its timers run 2 s past its end.
    fn after(text: &str) -> serde_json::Value {
        after_with(text, Settings::default())
    }

    fn after_with(text: &str, settings: Settings) -> serde_json::Value {
        let entries = crate::trace::read(text.as_bytes(), "test").expect("trace");
        let end = entries.last().map_or(0, |e| e.t) + 2000;
        let events = replay(
            &entries,
            "test",
            settings,
            Phrasebook::default(),
            &[BLIND_BOARD],
            Until::At(end),
        )
        .expect("replays");
        let mut m = MirrorState::new(Color::White, Color::Black);
        for e in &events {
            m.observe(e);
        }
        serde_json::from_str(&m.to_json()).expect("JSON")
    }

    const START: &str = r#"{"t":0,"trace":1,"start":"startpos"}"#;

    #[test]
    fn art_7_4_and_e2_9_e_the_reports_stand_beside_the_move_they_follow() {
        let mut settings = Settings::default();
        settings.clock.control =
            Some(crate::core::clock::TimeControl::parse_pgn("300").expect("control"));
        let s = after_with(
            &format!(
                "{START}\n{}",
                r#"{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":1200,"input":"announced","ply":1}
{"t":2000,"input":"touch_report","color":"black"}
{"t":2500,"input":"illegal_move","color":"black"}
{"t":3000,"lift":"f8"}
{"t":3100,"place":"f6"}"#
            ),
            settings,
        );
        // Black touched (reported), was penalized (White given time), and
        // then an illegal move was seen on the board (its count is of the
        // moves seen on boards): all after ply 1.
        let mut reports = s["reports"].clone();
        let times: Vec<u64> = (0..3)
            .map(|i| reports[i]["t"].as_u64().unwrap_or(0))
            .collect();
        for r in reports.as_array_mut().into_iter().flatten() {
            r.as_object_mut().map(|o| o.remove("t"));
        }
        assert_eq!(
            reports,
            serde_json::json!([
                {"ply": 1, "kind": "touch_reported", "color": "black", "count": null},
                {"ply": 1, "kind": "penalty", "color": "white", "count": null},
                {"ply": 1, "kind": "illegal", "color": "black", "count": 1},
            ])
        );
        // Each at its time: the report's and the penalty's inputs, and the
        // illegal move once the piece was put down on f6.
        assert_eq!(times[..2], [2000, 2500]);
        assert!(times[2] > 3100, "{times:?}");
    }

    #[test]
    fn art_4_3_a_touched_piece_is_marked_and_named_in_the_status() {
        let s = after(&format!("{START}\n{{\"t\":1000,\"lift\":\"g1\"}}"));
        assert_eq!(s["touched"], "g1");
        assert_eq!(s["status"]["kind"], "touch");
        assert_eq!(s["status"]["squares"], serde_json::json!(["g1"]));
    }

    #[test]
    fn art_4_3_a_touch_violation_stays_shown_with_its_move_and_names_both_squares() {
        // The knight on g1 is touched, the pawn on e2 moved.
        let violation = format!(
            "{START}\n{{\"t\":1000,\"lift\":\"g1\"}}\n{{\"t\":1100,\"place\":\"g1\"}}\n\
             {{\"t\":1500,\"lift\":\"e2\"}}\n{{\"t\":1600,\"place\":\"e4\"}}"
        );
        let s = after(&violation);
        assert_eq!(s["ply"], 1);
        assert_eq!(s["status"]["kind"], "touch_violation", "{s}");
        assert_eq!(s["status"]["squares"], serde_json::json!(["g1", "e2"]));
        // Cited as today's Laws number it (the 2008 Laws' 4.3a).
        assert_eq!(s["status"]["article"], "4.3.1");
        // The next move clears it.
        let s = after(&format!(
            "{violation}\n{{\"t\":5000,\"lift\":\"e7\"}}\n{{\"t\":5100,\"place\":\"e5\"}}"
        ));
        assert_eq!(s["ply"], 2);
        assert!(s["status"].is_null(), "{s}");
    }

    #[test]
    fn art_9_1_draw_offer_and_art_9_2_incorrect_claim_show_in_the_status() {
        // After 1. e4 e5 (today no draw before both players have moved).
        let opening = "{\"t\":1000,\"lift\":\"e2\"}\n{\"t\":1100,\"place\":\"e4\"}\n\
             {\"t\":1500,\"lift\":\"e7\"}\n{\"t\":1600,\"place\":\"e5\"}";
        let s = after(&format!(
            "{START}\n{opening}\n{{\"t\":1700,\"input\":\"draw_offer\",\"color\":\"black\"}}"
        ));
        assert_eq!(s["status"]["kind"], "draw_offer", "{s}");
        // An incorrect claim is said, and stands as an offer of a draw
        // (9.1b): the status shows the offer the opponent may accept.
        let s = after(&format!(
            "{START}\n{opening}\n{{\"t\":2000,\"input\":\"draw_claim\",\"color\":\"white\"}}"
        ));
        let words = Phrasebook::default();
        assert_eq!(s["status"]["kind"], "draw_offer", "{s}");
        assert_eq!(
            s["status"]["text"],
            words.draw_offer(shakmaty::Color::White).as_str()
        );
    }

    #[test]
    fn art_3_7_e_promotion_pending_names_the_square() {
        let s = after(
            "{\"t\":0,\"trace\":1,\"start\":\"8/P7/8/8/8/8/k7/4K3 w - - 0 1\"}\n\
             {\"t\":1000,\"lift\":\"a7\"}\n{\"t\":1100,\"place\":\"a8\"}",
        );
        assert_eq!(s["status"]["kind"], "promotion_pending", "{s}");
        assert_eq!(s["status"]["squares"], serde_json::json!(["a8"]));
        assert_eq!(s["ply"], 0, "no move until the piece is chosen");
    }

    #[test]
    fn art_5_1_b_resignation_gives_the_result() {
        let s = after(&format!(
            "{START}\n{{\"t\":1000,\"input\":\"resign\",\"color\":\"black\"}}"
        ));
        assert_eq!(s["result"], "1-0");
        assert_eq!(s["status"]["kind"], "game_over");
    }

    #[test]
    fn e2_7_the_move_to_repeat_stays_until_the_sighted_board_shows_it() {
        let two = r#"{"t":0,"trace":1,"start":"startpos","black_moves_on":"sighted"}"#;
        let played =
            format!("{two}\n{{\"t\":1000,\"lift\":\"e2\"}}\n{{\"t\":1100,\"place\":\"e4\"}}");
        let s = after(&played);
        assert_eq!(s["repeat"]["san"], "e4");
        assert_eq!(s["replicating"], serde_json::json!(["e4", "e2"]));
        let s = after(&format!(
            "{played}\n{{\"t\":3000,\"board\":\"sighted\",\"lift\":\"e2\"}}\n\
             {{\"t\":3200,\"board\":\"sighted\",\"place\":\"e4\"}}"
        ));
        assert!(s["repeat"].is_null(), "{s}");
        assert!(s["replicating"].is_null());
    }

    #[test]
    fn the_arbiters_call_and_the_lost_sensors_stand_until_they_end() {
        let called = format!(
            "{START}\n{{\"t\":1000,\"input\":\"call_arbiter\"}}\n\
             {{\"t\":2000,\"lift\":\"e2\"}}\n{{\"t\":2100,\"place\":\"e4\"}}\n\
             {{\"t\":2500,\"input\":\"board_lost\"}}"
        );
        // The call stands over the move made since.
        let s = after(&called);
        assert_eq!(s["ply"], 1, "{s}");
        assert_eq!(s["called"], 1000, "{s}");
        assert_eq!(s["sensors_lost"], 2500, "{s}");
        let s = after(&format!(
            "{called}\n{{\"t\":3000,\"input\":\"arbiter_coming\"}}\n\
             {{\"t\":3500,\"input\":\"board_back\"}}"
        ));
        assert!(s["called"].is_null(), "{s}");
        assert!(s["sensors_lost"].is_null(), "{s}");
    }

    #[test]
    fn art_6_9_the_flag_and_art_5_the_end_keep_their_times() {
        let mut settings = Settings::default();
        settings.clock.control =
            Some(crate::core::clock::TimeControl::parse_pgn("1").expect("control"));
        let s = after_with(
            &format!("{START}\n{{\"t\":500,\"lift\":\"e2\"}}\n{{\"t\":600,\"place\":\"e4\"}}"),
            settings,
        );
        // A second is soon gone.
        let fell = s["flag_fell"].as_u64().expect("a flag fell");
        assert!(fell >= 1000, "{s}");
        let flags = [&s["clock"]["white_flag"], &s["clock"]["black_flag"]];
        assert!(flags.contains(&&serde_json::json!(true)), "{s}");
        assert_eq!(s["moves"][0]["t"].as_u64().map(|t| t > 600), Some(true));
        if s["result"].is_string() {
            assert!(s["ended"].as_u64().is_some_and(|t| t >= fell), "{s}");
        }
    }

    #[test]
    fn the_next_game_set_up_after_the_end_is_named_apart_and_a_retrace_keeps_the_name() {
        let ended = format!(
            "{START}\n{{\"t\":1000,\"lift\":\"e2\"}}\n{{\"t\":1200,\"place\":\"e4\"}}\n\
             {{\"t\":2000,\"input\":\"resign\",\"color\":\"white\"}}"
        );
        let s = after(&ended);
        let first = s["game"].as_u64().expect("the game's name");
        assert_eq!(s["result"], "0-1", "{s}");
        // e4 goes back to e2: the start position again, the next game.
        let s = after(&format!(
            "{ended}\n{{\"t\":4000,\"lift\":\"e4\"}}\n{{\"t\":4200,\"place\":\"e2\"}}"
        ));
        assert!(s["result"].is_null(), "{s}");
        assert!(s["game"].as_u64().is_some_and(|g| g > first), "{s}");
        let s = after(&format!(
            "{START}\n{{\"t\":1000,\"lift\":\"e2\"}}\n{{\"t\":1100,\"place\":\"e4\"}}\n\
             {{\"t\":2000,\"lift\":\"e7\"}}\n{{\"t\":2100,\"place\":\"e5\"}}\n\
             {{\"t\":3000,\"input\":\"retrace\",\"ply\":1}}"
        ));
        assert_eq!(s["ply"], 1, "{s}");
        assert_eq!(s["game"].as_u64(), Some(first), "{s}");
    }

    #[test]
    fn e2_8_a_retrace_takes_the_mirror_back() {
        let s = after(&format!(
            "{START}\n{{\"t\":1000,\"lift\":\"e2\"}}\n{{\"t\":1100,\"place\":\"e4\"}}\n\
             {{\"t\":2000,\"lift\":\"e7\"}}\n{{\"t\":2100,\"place\":\"e5\"}}\n\
             {{\"t\":3000,\"input\":\"retrace\",\"ply\":1}}"
        ));
        assert_eq!(s["ply"], 1);
        assert_eq!(s["moves"].as_array().map(Vec::len), Some(1));
        assert_eq!(s["last_move"]["san"], "e4");
        assert_eq!(s["to_move"], "black");
        assert_eq!(s["status"]["kind"], "retraced");
    }
}
