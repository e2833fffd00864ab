use super::*;

use crate::core::opening::Family;

use shakmaty::uci::UciMove;

const SMALL: &str = r#"{
A comment before the games,
over lines.
}

[ECO "C20"]
[Opening "King's pawn game"]

1. e4 e5 *

[ECO "C40"]
[Opening "King's knight opening"]

1. e4 e5 2. Nf3 *

[ECO "C44"]
[Opening "King's pawn game"]

1. e4 e5 2. Nf3 Nc6 *

[ECO "C50"]
[Opening "Italian game"]

1.e4 e5 2.Nf3 Nc6 3.Bc4 *

[ECO "B20"]
[Opening "Sicilian defence"]

1. e4 c5 *
"#;

fn parsed(text: &str) -> Result<Classification, (usize, String)> {
    Classification::parse(text).map_err(|e| match e {
        Parse::Malformed { line, why } => (line, why),
        Parse::Empty => (0, "empty".into()),
    })
}

fn moves(uci: &str) -> Vec<Move> {
    let mut pos = Chess::default();
    uci.split_whitespace()
        .map(|u| {
            let m = u
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// The code `c` gives the game from `start` with `moves`.
fn code(c: &Classification, start: &Chess, moves: &[Move]) -> Option<Eco> {
    c.classify(start, moves).map(|found| found.eco)
}

fn eco(s: &str) -> Eco {
    s.parse().expect("eco")
}

#[test]
fn the_deepest_position_named_gives_the_code() {
    let c = parsed(SMALL).expect("classification");
    assert_eq!(c.len(), 5);
    let start = Chess::default();
    assert_eq!(code(&c, &start, &moves("e2e4")), None);
    assert_eq!(code(&c, &start, &moves("e2e4 e7e5")), Some(eco("C20")));
    assert_eq!(
        code(&c, &start, &moves("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3")),
        Some(eco("C50")),
        "moves past the line keep its code"
    );
    assert_eq!(code(&c, &start, &moves("e2e4 c7c5 g1f3")), Some(eco("B20")));
}

#[test]
fn a_transposition_finds_the_position() {
    let c = parsed(SMALL).expect("classification");
    // 1. Nf3 Nc6 2. e4 e5: the position of 1. e4 e5 2. Nf3 Nc6.
    assert_eq!(
        code(&c, &Chess::default(), &moves("g1f3 b8c6 e2e4 e7e5")),
        Some(eco("C44"))
    );
}

#[test]
fn only_the_first_plies_are_looked_at() {
    let c = parsed(SMALL).expect("classification");
    // The knights out and back twice over (eight plies a round): after
    // the fortieth ply, 1. e4 e5 2. Nf3 Nc6 stands again, unseen.
    let mut uci = String::from("e2e4 e7e5");
    for _ in 0..5 {
        uci.push_str(" g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    }
    uci.push_str(" g1f3 b8c6");
    let game = moves(&uci);
    assert!(game.len() > SEARCH_PLIES);
    // The last position named within them is 1. e4 e5 2. Nf3 (its
    // knights back home and out again), not the C44 after them.
    assert_eq!(code(&c, &Chess::default(), &game), Some(eco("C40")));
    // One round fewer: the same last two plies, within the forty.
    let shorter: Vec<Move> = game[..game.len() - 10]
        .iter()
        .chain(&game[game.len() - 2..])
        .copied()
        .collect();
    assert!(shorter.len() <= SEARCH_PLIES);
    assert_eq!(code(&c, &Chess::default(), &shorter), Some(eco("C44")));
}

#[test]
fn a_malformed_file_is_named_at_its_line() {
    let cases = [
        ("[ECO \"B20\"]\n\n1. e4 c9 *\n", 3, "\"c9\""),
        ("[ECO \"B20\"]\n\n1. e4 e4 *\n", 3, "no legal move"),
        ("[ECO \"Z20\"]\n\n1. e4 c5 *\n", 1, "no ECO code"),
        ("[Opening \"x\"]\n\n1. e4 c5 *\n", 1, "no ECO tag"),
        ("[ECO B20]\n\n1. e4 c5 *\n", 1, "double quotes"),
        ("[ECO \"B20\"]\n\n1. e4 c5\n", 1, "no result"),
        ("\n\n*\n", 3, "no game before it"),
        (
            "[ECO \"B20\"]\n1. e4\n[ECO \"B21\"]\n1. e4 c5 *\n",
            3,
            "a tag after the moves",
        ),
    ];
    for (text, line, why) in cases {
        let (at, said) = parsed(text).expect_err(text);
        assert_eq!(at, line, "{text:?}: {said}");
        assert!(said.contains(why), "{text:?}: {said}");
    }
    assert!(matches!(
        Classification::parse("{ only a comment }\n"),
        Err(Parse::Empty)
    ));
}

#[test]
fn a_file_that_cannot_be_read_says_so_and_names_the_package() {
    let e = Classification::load(Path::new("/no/such/eco.pgn")).expect_err("no file");
    let said = e.to_string();
    assert!(said.contains("/no/such/eco.pgn"), "{said}");
    assert!(said.contains("pgn-extract"), "{said}");
    let dir = std::env::temp_dir().join(format!("pegboard-eco-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("eco.pgn");
    std::fs::write(&path, "[ECO \"B20\"]\n\n1. e4 c5 Qh6 *\n").expect("write");
    let said = Classification::load(&path)
        .expect_err("malformed")
        .to_string();
    assert!(
        said.starts_with(&format!("{} line 3:", path.display())),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_position_named_twice_takes_the_code_of_the_line_followed() {
    // The same position by two orders, each with its own code.
    let text = "[ECO \"D15\"]\n1. d4 d5 2. c4 c6 3. Nf3 Nf6 4. Nc3 g6 *\n\
                [ECO \"D90\"]\n1. d4 Nf6 2. c4 g6 3. Nc3 d5 4. Nf3 c6 *\n";
    let c = parsed(text).expect("classification");
    assert_eq!(c.len(), 1, "one position");
    let start = Chess::default();
    assert_eq!(
        code(
            &c,
            &start,
            &moves("d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 g7g6")
        ),
        Some(eco("D15"))
    );
    assert_eq!(
        code(
            &c,
            &start,
            &moves("d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 g1f3 c7c6")
        ),
        Some(eco("D90"))
    );
    // A third order: the file's first.
    assert_eq!(
        code(
            &c,
            &start,
            &moves("c2c4 c7c6 d2d4 d7d5 g1f3 g8f6 b1c3 g7g6")
        ),
        Some(eco("D15"))
    );
}

#[test]
fn a_position_is_its_pieces_who_is_to_move_and_castling_left() {
    let c = parsed(SMALL).expect("classification");
    // 1. e3 e5 2. e4: the pieces of 1. e4 e5, Black to move.
    assert_eq!(code(&c, &Chess::default(), &moves("e2e3 e7e5 e3e4")), None);
    // The king out and back: the pieces of 1. e4 e5, no castling left.
    assert_eq!(
        code(
            &c,
            &Chess::default(),
            &moves("e2e4 e7e5 e1e2 g8f6 e2e1 f6g8")
        ),
        Some(eco("C20")),
        "found at ply 2, not again at ply 6"
    );
    assert_eq!(
        code(
            &c,
            &Chess::default(),
            &moves("e2e4 e7e5 e1e2 g8f6 e2e1 f6g8 g1f3 b8c6")
        ),
        Some(eco("C20")),
        "1. e4 e5 2. Nf3 Nc6's pieces without White's castling: not C44"
    );
}

#[test]
fn the_family_is_the_one_the_data_names_the_line_by() {
    let text = "[ECO \"C44\"]\n[Opening \"Scotch opening\"]\n1. e4 e5 2. Nf3 Nc6 3. d4 *\n\
                [ECO \"C44\"]\n[Opening \"Ponziani opening\"]\n1. e4 e5 2. Nf3 Nc6 3. c3 *\n";
    let c = parsed(text).expect("classification");
    let start = Chess::default();
    let scotch = c.classify(&start, &moves("e2e4 e7e5 g1f3 b8c6 d2d4"));
    assert_eq!(
        scotch,
        Some(Classified {
            eco: eco("C44"),
            family: Some(Family::Scotch)
        })
    );
    let ponziani = c.classify(&start, &moves("e2e4 e7e5 g1f3 b8c6 c2c3"));
    assert_eq!(
        ponziani.map(|p| (p.eco, p.family)),
        Some((eco("C44"), None))
    );
}

#[test]
fn a_game_from_another_start_is_not_classified() {
    let c = parsed(SMALL).expect("classification");
    let mut start = Chess::default();
    start.play_unchecked(moves("e2e4")[0]);
    // 1...e5 from the position after 1. e4: the pieces of C20, but the
    // game began elsewhere (lichess classifies no game from a position).
    let mut reply = start.clone();
    let e5 = shakmaty::uci::UciMove::from_ascii(b"e7e5")
        .expect("uci")
        .to_move(&reply)
        .expect("legal");
    reply.play_unchecked(e5);
    assert_eq!(c.classify(&start, &[e5]), None);
}

#[test]
fn the_families_are_read_from_the_datas_names() {
    for (name, code, family) in [
        ("Sicilian", "B20", Some(Family::Sicilian)),
        ("Sicilian defence", "B50", Some(Family::Sicilian)),
        ("Ruy Lopez (Spanish opening)", "C60", Some(Family::Spanish)),
        ("QGD Slav accepted", "D15", Some(Family::Slav)),
        // D30's "QGD Slav" is the Semi-Slav's quiet line.
        ("QGD Slav", "D30", Some(Family::QueensGambitDeclined)),
        ("QGD semi-Slav", "D45", Some(Family::QueensGambitDeclined)),
        ("QGD", "D37", Some(Family::QueensGambitDeclined)),
        (
            "Queen's gambit declined",
            "D30",
            Some(Family::QueensGambitDeclined),
        ),
        ("QGA, 4.Nc3", "D24", Some(Family::QueensGambitAccepted)),
        ("Queen's Gambit", "D06", Some(Family::QueensGambit)),
        ("KGA", "C33", Some(Family::KingsGambit)),
        ("KGD", "C30", Some(Family::KingsGambit)),
        ("King's knight's gambit", "C34", Some(Family::KingsGambit)),
        ("King's knight opening", "C40", None),
        ("King's pawn game", "C44", None),
        // 1. e4 e5 2. Nf3 Nc6 3. Bc4 itself, and 3...Be7: the Italian.
        ("King's pawn game", "C50", Some(Family::Italian)),
        ("Hungarian defence", "C50", Some(Family::Italian)),
        ("English orang-utan", "A15", Some(Family::English)),
        (
            "Dutch-Indian, Alekhine variation",
            "A90",
            Some(Family::Dutch),
        ),
        (
            "Scandinavian (centre counter) defence",
            "B01",
            Some(Family::Scandinavian),
        ),
        ("Vienna gambit", "C29", Some(Family::Vienna)),
        ("Petrov three knights game", "C42", Some(Family::Russian)),
        ("Scotch gambit", "C44", Some(Family::Scotch)),
        ("Giuoco Pianissimo", "C50", Some(Family::Italian)),
        ("Evans gambit declined", "C51", Some(Family::Italian)),
        ("two knights defence", "C55", Some(Family::TwoKnights)),
        ("Four knights game", "C47", Some(Family::FourKnights)),
        ("Three knights", "C46", None),
        ("Catalan opening", "E00", Some(Family::Catalan)),
        (
            "King's Indian with e4 & g3",
            "E72",
            Some(Family::KingsIndian),
        ),
        // Without c4: the East Indian, the London System.
        ("King's Indian", "A48", None),
        (
            "Queen's Indian accelerated",
            "A50",
            Some(Family::QueensIndian),
        ),
        ("Neo-Gruenfeld defence", "D70", None),
        ("Nimzo-Indian", "E20", None),
        ("Reti v Dutch", "A04", None),
    ] {
        assert_eq!(family_of(name, eco(code)), family, "{name} ({code})");
    }
}

#[test]
fn move_text_as_pgn_writes_it_is_read() {
    // A byte-order mark, a comment to the line's end, a comment inside a
    // token (a `;` in it no comment to the line's end), numeric annotations, move numbers run into their moves,
    // annotations after a move, castling with zeros.
    let text = "\u{feff}[ECO \"C65\"] \n\
                1.e4 e5 ; the king's pawn\n\
                2. Nf3!? $1 {a knight; not a bishop}Nc6 3...\n\
                Bb5 Nf6 4. 0-0 *\n";
    let c = parsed(text).expect("classification");
    assert_eq!(
        code(
            &c,
            &Chess::default(),
            &moves("e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1")
        ),
        Some(eco("C65"))
    );
}
