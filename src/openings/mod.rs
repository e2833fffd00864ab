//! The classification of openings by their ECO codes, read from a file in
//! the PGN form that Debian's `pgn-extract` package installs at
//! [`DEBIAN_ECO`]: one short game per line of the Encyclopaedia of Chess
//! Openings, its `ECO` tag the code, its `Opening` tag the name, its
//! moves the line from the start.
//!
//! A game is classified as lichess classifies one (scalachess's
//! `OpeningDb.search`): by the positions it reached, not by its move
//! order, the last of its first [`SEARCH_PLIES`] positions that the file
//! names giving the code; a position is the pieces, who is to move, the
//! castling rights and the en passant square (Art. 9.2.3). Where the file
//! names one position twice (the Slav's Schlechter and the Grünfeld's, by
//! other orders), the line the game followed move for move is taken, else
//! the file's first, as `pgn-extract` does. `pgn-extract` itself matches
//! the pieces alone, and only within six plies of the line's length; a
//! transposition counts here whenever it comes. Only a game from the
//! standard start is classified, as on lichess.
//!
//! The family said in words comes from the line's `Opening` tag
//! ([`family_of`]): the data names its lines (a Scotch in C44, a Catalan
//! in E00), where a span of codes would not.
//!
//! Read once at the edge; looking up is pure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::core::opening::{Eco, Family};

/// Where Debian's `pgn-extract` puts its classification.
pub const DEBIAN_ECO: &str = "/usr/share/pgn-extract/eco.pgn";

/// How many plies of a game are looked at, as lichess looks: the file's
/// longest line has 36 (`tests/openings.rs` holds it below), and a
/// position deep in the middlegame that happens to repeat one is no
/// longer its opening.
pub const SEARCH_PLIES: usize = 40;

/// The families said in words, by the start of the data's `Opening` tag
/// (lowercase), the first that fits. A line of no family here is said by
/// its code.
const FAMILIES: [(&str, Family); 26] = [
    ("sicilian", Family::Sicilian),
    ("french", Family::French),
    ("ruy lopez", Family::Spanish),
    ("qgd slav", Family::Slav),
    // The Semi-Slav is a Queen's Gambit declined.
    ("qgd", Family::QueensGambitDeclined),
    ("queen's gambit declined", Family::QueensGambitDeclined),
    ("qga", Family::QueensGambitAccepted),
    ("queen's gambit accepted", Family::QueensGambitAccepted),
    ("queen's gambit", Family::QueensGambit),
    ("kga", Family::KingsGambit),
    ("kgd", Family::KingsGambit),
    ("king's gambit", Family::KingsGambit),
    ("king's knight's gambit", Family::KingsGambit),
    ("english", Family::English),
    ("dutch", Family::Dutch),
    ("scandinavian", Family::Scandinavian),
    ("vienna", Family::Vienna),
    ("petrov", Family::Russian),
    ("scotch", Family::Scotch),
    // The Giuoco Piano and the Evans Gambit are the Italian Game's; the
    // Two Knights Defence, in German its own opening, is said as such.
    ("giuoco", Family::Italian),
    ("evans", Family::Italian),
    ("two knights", Family::TwoKnights),
    ("four knights", Family::FourKnights),
    ("catalan", Family::Catalan),
    ("king's indian", Family::KingsIndian),
    ("queen's indian", Family::QueensIndian),
];

/// The family of the line of code `eco` the data names `opening` (its
/// `Opening` tag), if it is one said in words.
pub fn family_of(opening: &str, eco: Eco) -> Option<Family> {
    // C50 to C54 all begin 1. e4 e5 2. Nf3 Nc6 3. Bc4, which the data
    // names "King's pawn game" (and 3...Be7 the "Hungarian defence"):
    // lichess names them all the Italian Game.
    if eco.volume() == 'C' && (50..=54).contains(&eco.number()) {
        return Some(Family::Italian);
    }
    let name = opening.to_lowercase();
    let family = FAMILIES
        .iter()
        .find(|(start, _)| name.starts_with(start))
        .map(|&(_, family)| family)?;
    match family {
        // D30's "QGD Slav" is the Semi-Slav's quiet line: a Queen's
        // Gambit declined, as the Semi-Slav is said.
        Family::Slav if eco.number() >= 20 => Some(Family::QueensGambitDeclined),
        // A48 and A49, without c4: the East Indian and the London System
        // on lichess, not the King's Indian.
        Family::KingsIndian if eco.volume() != 'E' => None,
        family => Some(family),
    }
}

/// A game's classification: the code, and the family said in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classified {
    pub eco: Eco,
    pub family: Option<Family>,
}

/// Why a classification cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassificationError {
    /// The file cannot be read.
    Read { path: PathBuf, why: String },
    /// A line of it is not what the form allows.
    Malformed {
        path: PathBuf,
        line: usize,
        why: String,
    },
    /// It names no opening at all.
    Empty { path: PathBuf },
}

impl std::fmt::Display for ClassificationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClassificationError::Read { path, why } => write!(
                f,
                "the openings' classification {}: {why} (Debian's pgn-extract package installs it)",
                path.display()
            ),
            ClassificationError::Malformed { path, line, why } => {
                write!(f, "{} line {line}: {why}", path.display())
            }
            ClassificationError::Empty { path } => {
                write!(
                    f,
                    "{}: names no opening (no game with an ECO tag)",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for ClassificationError {}

/// The positions the classification names, each with its ECO code.
#[derive(Debug, Clone, Default)]
pub struct Classification {
    /// By a position's key: each line that ends there, as the key of its
    /// path (the sum of its positions' keys) and its classification, in
    /// file order.
    codes: HashMap<u64, Vec<(u64, Classified)>>,
}

/// One game of the file as it is read: its code, and where it began.
struct Entry {
    eco: Option<Eco>,
    /// Its `Opening` tag.
    opening: Option<String>,
    line: usize,
    pos: Chess,
    /// The key of the path to `pos`.
    path: u64,
    moves: usize,
}

impl Classification {
    /// The classification in the file at `path`.
    pub fn load(path: &Path) -> Result<Classification, ClassificationError> {
        let bytes = std::fs::read(path).map_err(|e| ClassificationError::Read {
            path: path.to_path_buf(),
            why: e.to_string(),
        })?;
        // The file is Latin-1 in older releases: its names are not
        // needed, so any byte that is no UTF-8 is read as a stand-in.
        let text = String::from_utf8_lossy(&bytes);
        Classification::parse(&text).map_err(|e| match e {
            Parse::Malformed { line, why } => ClassificationError::Malformed {
                path: path.to_path_buf(),
                line,
                why,
            },
            Parse::Empty => ClassificationError::Empty {
                path: path.to_path_buf(),
            },
        })
    }

    /// Debian's classification, when `pgn-extract` is installed.
    pub fn debian() -> Result<Classification, ClassificationError> {
        Classification::load(Path::new(DEBIAN_ECO))
    }

    /// The classification in `text`.
    fn parse(text: &str) -> Result<Classification, Parse> {
        let mut codes: HashMap<u64, Vec<(u64, Classified)>> = HashMap::new();
        let mut entry: Option<Entry> = None;
        let mut comment = false;
        for (i, raw) in text.trim_start_matches('\u{feff}').lines().enumerate() {
            let line = i + 1;
            let mut rest = raw.trim();
            if comment {
                match rest.find('}') {
                    Some(end) => {
                        comment = false;
                        rest = rest[end + 1..].trim();
                    }
                    None => continue,
                }
            }
            if rest.is_empty() || rest.starts_with('%') {
                continue;
            }
            if rest.starts_with('[') {
                if entry.as_ref().is_some_and(|e| e.moves > 0) {
                    return Err(Parse::malformed(
                        line,
                        "a tag after the moves, before a result",
                    ));
                }
                let e = entry.get_or_insert_with(|| Entry::at(line));
                e.tag(rest).map_err(|why| Parse::malformed(line, &why))?;
                continue;
            }
            for token in rest.split_whitespace() {
                let mut token = token;
                if comment || token.starts_with('{') {
                    // A comment ends within a token: what follows it counts.
                    match token.find('}') {
                        Some(end) => {
                            comment = false;
                            token = &token[end + 1..];
                        }
                        None => {
                            comment = true;
                            continue;
                        }
                    }
                }
                // Outside braces, a `;` begins a comment to the line's end.
                let rest_of_line = token.find(';');
                if let Some(at) = rest_of_line {
                    token = &token[..at];
                }
                if matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2") {
                    let e = entry
                        .take()
                        .ok_or_else(|| Parse::malformed(line, "a result with no game before it"))?;
                    e.end(&mut codes)?;
                    continue;
                }
                if let Some(san) = san_of(token) {
                    let e = entry.get_or_insert_with(|| Entry::at(line));
                    e.play(san).map_err(|why| Parse::malformed(line, &why))?;
                }
                if rest_of_line.is_some() {
                    break;
                }
            }
        }
        if let Some(e) = entry.filter(|e| e.moves > 0 || e.eco.is_some()) {
            return Err(Parse::malformed(
                e.line,
                "a game with no result after its moves",
            ));
        }
        if codes.is_empty() {
            return Err(Parse::Empty);
        }
        Ok(Classification { codes })
    }

    /// How many positions it names (a position named by two lines counts
    /// once).
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether it names none.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The classification of the game from `start` with `moves`: that of
    /// the last of its first [`SEARCH_PLIES`] positions named, if any. A
    /// game from another start than the standard one has none.
    pub fn classify(&self, start: &Chess, moves: &[Move]) -> Option<Classified> {
        if *start != Chess::default() {
            return None;
        }
        let mut pos = start.clone();
        let mut path = 0u64;
        let mut found = None;
        for &m in moves.iter().take(SEARCH_PLIES) {
            pos.play_unchecked(m);
            let here = key(&pos);
            path = path.wrapping_add(here);
            if let Some(lines) = self.codes.get(&here) {
                let followed = lines.iter().find(|(p, _)| *p == path);
                found = followed.or(lines.first()).map(|&(_, c)| c);
            }
        }
        found
    }
}

impl Entry {
    /// A game of the file beginning on `line`, at the start.
    fn at(line: usize) -> Entry {
        Entry {
            eco: None,
            opening: None,
            line,
            pos: Chess::default(),
            path: 0,
            moves: 0,
        }
    }

    /// The tag on a line: its code (`ECO`) and its family (`Opening`) are
    /// kept.
    fn tag(&mut self, line: &str) -> Result<(), String> {
        let (name, value) = tag(line)?;
        match name {
            "ECO" => {
                self.eco = Some(
                    value
                        .parse()
                        .map_err(|e: crate::core::opening::EcoError| e.to_string())?,
                )
            }
            "Opening" => self.opening = Some(value.to_string()),
            _ => {}
        }
        Ok(())
    }

    /// `san` played in the game's position.
    fn play(&mut self, san: &str) -> Result<(), String> {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&self.pos).ok())
            .ok_or_else(|| {
                format!(
                    "\"{}\" is no legal move there (SAN, from the start)",
                    crate::text::quote::short(san)
                )
            })?;
        self.pos.play_unchecked(m);
        self.path = self.path.wrapping_add(key(&self.pos));
        self.moves += 1;
        Ok(())
    }

    /// The game ended by its result: the position it reached is named.
    fn end(self, codes: &mut HashMap<u64, Vec<(u64, Classified)>>) -> Result<(), Parse> {
        let eco = self.eco.ok_or_else(|| {
            Parse::malformed(
                self.line,
                "a game with no ECO tag: its code is what the file is for",
            )
        })?;
        if self.moves > 0 {
            let classified = Classified {
                eco,
                family: self.opening.and_then(|o| family_of(&o, eco)),
            };
            let lines = codes.entry(key(&self.pos)).or_default();
            if !lines.contains(&(self.path, classified)) {
                lines.push((self.path, classified));
            }
        }
        Ok(())
    }
}

/// The move a token of move text writes, none for a move number ("1.",
/// "12..."), a numeric annotation (`$1`) or what is left of a comment;
/// a move number run into its move ("1.e4") and annotations after it
/// ("e4!?") are taken off, and castling written with zeros is read.
fn san_of(token: &str) -> Option<&str> {
    if token.starts_with('$') {
        return None;
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let token = if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    };
    let san = token.trim_end_matches(['!', '?']);
    match san {
        "" => None,
        "0-0" | "0-0+" | "0-0#" => Some("O-O"),
        "0-0-0" | "0-0-0+" | "0-0-0#" => Some("O-O-O"),
        _ => Some(san),
    }
}

/// Why text is no classification, before its file is named.
enum Parse {
    Malformed { line: usize, why: String },
    Empty,
}

impl Parse {
    fn malformed(line: usize, why: &str) -> Parse {
        Parse::Malformed {
            line,
            why: why.to_string(),
        }
    }
}

/// A position's key: its Zobrist hash, en passant counted only where it
/// can be taken (so that a transposition finds it).
fn key(pos: &Chess) -> u64 {
    let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    key.0
}

/// The name and value of the tag on `line` (`[ECO "B90"]`); `Err` for a
/// line that is no tag.
fn tag(line: &str) -> Result<(&str, &str), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| "a tag is written [Name \"value\"]".to_string())?;
    let (name, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| "a tag is written [Name \"value\"]".to_string())?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| "a tag's value is in double quotes".to_string())?;
    Ok((name, value))
}

#[cfg(test)]
mod tests;
