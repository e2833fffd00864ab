//! The scoresheet in Braille (E2.5): a game as a Braille-ready file.
//!
//! The head (the players, the event, the date) is text in the reader's
//! Braille code. Each move pair stands on a line of its own, its number
//! first (`12. Nf3 Nc6`), as the print scoresheet writes it (standard
//! algebraic notation with its check and mate signs), in the uncontracted
//! grade of the same code with capitals marked, so that no contraction is
//! read into a move and `Bxc3` is not `bxc3`; the result closes the game.

use std::fmt;

use shakmaty::san::SanPlus;
use shakmaty::{Color, Position};

use super::brf::{self, Paragraph};
use super::cell::Cell;
use super::louis::{LouisError, Table};
use super::section::BrailleConfig;
use crate::record::pgn::{PgnGame, UnplayableSan, resolve_san};

/// Why a game could not be put into Braille.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SheetError {
    Louis(LouisError),
    /// The game's start is no position.
    Start(String),
    /// A move cannot be played where it stands (move number, colour, the
    /// SAN and why).
    Move(u32, Color, UnplayableSan),
    /// A null move (`--`), which no board can play (move number, colour).
    NullMove(u32, Color),
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SheetError::Louis(e) => write!(f, "{e}"),
            SheetError::Start(e) => write!(f, "the game's start: {e}"),
            SheetError::Move(n, color, e) => write!(
                f,
                "move {n}{} {} cannot be played there ({})",
                dots(*color),
                e.san,
                e.why
            ),
            SheetError::NullMove(n, color) => write!(
                f,
                "move {n}{} is a null move (--), which no board plays",
                dots(*color)
            ),
        }
    }
}

impl std::error::Error for SheetError {}

/// After a move number: `.` for White's move, `...` for Black's.
fn dots(color: Color) -> &'static str {
    if color == Color::White { "." } else { "..." }
}

impl From<LouisError> for SheetError {
    fn from(e: LouisError) -> SheetError {
        SheetError::Louis(e)
    }
}

/// Makes Braille scoresheets in one Braille code: `text` translates the
/// head, `moves` (the uncontracted grade) the moves.
#[derive(Debug, Clone)]
pub struct Brailler {
    text: Table,
    moves: Table,
}

impl Brailler {
    /// The scoresheets of a language ("en", "de" …) in the code
    /// `[braille]` names: its grade, or a table of its own for the text.
    pub fn new(section: &BrailleConfig, language: &str) -> Result<Brailler, SheetError> {
        let none = || SheetError::Louis(LouisError::NoTable(language.to_string()));
        let text = match &section.table {
            Some(table) => table.as_str(),
            None => super::louis::table_for(language, section.grade).ok_or_else(none)?,
        };
        let moves = super::louis::moves_table_for(language).ok_or_else(none)?;
        Ok(Brailler {
            text: Table::open(text)?,
            moves: Table::open(moves)?,
        })
    }

    /// Words in the text's Braille.
    pub fn text(&self, text: &str) -> Result<Vec<Cell>, SheetError> {
        Ok(self.text.translate(text)?)
    }

    /// Moves (or squares, or a rank's pieces) in the moves' Braille.
    pub fn moves(&self, moves: &str) -> Result<Vec<Cell>, SheetError> {
        Ok(self.moves.translate(moves)?)
    }

    /// The lines of print a game's Braille scoresheet is made from: the
    /// head's lines, then the move lines, the result last. From a move that
    /// cannot be played where it stands (a damaged PGN) on, the moves are
    /// written as the file gives them, without the check signs only a board
    /// could add, and the error says which move it was; a null move (`--`,
    /// where the file's moves end) is written as `--`.
    pub fn print_lines(game: &PgnGame) -> Result<Lines, SheetError> {
        let known = |v: &str| !v.is_empty() && !v.contains('?');
        let mut head = vec![format!(
            "{} - {}",
            or_unknown(&game.white),
            or_unknown(&game.black)
        )];
        // A date's unknown month and day are left out (1979.??.?? is 1979).
        let date = game.date.trim_end_matches(".??").to_string();
        head.extend([game.event.clone(), date].into_iter().filter(|v| known(v)));
        let (mut pos, _) = game
            .record
            .start
            .position()
            .map_err(|e| SheetError::Start(e.to_string()))?;
        let mut sheet = MoveLines::default();
        let (mut number, mut color) = (pos.fullmoves().get(), pos.turn());
        let mut stopped = None;
        for san in &game.record.sans {
            // Once a move could not be played, the board is left behind:
            // the rest is as the file gives it.
            let played = stopped.is_none().then(|| resolve_san(&pos, san));
            let written = match played {
                Some(Ok(m)) => SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string(),
                Some(Err(e)) => {
                    stopped = Some(SheetError::Move(number, color, e));
                    san.clone()
                }
                None => san.clone(),
            };
            sheet.add(number, color, &written);
            (number, color) = next(number, color);
        }
        if game.truncated {
            sheet.add(number, color, "--");
            stopped.get_or_insert(SheetError::NullMove(number, color));
        }
        let mut moves = sheet.finish();
        moves.push(game.record.result.clone());
        Ok(Lines {
            head,
            moves,
            stopped,
        })
    }

    /// The game as a Braille-ready file.
    pub fn brf(&self, game: &PgnGame) -> Result<Brf, SheetError> {
        let lines = Brailler::print_lines(game)?;
        let mut paragraphs = Vec::with_capacity(lines.head.len() + lines.moves.len() + 1);
        for line in &lines.head {
            paragraphs.push(Paragraph::new(self.text.translate(line)?).indented(0, 2));
        }
        paragraphs.push(Paragraph::default());
        for line in &lines.moves {
            paragraphs.push(Paragraph::new(self.moves.translate(line)?).indented(0, 2));
        }
        Ok(Brf {
            text: brf::write(&paragraphs),
            stopped: lines.stopped,
        })
    }
}

/// A game's scoresheet in lines of print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    pub head: Vec<String>,
    /// The move pairs, then the result.
    pub moves: Vec<String>,
    /// The move the moves stopped at: it is not legal there.
    pub stopped: Option<SheetError>,
}

/// A game's Braille-ready file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brf {
    pub text: String,
    /// The move the moves stopped at: it is not legal there.
    pub stopped: Option<SheetError>,
}

/// Move pairs, each on a line with its number.
#[derive(Default)]
struct MoveLines {
    lines: Vec<String>,
    /// The line being filled: a White move waiting for Black's.
    open: Option<String>,
}

impl MoveLines {
    fn add(&mut self, number: u32, color: Color, san: &str) {
        match color {
            Color::White => {
                if let Some(line) = self.open.replace(format!("{number}. {san}")) {
                    self.lines.push(line);
                }
            }
            Color::Black => self.lines.push(match self.open.take() {
                Some(line) => format!("{line} {san}"),
                None => format!("{number}... {san}"),
            }),
        }
    }

    fn finish(mut self) -> Vec<String> {
        self.lines.extend(self.open);
        self.lines
    }
}

/// The move after `number` of `color`'s.
fn next(number: u32, color: Color) -> (u32, Color) {
    match color {
        Color::White => (number, Color::Black),
        Color::Black => (number + 1, Color::White),
    }
}

fn or_unknown(name: &str) -> &str {
    if name.is_empty() { "?" } else { name }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pgn::read_games;

    fn lines(pgn: &str) -> Lines {
        let games = read_games(pgn.as_bytes()).expect("PGN");
        Brailler::print_lines(&games[0]).expect("lines")
    }

    #[test]
    fn the_head_is_the_players_the_event_and_the_known_part_of_the_date() {
        let l = lines(
            "[Event \"Hastings\"]\n[Date \"1895.??.??\"]\n[White \"Pillsbury\"]\n[Black \"Tarrasch\"]\n\n1. e4 *\n",
        );
        assert_eq!(l.head, ["Pillsbury - Tarrasch", "Hastings", "1895"]);
        let l = lines("[Event \"?\"]\n[Date \"????.??.??\"]\n\n1. e4 *\n");
        assert_eq!(l.head, ["? - ?"]);
    }

    #[test]
    fn moves_are_numbered_pairs_with_their_check_and_mate_signs_and_the_result_last() {
        let l = lines("1. f3 e5 2. g4 Qh4 0-1\n");
        assert_eq!(l.moves, ["1. f3 e5", "2. g4 Qh4#", "0-1"]);
        assert_eq!(l.stopped, None);
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_begins_with_the_ellipsis() {
        let pgn =
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n[SetUp \"1\"]\n\n40... Kd7 41. e4 Ke6 *\n";
        assert_eq!(lines(pgn).moves, ["40... Kd7", "41. e4 Ke6", "*"]);
    }

    #[test]
    fn a_capture_written_without_its_x_is_taken_and_written_with_it() {
        let l = lines("1. e4 d5 2. d5 Qxd5 *\n");
        assert_eq!(l.moves, ["1. e4 d5", "2. exd5 Qxd5", "*"]);
    }

    #[test]
    fn from_an_illegal_move_on_the_moves_are_as_the_file_gives_them_and_it_is_named() {
        let l = lines("1. e4 e5 2. Ke3 Nc6 3. Nf3 1-0\n");
        assert_eq!(l.moves, ["1. e4 e5", "2. Ke3 Nc6", "3. Nf3", "1-0"]);
        let e = l.stopped.expect("stopped");
        assert_eq!(
            e.to_string(),
            "move 2. Ke3 cannot be played there (illegal san)"
        );
        let l = lines("1. e4 e5 2. Nf3 -- 3. Bc4 *\n");
        assert_eq!(l.moves, ["1. e4 e5", "2. Nf3 --", "*"]);
        let e = l.stopped.expect("stopped");
        assert_eq!(
            e.to_string(),
            "move 2... is a null move (--), which no board plays"
        );
    }
}
