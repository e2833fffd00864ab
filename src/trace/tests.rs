//! The format read and written: every kind of line round trips, and every
//! bad line is refused with its file, line and reason.

use shakmaty::Square;

use super::line::occ_from_hex;
use super::*;

fn err(text: &str) -> String {
    read(text.as_bytes(), "x.jsonl").unwrap_err().to_string()
}

#[test]
fn start_position_hex_is_as_specified() {
    assert_eq!(
        occ_to_hex(shakmaty::Bitboard(0xffff00000000ffff)),
        "ffff00000000ffff"
    );
    assert!(occ_from_hex("FFFF00000000FFFF").is_err());
    assert!(occ_from_hex("ffff00000000fff").is_err());
}

/// Each of `entries` written and read back is itself.
fn round_trips(entries: &[crate::trace::Entry]) {
    for e in entries {
        let again = write_line(e.t, &e.reading);
        let back = parse_line(&again, e.line == 1, 0)
            .expect("ok")
            .expect("entry");
        assert_eq!(back, (e.t, e.reading.clone()), "{again}");
    }
}

#[test]
fn every_kind_of_line_round_trips() {
    let text = r#"{"t":0,"trace":1,"start":"startpos","variant":"chess960","time_control":"40/5400+30:1800+30"}
# a comment

{"t":120,"board":"blind","occ":"ffff00000000efff"}
{"t":900,"board":"blind","lift":"e2"}
{"t":1500,"place":"e4"}
{"t":2000,"input":"promote","piece":"n"}
{"t":2001,"input":"square","square":"e4"}
{"t":2002,"input":"resign","color":"black"}
{"t":2003,"input":"repeat"}
{"t":2004,"input":"set_clock","white_ms":60000,"black_moves":12}
{"t":2005,"input":"flag_claim","color":"white"}
{"t":2006,"input":"pause"}"#;
    let entries = read(text.as_bytes(), "x").expect("valid");
    assert_eq!(entries.len(), 11);
    assert_eq!(entries[1].line, 4);
    round_trips(&entries);
}

#[test]
fn the_online_games_inputs_round_trip_and_nonsense_is_named() {
    let text = r#"{"t":0,"trace":1,"start":"startpos","black_moves_on":"lichess"}
{"t":10,"input":"online_game","game":{"id":"ab12","site":"https://lichess.org/ab12","color":"black","white":{"name":"Bert","rating":1702},"black":{"name":"Anna"},"initial_ms":900000,"increment_ms":10000,"rated":false}}
{"t":20,"input":"online_clock","white_ms":899000,"black_ms":900000}
{"t":30,"input":"online_lost"}
{"t":40,"input":"online_back"}
{"t":50,"input":"online_end","status":"outoftime","color":"white"}
{"t":60,"input":"online_end","status":"aborted"}
{"t":70,"input":"online_takeback"}
{"t":75,"input":"online_rematch"}
{"t":80,"input":"online_gone","seconds":30}
{"t":90,"input":"online_returned"}
{"t":99,"input":"online_chat","name":"Bert","text":"Viel Glück \"!\""}
{"t":100,"input":"online_games","games":[{"id":"cd34","opponent":"Carl","my_turn":true}]}
{"t":110,"input":"online_game","game":{"id":"cd34","site":"s","color":"white","white":{"name":"Anna"},"black":{"name":"Carl"},"days":3,"initial_fen":"qnnrkbbr/pppppppp/8/8/8/8/PPPPPPPP/QNNRKBBR w KQkq - 0 1","chess960":true}}"#;
    let entries = read(text.as_bytes(), "x").expect("valid");
    assert_eq!(entries.len(), 14);
    round_trips(&entries);
    for (line, says) in [
        (
            r#"{"t":1,"input":"online_end","status":"won"}"#,
            "needs a `status`, one of mate",
        ),
        (
            r#"{"t":1,"input":"online_clock","white_ms":5}"#,
            "needs both `white_ms` and `black_ms`",
        ),
        (r#"{"t":1,"input":"online_game"}"#, "needs a `game`"),
        (
            r#"{"t":1,"input":"online_chat","name":"a"}"#,
            "needs a `name`",
        ),
        (r#"{"t":1,"input":"online_gone"}"#, "needs `seconds`"),
        (r#"{"t":1,"input":"online_games"}"#, "needs `games`"),
        (
            r#"{"t":1,"input":"online_games","games":[{"id":"","opponent":"a"}]}"#,
            "`games[].id`",
        ),
        (
            r#"{"t":1,"input":"online_game","game":{"id":"x","site":"s","color":"white","white":{"name":"a"},"black":{"name":"b"},"days":0}}"#,
            "`game.days`",
        ),
        (
            r#"{"t":1,"input":"online_game","game":{"id":"x","site":"s","color":"red","white":{"name":"a"},"black":{"name":"b"}}}"#,
            "must be \"white\" or \"black\"",
        ),
        (
            r#"{"t":1,"input":"resign","color":"white","status":"mate"}"#,
            "`status`",
        ),
    ] {
        let e = err(&format!(
            "{{\"t\":0,\"trace\":1,\"start\":\"startpos\"}}\n{line}"
        ));
        assert!(e.contains("x.jsonl:2") && e.contains(says), "{line}: {e}");
    }
}

#[test]
fn errors_name_file_line_and_reason() {
    assert_eq!(
        err("{\"t\":5,\"lift\":\"e2\"}\n{\"t\":4,\"lift\":\"e4\"}"),
        "x.jsonl:2: `t` goes backwards: 4 is smaller than 5 on the line before"
    );
    assert!(err("\n\n{\"t\":1,\"lift\":\"e9\"}").starts_with("x.jsonl:3: `lift` must be a square"));
    assert!(err("{\"t\":1,\"input\":\"dance\"}").contains("unknown input \"dance\""));
    assert!(err("{\"t\":1,\"occ\":\"zz\"}").contains("16 lowercase hexadecimal"));
    assert!(err("{\"t\":1,\"ocupied\":\"e2\"}").contains("unknown field `ocupied`"));
    assert_eq!(
        err("{\"t\":-1,\"lift\":\"e2\"}"),
        "x.jsonl:1: `t` must be a whole number of milliseconds from 0 to 1000000000000, not -1"
    );
    assert!(err("{\"lift\":\"e2\"}").contains("needs `t`"));
    assert!(err("not json").starts_with("x.jsonl:1: "));
    assert!(
        err("{\"t\":1,\"lift\":\"e2\"}\n{\"t\":2,\"trace\":1}").contains("only be the first line")
    );
    assert!(err("{\"t\":1,\"input\":\"promote\"}").contains("needs a `piece`"));
    assert!(err("{\"t\":1,\"input\":\"resign\",\"piece\":\"q\"}").contains("does not belong"));
    assert!(err("{\"t\":1,\"lift\":\"e2\",\"place\":\"e4\"}").contains("only one of"));
    assert!(
        err("{\"t\":0,\"trace\":1,\"time_control\":\"90+30min\"}")
            .starts_with("x.jsonl:1: `time_control`")
    );
    assert!(err("{\"t\":1,\"input\":\"set_clock\"}").contains("needs at least one"));
}

fn error(text: &[u8]) -> TraceError {
    match read(text, "x.jsonl") {
        Err(e) => e,
        Ok(entries) => panic!("expected an error, read {entries:?}"),
    }
}

#[test]
fn errors_say_what_the_line_should_have_held() {
    // A byte-order mark is skipped.
    let with_bom = read(&b"\xef\xbb\xbf{\"t\":0,\"lift\":\"e2\"}"[..], "x").expect("BOM");
    assert_eq!(with_bom.len(), 1);
    assert_eq!(
        error(br#"{"t":0,"lift":6}"#).message,
        r#"`lift` must be a square in quotes, like "e2", not 6"#
    );
    assert_eq!(
        error(b"null").message,
        r#"the line is null, not a JSON object like {"t":900,"lift":"g1"}"#
    );
    assert_eq!(
        error(br#"{"t":18446744073709551616,"lift":"e2"}"#).message,
        "`t` must be a whole number of milliseconds from 0 to 1000000000000, \
         not 18446744073709552000"
    );
    assert_eq!(
        error(br#"{"t":1000000000001,"lift":"e2"}"#).message,
        "`t` must be a whole number of milliseconds from 0 to 1000000000000, \
         not 1000000000001"
    );
    assert!(
        error(br#"{"t":0,"lift":"\ud800"}"#)
            .message
            .contains("lone surrogate"),
    );
    assert!(
        error(br#"{"t":0,"lift":"e2""#)
            .message
            .contains("cut short")
    );
    assert!(
        error(br#"{"t":0,"count":"x","input":"repeat"}"#)
            .message
            .starts_with("`count` must be a whole number, 1 or more, not \"x\"")
    );
    // A JSON escape in a string is read, not refused.
    let escaped = read(&br#"{"t":0,"lift":"e\u0032"}"#[..], "x").expect("escape");
    assert_eq!(
        escaped[0].reading,
        Reading::Lift {
            board: "blind".into(),
            square: Square::E2
        }
    );
    // A huge value is named by its beginning only.
    let long = format!(r#"{{"t":0,"input":"{}"}}"#, "x".repeat(50_000));
    let message = error(long.as_bytes()).message;
    let known = crate::core::Input::NAMES.join(", ").len();
    assert!(message.len() < 200 + known, "{message}");
}

#[test]
fn set_clock_values_past_their_range_are_refused_with_the_line() {
    let e = error(b"{\"t\":0,\"lift\":\"e2\"}\n{\"t\":900,\"input\":\"set_clock\",\"white_ms\":18446744073709551000}");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("`white_ms` must be at most 360000000"),
        "{e}"
    );
    let e = error(br#"{"t":0,"input":"set_clock","black_moves":4000000000}"#);
    assert!(
        e.message.contains("`black_moves` must be at most 10000"),
        "{e}"
    );
    assert!(
        read(
            &br#"{"t":0,"input":"set_clock","white_ms":360000000}"#[..],
            "x"
        )
        .is_ok()
    );
}

#[test]
fn a_line_longer_than_the_bound_is_refused_without_reading_it_whole() {
    // Endless NUL bytes, as /dev/zero gives: refused at the bound.
    let zeros = std::io::BufReader::new(std::io::repeat(0));
    let e = Reader::new(zeros, "/dev/zero")
        .next()
        .expect("an item")
        .expect_err("an error");
    assert_eq!(e.line, 1);
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(e.message.contains("longer than 65536 bytes"), "{e}");
    // A line of exactly the bound is still read; one byte more is not.
    let line = r#"{"t":0,"lift":"e2"}"#;
    let text = format!("{line}{}\n", " ".repeat(MAX_LINE_BYTES - line.len()));
    assert!(read(text.as_bytes(), "x").is_ok());
    let text = format!("{line}{}\n", " ".repeat(MAX_LINE_BYTES + 1 - line.len()));
    assert!(error(text.as_bytes()).message.contains("longer than"));
}

#[test]
fn a_torn_last_line_is_told_apart_from_damage_inside() {
    let good = "{\"t\":0,\"lift\":\"e2\"}\n{\"t\":500,\"place\":\"e4\"}\n";
    for tail in [
        "{\"t\":900,\"lif".to_string(),
        "{\"t\":900,\"lift\":\"g1\"}".replace('}', "") + "\n",
        "\0\0\0\0\0\0\0\0".to_string(),
        "{\"t\":900,\"li\0\0\0\0\n\0\0\0\n\n".to_string(),
    ] {
        let text = format!("{good}{tail}");
        let items: Vec<_> = Reader::new(text.as_bytes(), "x").collect();
        assert_eq!(items.len(), 3, "{tail:?}");
        assert!(items[..2].iter().all(Result::is_ok));
        let e = items[2].as_ref().expect_err("the torn line");
        assert_eq!((e.kind, e.line), (ErrorKind::Torn, 3), "{tail:?}");
    }
    // A whole last line that says something wrong is no power cut.
    let e = error(format!("{good}{{\"t\":900,\"lift\":\"e9\"}}\n").as_bytes());
    assert_eq!((e.kind, e.line), (ErrorKind::Malformed, 3));
    // Damage followed by more lines is no power cut either.
    let text = format!("{good}\0\0\0\n{{\"t\":900,\"lift\":\"g1\"}}\n");
    let e = error(text.as_bytes());
    assert_eq!((e.kind, e.line), (ErrorKind::Malformed, 3));
}

#[test]
fn a_field_given_twice_on_a_line_is_refused() {
    let e =
        err("{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n{\"t\":5,\"t\":900,\"lift\":\"g1\"}\n");
    assert!(e.starts_with("x.jsonl:2:"), "{e}");
    assert!(e.contains("duplicate field `t`"), "{e}");
}

#[test]
fn the_reviews_inputs_round_trip_and_a_wrong_past_game_is_named() {
    let text = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":10,"input":"past_game","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":"e2e4 e7e5 g1f3","color":"black","analyses":[{"ply":0,"uci":"e2e4","cp":30,"depth":12,"line":"e2e4 e7e5"},{"ply":2,"uci":"g1f3","mate":-4,"depth":12}]}
{"t":20,"input":"review_analysis","ply":3,"uci":"b8c6","cp":25,"depth":14,"line":"b8c6 f1b5 a7a6"}
{"t":30,"input":"evaluation","ply":2}"#;
    let entries = read(text.as_bytes(), "x").expect("valid");
    assert_eq!(entries.len(), 4);
    round_trips(&entries);
    for (line, says) in [
        (
            r#"{"t":1,"input":"past_game","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":"e2e4 e2e4","color":"white"}"#,
            "move 2 (e2e4) is not legal there",
        ),
        (
            r#"{"t":1,"input":"past_game","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":"e2e4","color":"white","analyses":[{"ply":5,"cp":0}]}"#,
            "analysis 1: an analysis of ply 5",
        ),
        (
            r#"{"t":1,"input":"past_game","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":"e2e4","color":"white","analyses":[{"ply":0,"cp":0,"colour":"x"}]}"#,
            "colour",
        ),
        (
            r#"{"t":1,"input":"past_game","moves":"e2e4","color":"white"}"#,
            "needs a `fen`",
        ),
        (
            r#"{"t":1,"input":"review_analysis","ply":1,"cp":0,"line":"e2e4 xx"}"#,
            "`line` must be moves in UCI",
        ),
        (r#"{"t":1,"input":"hint","ply":1}"#, "`ply`"),
    ] {
        let e = err(&format!(
            "{{\"t\":0,\"trace\":1,\"start\":\"startpos\"}}\n{line}"
        ));
        assert!(e.contains(says), "{line}: {e}");
    }
}

#[test]
fn the_engines_trouble_round_trips_and_a_wrong_one_is_named() {
    let text = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":10,"input":"engine_trouble","trouble":"cannot_start"}
{"t":20,"input":"engine_trouble","trouble":"crashed"}
{"t":30,"input":"engine_trouble","trouble":"hung"}
{"t":40,"input":"engine_trouble","trouble":"malformed"}"#;
    let entries = read(text.as_bytes(), "x").expect("valid");
    assert_eq!(entries.len(), 5);
    round_trips(&entries);
    for (line, says) in [
        (
            r#"{"t":1,"input":"engine_trouble","trouble":"sulking"}"#,
            "needs a `trouble`: one of \"cannot_start\", \"crashed\", \"hung\", \"malformed\"",
        ),
        (r#"{"t":1,"input":"engine_trouble"}"#, "needs a `trouble`"),
        (
            r#"{"t":1,"input":"hint","trouble":"hung"}"#,
            "`trouble` does not belong",
        ),
    ] {
        let e = err(&format!(
            "{{\"t\":0,\"trace\":1,\"start\":\"startpos\"}}\n{line}"
        ));
        assert!(e.starts_with("x.jsonl:2:"), "{line}: {e}");
        assert!(e.contains(says), "{line}: {e}");
    }
}
