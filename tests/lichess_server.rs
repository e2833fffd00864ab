//! The test lichess (tests/support/lichess.rs) held against a real
//! client: berserk, the lichess Python client, plays a whole game against
//! it through the Board API (a seek, the event stream, the game's stream,
//! every move, the clocks), as it would against lichess. So the test
//! server speaks what real clients expect, not only what pegboard
//! expects.

mod common;

#[path = "support/lichess.rs"]
mod lichess;

use std::time::Duration;

use pegboard::record::pgn::read_games;
use shakmaty::CastlingMode;

const TOKEN: &str = "lip_TestToken1234567890";

/// berserk seeks a 15+10 game, finds it on the event stream, plays
/// `mine` (White's moves) on the game's stream as it goes, and prints the
/// last state it saw as JSON.
const BERSERK_GAME: &str = r#"
import json, sys, threading
import berserk

url, token, mine = sys.argv[1], sys.argv[2], sys.argv[3].split()
client = berserk.Client(session=berserk.TokenSession(token), base_url=url)
threading.Thread(target=lambda: client.board.seek(15, 10), daemon=True).start()
game_id = None
for event in client.board.stream_incoming_events():
    if event.get("type") == "gameStart":
        game_id = event["game"]["gameId"]
        break
last = None
for line in client.board.stream_game_state(game_id):
    state = line["state"] if line["type"] == "gameFull" else line
    if line["type"] not in ("gameFull", "gameState"):
        continue
    last = state
    moves = state["moves"].split()
    if state["status"] != "started":
        break
    if len(moves) % 2 == 0:
        if len(moves) // 2 < len(mine):
            client.board.make_move(game_id, mine[len(moves) // 2])
        else:
            client.board.resign_game(game_id)
# berserk reads the clocks as time spans (its own conversion of the ms).
ms = lambda span: round(span.total_seconds() * 1000)
print(json.dumps({"id": game_id, "moves": last["moves"], "status": last["status"],
                  "winner": last.get("winner"), "wtime": ms(last["wtime"]),
                  "btime": ms(last["btime"])}))
"#;

#[test]
fn berserk_plays_a_whole_game_against_the_test_lichess() {
    // A game of Kasparov against Deep Blue: White's moves from berserk,
    // Black's from the server's opponent.
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(&path).expect("games")).expect("read");
    let (_, _, moves) = pegboard::sim::moves_of(&games[0].record).expect("moves");
    let uci: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.state().script = uci
        .iter()
        .skip(1)
        .step_by(2)
        .map(|m| (m.clone(), Duration::from_millis(30)))
        .collect();
    let white: Vec<String> = uci.iter().step_by(2).cloned().collect();
    let dir = common::empty_dir("berserk");
    let script = dir.join("game.py");
    std::fs::write(&script, BERSERK_GAME).expect("script");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .args([&server.url(), TOKEN, &white.join(" ")])
        .output()
        .expect("python3 runs (berserk is installed by .ci/setup.sh)");
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last: serde_json::Value = serde_json::from_str(printed.trim()).expect("a JSON state");
    // Every move of the record was played, in order, and the game ended
    // when the record does: with a mate, or the side out of moves resigns.
    assert_eq!(last["moves"], uci.join(" "), "{last}");
    let status = last["status"].as_str().unwrap_or_default();
    assert!(matches!(status, "mate" | "resign"), "{last}");
    assert!(
        matches!(last["winner"].as_str(), Some("white" | "black")),
        "{last}"
    );
    // The clocks ran: each side has less than its 15 minutes and
    // increments, and no more than the increments could give.
    let plies = uci.len() as u64;
    for side in ["wtime", "btime"] {
        let left = last[side].as_u64().expect("a clock");
        assert!(left <= 900_000 + plies / 2 * 10_000, "{side}: {left}");
        assert!(left > 800_000, "{side}: {left}");
    }
    // The server saw every move as the Board API sends it.
    let st = server.state();
    let id = last["id"].as_str().expect("the game's id");
    for m in &white[..white.len().min(uci.len().div_ceil(2))] {
        let request = format!("POST /api/board/game/{id}/move/{m}");
        assert!(st.requests.contains(&request), "{request}");
    }
    drop(st);
    // Every request berserk made, and every line and answer the server
    // gave, is what lichess's OpenAPI description says.
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// berserk pushes two games to a broadcast round
/// (`broadcasts.push_pgn_update`), and then a third with an impossible
/// move.
const BERSERK_PUSH: &str = r#"
import sys, berserk
url, token, round_id = sys.argv[1], sys.argv[2], sys.argv[3]
client = berserk.Client(session=berserk.TokenSession(token), base_url=url)
one = '[Event "Open"]\n[White "Ann"]\n[Black "Ben"]\n[Result "*"]\n\n1. e4 { [%clk 1:30:00] } e5 *'
two = '[Event "Open"]\n[White "Carl"]\n[Black "Dora"]\n[Result "1-0"]\n\n1. d4 d5 2. c4 1-0'
bad = '[Event "Open"]\n[White "Eve"]\n[Black "Finn"]\n[Result "*"]\n\n1. e5 *'
client.broadcasts.push_pgn_update(round_id, [one, two])
client.broadcasts.push_pgn_update(round_id, [bad])
try:
    client.broadcasts.push_pgn_update("NoSuchRd", [one])
except berserk.exceptions.ResponseError as e:
    print("refused", e.status_code)
"#;

#[test]
fn berserk_pushes_a_broadcast_round_as_lila_takes_it() {
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.token_scopes("study:write");
    server
        .state()
        .broadcast_rounds
        .insert("aBcD1234".into(), Vec::new());
    let dir = common::empty_dir("berserk-push");
    let script = dir.join("push.py");
    std::fs::write(&script, BERSERK_PUSH).expect("script");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .args([&server.url(), TOKEN, "aBcD1234"])
        .output()
        .expect("python3 runs (berserk is installed by .ci/setup.sh)");
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(printed.trim(), "refused 404");
    let st = server.state();
    let pushes = &st.broadcast_rounds["aBcD1234"];
    assert_eq!(pushes.len(), 2);
    // berserk's body, games joined by a blank line, is read game by game,
    // as lila reads it.
    let answers: Vec<&str> = st
        .sent
        .iter()
        .filter(|(_, json)| json.starts_with("{\"games\""))
        .map(|(_, json)| json.as_str())
        .collect();
    assert_eq!(answers.len(), 2, "{:?}", st.sent);
    let first: serde_json::Value = serde_json::from_str(answers[0]).expect("JSON");
    assert_eq!(first["games"][0]["moves"], 2, "{first}");
    assert_eq!(first["games"][1]["moves"], 3, "{first}");
    assert_eq!(first["games"][1]["tags"]["White"], "Carl", "{first}");
    let second: serde_json::Value = serde_json::from_str(answers[1]).expect("JSON");
    assert_eq!(second["games"][0]["error"], "Invalid PGN", "{second}");
    drop(st);
    // One who may not contribute to the broadcast, and a body larger than
    // lila takes, are refused as lila refuses them.
    server.state().broadcast_not_contributor = true;
    let refused = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, berserk\n\
             c = berserk.Client(session=berserk.TokenSession(sys.argv[2]), base_url=sys.argv[1])\n\
             for games in (['[White \"A\"]\\n\\n1. e4 *'], ['[White \"A\"]\\n\\n' + '1. e4 ' * 200000]):\n\
             \x20   try:\n\
             \x20       c.broadcasts.push_pgn_update('aBcD1234', games)\n\
             \x20   except berserk.exceptions.ResponseError as e:\n\
             \x20       print(e.status_code)",
            &server.url(),
            TOKEN,
        ])
        .output()
        .expect("python3 runs");
    assert_eq!(
        String::from_utf8_lossy(&refused.stdout).trim(),
        "403\n413",
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert_eq!(server.state().broadcast_rounds["aBcD1234"].len(), 2);
}

#[test]
fn the_openapi_check_finds_what_is_not_lichess() {
    // The check is not vacuous: a state with a status lichess has not, a
    // game without its players, a path it does not serve, a method a path
    // it serves does not take (the description writes it `never`) and a
    // form field its seek does not take are each found.
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    {
        let mut st = server.state();
        st.sent.push((
            "GameStateEvent".into(),
            r#"{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"paused"}"#
                .into(),
        ));
        st.sent.push((
            "GameFullEvent".into(),
            r#"{"type":"gameFull","id":"x","variant":{"key":"standard","name":"Standard"},"speed":"rapid","perf":{"name":"Rapid"},"rated":false,"createdAt":1,"initialFen":"startpos","state":{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}"#
                .into(),
        ));
        st.asked.push((
            "POST".into(),
            "/api/board/game/{gameId}/pause".into(),
            String::new(),
        ));
        st.asked.push((
            "POST".into(),
            "/api/board/seek".into(),
            "time=15&increment=10&minutes=15".into(),
        ));
        st.asked
            .push(("PUT".into(), "/api/board/seek".into(), String::new()));
        // lila's DELETE of a seek, which the description leaves out, is
        // not one.
        st.asked
            .push(("DELETE".into(), "/api/board/seek".into(), String::new()));
    }
    let problems = server.openapi_problems().join("\n");
    assert!(problems.contains("\"paused\""), "{problems}");
    assert!(problems.contains("white"), "{problems}");
    assert!(
        problems.contains("/api/board/game/{gameId}/pause"),
        "{problems}"
    );
    assert!(problems.contains("minutes"), "{problems}");
    let wrong_method = problems
        .lines()
        .filter(|l| l.contains("Type 'true' is not assignable to type 'never'"))
        .count();
    assert_eq!(wrong_method, 1, "the PUT alone: {problems}");
}

#[test]
fn the_test_lichess_refuses_a_wrong_token_and_gives_the_faults_asked() {
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    let get = |token: &str| {
        use std::io::{Read as _, Write as _};
        let mut s = std::net::TcpStream::connect(server.addr).expect("connects");
        write!(
            s,
            "POST /api/board/game/nosuch/resign HTTP/1.1\r\nHost: x\r\n\
             Authorization: Bearer {token}\r\nContent-Length: 0\r\n\r\n"
        )
        .expect("sent");
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer
    };
    assert!(get("lip_wrong").starts_with("HTTP/1.1 401"));
    server.state().faults.push_back(429);
    assert!(get(TOKEN).starts_with("HTTP/1.1 429"));
    assert!(get(TOKEN).starts_with("HTTP/1.1 404"), "no such game");
}

/// One request to the server, its connection closed by the answer: the
/// status and the body (a stream's chunks as they came).
fn ask(server: &lichess::Lichess, method: &str, path: &str, form: &str) -> (u16, String) {
    use std::io::{Read as _, Write as _};
    let mut s = std::net::TcpStream::connect(server.addr).expect("connects");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    )
    .expect("sent");
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// Waits (10 s at most) until `ready` holds of the server's state.
fn wait_until(server: &lichess::Lichess, what: &str, ready: impl Fn(&lichess::State) -> bool) {
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while !ready(&server.state()) {
        assert!(std::time::Instant::now() < until, "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The only game on the server.
fn the_game(server: &lichess::Lichess) -> lichess::Game {
    server
        .state()
        .games
        .values()
        .next()
        .cloned()
        .expect("a game")
}

#[test]
fn a_seek_lila_refuses_one_at_a_time_and_one_cancelled() {
    let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
    // A blitz clock: lila's form refuses it, in its words.
    let (status, body) = ask(&server, "POST", "/api/board/seek", "time=5&increment=3");
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body,
        r#"{"global":["Invalid time control"],"error":{"global":["Invalid time control"]}}"#
    );
    // One seek held open (nobody pairs it): a second is refused.
    server.state().seek_pairs_after = Duration::from_secs(3600);
    let opened = std::thread::scope(|scope| {
        let held = scope.spawn(|| ask(&server, "POST", "/api/board/seek", "time=15&increment=10"));
        wait_until(&server, "the seek is open", |st| st.seeking);
        let (status, body) = ask(&server, "POST", "/api/board/seek", "time=15&increment=10");
        assert_eq!(
            (status, body.as_str()),
            (429, r#"{"error":"Please only run 1 request(s) at a time"}"#)
        );
        // Cancelled: 204, and the seek's stream ends with no game made.
        let (status, body) = ask(&server, "DELETE", "/api/board/seek", "");
        assert_eq!((status, body.as_str()), (204, ""));
        held.join().expect("the seek's answer")
    });
    assert_eq!(opened.0, 200);
    assert!(opened.1.ends_with("0\r\n\r\n"), "ended cleanly: {opened:?}");
    let st = server.state();
    assert!(st.games.is_empty());
    assert_eq!((st.seeks_cancelled, st.seek_closed_at.len()), (1, 1));
    assert!(!st.seeking);
    drop(st);
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_seek_pairs_with_lilas_colour_and_neither_first_move_is_timed() {
    let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
    {
        let mut st = server.state();
        st.seek_colors.push_back(shakmaty::Color::Black);
        st.script = [("e2e4".to_string(), Duration::from_millis(300))].into();
    }
    let (status, _) = ask(
        &server,
        "POST",
        "/api/board/seek",
        "time=10&increment=5&rated=true",
    );
    assert_eq!(status, 200);
    let game = the_game(&server);
    // lila's pick: Black; a rated seek of a pool's clock: the pool.
    assert_eq!(
        (game.mine, game.source, game.rated),
        (shakmaty::Color::Black, "pool", true)
    );
    assert!(game.state_json().contains(r#""expiration":{"idleMillis":"#));
    wait_until(&server, "White's first move", |st| {
        st.games.values().all(|g| g.moves.len() == 1)
    });
    std::thread::sleep(Duration::from_millis(300));
    let (status, body) = ask(
        &server,
        "POST",
        &format!("/api/board/game/{}/move/e7e5", game.id),
        "",
    );
    assert_eq!((status, body.as_str()), (200, r#"{"ok":true}"#));
    // Neither first move took time off a clock or added an increment.
    let game = the_game(&server);
    assert_eq!((game.wtime, game.btime), (600_000, 600_000));
    assert!(!game.state_json().contains("expiration"));
    // Out of turn, then not lila's UCI.
    let (status, body) = ask(
        &server,
        "POST",
        &format!("/api/board/game/{}/move/d7d5", game.id),
        "",
    );
    assert_eq!(
        (status, body.as_str()),
        (400, r#"{"error":"Not your turn, or game already over"}"#)
    );
    let (status, body) = ask(&server, "POST", "/api/board/game/nosuch/move/e2e4", "");
    assert_eq!(
        (status, body.as_str()),
        (404, r#"{"error":"No such game"}"#)
    );
}

#[test]
fn the_win_is_claimed_only_once_the_opponent_is_gone_long_enough() {
    let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
    server.state().script = [
        ("e7e5".to_string(), Duration::from_millis(20)),
        ("@gone:60".to_string(), Duration::from_millis(20)),
        ("@wait".to_string(), Duration::from_secs(600)),
    ]
    .into();
    assert_eq!(
        ask(&server, "POST", "/api/board/seek", "time=15&increment=10").0,
        200
    );
    let id = the_game(&server).id;
    let play = |uci: &str| {
        ask(
            &server,
            "POST",
            &format!("/api/board/game/{id}/move/{uci}"),
            "",
        )
    };
    assert_eq!(play("e2e4").0, 200);
    wait_until(&server, "Black's move", |st| st.games[&id].moves.len() == 2);
    // On the claimant's own turn there is nothing to claim: lila answers
    // ok and does nothing.
    let claim = || {
        ask(
            &server,
            "POST",
            &format!("/api/board/game/{id}/claim-victory"),
            "",
        )
    };
    assert_eq!(claim(), (200, r#"{"ok":true}"#.to_string()));
    assert_eq!(play("g1f3").0, 200);
    wait_until(&server, "the opponent gone", |st| {
        st.games[&id].gone.is_some()
    });
    // Gone, but not long enough.
    assert_eq!(
        claim(),
        (
            400,
            r#"{"error":"You cannot claim the win on this game"}"#.to_string()
        )
    );
    assert_eq!(the_game(&server).status, "started");
    // Long enough.
    if let Some(g) = server.state().games.get_mut(&id) {
        g.gone = Some((std::time::Instant::now(), Duration::ZERO));
    }
    assert_eq!(claim(), (200, r#"{"ok":true}"#.to_string()));
    let game = the_game(&server);
    assert_eq!(
        (game.status.as_str(), game.winner),
        ("timeout", Some(shakmaty::Color::White))
    );
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn lichesss_ai_takes_no_draw_offer_and_a_bullet_game_is_no_board_game() {
    let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
    server.state().script = [("e7e5".to_string(), Duration::from_millis(20))].into();
    let (status, body) = ask(
        &server,
        "POST",
        "/api/challenge/ai",
        "level=2&clock.limit=600&clock.increment=5&color=white",
    );
    assert_eq!(status, 201, "{body}");
    assert!(body.contains(r#""rated":false"#) && body.contains(r#""speed":"rapid""#));
    let id = the_game(&server).id;
    assert_eq!(
        ask(
            &server,
            "POST",
            &format!("/api/board/game/{id}/move/e2e4"),
            ""
        )
        .0,
        200
    );
    wait_until(&server, "the AI's move", |st| {
        st.games[&id].moves.len() == 2
    });
    let (status, body) = ask(
        &server,
        "POST",
        &format!("/api/board/game/{id}/draw/yes"),
        "",
    );
    assert_eq!((status, body.as_str()), (200, r#"{"ok":true}"#));
    let game = the_game(&server);
    assert_eq!((game.draw, game.status.as_str()), (None, "started"));
    assert!(!game.state_json().contains("draw\":true"));
    // A bullet game against the AI is made, but the Board API may not
    // play it.
    let (status, _) = ask(
        &server,
        "POST",
        "/api/challenge/ai",
        "level=1&clock.limit=60&clock.increment=0&color=white",
    );
    assert_eq!(status, 201);
    let bullet = server
        .state()
        .games
        .values()
        .find(|g| g.speed() == "bullet")
        .map(|g| g.id.clone())
        .expect("the bullet game");
    let (status, body) = ask(
        &server,
        "GET",
        &format!("/api/board/game/stream/{bullet}"),
        "",
    );
    assert_eq!(
        (status, body.as_str()),
        (
            400,
            r#"{"error":"This game cannot be played with the Board API."}"#
        )
    );
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_challenge_declined_is_told_with_lilas_reason_and_a_kept_alive_one_ends_accepted() {
    let server = lichess::Lichess::start(TOKEN, lichess::LILA_KEEP_ALIVE);
    server.state().challenge_answers.extend([
        lichess::ChallengeAnswer::decline(Duration::from_millis(50), "toofast"),
        lichess::ChallengeAnswer::Accept(Duration::from_millis(50)),
    ]);
    let (status, body) = ask(
        &server,
        "POST",
        "/api/challenge/Bert",
        "rated=true&clock.limit=300&clock.increment=3&color=white",
    );
    assert_eq!(status, 200, "{body}");
    wait_until(&server, "the decline", |st| {
        st.events.iter().any(|e| e.contains("challengeDeclined"))
    });
    let declined = server.state().events.last().cloned().unwrap_or_default();
    assert!(
        declined.contains(r#""declineReasonKey":"toofast""#)
            && declined.contains("too fast for me"),
        "{declined}"
    );
    // Kept alive: the challenge, then its end.
    let (status, body) = ask(
        &server,
        "POST",
        "/api/challenge/Bert",
        "rated=false&clock.limit=900&clock.increment=10&color=black&keepAliveStream=true",
    );
    assert_eq!(status, 200);
    assert!(
        body.contains(r#""challenger""#) && body.contains(r#"{"done":"accepted"}"#),
        "{body}"
    );
    let game = the_game(&server);
    assert_eq!(
        (game.source, game.rated, game.mine),
        ("friend", false, shakmaty::Color::Black)
    );
    let st = server.state();
    assert_eq!(st.challenges_sent, 2);
    assert!(st.games.contains_key(&game.id) && game.id.starts_with("chal"));
    drop(st);
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
