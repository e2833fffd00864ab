use super::*;

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

fn eco(s: &str) -> Eco {
    s.parse().expect("eco")
}

#[test]
fn the_deepest_position_named_gives_the_code() {
    let c = parsed(SMALL).expect("classification");
    assert_eq!(c.len(), 5);
    let start = Chess::default();
    assert_eq!(c.classify(&start, &moves("e2e4")), None);
    assert_eq!(c.classify(&start, &moves("e2e4 e7e5")), Some(eco("C20")));
    assert_eq!(
        c.classify(&start, &moves("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3")),
        Some(eco("C50")),
        "moves past the line keep its code"
    );
    assert_eq!(
        c.classify(&start, &moves("e2e4 c7c5 g1f3")),
        Some(eco("B20"))
    );
}

#[test]
fn a_transposition_finds_the_position() {
    let c = parsed(SMALL).expect("classification");
    // 1. Nf3 Nc6 2. e4 e5: the position of 1. e4 e5 2. Nf3 Nc6.
    assert_eq!(
        c.classify(&Chess::default(), &moves("g1f3 b8c6 e2e4 e7e5")),
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
    assert_eq!(c.classify(&Chess::default(), &game), Some(eco("C40")));
    // One round fewer: the same last two plies, within the forty.
    let shorter: Vec<Move> = game[..game.len() - 10]
        .iter()
        .chain(&game[game.len() - 2..])
        .copied()
        .collect();
    assert!(shorter.len() <= SEARCH_PLIES);
    assert_eq!(c.classify(&Chess::default(), &shorter), Some(eco("C44")));
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
        c.classify(&start, &moves("d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 g7g6")),
        Some(eco("D15"))
    );
    assert_eq!(
        c.classify(&start, &moves("d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 g1f3 c7c6")),
        Some(eco("D90"))
    );
    // A third order: the file's first.
    assert_eq!(
        c.classify(&start, &moves("c2c4 c7c6 d2d4 d7d5 g1f3 g8f6 b1c3 g7g6")),
        Some(eco("D15"))
    );
}

#[test]
fn a_position_is_its_pieces_who_is_to_move_and_castling_left() {
    let c = parsed(SMALL).expect("classification");
    // 1. e3 e5 2. e4: the pieces of 1. e4 e5, Black to move.
    assert_eq!(
        c.classify(&Chess::default(), &moves("e2e3 e7e5 e3e4")),
        None
    );
    // The king out and back: the pieces of 1. e4 e5, no castling left.
    assert_eq!(
        c.classify(&Chess::default(), &moves("e2e4 e7e5 e1e2 g8f6 e2e1 f6g8")),
        Some(eco("C20")),
        "found at ply 2, not again at ply 6"
    );
    assert_eq!(
        c.classify(
            &Chess::default(),
            &moves("e2e4 e7e5 e1e2 g8f6 e2e1 f6g8 g1f3 b8c6")
        ),
        Some(eco("C20")),
        "1. e4 e5 2. Nf3 Nc6's pieces without White's castling: not C44"
    );
}
