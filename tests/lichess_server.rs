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
    assert_eq!(wrong_method, 1, "the DELETE alone: {problems}");
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
