//! An online game's rules as the server (lichess) keeps them, read from
//! traces: the win claimed only once lichess allows it, a draw offer to
//! lichess's AI that it never takes, a repetition claimed for lichess to
//! judge, lichess's one `draw` status told as the draw the game shows, and
//! what the server says told to the player. The lichess seat that hands
//! these inputs in is tested against the test lichess in
//! tests/lichess_play.rs.

mod common;

use serde_json::Value;

/// An online game against `white` (the blind player is Black), at 15+10,
/// followed by `lines` (each a trace line without its end).
fn online(white: &str, lines: &[&str]) -> Vec<Value> {
    let mut text = String::from(
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\",\"black_moves_on\":\"lichess\"}\n",
    );
    text.push_str(&format!(
        "{{\"t\":10,\"input\":\"online_game\",\"game\":{{\"id\":\"ab12\",\"site\":\"https://lichess.org/ab12\",\
         \"color\":\"white\",\"white\":{{\"name\":\"Anna\"}},\"black\":{white},\
         \"initial_ms\":900000,\"increment_ms\":10000,\"rated\":false}}}}\n"
    ));
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    let english = pegboard::announce::Phrasebook::default()
        .in_language("en")
        .expect("English");
    let events = common::replayed_in(
        &common::parse(&text),
        pegboard::core::Settings::default(),
        english,
    );
    common::to_json(&events)
}

fn said(events: &[Value], name: &str) -> Vec<String> {
    common::of(events, name)
        .iter()
        .map(|e| e["say"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn online_the_win_is_claimed_only_once_lichess_allows_it_the_wait_told() {
    // lila grants claim-victory only `claimWinInSeconds` after the
    // opponent left; a claim before is told how long is left, and nothing
    // is asked of the server.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":500,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1000,"input":"online_gone","seconds":10}"#,
            r#"{"t":3500,"input":"flag_claim","color":"white"}"#,
            r#"{"t":11000,"input":"flag_claim","color":"white"}"#,
        ],
    );
    let notices = common::of(&events, "online_notice");
    assert_eq!(notices.len(), 1, "{events:#?}");
    assert_eq!(notices[0]["notice"], "claim_in");
    assert_eq!(
        notices[0]["seconds"], 8,
        "11 s from its leaving, 3.5 s gone"
    );
    assert_eq!(
        notices[0]["say"], "You can claim the win in 8 seconds.",
        "{events:#?}"
    );
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "claim_victory");
    assert_eq!(requests[0]["t"], 11000);
    assert!(
        common::of(&events, "game_over").is_empty(),
        "lichess ends it"
    );
    // lila grants it only while the opponent who left is to move.
    let own_move = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"online_gone","seconds":0}"#,
            r#"{"t":3500,"input":"flag_claim","color":"white"}"#,
        ],
    );
    let notices = common::of(&own_move, "online_notice");
    assert_eq!(notices.len(), 1, "{own_move:#?}");
    assert_eq!(notices[0]["notice"], "claim_own_turn");
    assert!(common::of(&own_move, "online_request").is_empty());
}

#[test]
fn online_the_opponents_draw_offer_accepted_is_asked_of_lichess_which_ends_the_game() {
    // lila may hold an offer no longer (withdrawn, and no state says so):
    // the acceptance asks lichess, and its state ends the game.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":1800,"input":"draw_offer","color":"black"}"#,
            r#"{"t":2000,"input":"draw_offer","color":"white"}"#,
        ],
    );
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "draw_accept");
    assert!(common::of(&events, "game_over").is_empty(), "{events:#?}");
}

#[test]
fn online_a_new_game_begun_at_the_board_gives_the_online_one_up_on_lichess() {
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":2000,"input":"new_game"}"#,
            r#"{"t":2500,"input":"new_game"}"#,
        ],
    );
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "resign");
    assert_eq!(common::of(&events, "new_game").len(), 1);
}

#[test]
fn online_a_draw_offer_to_lichess_ai_is_told_it_takes_none_and_is_not_made() {
    // lichess's AI ignores draw offers (lila answers 200 and nothing
    // happens): no offer is made, and the player hears why.
    let events = online(
        r#"{"name":"Stockfish level 3","ai":3}"#,
        &[r#"{"t":1000,"input":"draw_offer","color":"white"}"#],
    );
    assert!(common::of(&events, "draw_offer").is_empty(), "{events:#?}");
    assert_eq!(
        said(&events, "online_notice"),
        vec!["lichess's computer takes no draw offers.".to_string()]
    );
    // Against a person the offer is made.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":2000,"input":"move","uci":"e7e5"}"#,
            r#"{"t":3000,"input":"draw_offer","color":"white"}"#,
        ],
    );
    assert!(
        common::of(&events, "online_notice").is_empty(),
        "{events:#?}"
    );
}

#[test]
fn online_a_draw_claimed_is_asked_of_lichess_which_ends_the_game() {
    // lila's draw/yes claims a repetition; the game ends only when its
    // state says so.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[r#"{"t":1000,"input":"draw_claim","color":"white"}"#],
    );
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "draw_claim");
    assert_eq!(requests[0]["say"], "You claim a draw. lichess decides.");
    assert!(common::of(&events, "game_over").is_empty(), "{events:#?}");
}

#[test]
fn online_lichess_draw_status_is_told_as_the_draw_the_game_shows() {
    // lila's `draw` is an agreement, a repetition, the 50 moves or too
    // little material: an offer standing is an agreement; with none, and
    // nothing else the position shows, only that the game is drawn.
    let offered = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":1800,"input":"draw_offer","color":"black"}"#,
            r#"{"t":2000,"input":"online_end","status":"draw"}"#,
        ],
    );
    let over = common::of(&offered, "game_over");
    assert_eq!(over.len(), 1, "{offered:#?}");
    assert_eq!(over[0]["reason"], "agreement");
    let plain = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[r#"{"t":2000,"input":"online_end","status":"draw"}"#],
    );
    let over = common::of(&plain, "game_over");
    assert_eq!(over.len(), 1, "{plain:#?}");
    assert_eq!(over[0]["reason"], "server", "not said to be agreed");
    assert_eq!(over[0]["result"], "1/2-1/2");
    assert!(
        !over[0]["say"]
            .as_str()
            .unwrap_or_default()
            .contains("agree"),
        "{over:?}"
    );
}

#[test]
fn online_what_lichess_says_is_told_to_the_player_in_his_words() {
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":100,"input":"online_notice","notice":"first_move","seconds":27}"#,
            r#"{"t":200,"input":"online_notice","notice":"other_game","name":"Carla"}"#,
            r#"{"t":300,"input":"online_notice","notice":"move_refused","text":"Not your turn, or game already over"}"#,
            r#"{"t":400,"input":"online_notice","notice":"claim_refused","text":"You cannot claim the win on this game"}"#,
            r#"{"t":500,"input":"online_notice","notice":"find_refused","text":"Invalid time control"}"#,
            r#"{"t":600,"input":"online_notice","notice":"declined","name":"Bert","text":"I'm not accepting challenges at the moment."}"#,
        ],
    );
    assert_eq!(
        said(&events, "online_notice"),
        vec![
            "Make your first move within 27 seconds, or lichess aborts the game and counts it \
             against you.",
            "Another game on lichess, against Carla, is under way. It is not played here.",
            "lichess did not take your last move: Not your turn, or game already over. The game \
             goes on as lichess has it.",
            "lichess refused the claim: You cannot claim the win on this game",
            "lichess does not start the game: Invalid time control",
            "Bert declined the challenge: I'm not accepting challenges at the moment.",
        ]
    );
    let first = common::of(&events, "online_notice")[0];
    assert_eq!(first["notice"], "first_move");
    assert_eq!(first["seconds"], 27);
    // A notice without what it needs is named at its line.
    let bad = "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
               {\"t\":1,\"input\":\"online_notice\",\"notice\":\"declined\",\"name\":\"Bert\"}\n";
    let e = pegboard::trace::read(bad.as_bytes(), "bad.jsonl").expect_err("refused");
    let e = e.to_string();
    assert!(e.starts_with("bad.jsonl:2:"), "{e}");
    assert!(e.contains("`online_notice` needs a `notice`"), "{e}");
}

#[test]
fn online_the_opponents_takeback_request_is_declined_by_the_decline_key_while_it_stands() {
    // lila's takeback/no declines the opponent's proposal; a move made
    // since ends the proposal (its Takebacker), so the key then declines
    // nothing.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":1800,"input":"online_takeback"}"#,
            r#"{"t":2000,"input":"draw_decline","color":"white"}"#,
            r#"{"t":2500,"input":"draw_decline","color":"white"}"#,
        ],
    );
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "takeback_decline");
    assert_eq!(
        requests[0]["say"],
        "You decline the takeback. The move stands."
    );
    let moved_since = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":1800,"input":"online_takeback"}"#,
            r#"{"t":2000,"input":"move","uci":"g1f3"}"#,
            r#"{"t":2500,"input":"draw_decline","color":"white"}"#,
        ],
    );
    assert!(
        common::of(&moved_since, "online_request").is_empty(),
        "{moved_since:#?}"
    );
    // A draw offer standing is what the key declines first.
    let both = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":1600,"input":"draw_offer","color":"black"}"#,
            r#"{"t":1800,"input":"online_takeback"}"#,
            r#"{"t":2000,"input":"draw_decline","color":"white"}"#,
        ],
    );
    assert_eq!(common::of(&both, "draw_declined").len(), 1, "{both:#?}");
    assert!(common::of(&both, "online_request").is_empty(), "{both:#?}");
}

#[test]
fn online_a_draw_claimed_when_the_opponent_left_is_lichess_claim_draw_once_it_allows_it() {
    // lila's claim-draw, like claim-victory, only after
    // `claimWinInSeconds` and while the one who left is to move; its end
    // (`timeout`, no winner) names him.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":500,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1000,"input":"online_gone","seconds":10}"#,
            r#"{"t":3500,"input":"draw_claim","color":"white"}"#,
            r#"{"t":11000,"input":"draw_claim","color":"white"}"#,
            r#"{"t":11600,"input":"online_end","status":"timeout"}"#,
        ],
    );
    let notices = common::of(&events, "online_notice");
    assert_eq!(notices.len(), 1, "{events:#?}");
    assert_eq!(
        (&notices[0]["notice"], &notices[0]["seconds"]),
        (&"claim_draw_in".into(), &8.into())
    );
    assert_eq!(notices[0]["say"], "You can claim a draw in 8 seconds.");
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(
        (&requests[0]["request"], &requests[0]["t"]),
        (&"claim_draw".into(), &11000.into())
    );
    let over = common::of(&events, "game_over");
    assert_eq!(over.len(), 1, "{events:#?}");
    assert_eq!(
        (&over[0]["result"], &over[0]["reason"]),
        (&"1/2-1/2".into(), &"abandoned".into())
    );
    assert!(
        over[0]["say"]
            .as_str()
            .is_some_and(|s| s.starts_with("Black left the game.")),
        "{over:#?}"
    );
    // A draw without a winner while the opponent was not told gone: the
    // player's own connection was lost, and the opponent claimed it.
    let claimed_by_him = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":500,"input":"move","uci":"e2e4"}"#,
            r#"{"t":600,"input":"move","uci":"e7e5"}"#,
            r#"{"t":9000,"input":"online_end","status":"timeout"}"#,
        ],
    );
    let over = common::of(&claimed_by_him, "game_over");
    assert!(
        over[0]["say"]
            .as_str()
            .is_some_and(|s| s.starts_with("White left the game.")),
        "{over:#?}"
    );
    // A repetition standing: lichess's draw/yes grants it at once, on
    // either player's move, so that is what is asked.
    let repeated = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":100,"input":"move","uci":"g1f3"}"#,
            r#"{"t":200,"input":"move","uci":"g8f6"}"#,
            r#"{"t":300,"input":"move","uci":"f3g1"}"#,
            r#"{"t":400,"input":"move","uci":"f6g8"}"#,
            r#"{"t":500,"input":"move","uci":"g1f3"}"#,
            r#"{"t":600,"input":"move","uci":"g8f6"}"#,
            r#"{"t":700,"input":"move","uci":"f3g1"}"#,
            r#"{"t":800,"input":"move","uci":"f6g8"}"#,
            r#"{"t":900,"input":"move","uci":"g1f3"}"#,
            r#"{"t":1000,"input":"online_gone","seconds":30}"#,
            r#"{"t":1500,"input":"draw_claim","color":"white"}"#,
        ],
    );
    let requests = common::of(&repeated, "online_request");
    assert_eq!(requests.len(), 1, "{repeated:#?}");
    assert_eq!(requests[0]["request"], "draw_claim");
    // On the player's own move: told to move first, nothing asked.
    let own_move = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":500,"input":"move","uci":"e2e4"}"#,
            r#"{"t":600,"input":"move","uci":"e7e5"}"#,
            r#"{"t":1000,"input":"online_gone","seconds":0}"#,
            r#"{"t":3500,"input":"draw_claim","color":"white"}"#,
        ],
    );
    assert!(common::of(&own_move, "online_request").is_empty());
    let told = common::of(&own_move, "online_notice");
    assert_eq!(told.len(), 1, "{own_move:#?}");
    assert_eq!(told[0]["notice"], "claim_draw_own_turn");
}

#[test]
fn online_after_the_game_the_draw_offer_key_is_a_rematch_and_the_next_game_begins() {
    let over = [
        r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
        r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
        r#"{"t":2000,"input":"online_end","status":"resign","color":"white"}"#,
    ];
    // The player offers one: asked, and the next game begins here.
    let mut lines = over.to_vec();
    lines.push(r#"{"t":3000,"input":"draw_offer","color":"white"}"#);
    let events = online(r#"{"name":"Bert","rating":1702}"#, &lines);
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "rematch");
    assert_eq!(
        requests[0]["say"],
        "You offer Bert a rematch. Set up the pieces."
    );
    assert_eq!(common::of(&events, "new_game").len(), 1, "{events:#?}");
    // The opponent offers one: told; accepted…
    let mut lines = over.to_vec();
    lines.push(r#"{"t":2500,"input":"online_rematch"}"#);
    lines.push(r#"{"t":3000,"input":"draw_offer","color":"white"}"#);
    let events = online(r#"{"name":"Bert","rating":1702}"#, &lines);
    let offers = common::of(&events, "online_offer");
    assert_eq!(offers.len(), 1, "{events:#?}");
    assert_eq!(
        (&offers[0]["offer"], &offers[0]["color"]),
        (&"rematch".into(), &"black".into())
    );
    assert!(
        offers[0]["say"]
            .as_str()
            .is_some_and(|s| s.starts_with("Bert offers a rematch.")),
        "{offers:#?}"
    );
    let requests = common::of(&events, "online_request");
    assert_eq!(requests[0]["request"], "rematch_accept", "{events:#?}");
    assert_eq!(common::of(&events, "new_game").len(), 1);
    // …or declined, and nothing begins.
    let mut lines = over.to_vec();
    lines.push(r#"{"t":2500,"input":"online_rematch"}"#);
    lines.push(r#"{"t":3000,"input":"draw_decline","color":"white"}"#);
    let events = online(r#"{"name":"Bert","rating":1702}"#, &lines);
    let requests = common::of(&events, "online_request");
    assert_eq!(requests.len(), 1, "{events:#?}");
    assert_eq!(requests[0]["request"], "rematch_decline");
    assert!(common::of(&events, "new_game").is_empty(), "{events:#?}");
    // While the game goes on, an offer of a rematch is no such thing.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"online_rematch"}"#,
        ],
    );
    assert!(
        common::of(&events, "online_offer").is_empty(),
        "{events:#?}"
    );
}

#[test]
fn online_a_chess960_game_starts_from_lichess_start_and_the_next_game_from_the_old_one() {
    // lichess's Chess960 start 14: the online game begins there (a
    // `ready` tells every reader), castling is Chess960's (F3: the king
    // from e1 to c1, its rook staying on d1), and once it is over the next
    // game starts from the session's own start again.
    let fen = "qnnrkbbr/pppppppp/8/8/8/8/PPPPPPPP/QNNRKBBR w KQkq - 0 1";
    let text = format!(
        "{{\"t\":0,\"trace\":1,\"start\":\"startpos\",\"black_moves_on\":\"lichess\"}}\n\
         {{\"t\":10,\"input\":\"online_game\",\"game\":{{\"id\":\"ab12\",\"site\":\"https://lichess.org/ab12\",\
         \"color\":\"white\",\"white\":{{\"name\":\"Anna\"}},\"black\":{{\"name\":\"Bert\"}},\
         \"initial_ms\":900000,\"increment_ms\":10000,\"initial_fen\":\"{fen}\",\"chess960\":true}}}}\n\
         {{\"t\":500,\"input\":\"move\",\"uci\":\"c1d3\"}}\n\
         {{\"t\":900,\"input\":\"move\",\"uci\":\"c8d6\"}}\n\
         {{\"t\":1500,\"input\":\"move\",\"uci\":\"e1d1\"}}\n\
         {{\"t\":2000,\"input\":\"online_end\",\"status\":\"resign\",\"color\":\"white\"}}\n\
         {{\"t\":2500,\"input\":\"new_game\"}}\n"
    );
    let events = common::to_json(&common::replayed_in(
        &common::parse(&text),
        pegboard::core::Settings::default(),
        pegboard::announce::Phrasebook::default()
            .in_language("en")
            .expect("English"),
    ));
    let readies = common::of(&events, "ready");
    let fens: Vec<&str> = readies
        .iter()
        .map(|r| r["fen"].as_str().unwrap_or_default())
        .collect();
    let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(fens, [standard, fen, standard], "{events:#?}");
    assert_eq!(readies[1]["variant"], "chess960");
    assert_eq!(readies[2]["variant"], "standard");
    // The ready comes before the game is told: readers start from it.
    let at = |name: &str| events.iter().position(|e| e["event"] == name);
    assert!(at("online_game") > Some(1), "{events:#?}");
    let moves = common::of(&events, "move");
    assert_eq!(moves.len(), 3, "{events:#?}");
    assert_eq!(moves[2]["san"], "O-O-O");
    assert_eq!(
        moves[2]["fen"], "qn1rkbbr/pppppppp/3n4/8/8/3N4/PPPPPPPP/QNKR1BBR b kq - 3 2",
        "as python-chess plays e1d1 in this Chess960 position"
    );
    let said = common::of(&events, "online_game")[0]["say"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        said.ends_with("Chess960: set up its start position on the board."),
        "{said}"
    );
}

#[test]
fn online_a_game_whose_start_is_no_legal_position_is_refused_as_the_trace_is_read() {
    let text = "{\"t\":0,\"trace\":1,\"start\":\"startpos\",\"black_moves_on\":\"lichess\"}\n\
         {\"t\":10,\"input\":\"online_game\",\"game\":{\"id\":\"ab12\",\"site\":\"s\",\
         \"color\":\"white\",\"white\":{\"name\":\"Anna\"},\"black\":{\"name\":\"Bert\"},\
         \"initial_fen\":\"8/8/8/8/8/8/8/8 w - - 0 1\"}}\n";
    let err = pegboard::trace::read(text.as_bytes(), "test").expect_err("refused");
    let err = err.to_string();
    assert!(
        err.starts_with("test:2:") && err.contains("initial_fen") && err.contains("missing king"),
        "{err}"
    );
}

/// The events of `lines` after the trace's head, said in English.
fn english(lines: &[&str]) -> Vec<Value> {
    let mut text = String::from(
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\",\"black_moves_on\":\"lichess\"}\n",
    );
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    common::to_json(&common::replayed_in(
        &common::parse(&text),
        pegboard::core::Settings::default(),
        pegboard::announce::Phrasebook::default()
            .in_language("en")
            .expect("English"),
    ))
}

#[test]
fn online_the_correspondence_games_under_way_are_said_and_chosen_with_the_menus_keys() {
    let games = r#"{"t":100,"input":"online_games","games":[{"id":"aaaa1111","opponent":"Bert","my_turn":false},{"id":"bbbb2222","opponent":"Carl","my_turn":true}]}"#;
    let events = english(&[
        games,
        r#"{"t":200,"input":"menu_next"}"#,
        r#"{"t":300,"input":"menu_next"}"#,
        r#"{"t":400,"input":"menu_next"}"#,
        r#"{"t":500,"input":"menu_back"}"#,
        r#"{"t":600,"input":"menu_back"}"#,
        r#"{"t":700,"input":"menu_select"}"#,
        // Chosen: the keys are the menu's no more.
        r#"{"t":800,"input":"menu_next"}"#,
    ]);
    assert_eq!(
        said(&events, "online_games"),
        ["Games under way: 2. Next and select choose one. 1: against Bert, the opponent's move."]
    );
    assert_eq!(
        said(&events, "menu"),
        [
            "2: against Carl, your move.",
            "3: a new game.",
            "1: against Bert, the opponent's move.",
            "3: a new game.",
            "2: against Carl, your move.",
        ],
        "next and back go round"
    );
    let chosen = common::of(&events, "online_chosen");
    assert_eq!(chosen.len(), 1, "{events:#?}");
    assert_eq!(chosen[0]["game"], "bbbb2222");
    assert_eq!(chosen[0]["say"], "Chosen: 2: against Carl, your move.");
    // The last choice: a new game.
    let events = english(&[
        games,
        r#"{"t":200,"input":"menu_back"}"#,
        r#"{"t":300,"input":"menu_select"}"#,
    ]);
    let chosen = common::of(&events, "online_chosen");
    assert!(chosen[0]["game"].is_null(), "{events:#?}");
}

#[test]
fn online_a_correspondence_game_left_at_the_board_is_not_resigned_on_lichess() {
    // A game of days a move (no clock) left for a new one waits on
    // lichess, to be taken up again: nothing is asked of the server.
    let events = english(&[
        r#"{"t":10,"input":"online_game","game":{"id":"ab12","site":"https://lichess.org/ab12","color":"white","white":{"name":"Anna"},"black":{"name":"Bert"},"days":3}}"#,
        r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
        r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
        r#"{"t":2000,"input":"new_game"}"#,
        r#"{"t":2500,"input":"new_game"}"#,
    ]);
    assert!(
        common::of(&events, "online_request").is_empty(),
        "{events:#?}"
    );
    assert_eq!(common::of(&events, "new_game").len(), 1);
    assert!(
        common::of(&events, "clock").is_empty(),
        "no clock: {events:#?}"
    );
}

#[test]
fn online_a_draw_offer_lichess_would_drop_is_told_and_not_made() {
    // lila takes a player's draw offer once both have moved and one in 20
    // plies (GameExt `playerCanOfferDraw`); it drops any other without a
    // word, so the player is told instead, and no offer is made.
    // The Opera Game's moves (Morphy, 1858), offers at plies 0, 2, 22
    // (too soon after the one at 2) and 24.
    let opera = "e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 \
                 b1c3 c7c6 c1g5 b7b5 c3b5 c6b5 c4b5 b8d7 e1c1 a8d8";
    let mut lines = vec![r#"{"t":500,"input":"draw_offer","color":"white"}"#.to_string()];
    let mut t = 1000;
    for (i, uci) in opera.split_whitespace().enumerate() {
        lines.push(format!(r#"{{"t":{t},"input":"move","uci":"{uci}"}}"#));
        t += 500;
        if matches!(i + 1, 2 | 22 | 24) {
            lines.push(format!(
                r#"{{"t":{t},"input":"draw_offer","color":"white"}}"#
            ));
            t += 500;
        }
    }
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let events = online(r#"{"name":"Bert","rating":1702}"#, &lines);
    let notices: Vec<&Value> = common::of(&events, "online_notice")
        .into_iter()
        .filter(|n| n["notice"] == "draw_not_now")
        .collect();
    assert_eq!(
        notices.len(),
        2,
        "before both moved, and at ply 22: {events:#?}"
    );
    assert_eq!(notices[0]["t"], 500);
    assert_eq!(
        notices[0]["say"],
        "lichess takes no draw offer now: only after both have moved, and one in 20 half-moves."
    );
    let offers = common::of(&events, "draw_offer");
    assert_eq!(offers.len(), 2, "at ply 2 and at ply 24: {events:#?}");
}

#[test]
fn online_a_draw_claim_with_no_repetition_counts_as_the_offer_lichess_makes_of_it() {
    // lila's draw/yes without a repetition to claim is the player's draw
    // offer (Drawer `yes`), counted for its 20 plies like any offer: a
    // real offer soon after it is told as one lichess would drop.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"move","uci":"e7e5"}"#,
            r#"{"t":2000,"input":"draw_claim","color":"white"}"#,
            r#"{"t":2500,"input":"move","uci":"g1f3"}"#,
            r#"{"t":3000,"input":"move","uci":"b8c6"}"#,
            r#"{"t":3500,"input":"draw_offer","color":"white"}"#,
        ],
    );
    let claims = common::of(&events, "online_request");
    assert_eq!(claims.len(), 1, "{events:#?}");
    assert_eq!(claims[0]["request"], "draw_claim");
    let notices = common::of(&events, "online_notice");
    assert!(
        notices
            .iter()
            .any(|n| n["notice"] == "draw_not_now" && n["t"] == 3500),
        "{events:#?}"
    );
    assert!(common::of(&events, "draw_offer").is_empty(), "{events:#?}");
}

#[test]
fn online_a_takeback_asked_before_both_have_moved_is_told_and_not_asked() {
    // lila takes a takeback request once both have moved (Game
    // `playerCanProposeTakeback`) and drops any other unsaid.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1500,"input":"practice_take_back"}"#,
            r#"{"t":2000,"input":"move","uci":"e7e5"}"#,
            r#"{"t":2500,"input":"practice_take_back"}"#,
        ],
    );
    let notices = common::of(&events, "online_notice");
    assert_eq!(notices.len(), 1, "{events:#?}");
    assert_eq!(notices[0]["notice"], "takeback_not_now");
    assert_eq!(notices[0]["t"], 1500);
    assert_eq!(
        notices[0]["say"],
        "lichess takes a takeback request only once both have moved."
    );
    let asked = common::of(&events, "online_request");
    assert_eq!(asked.len(), 1, "{events:#?}");
    assert_eq!(
        (asked[0]["request"].as_str(), &asked[0]["t"]),
        (Some("takeback"), &Value::from(2500))
    );
}

#[test]
fn online_neither_players_first_move_is_timed_and_the_clock_starts_after_both() {
    // lila runs no clock until both players have moved (its clock starts
    // with the second move): Black's long first move costs him nothing,
    // and then White's clock runs.
    let events = online(
        r#"{"name":"Bert","rating":1702}"#,
        &[
            r#"{"t":1000,"input":"move","uci":"e2e4"}"#,
            r#"{"t":1000,"input":"announced","ply":1}"#,
            r#"{"t":61000,"input":"move","uci":"e7e5"}"#,
            r#"{"t":61000,"input":"announced","ply":2}"#,
            r#"{"t":66000,"input":"move","uci":"g1f3"}"#,
            r#"{"t":66000,"input":"announced","ply":3}"#,
        ],
    );
    let clocks: Vec<&Value> = common::of(&events, "clock")
        .into_iter()
        .filter(|c| c["cause"] != "set")
        .collect();
    let first = clocks.first().expect("a clock event");
    assert_eq!(first["t"], 61000, "{events:#?}");
    assert_eq!(first["running"], "white");
    assert_eq!(first["black"]["remaining_ms"], 900_000);
    assert_eq!(first["white"]["remaining_ms"], 900_000);
    // White's second move took 5 s of his time, and earned his increment.
    let next = &clocks[1];
    assert_eq!(next["t"], 66000);
    assert_eq!(next["white"]["remaining_ms"], 900_000 - 5_000 + 10_000);
}

#[test]
fn every_reason_lichess_gives_is_one_the_languages_word() {
    use pegboard::core::online::REASONS;
    use pegboard::lichess::reason::{DECLINES, REFUSALS};
    let given: Vec<&str> = DECLINES.iter().map(|(_, r)| *r).chain(REFUSALS).collect();
    assert_eq!(given.len(), REASONS.len());
    for r in given {
        assert!(REASONS.contains(&r), "{r}");
    }
}
