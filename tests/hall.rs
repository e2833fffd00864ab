//! `pegboard hall` against real boards: each board a `pegboard play` of
//! its own, reading a sensor trace and serving its mirror, the hub
//! following them over HTTP as it would in a hall.

mod common;

#[path = "support/lichess.rs"]
mod lichess;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::Reaped;
use serde_json::Value;

/// A port free now on loopback (a board is restarted on the same one).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    get_as(addr, "127.0.0.1", path)
}

/// A GET naming `host` as the server's.
fn get_as(addr: SocketAddr, host: &str, path: &str) -> (u16, String) {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return (0, String::new());
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    );
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// The hub's view.
fn view(addr: SocketAddr) -> Value {
    serde_json::from_str(&get(addr, "/state").1).unwrap_or(Value::Null)
}

/// Waits (at most two minutes: a busy machine) until `done` holds of the
/// hub's view; the view then.
fn view_when(addr: SocketAddr, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let began = Instant::now();
    loop {
        let v = view(addr);
        if done(&v) {
            return v;
        }
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "never {what}: {v}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A board: `play` reading `trace` (JSON lines after the header), its
/// clock at 5 minutes, its mirror on `port`, its games in `dir`.
fn board(dir: &std::path::Path, name: &str, port: u16, moves: &str, tags: &str) -> Reaped {
    let trace = dir.join(format!("{name}.jsonl"));
    std::fs::write(
        &trace,
        format!("{{\"t\":0,\"trace\":1,\"start\":\"startpos\"}}\n{moves}"),
    )
    .expect("trace");
    let config = dir.join(format!("{name}.toml"));
    std::fs::write(
        &config,
        format!(
            "[clock]\ncontrol = \"5+0\"\n[game]\n{tags}\n[mirror]\nlisten = \"127.0.0.1:{port}\"\n\
             [journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            dir.join(format!("{name}-games")).display(),
            trace.display()
        ),
    )
    .expect("config");
    let mut child = Reaped(
        common::pegboard_command()
            .args(["play", "--silent", "--config"])
            .arg(&config)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("play starts"),
    );
    let mut out = BufReader::new(child.0.stdout.take().expect("stdout"));
    common::mirror_of(&mut out, &mut String::new());
    // What it prints later is read and dropped, so that it never waits.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    child
}

/// Board 1 playing GAME_1, its players named in its tags, and board 2
/// playing GAME_2, its players named nowhere; and their ports.
fn two_boards(dir: &std::path::Path) -> ([Reaped; 2], [u16; 2]) {
    let ports = [free_port(), free_port()];
    let one = board(
        dir,
        "one",
        ports[0],
        GAME_1,
        "white = \"Ann Weiss\"\nblack = \"Ben Schwarz\"",
    );
    let two = board(dir, "two", ports[1], GAME_2, "");
    ([one, two], ports)
}

/// The hub on `config`: its address, read from what it says.
fn hub(config: &std::path::Path) -> (Reaped, SocketAddr) {
    let mut child = Reaped(
        common::pegboard_command()
            .args(["hall", "--config"])
            .arg(config)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("hall starts"),
    );
    let mut err = BufReader::new(child.0.stderr.take().expect("stderr"));
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).expect("a line") > 0,
            "the hub never said where: {seen}"
        );
        seen.push_str(&line);
        if let Some((_, rest)) = line.split_once("the hall view is at http://") {
            let addr = rest.split('/').next().unwrap_or_default();
            std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
            return (child, addr.parse().expect("an address"));
        }
    }
}

fn hub_config(dir: &std::path::Path, ports: &[u16], more: &str) -> std::path::PathBuf {
    let mut text = format!(
        "language = \"en\"\n[hall]\nlisten = \"127.0.0.1:0\"\nevent = \"Blind Open\"\n\
         round = \"4\"\n{more}\n"
    );
    for (i, port) in ports.iter().enumerate() {
        text.push_str(&format!(
            "[[hall.boards]]\nnumber = {}\naddress = \"127.0.0.1:{port}\"\n",
            i + 1
        ));
    }
    let path = dir.join("hall.toml");
    std::fs::write(&path, text).expect("hall config");
    path
}

/// Board 1: 1. e4 e5 2. Nf3, then Black's pawn from d7 to d4, an illegal
/// move (3.7), left standing.
const GAME_1: &str = "{\"t\":300,\"lift\":\"e2\"}\n{\"t\":500,\"place\":\"e4\"}\n\
    {\"t\":1500,\"lift\":\"e7\"}\n{\"t\":1700,\"place\":\"e5\"}\n\
    {\"t\":2500,\"lift\":\"g1\"}\n{\"t\":2700,\"place\":\"f3\"}\n\
    {\"t\":3500,\"lift\":\"d7\"}\n{\"t\":3700,\"place\":\"d4\"}\n";

/// Board 2: 1. d4.
const GAME_2: &str = "{\"t\":300,\"lift\":\"d2\"}\n{\"t\":500,\"place\":\"d4\"}\n";

fn plies(v: &Value, board: usize) -> u64 {
    v["boards"][board]["ply"].as_u64().unwrap_or(0)
}

#[test]
fn the_hub_follows_every_board_shows_what_needs_the_arbiter_and_serves_the_round() {
    let dir = common::empty_dir("hall-follow");
    let (_boards, ports) = two_boards(&dir);
    let config = hub_config(&dir, &ports, "");
    let (_hub, addr) = hub(&config);
    let v = view_when(addr, "both boards followed with their moves", |v| {
        plies(v, 0) == 3
            && plies(v, 1) == 1
            && v["needs"]
                .as_array()
                .is_some_and(|n| n.iter().any(|n| n["kind"] == "illegal"))
    });
    assert_eq!(v["boards"][0]["presence"], "followed", "{v}");
    assert_eq!(v["boards"][0]["last_move"]["san"], "Nf3", "{v}");
    assert_eq!(
        v["boards"][0]["white"], "Ann Weiss",
        "from the board's tags"
    );
    assert_eq!(v["boards"][1]["last_move"]["san"], "d4", "{v}");
    // The illegal move needs the arbiter (7.5), named with its board and
    // its player, on the board's tile too.
    let illegal = v["needs"]
        .as_array()
        .and_then(|n| n.iter().find(|n| n["kind"] == "illegal"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(illegal["board"], 1, "{v}");
    assert_eq!(illegal["color"], "black", "{v}");
    assert_eq!(illegal["count"], 1, "{v}");
    assert_eq!(v["boards"][0]["needs"][0]["kind"], "illegal", "{v}");
    assert_eq!(v["boards"][1]["needs"], serde_json::json!([]), "{v}");
    // Both clocks as each board reads them.
    assert!(
        v["boards"][1]["clock"]["white_ms"].as_u64().is_some(),
        "{v}"
    );
    // The round: each game with the round's tags, its moves and clocks.
    let round = {
        let began = Instant::now();
        loop {
            let (status, text) = get(addr, "/round.pgn");
            assert_eq!(status, 200);
            if text.contains("2. Nf3") && text.contains("1. d4") {
                break text;
            }
            assert!(began.elapsed() < Duration::from_secs(60), "{text}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // Board 2's players have no names; with no broadcast, that needs
    // nobody.
    assert!(
        !view(addr)["needs"].to_string().contains("unnamed"),
        "{}",
        view(addr)
    );
    let games: Vec<&str> = round.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2, "{round}");
    assert!(games[0].starts_with("\"Blind Open\"]"), "{round}");
    assert!(games[0].contains("[Round \"4.1\"]"), "{round}");
    assert!(games[0].contains("[White \"Ann Weiss\"]"), "{round}");
    // The clock as the board read it after each move: 5 minutes, less
    // what the move took.
    assert!(games[0].contains("1. e4 { [%clk 0:04:5"), "{round}");
    assert!(games[1].contains("[Round \"4.2\"]"), "{round}");
    // python-chess, which pegboard did not write, reads the round back.
    let read = std::process::Command::new("python3")
        .args([
            "-c",
            "import chess.pgn, io, sys\n\
             t = io.StringIO(sys.stdin.read())\n\
             while (g := chess.pgn.read_game(t)) is not None:\n\
             \x20   assert not g.errors, g.errors\n\
             \x20   print(g.headers['Round'], g.end().board().fen())",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(round.as_bytes())?;
            c.wait_with_output()
        })
        .expect("python3 runs");
    let printed = String::from_utf8_lossy(&read.stdout);
    assert!(read.status.success(), "{printed}");
    assert_eq!(
        printed.lines().collect::<Vec<_>>(),
        [
            "4.1 rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "4.2 rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        ]
    );
}

#[test]
fn a_board_that_goes_away_is_lost_keeps_its_game_and_is_followed_again_and_a_restarted_hub_has_it_all()
 {
    let dir = common::empty_dir("hall-lost");
    let ports = [free_port()];
    let b1 = board(&dir, "one", ports[0], GAME_2, "");
    let config = hub_config(&dir, &ports, "");
    let (hub1, addr) = hub(&config);
    view_when(addr, "the board followed", |v| plies(v, 0) == 1);
    // Its scoresheet is read just after its state.
    let began = Instant::now();
    while !get(addr, "/round.pgn").1.contains("1. d4") {
        assert!(began.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(50));
    }
    // The board's pegboard ends: lost, its game as last seen kept.
    drop(b1);
    let v = view_when(addr, "the board lost", |v| {
        v["boards"][0]["presence"] == "lost"
    });
    assert_eq!(v["needs"][0]["kind"], "lost", "{v}");
    assert_eq!(v["boards"][0]["last_move"]["san"], "d4", "{v}");
    assert!(get(addr, "/round.pgn").1.contains("1. d4"));
    // It comes back (its journal takes the game up again): followed again.
    let _b1 = board(&dir, "one", ports[0], "", "");
    let v = view_when(addr, "the board followed again", |v| {
        v["boards"][0]["presence"] == "followed"
    });
    assert_eq!(plies(&v, 0), 1, "{v}");
    // The hub itself restarts: everything is back from the board.
    drop(hub1);
    let (_hub2, addr) = hub(&config);
    let v = view_when(addr, "the board followed by the new hub", |v| {
        plies(v, 0) == 1
    });
    assert_eq!(v["boards"][0]["last_move"]["san"], "d4", "{v}");
    let began = Instant::now();
    while !get(addr, "/round.pgn").1.contains("1. d4") {
        assert!(began.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Board 3: the fool's mate, 1. f3 e5 2. g4 Qh4#, 0-1.
const FOOLS_MATE: &str = "{\"t\":300,\"lift\":\"f2\"}\n{\"t\":500,\"place\":\"f3\"}\n\
    {\"t\":1500,\"lift\":\"e7\"}\n{\"t\":1700,\"place\":\"e5\"}\n\
    {\"t\":2500,\"lift\":\"g2\"}\n{\"t\":2700,\"place\":\"g4\"}\n\
    {\"t\":3500,\"lift\":\"d8\"}\n{\"t\":3700,\"place\":\"h4\"}\n";

#[test]
fn a_finished_game_stays_the_rounds_when_its_board_starts_again_with_the_next() {
    let dir = common::empty_dir("hall-next");
    let ports = [free_port()];
    let tags = "white = \"Ann Weiss\"\nblack = \"Ben Schwarz\"";
    let b1 = board(&dir, "one", ports[0], FOOLS_MATE, tags);
    let config = hub_config(&dir, &ports, "");
    let (_hub, addr) = hub(&config);
    view_when(addr, "the mate", |v| v["boards"][0]["result"] == "0-1");
    let began = Instant::now();
    while !get(addr, "/round.pgn").1.contains("[Result \"0-1\"]") {
        assert!(began.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(50));
    }
    // The board's pegboard starts again (switched off and on): its game
    // is over, so it begins the next one on the start position, its game
    // time from nought again.
    drop(b1);
    let _b1 = board(&dir, "one", ports[0], "", tags);
    let v = view_when(addr, "the next game seen", |v| {
        v["boards"][0]["later_game"] == true && v["boards"][0]["presence"] == "followed"
    });
    assert_eq!(v["boards"][0]["result"], "0-1", "{v}");
    assert!(
        v["boards"][0]["last_move"]["san"]
            .as_str()
            .is_some_and(|san| san.starts_with("Qh4")),
        "{v}"
    );
    // Its new scoresheet has had time to be read, and is left out.
    std::thread::sleep(Duration::from_secs(2));
    let round = get(addr, "/round.pgn").1;
    assert!(round.contains("[Result \"0-1\"]"), "{round}");
    assert!(round.contains("2. g4 { [%clk"), "{round}");
    assert!(round.contains("Qh4#") && round.contains("} 0-1"), "{round}");
}

#[test]
fn the_organisers_delay_holds_every_move_back_from_the_public_but_not_from_the_arbiter() {
    let dir = common::empty_dir("hall-delay");
    let ports = [free_port()];
    let _b1 = board(&dir, "one", ports[0], GAME_1, "");
    // An hour's delay: nothing of the game is public yet. The round alone
    // is served on an address of its own, for the internet.
    let public = free_port();
    let config = hub_config(
        &dir,
        &ports,
        &format!("delay_s = 3600\nbroadcast_listen = \"127.0.0.1:{public}\""),
    );
    let (_hub, addr) = hub(&config);
    let v = view_when(addr, "the board followed", |v| plies(v, 0) == 3);
    assert_eq!(v["delay_s"], 3600);
    assert_eq!(
        v["boards"][0]["last_move"]["san"], "Nf3",
        "the arbiter sees all"
    );
    let round = get(addr, "/round.pgn").1;
    assert!(round.contains("[Round \"4.1\"]"), "{round}");
    assert!(round.contains("[Result \"*\"]"), "{round}");
    assert!(
        !round.contains("e4"),
        "a move is public an hour late: {round}"
    );
    // The public address serves the round, and nothing of the hall view.
    let public: SocketAddr = format!("127.0.0.1:{public}").parse().expect("address");
    assert_eq!(get(public, "/round.pgn"), (200, round.clone()));
    for path in ["/", "/state", "/events"] {
        assert_eq!(get(public, path).0, 404, "{path}");
    }
    // lichess asks for it by the name the organiser gave the source URL,
    // which the hall view itself does not answer to.
    assert_eq!(
        get_as(public, "club.example.org:8080", "/round.pgn"),
        (200, round)
    );
    assert_eq!(get_as(addr, "club.example.org", "/state").0, 421);
}

#[test]
fn check_config_names_a_bad_hall_at_its_line() {
    let dir = common::empty_dir("hall-check");
    let path = dir.join("hall.toml");
    std::fs::write(
        &path,
        "[hall]\n[[hall.boards]]\nnumber = 1\naddress = \"10.0.0.1:8080\"\n\
         [[hall.boards]]\nnumber = 1\naddress = \"10.0.0.2:8080\"\n",
    )
    .expect("config");
    let out = common::pegboard_command()
        .args(["check-config"])
        .arg(&path)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("hall.toml:6: board number 1 is given twice"),
        "{err}"
    );
    // A hub without boards is told what to add.
    std::fs::write(&path, "[hall]\nlisten = \"127.0.0.1:0\"\n").expect("config");
    let out = common::pegboard_command()
        .args(["hall", "--config"])
        .arg(&path)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("[hall] lists no boards"), "{err}");
}

#[test]
fn the_round_is_pushed_to_a_lichess_broadcast_one_push_at_a_time_and_a_429_waits_as_asked() {
    const TOKEN: &str = "lip_HallBroadcast2026xyz";
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.token_scopes("study:write");
    server
        .state()
        .broadcast_rounds
        .insert("aBcD1234".into(), Vec::new());
    // lichess asks the first push to wait.
    server
        .state()
        .path_faults
        .push_back(("POST /api/broadcast".into(), 429));
    let dir = common::empty_dir("hall-push");
    // Board 2's players are named nowhere.
    let (_boards, ports) = two_boards(&dir);
    let token_file = dir.join("broadcast-token");
    let config = hub_config(
        &dir,
        &ports,
        &format!(
            "[hall.push]\nround = \"aBcD1234\"\nserver = \"{}\"\ntoken_file = \"{}\"\n\
             retry_after_429_s = 5\n",
            server.url(),
            token_file.display()
        ),
    );
    // The token, kept from standard input, for its owner alone.
    let mut keep = common::pegboard_command()
        .args(["hall", "--keep-token", "--config"])
        .arg(&config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("hall --keep-token runs");
    keep.stdin
        .take()
        .expect("stdin")
        .write_all(format!("{TOKEN}\n").as_bytes())
        .expect("written");
    let kept = keep.wait_with_output().expect("ends");
    assert!(
        kept.status.success(),
        "{}",
        String::from_utf8_lossy(&kept.stderr)
    );
    let mode = std::fs::metadata(&token_file)
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777)
        .expect("kept");
    assert_eq!(mode, 0o600);
    let (_hub, addr) = hub(&config);
    // The first push is told to wait; the hall view says so.
    view_when(addr, "the 429 told", |v| {
        v["push"]["trouble"]
            .as_str()
            .is_some_and(|t| t.contains("429"))
    });
    // 5 s later (lichess's minute, shortened for the test) the round as it
    // stands then is pushed, whole.
    let began = Instant::now();
    let pushed = loop {
        let pushes = server.state().broadcast_rounds["aBcD1234"].clone();
        if let Some((_, body)) = pushes.last()
            && body.contains("2. Nf3")
            && body.contains("1. d4")
        {
            break pushes;
        }
        assert!(began.elapsed() < Duration::from_secs(150), "{pushes:?}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let st = server.state();
    let asked: Vec<f64> = st
        .received_at
        .iter()
        .filter(|(_, r)| r.starts_with("POST /api/broadcast/round/aBcD1234/push"))
        .map(|(t, _)| *t)
        .collect();
    assert!(asked.len() >= 2, "{asked:?}");
    assert!(
        asked[1] - asked[0] >= 4.9,
        "pushed again {} s after the 429",
        asked[1] - asked[0]
    );
    assert_eq!(st.most_pushing, 1, "two pushes at once");
    let round = &pushed.last().expect("a push").1;
    assert!(round.contains("[Round \"4.1\"]"), "{round}");
    assert!(round.contains("{ [%clk 0:04:5"), "{round}");
    // The broadcast shows board 1; board 2's game, its players unnamed,
    // lichess drops, and the hall view says so.
    let shown: Vec<String> = st.broadcast_shown["aBcD1234"].keys().cloned().collect();
    assert_eq!(shown, ["4.1"]);
    drop(st);
    let v = view_when(addr, "the push counted", |v| {
        v["push"]["moves"] == 4
            && v["needs"]
                .as_array()
                .is_some_and(|n| n.iter().any(|n| n["kind"] == "unnamed"))
    });
    assert!(v["push"]["trouble"].is_null(), "{v}");
    let unnamed: Vec<&Value> = v["needs"]
        .as_array()
        .map(|n| n.iter().filter(|n| n["kind"] == "unnamed").collect())
        .unwrap_or_default();
    assert_eq!(unnamed.len(), 1, "{v}");
    assert_eq!(unnamed[0]["board"], 2, "{v}");
    assert_eq!(unnamed[0]["colors"], serde_json::json!(["white", "black"]));
}

#[test]
fn a_round_that_reads_a_source_url_is_told_apart_from_a_game_lichess_could_not_read() {
    const TOKEN: &str = "lip_HallUpstream2026xyz";
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.token_scopes("study:write");
    {
        let mut st = server.state();
        st.broadcast_rounds.insert("uPsT1234".into(), Vec::new());
        st.broadcast_upstream.insert("uPsT1234".into());
    }
    let dir = common::empty_dir("hall-upstream");
    let ports = [free_port()];
    let _b1 = board(
        &dir,
        "one",
        ports[0],
        GAME_2,
        "white = \"Ann Weiss\"\nblack = \"Ben Schwarz\"",
    );
    let token_file = dir.join("broadcast-token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).expect("token");
    std::fs::set_permissions(
        &token_file,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .expect("mode");
    let config = hub_config(
        &dir,
        &ports,
        &format!(
            "[hall.push]\nround = \"uPsT1234\"\nserver = \"{}\"\ntoken_file = \"{}\"\n",
            server.url(),
            token_file.display()
        ),
    );
    let (_hub, addr) = hub(&config);
    let v = view_when(addr, "the refusal told", |v| {
        v["push"]["trouble"]
            .as_str()
            .is_some_and(|t| t.contains("source URL"))
    });
    let trouble = v["push"]["trouble"].as_str().unwrap_or_default();
    assert!(trouble.contains("[hall.push]"), "{trouble}");
    assert!(!trouble.contains("could not read"), "{trouble}");
    assert_eq!(v["push"]["pushed"], 0, "{v}");
    // Refused, it waits a minute rather than pushing again at once.
    std::thread::sleep(Duration::from_secs(3));
    let asked = server
        .state()
        .requests
        .iter()
        .filter(|r| r.starts_with("POST /api/broadcast/round/uPsT1234/push"))
        .count();
    assert_eq!(asked, 1);
}

/// A request to a hand-made board: its first line, its headers read past;
/// a `GET /pgn` is answered with `pgn` here (and `None` returned).
fn board_request(s: &mut TcpStream, pgn: &str) -> Option<String> {
    let mut reader = BufReader::new(s.try_clone().expect("clone"));
    let mut request = String::new();
    let _ = reader.read_line(&mut request);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
    }
    if !request.starts_with("GET /pgn") {
        return Some(request);
    }
    let _ = write!(
        s,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-chess-pgn\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{pgn}",
        pgn.len()
    );
    None
}

/// A board's mirror that sends `states` on its stream at once, as a
/// stream a busy hub fell behind on holds them, and serves the last
/// state's scoresheet: on `port`, for a minute.
fn hurried_board(port: u16, states: Vec<String>, pgn: String) {
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the board's port");
    std::thread::spawn(move || {
        let until = Instant::now() + Duration::from_secs(60);
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let states = states.clone();
            let pgn = pgn.clone();
            std::thread::spawn(move || {
                if board_request(&mut s, &pgn).is_none() {
                    return;
                }
                let _ = write!(
                    s,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                     Connection: close\r\n\r\n"
                );
                for state in &states {
                    let _ = write!(s, "event: state\ndata: {state}\n\n");
                }
                while Instant::now() < until {
                    if write!(s, ":\n\n").is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_secs(5));
                }
            });
            if Instant::now() >= until {
                return;
            }
        }
    });
}

#[test]
fn a_hub_behind_on_a_boards_stream_catches_up_with_it_at_once() {
    // Forty knight moves (80 plies), each a state on the board's stream,
    // all there at once when the hub reads them.
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let sans: Vec<&str> = (0..80).map(|i| cycle[i % 4]).collect();
    let states: Vec<String> = (1..=sans.len())
        .map(|ply| {
            let moves: Vec<Value> = sans[..ply]
                .iter()
                .enumerate()
                .map(|(i, san)| serde_json::json!({"san": san, "t": 1000 * (i + 1)}))
                .collect();
            serde_json::json!({"t": 1000 * ply, "run": 1, "game": 0, "ply": ply,
                "moves": moves, "result": null})
            .to_string()
        })
        .collect();
    let movetext: String = sans
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {} ", i + 1, pair.join(" ")))
        .collect();
    let pgn = format!(
        "[Event \"?\"]\n[White \"Ann Weiss\"]\n[Black \"Ben Schwarz\"]\n[Result \"*\"]\n\n{movetext}*\n"
    );
    let dir = common::empty_dir("hall-behind");
    let port = free_port();
    hurried_board(port, states, pgn);
    let config = hub_config(&dir, &[port], "");
    let (_hub, addr) = hub(&config);
    // Waiting a second on each state until the scoresheet matched it, as
    // the hub once did, took 80 s here; reading the scoresheet once for
    // each takes a moment.
    let began = Instant::now();
    loop {
        let (v, round) = (view(addr), get(addr, "/round.pgn").1);
        if plies(&v, 0) == 80 && round.contains("40. Ng1 Ng8") {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "the hub still behind after 20 s: ply {}, {round}",
            plies(&v, 0)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_board_whose_stream_broke_after_serving_is_tried_again_after_a_second_whatever_came_before() {
    // The board's first three streams fail before any answer (the hub
    // waits 1, 2, then 4 s between them); the fourth serves a state and
    // breaks in the middle of its body, as a dropped network breaks it.
    let port = free_port();
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the board's port");
    let opened = std::sync::Arc::new(std::sync::Mutex::new(Vec::<Instant>::new()));
    let broke = std::sync::Arc::new(std::sync::Mutex::new(None::<Instant>));
    {
        let (opened, broke) = (opened.clone(), broke.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { continue };
                let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n";
                if board_request(&mut s, pgn).is_none() {
                    continue;
                }
                let n = {
                    let mut o = opened
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    o.push(Instant::now());
                    o.len()
                };
                if n < 4 {
                    continue;
                }
                let state = r#"{"t":1000,"run":1,"game":0,"ply":1,"moves":[{"san":"e4","t":1000}],"result":null}"#;
                let _ = write!(
                    s,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                     Content-Length: 100000\r\n\r\nevent: state\ndata: {state}\n\n"
                );
                if n == 4 {
                    std::thread::sleep(Duration::from_millis(500));
                    *broke
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Instant::now());
                    continue;
                }
                std::thread::sleep(Duration::from_secs(30));
            }
        });
    }
    let dir = common::empty_dir("hall-broke");
    let config = hub_config(&dir, &[port], "");
    let (_hub, addr) = hub(&config);
    let began = Instant::now();
    let (broke_at, again) = loop {
        let o = opened
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let b = *broke
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let (Some(b), Some(&again)) = (b, o.get(4)) {
            break (b, again);
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "the board was opened {} times",
            o.len()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(plies(&view(addr), 0), 1, "its state was taken");
    // A second's wait (the hub's scheduling aside), not the 8 s its
    // earlier failures had grown the wait to.
    let waited = again.saturating_duration_since(broke_at);
    assert!(
        waited < Duration::from_secs(5),
        "tried again after {waited:?}"
    );
}
