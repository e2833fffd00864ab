//! The core alone, with no narrator: what its events say are facts (the
//! piece, the square, the rule), never words. The words are made of them
//! at the edge, and tested there (`announce`) and through `replay`.

use pegboard::core::input::Relayed;
use pegboard::core::said::Said;
use pegboard::core::{BLIND_BOARD, Controller, Event, Input, Settings, Stamped, StartPosition};
use shakmaty::{Bitboard, Role, Square};

fn controller(settings: Settings) -> (Controller, Vec<Stamped>) {
    let mut c = Controller::new(&StartPosition::default(), settings, &[BLIND_BOARD])
        .expect("the standard start");
    let mut out = Vec::new();
    c.start(0, &mut out);
    c.scan(0, 0, Bitboard(0xffff_0000_0000_ffff), &mut out);
    (c, out)
}

/// What every event says, in order, with the event's name.
fn said(out: &mut [Stamped]) -> Vec<(&'static str, Said)> {
    out.iter_mut()
        .filter_map(|e| {
            let name = e.event.name();
            e.event.said_mut().map(|s| (name, s.clone()))
        })
        .collect()
}

#[test]
fn art_4_3_a_the_touch_violation_says_the_piece_and_the_square_touched() {
    let (mut c, mut out) = controller(Settings::default());
    c.lift(100, 0, Square::G1, &mut out);
    c.place(500, 0, Square::G1, &mut out);
    c.lift(900, 0, Square::E2, &mut out);
    c.place(1300, 0, Square::E4, &mut out);
    c.finish(&mut out);
    let said = said(&mut out);
    let violation: Vec<&Said> = said
        .iter()
        .filter(|(n, _)| *n == "touch_violation")
        .map(|(_, s)| s)
        .collect();
    assert_eq!(
        violation,
        [&Said::TouchViolation {
            role: Role::Knight,
            square: Square::G1,
            capture: false,
        }]
    );
    // The move is said as the move made, in the position it was made in.
    let moves: Vec<&Said> = said
        .iter()
        .filter(|(n, _)| *n == "move")
        .map(|(_, s)| s)
        .collect();
    assert!(
        matches!(moves[..], [Said::Move { m, .. }] if m.from() == Some(Square::E2) && m.to() == Square::E4),
        "{moves:?}"
    );
    // No event leaves the core with words in it.
    assert!(
        said.iter().all(|(_, s)| !s.is_words()),
        "words made in the core: {said:?}"
    );
}

#[test]
fn art_3_5_a_relayed_move_that_passes_over_a_piece_is_refused_with_the_piece_that_cannot() {
    let mut settings = Settings::default();
    settings.seats.black = pegboard::core::Seat::Relay;
    let (mut c, mut out) = controller(settings);
    c.lift(100, 0, Square::E2, &mut out);
    c.place(300, 0, Square::E4, &mut out);
    c.finish(&mut out);
    // Black's bishop on c8 cannot pass its own pawn on d7 (3.5).
    let refused = c
        .refusal(
            2000,
            &Input::Move(Relayed::Uci("c8g4".parse().expect("uci"))),
        )
        .expect("refused");
    let Event::Refused { reason, say, .. } = refused.event else {
        panic!("{refused:?}")
    };
    assert_eq!(reason, "blocked");
    assert_eq!(
        say,
        Said::Unplayable {
            why: pegboard::core::relay::Unplayable::Blocked {
                role: Role::Bishop,
                square: Square::C8,
            },
            to_move: shakmaty::Color::Black,
        }
    );
}
