//! The scoresheet in Braille (E2.5) held against what pegboard did not
//! write: liblouis's own table of North American Braille ASCII
//! (`en-us-brf.dis`), `lou_translate` for the text, liblouis reading the
//! `.brf` file back, and python-chess reading the games' PGN. Debian's
//! liblouis-bin and python-chess are installed by `.ci/setup.sh`.

mod common;

use std::path::Path;

use pegboard::braille::cell::{self, Cell};
use pegboard::braille::louis::{LouisError, Table};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

const TABLES: &str = "/usr/share/liblouis/tables";

/// `lou_translate` (liblouis's own program) on each line of `input`.
fn lou_translate(args: &[&str], input: &str) -> Vec<String> {
    common::piped_lines("lou_translate", args, &format!("{input}\n"))
}

#[test]
fn braille_ascii_is_liblouis_s_own_north_american_table() {
    let table = std::fs::read_to_string(format!("{TABLES}/en-us-brf.dis")).expect("en-us-brf.dis");
    let mut seen = 0;
    for line in table.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some("display") {
            continue;
        }
        let (Some(character), Some(dots)) = (words.next(), words.next()) else {
            continue;
        };
        let character = match character {
            "\\s" => ' ',
            "\\\\" => '\\',
            c => c.chars().next().expect("a character"),
        };
        let dots = if dots == "0" { "" } else { dots };
        let cell = Cell::from_dots(dots).expect("dots 1-6");
        assert_eq!(cell.ascii(), character, "dots {dots}");
        assert_eq!(Cell::from_ascii(character), Some(cell), "{character:?}");
        seen += 1;
    }
    assert_eq!(seen, 64, "every cell is in liblouis's table once");
}

#[test]
fn the_text_is_what_lou_translate_makes_of_it() {
    let cases = [
        ("en-ueb-g2.ctb", "Kasparov, Garry - Deep Blue (Computer)"),
        ("en-ueb-g1.ctb", "12. Nxf3+ Kg8 13. O-O-O e8=Q#"),
        ("de-g2.ctb", "Weiß gegen Schwarz, Läufer und Springer"),
        ("de-g0-detailed.utb", "12. Dxe5+ dxe5"),
        ("pt-pt-g1.utb", "Xadrez, São Paulo 1997.05.11"),
        ("es-g1.ctb", "Peña, Campeonato de España"),
        ("ca-g1.ctb", "Torneig de Barcelona"),
        // Signs the tables lack: liblouis writes their codes, whose
        // backslash has dot 7, which a six-dot page leaves off.
        ("en-ueb-g2.ctb", "Naumkin, Игорь (€)"),
        ("es-g1.ctb", "Qh4#"),
    ];
    for (table, text) in cases {
        let ours = Table::open(table)
            .and_then(|t| t.translate(text))
            .expect("liblouis translates");
        let theirs: String = lou_translate(&[&format!("unicode.dis,{table}")], text)
            .concat()
            .chars()
            .map(|c| char::from_u32(0x2800 + ((u32::from(c) - 0x2800) & 0x3f)).expect("a cell"))
            .collect();
        assert_eq!(cell::unicode(&ours), theirs, "{table}: {text}");
    }
}

#[test]
fn a_table_liblouis_does_not_have_is_named() {
    let e = Table::open("xx-none.ctb").expect_err("no such table");
    assert_eq!(e, LouisError::Table("xx-none.ctb".into()));
    assert!(e.to_string().contains("\"xx-none.ctb\""), "{e}");
}

/// A `.brf` file's games, as liblouis reads them back: each game's head
/// lines and move lines (a run-over line joined to its line), read with
/// the text table and the moves table. The layout is checked on the way:
/// pages of at most 25 lines of at most 40 Braille ASCII characters, CR LF
/// line ends, a form feed between pages, each page's number at the right
/// of its first line (a game's first page is page 1).
fn read_back(brf: &str, text_table: &str, moves_table: &str) -> Vec<(Vec<String>, Vec<String>)> {
    assert!(brf.ends_with("\r\n"), "the file ends with a line end");
    let mut games: Vec<Vec<String>> = Vec::new();
    let mut expected = 1;
    let mut full = 0;
    for (p, page) in brf.split('\x0c').enumerate() {
        let body = page.strip_suffix("\r\n").expect("a page ends with CR LF");
        let lines: Vec<&str> = body.split("\r\n").collect();
        assert!(!body.contains('\n') || body.matches('\n').count() == body.matches("\r\n").count());
        assert!(lines.len() <= 25, "page {p}: {} lines", lines.len());
        for l in &lines {
            assert!(l.len() <= 40, "page {p}: {l:?} is {} cells", l.len());
            assert!(l.chars().all(|c| (' '..='_').contains(&c)), "{l:?}");
        }
        let first = lines[0];
        assert_eq!(
            first.len(),
            40,
            "the page number ends the first line: {first:?}"
        );
        let at = first.rfind('#').expect("a page number");
        let number: usize = first[at + 1..]
            .chars()
            .map(|c| match c {
                'J' => '0',
                c => char::from(b'1' + (c as u8 - b'A')),
            })
            .collect::<String>()
            .parse()
            .expect("the number's digits are the letters a-j");
        if number == 1 {
            games.push(Vec::new());
            expected = 1;
        } else {
            assert_eq!(full, 25, "page {p}: the page before it in its game is full");
        }
        full = lines.len();
        assert_eq!(number, expected, "page {p} is numbered in turn");
        expected += 1;
        assert!(first[..at].ends_with("   ") || first[..at].trim().is_empty());
        let game = games.last_mut().expect("a game begins on page 1");
        let rest = first[..at].trim_end();
        if !rest.is_empty() {
            game.push(rest.to_string());
        }
        game.extend(lines[1..].iter().map(|l| l.to_string()));
    }
    games
        .into_iter()
        .map(|lines| {
            let blank = lines
                .iter()
                .position(|l| l.is_empty())
                .expect("a blank line after the head");
            let joined = |part: &[String]| -> Vec<String> {
                let mut out: Vec<String> = Vec::new();
                for l in part {
                    match (l.strip_prefix("  "), out.last_mut()) {
                        (Some(more), Some(last)) => {
                            last.push(' ');
                            last.push_str(more);
                        }
                        _ => out.push(l.clone()),
                    }
                }
                out
            };
            let back = |part: Vec<String>, table: &str| {
                lou_translate(
                    &["--backward", &format!("en-us-brf.dis,{table}")],
                    &part.join("\n"),
                )
            };
            (
                back(joined(&lines[..blank]), text_table),
                back(joined(&lines[blank + 1..]), moves_table),
            )
        })
        .collect()
}

const PYTHON: &str = r#"
import io, json, re, sys
import chess.pgn
raw = sys.stdin.read()
text = io.StringIO(raw)
games = []
while True:
    start = text.tell()
    g = chess.pgn.read_game(text)
    if g is None:
        break
    # The result is the movetext's own last word (a file's Result tag can
    # disagree with it); comments and variations are no movetext.
    movetext = re.sub(r"\{[^}]*\}", " ", raw[start:text.tell()])
    ends = re.findall(r"(?:^|\s)(1-0|0-1|1/2-1/2|\*)(?=\s|$)", movetext)
    lines, board, refused = [], g.board(), bool(g.errors)
    for node in g.mainline():
        if not node.move:
            refused = True  # a null move (--): no board plays it
            break
        san = board.san(node.move)
        if board.turn:
            lines.append(f"{board.fullmove_number}. {san}")
        elif not lines:
            lines.append(f"{board.fullmove_number}... {san}")
        else:
            lines[-1] += " " + san
        board.push(node.move)
    h = g.headers
    games.append({"head": f"{h.get('White', '?')} - {h.get('Black', '?')}",
                  "moves": lines + [ends[-1] if ends else h.get("Result", "*")],
                  "refused": refused})
json.dump(games, sys.stdout)
"#;

/// A game as python-chess reads it: the first head line, the move lines
/// (they stop where a move is not legal, as pegboard's do), and whether it
/// refused a move.
struct Read {
    head: String,
    moves: Vec<String>,
    refused: bool,
}

fn python_chess(pgn: &str) -> Vec<Read> {
    let out = common::piped("python3", &["-c", PYTHON], pgn);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    games
        .iter()
        .map(|g| {
            let moves = g["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().unwrap_or_default().to_string())
                .collect();
            Read {
                head: g["head"].as_str().unwrap_or_default().to_string(),
                moves,
                refused: g["refused"].as_bool().unwrap_or_default(),
            }
        })
        .collect()
}

/// `pegboard pgn --brf --from FILE` in `language` at `grade`.
fn brf_from(dir: &Path, file: &Path, language: &str, grade: u8) -> (String, String) {
    let config = dir.join("braille.toml");
    std::fs::write(
        &config,
        format!("language = \"{language}\"\n[braille]\ngrade = {grade}\n"),
    )
    .expect("config");
    let out = common::pegboard_command()
        .args(["pgn", "--brf", "--from"])
        .arg(file)
        .arg("--config")
        .arg(&config)
        .output()
        .expect("pgn runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).expect("Braille ASCII"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_game_of_the_test_data_goes_into_braille_and_liblouis_reads_back_what_python_chess_reads() {
    let dir = common::empty_dir("braille-games");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .expect("tests/games")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    let mut count = 0;
    for file in files {
        let pgn = std::fs::read_to_string(&file).expect("PGN");
        let expected = python_chess(&pgn);
        let (brf, log) = brf_from(&dir, &file, "en", 1);
        let read = read_back(&brf, "en-ueb-g1.ctb", "en-ueb-g1.ctb");
        assert_eq!(read.len(), expected.len(), "{}: every game", file.display());
        for ((head, moves), python) in read.iter().zip(&expected) {
            // Spaces within a tag's value are one space in Braille.
            let words = python.head.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(head[0], words, "{}", file.display());
            if python.refused {
                // python-chess stops at a move it cannot play (or a null
                // move); pegboard writes on as the file gives the moves,
                // and names that move.
                let words = |lines: &[String]| -> Vec<String> {
                    let moves = &lines[..lines.len() - 1];
                    moves.join(" ").split(' ').map(str::to_string).collect()
                };
                let (ours, theirs) = (words(moves), words(&python.moves));
                assert!(
                    ours.len() > theirs.len() && ours.starts_with(&theirs),
                    "{}: {}: {ours:?} against {theirs:?}",
                    file.display(),
                    python.head
                );
                assert_eq!(moves.last(), python.moves.last(), "the result");
            } else {
                assert_eq!(moves, &python.moves, "{}: {}", file.display(), python.head);
            }
        }
        let stopped = log
            .lines()
            .filter(|l| l.contains("written as the file gives them") || l.contains("null move"))
            .count();
        let refused = expected.iter().filter(|g| g.refused).count();
        assert_eq!(stopped, refused, "{}: {log}", file.display());
        count += read.len();
    }
    assert!(count >= 51, "{count} games");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A legal game of `moves` full moves, chosen by a fixed sequence among
/// each position's legal moves, never one that ends the game.
fn long_game(moves: usize) -> String {
    let mut pos = Chess::default();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut sans = Vec::new();
    while sans.len() < moves * 2 {
        let legal = pos.legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let start = (seed >> 33) as usize % legal.len();
        let m = (0..legal.len())
            .map(|i| legal[(start + i) % legal.len()])
            .find(|m| {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                !after.legal_moves().is_empty() && !after.is_insufficient_material()
            })
            .expect("a move that does not end the game");
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    let movetext: Vec<String> = sans
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    format!(
        "[Event \"Club championship\"]\n[Site \"?\"]\n[Date \"2026.11.27\"]\n[Round \"1\"]\n\
         [White \"Morphy, Paul\"]\n[Black \"Anderssen, Adolf\"]\n[Result \"1/2-1/2\"]\n\n{} 1/2-1/2\n",
        movetext.join(" ")
    )
}

#[test]
fn a_long_game_fills_numbered_pages_and_liblouis_reads_its_head_and_moves_back() {
    let dir = common::empty_dir("braille-long");
    let pgn = long_game(120);
    let file = dir.join("long.pgn");
    std::fs::write(&file, &pgn).expect("PGN");
    let expected = python_chess(&pgn);
    assert_eq!(
        expected[0].moves.len(),
        121,
        "120 move lines and the result"
    );
    for (language, grade, text, moves) in [
        ("en", 2, "en-ueb-g2.ctb", "en-ueb-g1.ctb"),
        ("en", 1, "en-ueb-g1.ctb", "en-ueb-g1.ctb"),
        ("de", 1, "de-g1.ctb", "de-g0-detailed.utb"),
        ("pt", 2, "pt-pt-g2.ctb", "en-ueb-g1.ctb"),
        ("es", 1, "es-g1.ctb", "en-ueb-g1.ctb"),
    ] {
        let (brf, _) = brf_from(&dir, &file, language, grade);
        // 3 head lines, a blank line and 121 move lines: at least 5 pages
        // of 25 lines (read_back holds every page but a game's last full).
        let pages = brf.split('\x0c').count();
        assert!(pages >= 5, "{language} {grade}: {pages} pages");
        let read = read_back(&brf, text, moves);
        assert_eq!(read.len(), 1);
        let (head, lines) = &read[0];
        // German Braille writes `=` and `(` with one sign (dots 2-3-5-6),
        // which liblouis reads back as `(`.
        let expected_lines: Vec<String> = expected[0]
            .moves
            .iter()
            .map(|l| {
                if language == "de" {
                    l.replace('=', "(")
                } else {
                    l.clone()
                }
            })
            .collect();
        assert_eq!(
            lines, &expected_lines,
            "{language} {grade}: the moves read back"
        );
        if language == "en" {
            assert_eq!(
                head,
                &[
                    "Morphy, Paul - Anderssen, Adolf",
                    "Club championship",
                    "2026.11.27"
                ],
                "grade {grade}: the head reads back"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_in_the_pgn_standards_latin_1_is_read_and_a_file_without_games_is_named() {
    let dir = common::empty_dir("braille-latin1");
    let file = dir.join("latin1.pgn");
    let mut pgn = b"[White \"M".to_vec();
    pgn.push(0xfc); // ü in ISO 8859-1
    pgn.extend_from_slice(b"ller, Hans\"]\n[Black \"?\"]\n\n1. e4 e5 *\n");
    std::fs::write(&file, &pgn).expect("PGN");
    let (brf, _) = brf_from(&dir, &file, "en", 1);
    let read = read_back(&brf, "en-ueb-g1.ctb", "en-ueb-g1.ctb");
    assert_eq!(read[0].0[0], "Müller, Hans - ?");

    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "\n").expect("file");
    let out = common::pegboard_command()
        .args(["pgn", "--brf", "--from"])
        .arg(&empty)
        .output()
        .expect("pgn runs");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("empty.pgn") && said.contains("holds no game"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn from_needs_brf() {
    let out = common::pegboard_command()
        .args(["pgn", "--from", "games.pgn"])
        .output()
        .expect("pgn runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--brf"));
}

/// `play` on the one-move trace in English, its journal in `dir/journal`
/// with `[journal] brf = true`, and `extra` configuration; what it printed.
fn play_with_brf(dir: &Path, extra: &str) -> String {
    common::play_nf3_journaled(dir, &format!("language = \"en\"\n{extra}"), "brf = true\n")
}

#[test]
fn the_journal_keeps_the_brf_beside_the_pgn_as_the_pgn_command_prints_it() {
    let dir = common::empty_dir("braille-journal");
    play_with_brf(&dir, "");
    let kept =
        std::fs::read_to_string(dir.join("journal/game-0001.brf")).expect("the .brf is kept");
    let printed = common::pegboard_command()
        .args(["pgn", "--brf", "--config"])
        .arg(dir.join("nf3.toml"))
        .output()
        .expect("pgn runs");
    assert!(
        printed.status.success(),
        "{}",
        String::from_utf8_lossy(&printed.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&printed.stdout), kept);
    let read = read_back(&kept, "en-ueb-g2.ctb", "en-ueb-g1.ctb");
    assert_eq!(read[0].1, ["1. Nf3", "*"], "{kept}");
    // A game taken up again writes its Braille at once, before any move:
    // a .brf lost (or never made) is there again.
    std::fs::remove_file(dir.join("journal/game-0001.brf")).expect("removed");
    let again = common::pegboard_command()
        .args(["play", "--silent", "--seconds", "1", "--config"])
        .arg(dir.join("nf3.toml"))
        .output()
        .expect("play runs");
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let resumed =
        std::fs::read_to_string(dir.join("journal/game-0001.brf")).expect("the .brf again");
    assert_eq!(resumed, kept);
    let _ = std::fs::remove_dir_all(&dir);

    // A code liblouis does not have: the game is played and kept in PGN,
    // and the player's log says why there is no Braille.
    let dir = common::empty_dir("braille-journal-none");
    let said = play_with_brf(&dir, "[braille]\ntable = \"xx-none.ctb\"\n");
    assert!(said.contains("\"xx-none.ctb\""), "{said}");
    assert!(said.contains("not kept in Braille"), "{said}");
    // check-config, which checks what play checks, warns of it first.
    let checked = common::pegboard_command()
        .args(["check-config"])
        .arg(dir.join("nf3.toml"))
        .output()
        .expect("check-config runs");
    let warned = String::from_utf8_lossy(&checked.stderr);
    assert!(checked.status.success(), "{warned}");
    assert!(
        warned.contains("[journal] brf = true") && warned.contains("\"xx-none.ctb\""),
        "{warned}"
    );
    assert!(dir.join("journal/game-0001.pgn").exists());
    assert!(!dir.join("journal/game-0001.brf").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
