//! The scoresheet (E2.5): the game as PGN, kept from the event stream.
//!
//! Pure: it is fed the events the controller concluded and writes the
//! Seven Tag Roster, `TimeControl`, `Termination` (and for Chess960 or a
//! set-up position `Variant`, `SetUp` and `FEN`), each move with the
//! mover's clock after it as `[%clk h:mm:ss]`, and a draw offer as `(=)`
//! in the comment after the move it was made with (9.1b). After a review
//! against the engine, each move's score is `[%eval …]`, the player's
//! mistakes are marked `?` and `??`, and the better move is a variation.

use std::collections::BTreeMap;

use shakmaty::Color;

use crate::core::event::ClockCause;
use crate::core::{Event, Stamped};

const STANDARD_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The tags of the Seven Tag Roster in their order; Result is written
/// from the game.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

#[derive(Debug, Clone, PartialEq, Eq)]
struct ScoreMove {
    san: String,
    color: Color,
    /// The mover's time after the move, in ms.
    clk: Option<u64>,
    draw_offer: bool,
    /// From the review: the score after the move (`[%eval]`), its mark,
    /// and the better move (SAN), written as a variation.
    eval: Option<String>,
    mark: Option<&'static str>,
    better: Option<String>,
}

/// A game's scoresheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scoresheet {
    tags: BTreeMap<String, String>,
    time_control: Option<String>,
    fen: Option<String>,
    chess960: bool,
    first_ply_color: Color,
    first_move_number: u32,
    moves: Vec<ScoreMove>,
    /// A draw offered before the first move: marked on it.
    offer_before_move: bool,
    result: Option<(&'static str, &'static str)>,
}

/// The `Termination` tag's word for an ending (the PGN standard's words).
fn termination(reason: crate::core::laws::Reason) -> &'static str {
    use crate::core::laws::Reason::*;
    match reason {
        Flag | BothFlags => "time forfeit",
        IllegalMoves => "rules infraction",
        QuickplayFinish => "adjudication",
        Abandoned => "abandoned",
        _ => "normal",
    }
}

/// `h:mm:ss`, whole seconds shown (a clock shows 0:04:59 until 4:59 is
/// gone).
pub fn clk(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// A tag value with `\` and `"` escaped, as PGN wants, on one line: a
/// control character (a line break from an old journal) becomes a space.
fn escaped(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

impl Scoresheet {
    /// An empty scoresheet: the given tags (others are `?`), and the time
    /// control in the PGN `TimeControl` form, if there is a clock.
    pub fn new(tags: &BTreeMap<String, String>, time_control: Option<String>) -> Scoresheet {
        Scoresheet {
            tags: tags.clone(),
            time_control,
            fen: None,
            chess960: false,
            first_ply_color: Color::White,
            first_move_number: 1,
            moves: Vec::new(),
            offer_before_move: false,
            result: None,
        }
    }

    /// Takes in one event; true if the scoresheet changed.
    pub fn observe(&mut self, e: &Stamped) -> bool {
        match &e.event {
            Event::Ready { fen, variant, .. } => {
                self.chess960 = *variant == "chess960";
                self.fen = (fen != STANDARD_START || self.chess960).then(|| fen.clone());
                let mut fields = fen.split(' ');
                self.first_ply_color = match fields.nth(1) {
                    Some("b") => Color::Black,
                    _ => Color::White,
                };
                self.first_move_number = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
                false
            }
            Event::Move { san, color, .. } => {
                let offer = std::mem::take(&mut self.offer_before_move);
                self.moves.push(ScoreMove {
                    san: san.clone(),
                    color: color.0,
                    clk: None,
                    draw_offer: offer,
                    eval: None,
                    mark: None,
                    better: None,
                });
                true
            }
            Event::Clock {
                cause,
                running,
                white,
                black,
                ..
            } => {
                // The player who pressed: the one whose clock stopped. At
                // the end, the player who made the last move.
                let mover = match (cause, running) {
                    (ClockCause::Press | ClockCause::Period, Some(r)) => !r.0,
                    (ClockCause::Stop, _) => match self.moves.last() {
                        Some(m) => m.color,
                        None => return false,
                    },
                    _ => return false,
                };
                let remaining = match mover {
                    Color::White => white.remaining_ms,
                    Color::Black => black.remaining_ms,
                };
                match self.moves.iter_mut().rev().find(|m| m.color == mover) {
                    Some(m) if m.clk.is_none() => {
                        m.clk = Some(remaining);
                        true
                    }
                    _ => false,
                }
            }
            // The offer is marked where it was made: after the last move
            // (9.1b: an offer is made after making one's move; one made
            // before it stands too, and is marked in the same place).
            Event::DrawOffer { .. } => {
                match self.moves.last_mut() {
                    Some(m) => m.draw_offer = true,
                    None => self.offer_before_move = true,
                }
                true
            }
            // The review after a game against the engine (of this game:
            // a review of the game before belongs to its own scoresheet).
            Event::Review {
                moves, past: false, ..
            } => {
                for r in moves {
                    if let Some(m) = (r.ply as usize)
                        .checked_sub(1)
                        .and_then(|i| self.moves.get_mut(i))
                    {
                        m.eval = r.eval.clone();
                        m.mark = r.mark;
                        m.better = r.better.clone();
                    }
                }
                true
            }
            Event::GameOver { result, reason, .. } => {
                self.result = Some((result, termination(*reason)));
                true
            }
            // The online game: its page, its players, their ratings, the
            // server's clock.
            Event::OnlineGame { game, .. } => {
                self.tags.insert("Site".into(), game.site.clone());
                for (tag, player) in [("White", &game.white), ("Black", &game.black)] {
                    self.tags.insert(tag.into(), player.name.clone());
                    match player.rating {
                        Some(r) => self.tags.insert(format!("{tag}Elo"), r.to_string()),
                        None => self.tags.remove(&format!("{tag}Elo")),
                    };
                }
                self.time_control = game.control().map(|c| c.to_pgn());
                true
            }
            // The arbiter took the game back (E2.8): the moves after that
            // ply were never played, nor was a result reached with them.
            Event::Retraced { ply, .. } => {
                self.moves.truncate(*ply as usize);
                self.result = None;
                true
            }
            _ => false,
        }
    }

    /// The number of moves (plies) written.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The game as PGN, ending with a blank line.
    pub fn pgn(&self) -> String {
        let (result, term) = self.result.unwrap_or(("*", "unterminated"));
        let mut out = String::new();
        for tag in ROSTER {
            let default = if tag == "Date" { "????.??.??" } else { "?" };
            let value = self.tags.get(tag).map_or(default, String::as_str);
            out.push_str(&format!("[{tag} \"{}\"]\n", escaped(value)));
        }
        out.push_str(&format!("[Result \"{result}\"]\n"));
        let control = self.time_control.as_deref().unwrap_or("-");
        out.push_str(&format!("[TimeControl \"{}\"]\n", escaped(control)));
        out.push_str(&format!("[Termination \"{term}\"]\n"));
        for tag in ["WhiteElo", "BlackElo"] {
            if let Some(value) = self.tags.get(tag) {
                out.push_str(&format!("[{tag} \"{}\"]\n", escaped(value)));
            }
        }
        if self.chess960 {
            out.push_str("[Variant \"Chess960\"]\n");
        }
        if let Some(fen) = &self.fen {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", escaped(fen)));
        }
        out.push('\n');
        let mut tokens = Vec::new();
        let mut number = self.first_move_number;
        // PGN's export format (8.2.2.2) numbers a Black move at the start
        // and after a comment or a variation between it and White's move.
        let mut interrupted = true;
        for m in &self.moves {
            match m.color {
                Color::White => tokens.push(format!("{number}.")),
                Color::Black if interrupted => tokens.push(format!("{number}...")),
                Color::Black => {}
            }
            tokens.push(format!("{}{}", m.san, m.mark.unwrap_or("")));
            let mut comment = Vec::new();
            if m.draw_offer {
                comment.push("(=)".to_string());
            }
            if let Some(eval) = &m.eval {
                comment.push(format!("[%eval {eval}]"));
            }
            if let Some(ms) = m.clk {
                comment.push(format!("[%clk {}]", clk(ms)));
            }
            interrupted = !comment.is_empty() || m.better.is_some();
            if !comment.is_empty() {
                tokens.push(format!("{{ {} }}", comment.join(" ")));
            }
            if let Some(better) = &m.better {
                let dots = if m.color == Color::White { "." } else { "..." };
                tokens.push(format!("({number}{dots}"));
                tokens.push(format!("{better})"));
            }
            if m.color == Color::Black {
                // At the largest number the number stays, as the
                // position's own move counter does.
                number = number.saturating_add(1);
            }
        }
        tokens.push(result.to_string());
        // Lines of at most 80 characters, as PGN's export format wants.
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clk_is_hours_minutes_and_whole_seconds() {
        assert_eq!(clk(0), "0:00:00");
        assert_eq!(clk(59_999), "0:00:59");
        assert_eq!(clk(5_400_000), "1:30:00");
        assert_eq!(clk(3_723_400), "1:02:03");
    }

    #[test]
    fn tag_values_escape_quotes_and_backslashes() {
        let tags = [("White".to_string(), r#"Anna "A\B""#.to_string())].into();
        let pgn = Scoresheet::new(&tags, None).pgn();
        assert!(pgn.contains(r#"[White "Anna \"A\\B\""]"#), "{pgn}");
    }

    #[test]
    fn a_tag_value_stays_on_its_line() {
        let tags = [(
            "Event".to_string(),
            "Club\n[Result \"1-0\"]\r\tnight".to_string(),
        )]
        .into();
        let pgn = Scoresheet::new(&tags, None).pgn();
        assert!(
            pgn.contains("[Event \"Club [Result \\\"1-0\\\"]  night\"]\n"),
            "{pgn}"
        );
        let results = pgn.lines().filter(|l| l.starts_with("[Result ")).count();
        assert_eq!(results, 1, "{pgn}");
    }

    #[test]
    fn pgn_8_2_2_2_a_black_move_after_a_comment_has_its_number_again() {
        let mv = |san: &str, color, clk| ScoreMove {
            san: san.into(),
            color,
            clk,
            draw_offer: false,
            eval: None,
            mark: None,
            better: None,
        };
        let mut sheet = Scoresheet::new(&BTreeMap::new(), None);
        sheet.moves = vec![
            mv("e4", Color::White, Some(60_000)),
            mv("e5", Color::Black, Some(59_000)),
            mv("Nf3", Color::White, None),
            mv("Nc6", Color::Black, None),
        ];
        let pgn = sheet.pgn();
        assert!(
            pgn.contains("1. e4 { [%clk 0:01:00] } 1... e5 { [%clk 0:00:59] } 2. Nf3 Nc6 *"),
            "{pgn}"
        );
    }

    #[test]
    fn an_empty_game_has_the_seven_tags_and_no_result() {
        let pgn = Scoresheet::new(&BTreeMap::new(), None).pgn();
        assert!(pgn.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"), "{pgn}");
        assert!(pgn.contains("[TimeControl \"-\"]"));
        assert!(pgn.contains("[Termination \"unterminated\"]"));
        assert!(pgn.ends_with("\n\n*\n\n"), "{pgn:?}");
    }
}
