//! What the Braille display shows (pure): the game's line (the last move,
//! its number, who is to move), every answer the voices give, and on
//! request the moves, the position rank by rank, and the last answer
//! again; and where the reader is in it, a display width at a time.
//!
//! The screen is made of the events as the edge has put them in words
//! (their `say` already text): a move sets the game's line and shows it, a
//! new game or a position taken back sets the position, anything the voices
//! say is shown as the answer. The cells are made by a [`Render`], which
//! puts a text in the reader's Braille (liblouis in `play`): the moves and
//! the board in the uncontracted table with capitals marked, the words in
//! the language's own.

use shakmaty::{Color, Position};

use super::cell::Cell;
use super::keys::Local;
use crate::core::{Event, Stamped};

/// Which Braille table a piece of a line is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// The language's text, in its grade.
    Text,
    /// Moves and squares: uncontracted, capitals marked.
    Moves,
}

/// Puts text in Braille.
pub trait Render {
    fn cells(&mut self, text: &str, table: Table) -> Vec<Cell>;
}

/// A piece of a line: its text, its table and, for a move, its ply (a
/// routing key on it repeats that move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    pub table: Table,
    pub ply: Option<u32>,
}

impl Part {
    fn words(text: impl Into<String>) -> Part {
        Part {
            text: text.into(),
            table: Table::Text,
            ply: None,
        }
    }

    fn moves(text: impl Into<String>, ply: Option<u32>) -> Part {
        Part {
            text: text.into(),
            table: Table::Moves,
            ply,
        }
    }
}

/// The words the game's line is made of, in the game's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScreenWords {
    /// "{color} to move".
    pub to_move: String,
    pub white: String,
    pub black: String,
}

impl ScreenWords {
    fn to_move(&self, color: Color) -> String {
        let name = match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        };
        self.to_move.replace("{color}", name)
    }
}

/// What is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Status,
    Answer,
    Moves,
    Board,
}

/// A window of cells to show, and the move (ply) under each cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub cells: Vec<Cell>,
    pub plies: Vec<Option<u32>>,
}

/// The display's screen.
#[derive(Debug, Clone)]
pub struct Screen {
    words: ScreenWords,
    /// The game's moves in standard notation, the first (ply 1) first.
    moves: Vec<String>,
    /// The game's first move number and who made its first move.
    first: (u32, Color),
    /// The position now.
    position: Option<shakmaty::Chess>,
    answer: Option<String>,
    /// How the game ended, in words: said on the game's line in place of
    /// who is to move.
    ended: Option<String>,
    view: View,
    line: usize,
    window: usize,
}

impl Screen {
    pub fn new(words: ScreenWords) -> Screen {
        Screen {
            words,
            moves: Vec::new(),
            first: (1, Color::White),
            position: Some(shakmaty::Chess::default()),
            answer: None,
            ended: None,
            view: View::Status,
            line: 0,
            window: 0,
        }
    }

    /// What is being read.
    pub fn view(&self) -> View {
        self.view
    }

    /// Takes an event in; whether what the display shows changed.
    pub fn event(&mut self, e: &Stamped) -> bool {
        match &e.event {
            Event::Ready { fen, .. } => {
                self.moves.clear();
                self.position = position(fen);
                self.first = self
                    .position
                    .as_ref()
                    .map_or((1, Color::White), |p| (p.fullmoves().get(), p.turn()));
                self.answer = e.event.spoken().map(str::to_string);
                self.ended = None;
                self.go(View::Status);
                true
            }
            Event::Move { ply, san, fen, .. } => {
                let ply = *ply as usize;
                self.moves.truncate(ply.saturating_sub(1));
                // A move the game skipped (a journal from elsewhere) leaves
                // a gap, written as its number's dots.
                self.moves.resize(ply.saturating_sub(1), String::from(".."));
                self.moves.push(san.clone());
                self.position = position(fen);
                self.ended = None;
                self.go(View::Status);
                true
            }
            Event::Retraced { ply, fen, .. } => {
                self.moves.truncate(*ply as usize);
                self.position = position(fen);
                self.ended = None;
                self.shown_answer(e)
            }
            // The end of the game on its line, after the last move.
            Event::GameOver { .. } => {
                self.ended = e.event.spoken().map(str::to_string);
                self.answer.clone_from(&self.ended);
                self.go(View::Status);
                true
            }
            // The display's own coming and going is for the voices: back,
            // it shows the game.
            Event::BrailleLost { .. } | Event::BrailleBack { .. } => false,
            _ => self.shown_answer(e),
        }
    }

    fn shown_answer(&mut self, e: &Stamped) -> bool {
        match e.event.spoken() {
            Some(text) if !text.trim().is_empty() => {
                self.answer = Some(text.to_string());
                self.go(View::Answer);
                true
            }
            _ => false,
        }
    }

    fn go(&mut self, view: View) {
        self.view = view;
        self.line = match view {
            // The last moves first.
            View::Moves => self.move_lines().len().saturating_sub(1),
            _ => 0,
        };
        self.window = 0;
    }

    /// The move number and colour of `ply`.
    fn numbered(&self, ply: u32) -> (u32, Color) {
        let (number, color) = self.first;
        let half = ply - 1 + u32::from(color == Color::Black);
        (number + half / 2, Color::from_white(half.is_multiple_of(2)))
    }

    fn move_part(&self, ply: u32, numbered: bool) -> Vec<Part> {
        let (number, color) = self.numbered(ply);
        let san = self
            .moves
            .get(ply as usize - 1)
            .cloned()
            .unwrap_or_default();
        let mut parts = Vec::new();
        if numbered {
            let dots = if color == Color::White { "." } else { "..." };
            parts.push(Part::moves(format!("{number}{dots}"), None));
        }
        parts.push(Part::moves(san, Some(ply)));
        parts
    }

    /// The game's line: the last move with its number, who is to move (or
    /// how the game ended).
    fn status_line(&self) -> Vec<Part> {
        let mut parts = Vec::new();
        let last = self.moves.len() as u32;
        if last > 0 {
            parts.extend(self.move_part(last, true));
        }
        let turn = self
            .position
            .as_ref()
            .map(|p| p.turn())
            .unwrap_or_else(|| self.numbered(last + 1).1);
        let words = match &self.ended {
            Some(ended) => ended.clone(),
            None => self.words.to_move(turn),
        };
        parts.push(Part::words(words));
        parts
    }

    /// A move pair a line.
    fn move_lines(&self) -> Vec<Vec<Part>> {
        let mut lines: Vec<Vec<Part>> = Vec::new();
        for ply in 1..=self.moves.len() as u32 {
            let (_, color) = self.numbered(ply);
            if color == Color::White || lines.is_empty() {
                lines.push(self.move_part(ply, true));
            } else if let Some(line) = lines.last_mut() {
                line.extend(self.move_part(ply, false));
            }
        }
        if lines.is_empty() {
            lines.push(self.status_line());
        }
        lines
    }

    /// The position, a rank a line, the eighth first: each square its
    /// piece's letter (capital for White) or a hyphen.
    fn board_lines(&self) -> Vec<Vec<Part>> {
        let Some(pos) = &self.position else {
            return vec![vec![Part::words("?")]];
        };
        shakmaty::Rank::ALL
            .iter()
            .rev()
            .map(|&rank| {
                let squares: String = shakmaty::File::ALL
                    .iter()
                    .map(|&file| {
                        pos.board()
                            .piece_at(shakmaty::Square::from_coords(file, rank))
                            .map_or('-', |p| p.char())
                    })
                    .collect();
                vec![Part::moves(format!("{} {squares}", rank.char()), None)]
            })
            .collect()
    }

    /// The lines of what is being read.
    pub fn lines(&self) -> Vec<Vec<Part>> {
        match self.view {
            View::Status => vec![self.status_line()],
            View::Answer => vec![vec![Part::words(self.answer.clone().unwrap_or_default())]],
            View::Moves => self.move_lines(),
            View::Board => self.board_lines(),
        }
    }

    /// The line being read in cells, a blank between its parts, and each
    /// cell's move.
    fn line_cells(&self, render: &mut dyn Render) -> Window {
        let lines = self.lines();
        let mut out = Window {
            cells: Vec::new(),
            plies: Vec::new(),
        };
        for (i, part) in lines
            .get(self.line.min(lines.len().saturating_sub(1)))
            .into_iter()
            .flatten()
            .enumerate()
        {
            if i > 0 {
                out.cells.push(Cell::BLANK);
                out.plies.push(None);
            }
            let cells = render.cells(&part.text, part.table);
            out.plies.extend(std::iter::repeat_n(part.ply, cells.len()));
            out.cells.extend(cells);
        }
        out
    }

    /// What a display `width` cells wide shows now.
    pub fn window(&self, render: &mut dyn Render, width: usize) -> Window {
        let whole = self.line_cells(render);
        let width = width.max(1);
        let from = (self.window * width).min(whole.cells.len());
        let to = (from + width).min(whole.cells.len());
        Window {
            cells: whole.cells[from..to].to_vec(),
            plies: whole.plies[from..to].to_vec(),
        }
    }

    /// The move under the routing key over `cell`, if any.
    pub fn routed(&self, render: &mut dyn Render, width: usize, cell: usize) -> Option<u32> {
        self.window(render, width)
            .plies
            .get(cell)
            .copied()
            .flatten()
    }

    /// One of the display's own keys: what is read, or where in it.
    pub fn local(&mut self, key: Local, render: &mut dyn Render, width: usize) {
        let lines = self.lines().len();
        let windows = |s: &Screen, render: &mut dyn Render| {
            s.line_cells(render)
                .cells
                .len()
                .div_ceil(width.max(1))
                .max(1)
        };
        match key {
            Local::Status => self.go(View::Status),
            Local::Moves => self.go(View::Moves),
            Local::Board => self.go(View::Board),
            Local::Answer => self.go(View::Answer),
            Local::LineUp => {
                self.line = self.line.saturating_sub(1);
                self.window = 0;
            }
            Local::LineDown => {
                self.line = (self.line + 1).min(lines - 1);
                self.window = 0;
            }
            Local::PanRight => {
                if self.window + 1 < windows(self, render) {
                    self.window += 1;
                } else if self.line + 1 < lines {
                    self.line += 1;
                    self.window = 0;
                }
            }
            Local::PanLeft => {
                if self.window > 0 {
                    self.window -= 1;
                } else if self.line > 0 {
                    self.line -= 1;
                    self.window = windows(self, render) - 1;
                }
            }
        }
    }
}

fn position(fen: &str) -> Option<shakmaty::Chess> {
    let fen: shakmaty::fen::Fen = fen.parse().ok()?;
    fen.into_position(shakmaty::CastlingMode::Chess960).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::said::Said;

    /// One cell a character: enough to see where things go.
    struct Letters;

    impl Render for Letters {
        fn cells(&mut self, text: &str, _: Table) -> Vec<Cell> {
            text.chars()
                .map(|c| Cell::from_ascii(c.to_ascii_uppercase()).unwrap_or(Cell::BLANK))
                .collect()
        }
    }

    fn words() -> ScreenWords {
        ScreenWords {
            to_move: "{color} to move".into(),
            white: "White".into(),
            black: "Black".into(),
        }
    }

    fn text(w: &Window) -> String {
        w.cells.iter().map(|c| c.ascii()).collect()
    }

    fn moved(ply: u32, san: &str, fen: &str) -> Stamped {
        Stamped {
            t: 0,
            event: Event::Move {
                board: "blind".into(),
                ply,
                color: crate::core::event::Side(Color::from_white(ply % 2 == 1)),
                uci: String::new(),
                san: san.into(),
                say: Said::Text(san.into()),
                fen: fen.into(),
                made: None,
            },
        }
    }

    fn played(screen: &mut Screen, sans: &[&str]) {
        let mut pos = shakmaty::Chess::default();
        for (i, san) in sans.iter().enumerate() {
            let m = san
                .parse::<shakmaty::san::San>()
                .expect("san")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
            let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            screen.event(&moved(i as u32 + 1, san, &fen.to_string()));
        }
    }

    #[test]
    fn the_games_line_is_the_last_move_its_number_and_who_is_to_move() {
        let mut s = Screen::new(words());
        assert_eq!(text(&s.window(&mut Letters, 40)), "WHITE TO MOVE");
        played(&mut s, &["e4", "e5", "Nf3"]);
        assert_eq!(text(&s.window(&mut Letters, 40)), "2. NF3 BLACK TO MOVE");
        // The routing keys over the move repeat it; over the words nothing.
        assert_eq!(s.routed(&mut Letters, 40, 4), Some(3));
        assert_eq!(s.routed(&mut Letters, 40, 10), None);
        played(&mut s, &["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(text(&s.window(&mut Letters, 40)), "2... NC6 WHITE TO MOVE");
    }

    #[test]
    fn an_answer_is_shown_and_panned_a_display_width_at_a_time() {
        let mut s = Screen::new(words());
        let answer = Stamped {
            t: 0,
            event: Event::Answer {
                text: Said::Text("White 5 minutes, Black 4 minutes".into()),
            },
        };
        assert!(s.event(&answer));
        assert_eq!(s.view(), View::Answer);
        assert_eq!(text(&s.window(&mut Letters, 12)), "WHITE 5 MINU");
        s.local(Local::PanRight, &mut Letters, 12);
        assert_eq!(text(&s.window(&mut Letters, 12)), "TES, BLACK 4");
        s.local(Local::PanRight, &mut Letters, 12);
        s.local(Local::PanRight, &mut Letters, 12);
        assert_eq!(text(&s.window(&mut Letters, 12)), " MINUTES");
        s.local(Local::PanLeft, &mut Letters, 12);
        assert_eq!(text(&s.window(&mut Letters, 12)), "TES, BLACK 4");
        // Home: the game's line again; the answer on request.
        s.local(Local::Status, &mut Letters, 12);
        assert_eq!(text(&s.window(&mut Letters, 40)), "WHITE TO MOVE");
        s.local(Local::Answer, &mut Letters, 12);
        assert_eq!(text(&s.window(&mut Letters, 8)), "WHITE 5 ");
    }

    #[test]
    fn the_moves_a_pair_a_line_and_the_board_a_rank_a_line() {
        let mut s = Screen::new(words());
        played(&mut s, &["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        s.local(Local::Moves, &mut Letters, 40);
        // The last pair first; up to the first.
        assert_eq!(text(&s.window(&mut Letters, 40)), "3. BB5");
        s.local(Local::LineUp, &mut Letters, 40);
        assert_eq!(text(&s.window(&mut Letters, 40)), "2. NF3 NC6");
        assert_eq!(s.routed(&mut Letters, 40, 8), Some(4));
        s.local(Local::LineUp, &mut Letters, 40);
        s.local(Local::LineUp, &mut Letters, 40);
        assert_eq!(text(&s.window(&mut Letters, 40)), "1. E4 E5");
        s.local(Local::Board, &mut Letters, 40);
        assert_eq!(text(&s.window(&mut Letters, 40)), "8 R-BQKBNR");
        s.local(Local::LineDown, &mut Letters, 40);
        assert_eq!(text(&s.window(&mut Letters, 40)), "7 PPPP-PPP");
        for _ in 0..8 {
            s.local(Local::PanRight, &mut Letters, 40);
        }
        assert_eq!(text(&s.window(&mut Letters, 40)), "1 RNBQK--R");
        // A move brings the game's line back.
        played(&mut s, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(s.view(), View::Status);
    }

    #[test]
    fn a_game_from_a_set_position_counts_its_moves_from_there() {
        let mut s = Screen::new(words());
        let ready = Stamped {
            t: 0,
            event: Event::Ready {
                fen: "4k3/8/8/8/8/8/8/4K2R b K - 0 40".into(),
                variant: "standard",
                say: None,
                language: "en".into(),
            },
        };
        s.event(&ready);
        assert_eq!(text(&s.window(&mut Letters, 40)), "BLACK TO MOVE");
        s.event(&moved(1, "Kd7", "8/3k4/8/8/8/8/8/4K2R w K - 1 41"));
        assert_eq!(text(&s.window(&mut Letters, 40)), "40... KD7 WHITE TO MOVE");
        s.event(&moved(2, "O-O", "8/3k4/8/8/8/8/8/5RK1 b - - 2 41"));
        assert_eq!(text(&s.window(&mut Letters, 40)), "41. O-O BLACK TO MOVE");
    }
}
