//! The classification of openings by their ECO codes, read from a file in
//! the PGN form that Debian's `pgn-extract` package installs at
//! [`DEBIAN_ECO`]: one short game per line of the Encyclopaedia of Chess
//! Openings, its `ECO` tag the code, its moves the line from the start.
//!
//! A game is classified as `pgn-extract` classifies one: by the positions
//! it reached, not by its move order (a transposition counts), the
//! deepest of its first [`SEARCH_PLIES`] positions that the file names
//! giving the code. A position the file names twice (the Slav's
//! Schlechter and the Grünfeld's, by other orders) takes the code of the
//! line the game followed move for move, else the file's first. Unlike
//! `pgn-extract`, which matches the pieces alone, a position is the
//! pieces and who is to move (Art. 9.2.3), as lichess keys its openings.
//! Read once at the edge; looking up is pure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::core::opening::Eco;

/// Where Debian's `pgn-extract` puts its classification.
pub const DEBIAN_ECO: &str = "/usr/share/pgn-extract/eco.pgn";

/// How many plies of a game are looked at: no opening line in the file is
/// longer (its longest has 24), and a position deep in the middlegame
/// that happens to repeat one is no longer its opening.
pub const SEARCH_PLIES: usize = 40;

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
    /// path (the sum of its positions' keys) and its code, in file order.
    codes: HashMap<u64, Vec<(u64, Eco)>>,
}

/// One game of the file as it is read: its code, and where it began.
struct Entry {
    eco: Option<Eco>,
    line: usize,
    pos: Chess,
    /// The key of the path to `pos`.
    path: u64,
    moves: usize,
}

impl Entry {
    /// A game of the file beginning on `line`, at the start.
    fn at(line: usize) -> Entry {
        Entry {
            eco: None,
            line,
            pos: Chess::default(),
            path: 0,
            moves: 0,
        }
    }
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
        let mut codes = HashMap::new();
        let mut entry: Option<Entry> = None;
        let mut comment = false;
        for (i, raw) in text.lines().enumerate() {
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
                if let Some(eco) = tag(rest, "ECO").map_err(|why| Parse::malformed(line, &why))? {
                    e.eco = Some(eco.parse().map_err(|e: crate::core::opening::EcoError| {
                        Parse::malformed(line, &e.to_string())
                    })?);
                }
                continue;
            }
            for token in rest.split_whitespace() {
                if comment {
                    comment = !token.contains('}');
                    continue;
                }
                if token.starts_with('{') {
                    comment = !token.contains('}');
                    continue;
                }
                if matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2") {
                    let Some(e) = entry.take() else {
                        return Err(Parse::malformed(line, "a result with no game before it"));
                    };
                    let Some(eco) = e.eco else {
                        return Err(Parse::malformed(
                            e.line,
                            "a game with no ECO tag: its code is what the file is for",
                        ));
                    };
                    if e.moves > 0 {
                        let lines: &mut Vec<(u64, Eco)> = codes.entry(key(&e.pos)).or_default();
                        if !lines.contains(&(e.path, eco)) {
                            lines.push((e.path, eco));
                        }
                    }
                    continue;
                }
                // A move number ("1.", "12...", or "1.e4" run together).
                let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if san.is_empty() {
                    continue;
                }
                let e = entry.get_or_insert_with(|| Entry::at(line));
                let m = san
                    .parse::<San>()
                    .ok()
                    .and_then(|s| s.to_move(&e.pos).ok())
                    .ok_or_else(|| {
                        Parse::malformed(
                            line,
                            &format!(
                                "\"{}\" is no legal move there (SAN, from the start)",
                                crate::text::quote::short(san)
                            ),
                        )
                    })?;
                e.pos.play_unchecked(m);
                e.path = e.path.wrapping_add(key(&e.pos));
                e.moves += 1;
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

    /// The code of the game from `start` with `moves`: that of the deepest
    /// of its first [`SEARCH_PLIES`] positions named, if any.
    pub fn classify(&self, start: &Chess, moves: &[Move]) -> Option<Eco> {
        let mut pos = start.clone();
        let mut path = 0u64;
        let mut found = None;
        for &m in moves.iter().take(SEARCH_PLIES) {
            pos.play_unchecked(m);
            let here = key(&pos);
            path = path.wrapping_add(here);
            if let Some(lines) = self.codes.get(&here) {
                let followed = lines.iter().find(|(p, _)| *p == path);
                found = followed.or(lines.first()).map(|&(_, eco)| eco);
            }
        }
        found
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

/// The value of the tag `name` on `line` (`[ECO "B90"]`), none for another
/// tag; `Err` for a line that is no tag.
fn tag<'a>(line: &'a str, name: &str) -> Result<Option<&'a str>, String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| "a tag is written [Name \"value\"]".to_string())?;
    let (key, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| "a tag is written [Name \"value\"]".to_string())?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| "a tag's value is in double quotes".to_string())?;
    Ok((key == name).then_some(value))
}

#[cfg(test)]
mod tests;
