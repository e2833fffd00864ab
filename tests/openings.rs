//! The opening's classification held against `pgn-extract`'s own (`-e`),
//! the program whose data pegboard reads: every real game in
//! `tests/games`, and every line of the data carried on by moves chosen at
//! random, must get the ECO code `pgn-extract` gives it.
//!
//! But for one difference, each shown where it occurs: `pgn-extract`
//! matches a position by its pieces alone, whoever is to move and
//! whatever castling is left, and pegboard by the whole position (the
//! Laws' 9.2.3: the same player to move, the same rights to castle;
//! lichess's openings are keyed so too). So after 1. d3 e5 2. d4, Black
//! to move, `pgn-extract` finds 1. d4 e5 (A40), White to move, and
//! pegboard does not; nor does it find the Berlin after a rook went to g8
//! and back.
//!
//! Debian's `pgn-extract` package is installed by the test setup
//! (`.ci/setup.sh`); without it this test fails, it does not skip.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use pegboard::core::opening::Eco;
use pegboard::openings::{Classification, DEBIAN_ECO};
use pegboard::record::pgn::read_games;
use pegboard::sim::playable_moves;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position};

const PGN_EXTRACT: &str = "/usr/games/pgn-extract";

/// The games of `tests/games` that begin from the standard start, each
/// with its moves up to the first that cannot be played.
fn real_games() -> Vec<Vec<Move>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut games = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/games")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    for path in files {
        let pgn = std::fs::read(&path).expect("pgn");
        for game in read_games(&pgn).expect("games") {
            let (start, mode, moves, _) = playable_moves(&game.record).expect("start");
            if mode == CastlingMode::Standard && start == Chess::default() && !moves.is_empty() {
                games.push(moves);
            }
        }
    }
    games
}

/// A small generator of moves chosen at random, the same every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The move a token of the data's move text makes in `pos`, none for a
/// move number.
fn move_of(token: &str, pos: &Chess) -> Option<Move> {
    let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    san.parse::<shakmaty::san::San>().ok()?.to_move(pos).ok()
}

/// A line of the data: its code, its `Opening` tag, its moves and the
/// position it ends in.
struct DataLine {
    eco: Eco,
    opening: String,
    moves: Vec<Move>,
    end: Chess,
}

/// Whether a token of the data's move text ends a line.
fn is_result(token: &str) -> bool {
    matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2")
}

/// Every line of the data.
fn data_lines() -> Vec<DataLine> {
    let text = std::fs::read_to_string(DEBIAN_ECO).expect("pgn-extract's data");
    let mut lines = Vec::new();
    let mut eco = None;
    let mut opening = String::new();
    let mut moves = Vec::new();
    let mut pos = Chess::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("[ECO \"") {
            eco = rest.trim_end_matches("\"]").parse().ok();
            continue;
        }
        if let Some(rest) = line.strip_prefix("[Opening \"") {
            opening = rest.trim_end_matches("\"]").to_string();
            continue;
        }
        if line.starts_with('[') {
            continue;
        }
        for token in line.split_whitespace() {
            if is_result(token) {
                lines.push(DataLine {
                    eco: eco.take().expect("a code"),
                    opening: std::mem::take(&mut opening),
                    moves: std::mem::take(&mut moves),
                    end: std::mem::take(&mut pos),
                });
                continue;
            }
            if let Some(m) = move_of(token, &pos) {
                pos.play_unchecked(m);
                moves.push(m);
            }
        }
    }
    lines
}

/// Whether `pgn-extract`'s code for `moves` is that of a line of the data
/// whose pieces stand as they stand after one of the game's first forty
/// plies, with the other player to move or other rights to castle: its
/// match by the pieces alone.
fn matched_by_pieces_alone(moves: &[Move], theirs: Eco, data: &[DataLine]) -> bool {
    let mut pos = Chess::default();
    moves
        .iter()
        .take(pegboard::openings::SEARCH_PLIES)
        .any(|&m| {
            pos.play_unchecked(m);
            data.iter().any(|DataLine { eco, end: line, .. }| {
                *eco == theirs
                    && line.board() == pos.board()
                    && (line.turn() != pos.turn()
                        || line.castles().castling_rights() != pos.castles().castling_rights())
            })
        })
}

/// Every line of the data, played from the start and carried on by up to
/// eight moves chosen at random.
fn lines_carried_on() -> Vec<Vec<Move>> {
    let text = std::fs::read_to_string(DEBIAN_ECO).expect("pgn-extract's data");
    let mut rng = Lcg(0x5eed);
    let mut games = Vec::new();
    let mut moves = Vec::new();
    let mut pos = Chess::default();
    for token in text
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
    {
        if is_result(token) {
            for _ in 0..rng.below(9) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                pos.play_unchecked(m);
                moves.push(m);
            }
            if !moves.is_empty() {
                games.push(std::mem::take(&mut moves));
            }
            pos = Chess::default();
            continue;
        }
        if let Some(m) = move_of(token, &pos) {
            pos.play_unchecked(m);
            moves.push(m);
        }
    }
    games
}

/// What `pgn-extract -e` gives each game: its ECO tag, none when it adds
/// none.
fn pgn_extract(games: &[Vec<Move>]) -> Vec<Option<Eco>> {
    assert!(
        Path::new(PGN_EXTRACT).exists(),
        "{PGN_EXTRACT} is missing: the test setup installs Debian's pgn-extract"
    );
    let mut pgn = String::new();
    for (i, moves) in games.iter().enumerate() {
        let mut pos = Chess::default();
        let sans: Vec<String> = moves
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
            .collect();
        pgn.push_str(&format!(
            "[Event \"{i}\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n{} *\n\n",
            sans.join(" ")
        ));
    }
    let mut child = Command::new(PGN_EXTRACT)
        .arg(format!("-e{DEBIAN_ECO}"))
        .args(["-s", "--nocomments"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pgn-extract runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(pgn.as_bytes()));
    let out = child.wait_with_output().expect("pgn-extract ends");
    writer.join().expect("writer").expect("pgn written");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut found = vec![None; games.len()];
    let mut at = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("[Event \"") {
            at = rest.trim_end_matches("\"]").parse::<usize>().ok();
        } else if let Some(rest) = line.strip_prefix("[ECO \"") {
            let i = at.expect("an ECO tag after an Event tag");
            found[i] = Some(rest.trim_end_matches("\"]").parse().expect("an ECO code"));
        }
    }
    found
}

fn held_against_pgn_extract(games: &[Vec<Move>], what: &str) {
    let ours = Classification::debian().expect("pgn-extract's data");
    let theirs = pgn_extract(games);
    let data = data_lines();
    let mut differ = Vec::new();
    let mut by_pieces = 0;
    for (i, (moves, expected)) in games.iter().zip(&theirs).enumerate() {
        let got = ours.classify(&Chess::default(), moves).map(|c| c.eco);
        if got != *expected && expected.is_some_and(|e| matched_by_pieces_alone(moves, e, &data)) {
            by_pieces += 1;
        } else if got != *expected {
            let uci: Vec<String> = moves
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            differ.push(format!(
                "{what} {i}: pegboard {got:?}, pgn-extract {expected:?}: {}",
                uci.join(" ")
            ));
        }
    }
    assert!(
        theirs.iter().filter(|e| e.is_some()).count() * 2 > games.len(),
        "most {what} are classified"
    );
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    assert!(
        by_pieces * 100 <= games.len(),
        "{by_pieces} of {} {what}s matched by pieces alone",
        games.len()
    );
    println!(
        "{what}s: {} held against pgn-extract, {by_pieces} matched by it by pieces alone",
        games.len()
    );
}

#[test]
fn every_real_game_gets_the_code_pgn_extract_gives_it() {
    let games = real_games();
    assert!(games.len() >= 40, "{}", games.len());
    held_against_pgn_extract(&games, "game");
}

#[test]
fn every_line_of_the_data_carried_on_gets_the_code_pgn_extract_gives_it() {
    let games = lines_carried_on();
    assert!(games.len() >= 2000, "{}", games.len());
    held_against_pgn_extract(&games, "line");
}

#[test]
fn no_line_of_the_data_is_longer_than_the_plies_looked_at() {
    let longest = data_lines().iter().map(|l| l.moves.len()).max();
    assert!(
        longest.is_some_and(|n| n < pegboard::openings::SEARCH_PLIES),
        "{longest:?}"
    );
}

#[test]
fn each_line_of_the_data_is_said_by_the_family_its_name_gives() {
    let ours = Classification::debian().expect("pgn-extract's data");
    let lines = data_lines();
    let mut named = 0;
    for line in &lines {
        let found = ours
            .classify(&Chess::default(), &line.moves)
            .expect("a line of the data is classified");
        assert_eq!(found.eco, line.eco, "{}", line.opening);
        assert_eq!(
            found.family,
            pegboard::openings::family_of(&line.opening, line.eco),
            "{} ({})",
            line.opening,
            line.eco
        );
        named += usize::from(found.family.is_some());
    }
    // The families said in words take most of the data's lines.
    assert!(named * 2 > lines.len(), "{named} of {}", lines.len());
}
