//! The mirror's web server over real sockets: every route, the state's
//! fields after each move of real games, what it refuses (other methods,
//! unknown paths, malformed and oversized requests), fifty event streams
//! at once with none dropped, and a clean stop with streams open that
//! still delivers what was handed over before it.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Event, Settings, Stamped};
use pegboard::mirror::Mirror;

#[path = "support/hall.rs"]
mod hall;
#[path = "support/mirror.rs"]
mod mirror_view;
use mirror_view::english;
use pegboard::record::pgn::read_games;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sim::{Style, simulate};
use serde_json::Value;
use shakmaty::Color;

fn start() -> Mirror {
    Mirror::start("127.0.0.1:0", english()).expect("the mirror starts")
}

/// One request as raw bytes; the status code and the body.
fn request(addr: SocketAddr, raw: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    s.write_all(raw).expect("sent");
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text).into_owned();
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (code, body)
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    request(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

fn state(addr: SocketAddr) -> Value {
    let (code, body) = get(addr, "/state");
    assert_eq!(code, 200);
    serde_json::from_str(&body).expect("JSON")
}

/// Waits until the state says `ply` (events reach the server through a
/// channel, so a moment may pass).
fn state_at(addr: SocketAddr, ply: u64) -> Value {
    let began = Instant::now();
    loop {
        let s = state(addr);
        if s["ply"] == ply {
            return s;
        }
        assert!(began.elapsed() < Duration::from_secs(5), "stuck at {s}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn game_events(file: &str, index: usize) -> Vec<Stamped> {
    let path = format!("{}/tests/games/{file}", env!("CARGO_MANIFEST_DIR"));
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    let entries = simulate(&games[index].record, 5, Style::default()).expect("simulated");
    let mut settings = Settings::default();
    settings.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn("300+3").expect("control"));
    replay(
        &entries,
        file,
        settings,
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replays")
}

#[test]
fn the_page_is_whole_small_and_served_with_every_route() {
    let m = start();
    let (code, page) = get(m.addr(), "/");
    assert_eq!(code, 200);
    assert!(page.len() < 150 * 1024, "{} bytes", page.len());
    assert!(page.contains("EventSource(\"/events\")"));
    for outside in ["http://", "https://", "src=\"//", "@import"] {
        assert!(
            !page.contains(outside),
            "the page fetches nothing: {outside}"
        );
    }
    let s = state(m.addr());
    for field in [
        "fen",
        "ply",
        "to_move",
        "variant",
        "moves",
        "last_move",
        "clock",
        "status",
        "result",
    ] {
        assert!(s.get(field).is_some(), "/state has {field}: {s}");
    }
    m.scoresheet("[Event \"?\"]\n\n1. e4 *\n".into());
    let began = Instant::now();
    loop {
        let (code, body) = get(m.addr(), "/pgn");
        assert_eq!(code, 200);
        if body.contains("1. e4") {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(5));
    }
    m.stop();
}

#[test]
fn state_matches_the_game_after_every_move_of_real_games() {
    for (file, index) in [
        ("immortal-games.pgn", 17),
        ("cutechess-fischerrandom.pgn", 1),
        ("kasparov-deep-blue-1997.pgn", 5),
    ] {
        let m = start();
        let events = game_events(file, index);
        let mut sent = 0;
        for (i, e) in events.iter().enumerate() {
            let Event::Move {
                ply,
                san,
                fen,
                uci,
                color,
                ..
            } = &e.event
            else {
                continue;
            };
            m.send(&events[sent..=i]);
            sent = i + 1;
            let s = state_at(m.addr(), u64::from(*ply));
            assert_eq!(s["fen"], fen.as_str(), "{file} ply {ply}");
            assert_eq!(s["moves"].as_array().map(Vec::len), Some(*ply as usize));
            assert_eq!(s["last_move"]["san"], san.as_str());
            assert_eq!(s["last_move"]["uci"], uci.as_str());
            let to_move = if color.0 == Color::White {
                "black"
            } else {
                "white"
            };
            assert_eq!(s["to_move"], to_move, "{file} ply {ply}");
            // The move to repeat is the blind player's (White's) last one.
            if color.0 == Color::White {
                assert_eq!(s["repeat"]["san"], san.as_str());
            } else {
                assert!(s["repeat"].is_null());
            }
            assert!(s["clock"]["white_ms"].is_u64());
        }
        m.send(&events[sent..]);
        m.stop();
    }
}

#[test]
fn other_methods_unknown_paths_and_bad_requests_are_refused_and_harm_nothing() {
    let m = start();
    let a = m.addr();
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let (code, _) = request(
            a,
            format!("{method} /state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(code, 405, "{method}");
    }
    assert_eq!(get(a, "/nothing").0, 404);
    assert_eq!(request(a, b"HELLO\r\n\r\n").0, 400);
    assert_eq!(request(a, b"GET / HTTP/1.1\r\nHost x\r\n\r\n").0, 400);
    // A head far over the bound: refused (431) or the connection closed.
    let big = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fill: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    let (code, _) = request(a, big.as_bytes());
    assert!(code == 431 || code == 400 || code == 0, "{code}");
    // Binary noise.
    let noise: Vec<u8> = (0..4096u32).map(|i| (i * 37 % 251) as u8).collect();
    let _ = request(a, &noise);
    // And it still serves.
    assert_eq!(get(a, "/state").0, 200);
    m.stop();
}

/// Reads SSE lines until `done` says so; the `data:` lines read.
fn sse_until(reader: &mut BufReader<TcpStream>, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
    let mut data = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return data,
            Ok(_) => {}
        }
        if let Some(d) = line.strip_prefix("data: ") {
            data.push(d.trim_end().to_string());
            if done(d) {
                return data;
            }
        }
    }
}

/// `n` viewers of the event stream, each from an address of its own and
/// past the state that comes first.
fn viewers(m: &Mirror, n: usize) -> Vec<BufReader<TcpStream>> {
    (0..n)
        .map(|i| {
            let mut s = hall::connect_from(hall::address(i), m.addr());
            s.set_read_timeout(Some(Duration::from_secs(10)))
                .expect("timeout");
            s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .expect("sent");
            let mut r = BufReader::new(s);
            let first = sse_until(&mut r, |_| true);
            assert!(first[0].contains("\"fen\""), "{first:?}");
            r
        })
        .collect()
}

#[test]
fn fifty_event_streams_each_get_the_state_then_every_event() {
    let m = start();
    let events = game_events("immortal-games.pgn", 17);
    let readers = viewers(&m, 50);
    m.send(&events);
    let moves = events
        .iter()
        .filter(|e| matches!(e.event, Event::Move { .. }))
        .count();
    let handles: Vec<_> = readers
        .into_iter()
        .map(|mut r| {
            std::thread::spawn(move || {
                let lines = sse_until(&mut r, |d| d.contains("\"event\":\"game_over\""));
                lines
                    .iter()
                    .filter(|d| d.contains("\"event\":\"move\""))
                    .count()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(
            h.join().expect("reader"),
            moves,
            "no stream dropped an event"
        );
    }
    // The stop ends open streams at once.
    let began = Instant::now();
    m.stop();
    assert!(began.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_stop_delivers_every_event_handed_over_before_it_to_every_viewer() {
    // pegboard stops (its time is up, SIGTERM) right after a move: the
    // sighted opponent's page must still get that move, and every viewer
    // the same lines.
    let m = start();
    let events = game_events("immortal-games.pgn", 17);
    let moves = events
        .iter()
        .filter(|e| matches!(e.event, Event::Move { .. }))
        .count();
    let readers = viewers(&m, 20);
    let handles: Vec<_> = readers
        .into_iter()
        .map(|mut r| {
            std::thread::spawn(move || {
                // Until the stream ends.
                sse_until(&mut r, |_| false)
                    .iter()
                    .filter(|d| d.contains("\"event\":\"move\""))
                    .count()
            })
        })
        .collect();
    // Each event on its own, the stop straight after the last.
    for e in &events {
        m.send(std::slice::from_ref(e));
    }
    let began = Instant::now();
    m.stop();
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "the stop took {:?}",
        began.elapsed()
    );
    for h in handles {
        assert_eq!(
            h.join().expect("reader"),
            moves,
            "every move handed over before the stop reached the viewer"
        );
    }
}

/// An event stream from `from`: whether it was let in, and the stream past
/// the state when it was.
fn stream_from(m: &Mirror, from: [u8; 3]) -> (bool, BufReader<TcpStream>) {
    let (status, r) = stream_status_from(m, from);
    (status == 200, r)
}

/// An event stream from `from`: the status the server answered with (0 for
/// none within 5 s), and the stream past the state when it was let in.
fn stream_status_from(m: &Mirror, from: [u8; 3]) -> (u16, BufReader<TcpStream>) {
    let mut s = hall::connect_from(from, m.addr());
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("sent");
    let mut r = BufReader::new(s);
    let mut head = String::new();
    let _ = r.read_line(&mut head);
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    if status == 200 {
        sse_until(&mut r, |_| true);
    }
    (status, r)
}

/// Whether the event stream `r` ends (its last chunk, or its connection
/// closed) within `within`.
fn ends_within(r: &mut BufReader<TcpStream>, within: Duration) -> bool {
    let began = Instant::now();
    r.get_ref()
        .set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    while began.elapsed() < within {
        let mut line = String::new();
        match r.read_line(&mut line) {
            Ok(0) => return true,
            Ok(_) if line == "0\r\n" => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn streams_past_the_bounds_are_refused_not_queued_and_shared_fairly() {
    use pegboard::net::limits::{MAX_STREAMS, STREAMS_PER_DEVICE};
    let m = start();
    // One laptop holds its share, and no more…
    let laptop = hall::in_network(9, 10);
    let mut mine: Vec<_> = (0..STREAMS_PER_DEVICE)
        .map(|_| {
            let (ok, r) = stream_from(&m, laptop);
            assert!(ok, "within the device's share");
            r
        })
        .collect();
    // Refused at once with 503, not held in a queue: a stream that got no
    // answer within its 5 s would read as 0 here.
    assert_eq!(
        stream_status_from(&m, laptop).0,
        503,
        "a device past its share gets 503"
    );
    // …the rest of the hall takes every other place…
    let mut open = Vec::new();
    for i in 0..MAX_STREAMS - STREAMS_PER_DEVICE {
        let (ok, r) = stream_from(&m, hall::address(i));
        assert!(ok, "viewer {i}");
        open.push(r);
    }
    // …and a viewer who comes now takes the laptop's oldest stream, one
    // at a time, until the laptop holds no more than anyone.
    for n in 1..STREAMS_PER_DEVICE {
        let (ok, r) = stream_from(&m, hall::address(500 + n));
        assert!(ok, "newcomer {n} takes a place from the laptop");
        open.push(r);
        assert!(
            ends_within(&mut mine[n - 1], Duration::from_secs(5)),
            "the laptop's oldest stream ended"
        );
    }
    assert!(
        !ends_within(
            &mut mine[STREAMS_PER_DEVICE - 1],
            Duration::from_millis(300)
        ),
        "its last stream stays"
    );
    // Everyone holds one: a newcomer takes nobody's, and is refused at once.
    assert_eq!(stream_status_from(&m, hall::address(900)).0, 503);
    assert!(
        !ends_within(&mut open[0], Duration::from_millis(300)),
        "a viewer's one stream is never taken"
    );
    drop(open);
    // Closed streams free their places.
    let began = Instant::now();
    while !stream_from(&m, laptop).0 {
        assert!(began.elapsed() < Duration::from_secs(5), "never freed");
        std::thread::sleep(Duration::from_millis(20));
    }
    m.stop();
}

#[test]
fn the_state_is_numbered_within_its_run_and_says_the_games_instant_now() {
    let m = start();
    let a = m.addr();
    let empty = state(a);
    assert_eq!(empty["seq"], 0, "{empty}");
    let run = empty["run"].as_u64().expect("the server's run");
    let events = game_events("immortal-games.pgn", 17);
    m.send(&events[..4]);
    m.send(&events[4..8]);
    let began = Instant::now();
    let taken = loop {
        let s = state(a);
        if s["seq"] == 2 {
            break s;
        }
        assert!(began.elapsed() < Duration::from_secs(5), "stuck at {s}");
        std::thread::sleep(Duration::from_millis(2));
    };
    assert_eq!(taken["run"], run, "one run");
    // The game's instant now: the last event's, and the time since it came.
    let last = events[7].t;
    let now = taken["now"].as_u64().expect("now");
    assert!(now >= last && now < last + 5000, "{now} against {last}");
    std::thread::sleep(Duration::from_millis(300));
    let later = state(a)["now"].as_u64().expect("now");
    assert!(later >= now + 300, "{later} after {now}");
    // Another server is another run.
    let other = start();
    assert_ne!(state(other.addr())["run"], run);
    other.stop();
    m.stop();
}

#[test]
fn an_address_in_use_or_malformed_is_a_clear_error() {
    let m = start();
    let taken = m.addr().to_string();
    let e = Mirror::start(&taken, english()).err().expect("in use");
    assert!(e.to_string().contains("cannot listen on"), "{e}");
    let e = Mirror::start("localhost", english())
        .err()
        .expect("no port");
    assert!(e.to_string().contains("[mirror] listen"), "{e}");
    m.stop();
}

#[test]
fn play_serves_its_game_and_scoresheet_on_the_mirror() {
    let dir = std::env::temp_dir().join(format!("pegboard-mirror-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let config = common::nf3_play_config(&dir, "[mirror]\nlisten = \"127.0.0.1:0\"\n");
    let mut child = common::pegboard_command()
        .args(["play", "--silent", "--seconds", "4", "--config", &config])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("play starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let addr = common::mirror_of(&mut out, &mut String::new());
    let s = state_at(addr, 1);
    assert_eq!(s["last_move"]["san"], "Nf3");
    assert_eq!(
        s["repeat"]["figurine"], "♘f3",
        "White is the blind player by default"
    );
    let began = Instant::now();
    loop {
        let (_, pgn) = get(addr, "/pgn");
        if pgn.contains("1. Nf3") {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(5), "{pgn}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut rest = String::new();
    let _ = out.read_to_string(&mut rest);
    assert!(child.wait().expect("ends").success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// How long until the server closes `s`, which sends nothing more.
fn closed_after(mut s: TcpStream) -> Duration {
    let began = Instant::now();
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return began.elapsed(),
            Ok(_) => {}
        }
    }
}

#[test]
fn no_connection_and_no_stream_is_held_for_ever() {
    use pegboard::net::limits::Lives;
    let living = |connection: u64, requests: u32, stream: u64| {
        let lives = Lives {
            connection: Duration::from_secs(connection),
            requests,
            stream: Duration::from_secs(stream),
            ..Lives::default()
        };
        Mirror::serve_living("127.0.0.1:0", &[], english(), Default::default(), lives)
            .expect("mirror")
    };
    let m = living(60, 3, 1);
    let a = m.addr();
    // A kept-alive connection carries three requests; the third is
    // answered with `Connection: close`, and the connection ends.
    let mut s = TcpStream::connect(a).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut r = BufReader::new(s.try_clone().expect("clone"));
    let mut closes = Vec::new();
    for _ in 0..3 {
        s.write_all(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .expect("sent");
        let (mut length, mut close) = (0, false);
        loop {
            let mut line = String::new();
            assert!(r.read_line(&mut line).expect("a line") > 0, "answered");
            let lower = line.to_ascii_lowercase();
            if let Some(n) = lower.strip_prefix("content-length:") {
                length = n.trim().parse().expect("length");
            }
            close |= lower.starts_with("connection: close");
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        r.read_exact(&mut body).expect("body");
        closes.push(close);
    }
    assert_eq!(closes, [false, false, true]);
    let mut rest = Vec::new();
    assert_eq!(r.read_to_end(&mut rest).expect("closed"), 0);
    // One that asks every half second is closed once its life is over
    // (never before it).
    let short = living(2, 100, 60);
    let mut s = TcpStream::connect(short.addr()).expect("connects");
    s.set_read_timeout(Some(Duration::from_millis(600)))
        .expect("timeout");
    let began = Instant::now();
    let mut buffer = [0u8; 4096];
    let closed_after = loop {
        if s.write_all(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .is_err()
        {
            break began.elapsed();
        }
        match s.read(&mut buffer) {
            Ok(0) => break began.elapsed(),
            _ => std::thread::sleep(Duration::from_millis(500)),
        }
        assert!(began.elapsed() < Duration::from_secs(30), "never closed");
    };
    assert!(closed_after >= Duration::from_secs(2), "{closed_after:?}");
    short.stop();
    // A stream ends after its life; its first event tells the page to
    // come back a second later.
    let mut s = TcpStream::connect(a).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("sent");
    let began = Instant::now();
    // Read to the end of its answer (the last chunk).
    let mut all = Vec::new();
    let mut buffer = [0u8; 4096];
    while !all.ends_with(b"\r\n0\r\n\r\n") {
        match s.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => all.extend_from_slice(&buffer[..n]),
        }
    }
    let lasted = began.elapsed();
    assert!(all.ends_with(b"\r\n0\r\n\r\n"), "the stream ended whole");
    let text = String::from_utf8_lossy(&all);
    assert!(
        text.contains("retry: 1000") || text.contains("retry:1000"),
        "{text}"
    );
    assert!(
        text.contains("event: state") || text.contains("event:state"),
        "{text}"
    );
    assert!(lasted >= Duration::from_secs(1), "{lasted:?}");
    m.stop();
}

#[test]
fn idle_and_slow_connections_are_closed_and_take_nothing_from_the_others() {
    let m = start();
    let a = m.addr();
    // One that says nothing, one that stops in the middle of its head, and
    // one that waits after a whole request on a kept-alive connection.
    let silent = TcpStream::connect(a).expect("connects");
    let mut slow = TcpStream::connect(a).expect("connects");
    slow.write_all(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .expect("sent");
    let mut kept = TcpStream::connect(a).expect("connects");
    kept.write_all(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("sent");
    let idle = [silent, slow, kept].map(|s| std::thread::spawn(move || closed_after(s)));
    // Meanwhile everybody else is served.
    for _ in 0..20 {
        assert_eq!(get(a, "/state").0, 200);
    }
    for (which, t) in ["silent", "slow", "kept alive"].iter().zip(idle) {
        let t = t.join().expect("reader");
        assert!(
            t >= Duration::from_secs(9) && t <= Duration::from_secs(13),
            "{which}: closed after {t:?}"
        );
    }
    m.stop();
}

/// The Opera Game (Morphy – Duke of Brunswick and Count Isouard, Paris
/// 1858) as the scoresheets of the time give it.
const OPERA_SANS: &str = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 \
                          Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 \
                          Qb8+ Nxb8 Rd8#";

/// The position after the Opera Game, played out by shakmaty.
fn opera_final_fen() -> String {
    use shakmaty::{Chess, EnPassantMode, Position, fen::Fen, san::San};
    let mut p = Chess::default();
    for san in OPERA_SANS.split_whitespace() {
        let m = san.parse::<San>().expect("SAN").to_move(&p).expect("legal");
        p.play_unchecked(m);
    }
    Fen::from_position(&p, EnPassantMode::Legal).to_string()
}

fn the_opera_game_is_over(s: &Value) {
    let sans: Vec<&str> = s["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m["san"].as_str())
        .collect();
    assert_eq!(sans.join(" "), OPERA_SANS);
    assert_eq!(s["fen"], opera_final_fen().as_str());
    assert_eq!(s["result"], "1-0");
    assert_eq!(s["check"], "e8", "the mated king is marked");
}

#[test]
fn replay_serves_the_end_of_the_trace_in_the_configured_language_until_told_to_stop() {
    let dir = std::env::temp_dir().join(format!("pegboard-mirror-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = format!(
        "{}/tests/games/immortal-games.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    assert_eq!(games[17].black, "Duke of Brunswick");
    let entries = simulate(&games[17].record, 3, Style::default()).expect("simulated");
    let trace: String = entries
        .iter()
        .map(|e| pegboard::trace::write_line(e.t, &e.reading) + "\n")
        .collect();
    let trace_file = dir.join("opera.jsonl");
    std::fs::write(&trace_file, trace).expect("trace");
    let config = dir.join("de.toml");
    std::fs::write(&config, "language = \"de\"\n").expect("config");
    let child = common::pegboard_command()
        .arg("replay")
        .arg("--config")
        .arg(&config)
        .arg(&trace_file)
        // Past the last placement's debounce window, as a recording needs.
        .args([
            "--until",
            &(entries.last().map_or(0, |e| e.t) + 5000).to_string(),
        ])
        .args(["--mirror", "127.0.0.1:0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("replay starts");
    let mut child = common::Reaped(child);
    let mut err = BufReader::new(child.0.stderr.take().expect("stderr"));
    let addr = common::mirror_of(&mut err, &mut String::new());
    the_opera_game_is_over(&state(addr));
    // The page speaks the configured language.
    let (code, page) = get(addr, "/");
    assert_eq!(code, 200);
    assert!(page.contains("<html lang=\"de\">"));
    assert!(
        page.contains("\"moves\":\"Züge\""),
        "German words in the page"
    );
    // A stream opened now starts with the same state.
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("sent");
    let mut reader = BufReader::new(s);
    let data = sse_until(&mut reader, |d| d.starts_with("{\"fen\""));
    let first: Value = serde_json::from_str(&data[0]).expect("the state");
    the_opera_game_is_over(&first);
    // q and Enter: it stops, and on time.
    let began = Instant::now();
    child
        .0
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"q\n")
        .expect("q");
    let status = child.0.wait().expect("ends");
    assert!(status.success(), "{status}");
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_demo_serves_its_game_on_the_mirror_while_it_plays() {
    let child = common::pegboard_command()
        .args([
            "demo",
            "--silent",
            "--speed",
            "40",
            "--mirror",
            "127.0.0.1:0",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("demo starts");
    let mut child = common::Reaped(child);
    let mut out = BufReader::new(child.0.stdout.take().expect("stdout"));
    let addr = common::mirror_of(&mut out, &mut String::new());
    let mut s = TcpStream::connect(addr).expect("connects");
    s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("sent");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut reader = BufReader::new(s);
    // Every state the stream sends until the demo ends and closes it.
    let mut plies = Vec::new();
    let mut last = Value::Null;
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap_or(0) > 0 {
        if let Some(json) = line.trim().strip_prefix("data: {\"fen\"") {
            last = serde_json::from_str(&format!("{{\"fen\"{json}")).expect("a state");
            plies.push(last["ply"].as_u64().unwrap_or(0));
        }
        line.clear();
    }
    assert!(plies.len() > 10, "the page followed the game: {plies:?}");
    assert!(plies.windows(2).all(|w| w[0] <= w[1]), "{plies:?}");
    the_opera_game_is_over(&last);
    let mut rest = String::new();
    let _ = out.read_to_string(&mut rest);
    assert!(child.0.wait().expect("ends").success());
}

#[test]
fn a_host_name_the_server_does_not_know_is_refused() {
    // A DNS-rebinding page sends its own name as Host (and as Origin, so
    // the two agree): the name itself must be one of the server's.
    let names = vec!["pegboard.local".to_string()];
    let m = Mirror::serve("127.0.0.1:0", &names, english(), Default::default())
        .expect("the mirror starts");
    let port = m.addr().port();
    let host = |name: &str| {
        request(
            m.addr(),
            format!("GET /state HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    };
    for own in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        format!("pegboard.local:{port}"),
    ] {
        assert_eq!(host(&own).0, 200, "{own}");
    }
    for foreign in [format!("evil.example:{port}"), "attacker.test".to_string()] {
        let (code, body) = host(&foreign);
        assert_eq!(code, 421, "{foreign}");
        assert!(body.contains("host name"), "{body}");
    }
    m.stop();
}

/// A GET's head and body, whole.
fn get_whole(addr: SocketAddr, path: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .expect("sent");
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.to_ascii_lowercase(), body.to_string())
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':').map(str::trim))
}

#[test]
fn every_answer_carries_its_security_headers() {
    let (tx, _rx) = crossbeam_channel::bounded(1);
    let door = pegboard::console::Door {
        requests: tx,
        secret: b"0123456789abcdef0123456789abcdef".to_vec(),
        strength: pegboard::net::auth::Strength::Generated,
    };
    let view = english();
    let m = Mirror::with_routes(
        "127.0.0.1:0",
        view.clone(),
        pegboard::console::routes(door, view.console_page.clone(), view.written.clone()),
    )
    .expect("the mirror starts");
    for page in ["/", "/console"] {
        let (head, body) = get_whole(m.addr(), page);
        let policy = header(&head, "content-security-policy").expect("a policy");
        assert!(policy.contains("default-src 'self'"), "{page}: {policy}");
        // The page's one script and one style carry the nonce the policy
        // names, and it changes with every load.
        let nonce = policy
            .split("'nonce-")
            .nth(1)
            .and_then(|r| r.split('\'').next())
            .expect("a nonce");
        assert!(nonce.len() >= 32, "{nonce}");
        assert!(
            body.contains(&format!("<script nonce=\"{nonce}\">")),
            "{page}"
        );
        assert!(
            body.contains(&format!("<style nonce=\"{nonce}\">")),
            "{page}"
        );
        assert!(
            !body.contains("<script>") && !body.contains("<style>"),
            "{page}"
        );
        let (again, _) = get_whole(m.addr(), page);
        assert_ne!(header(&again, "content-security-policy"), Some(policy));
        assert_eq!(header(&head, "x-content-type-options"), Some("nosniff"));
        let framed = policy.contains("frame-ancestors 'none'");
        assert_eq!(framed, page == "/console", "{page}: {policy}");
    }
    for live in ["/state", "/api/input"] {
        let (head, _) = get_whole(m.addr(), live);
        assert_eq!(header(&head, "cache-control"), Some("no-store"), "{live}");
        assert_eq!(
            header(&head, "x-content-type-options"),
            Some("nosniff"),
            "{live}"
        );
    }
    m.stop();
}

#[test]
fn a_restarted_play_shows_the_game_as_it_was_on_the_mirror() {
    let dir = common::empty_dir("mirror-restart");
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[clock]\ncontrol = \"5+3\"\n[mirror]\nlisten = \"127.0.0.1:0\"\n\
             [journal]\ndir = \"{}\"\n",
            dir.join("games").display()
        ),
    );
    let run = |seconds: &str| {
        let mut child = common::Reaped(
            common::pegboard_command()
                .args([
                    "play",
                    "--silent",
                    "--seconds",
                    seconds,
                    "--config",
                    &config,
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("play starts"),
        );
        let mut out = BufReader::new(child.0.stdout.take().expect("stdout"));
        let addr = common::mirror_of(&mut out, &mut String::new());
        (child, out, addr)
    };
    // 1. Nf3 is made and pegboard stops with the game unfinished.
    let (mut child, mut out, addr) = run("3");
    // After the move and White's press: Black's clock runs, White's stands.
    let began = Instant::now();
    let before = loop {
        let s = state(addr);
        if s["ply"] == 1 && s["clock"]["running"] == "black" {
            break s;
        }
        assert!(began.elapsed() < Duration::from_secs(5), "no press: {s}");
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut rest = String::new();
    let _ = out.read_to_string(&mut rest);
    assert!(child.0.wait().expect("ends").success());
    // Started again, the mirror shows the same game at once: its moves,
    // the move to repeat and the clocks, not a board at ply 0.
    let (_child, _out, addr) = run("3");
    let after = state(addr);
    assert_eq!(after["ply"], 1, "{after}");
    assert_eq!(after["moves"], before["moves"], "{after}");
    assert_eq!(after["repeat"]["figurine"], "♘f3", "{after}");
    assert_eq!(
        after["clock"]["white_ms"], before["clock"]["white_ms"],
        "{after}"
    );
    // Then the restart itself: the clocks are held until resumed, and the
    // game shown stays.
    let began = Instant::now();
    let held = loop {
        let s = state(addr);
        if s["clock"]["paused"] == true {
            break s;
        }
        assert!(began.elapsed() < Duration::from_secs(3), "never held: {s}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(held["ply"], 1, "{held}");
    assert_eq!(held["moves"], before["moves"], "{held}");
    assert_eq!(held["repeat"]["figurine"], "♘f3", "{held}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_pages_write_the_words_the_laws_spell_in_ascii_as_a_reader_reads_them() {
    // The Laws print "Koenig" and "Laeufer", and the `fide` language file
    // keeps their spelling (the log shows it); a page shows "König" and
    // "Läufer", from the file's [written] table.
    let m = Mirror::start("127.0.0.1:0", mirror_view::view_in("fide")).expect("starts");
    let page = get(m.addr(), "/").1;
    let (open, mut stream) = stream_from(&m, [0, 7, 7]);
    assert!(open);
    // 1. e4 e5 2. Bc4 Ke7: a bishop's move and a king's.
    let events = common::replayed(
        &common::parse(
            r#"{"t":100,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1100,"place":"e5"}
{"t":2000,"lift":"f1"}
{"t":2100,"place":"c4"}
{"t":3000,"lift":"e8"}
{"t":3100,"place":"e7"}"#,
        ),
        Settings::default(),
    );
    let said: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Move { say, .. } => Some(say.as_str()),
            _ => None,
        })
        .collect();
    // The moves as they are said (and logged): the Laws' spelling.
    assert!(said[2].starts_with("Laeufer"), "{said:?}");
    assert!(said[3].starts_with("Koenig"), "{said:?}");
    m.send(&events);
    let lines = sse_until(&mut stream, |d| d.contains(r#""san":"Ke7""#));
    assert!(lines.last().is_some_and(|l| l.contains("Ke7")), "{lines:?}");
    let shown = state(m.addr()).to_string();
    for (what, text) in [
        ("the page", page.as_str()),
        ("the state", shown.as_str()),
        ("the event stream", &lines.join("\n")),
    ] {
        assert!(text.contains("Läufer"), "{what}: {text}");
        assert!(
            !text.contains("Laeufer") && !text.contains("Koenig"),
            "{what}: {text}"
        );
    }
    assert!(shown.contains("König"), "{shown}");
    m.stop();
}
