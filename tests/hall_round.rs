//! A whole round in a hall: 24 real games, each on a board of its own (a
//! real `pegboard play` reading a trace of simulated hands, its clock
//! running), followed by two hubs, one of them pushing the round to the
//! test lichess's broadcast. Board 3 plays on a 20-second clock, so a flag
//! falls; the blind player of board 5 calls the arbiter with his key; a
//! piece stands on h5 at board 7 before its game begins. Mid-round board 10
//! loses its power (SIGKILL, not started again) and the first hub is
//! killed the same way and started again. Then:
//!
//! - every game the hub serves and pushes is its board's own scoresheet,
//!   every move with its `%clk`, read by python-chess without an error;
//! - board 10's game is, as its journal keeps it;
//! - the hall view showed the flag, the call and the board differing
//!   within a second of each being due;
//! - the second hub's delay held every move back by its 5 s, and gave the
//!   same round in the end.

mod common;

#[path = "support/hall_round.rs"]
mod hall_round;
#[path = "support/lichess.rs"]
mod lichess;
#[path = "support/round.rs"]
mod round;

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hall_round::{Board, Hub, games_of, get, movetext, quick};
use serde_json::Value;

const TOKEN: &str = "lip_HallRound2026abcdef";
const ROUND: &str = "rOuNd001";
const BOARDS: usize = 24;

/// The instant each of a board's events named `names` first came on its
/// own stream, by name.
fn watch_board(
    addr: std::net::SocketAddr,
    names: &'static [&'static str],
) -> Arc<Mutex<BTreeMap<String, Instant>>> {
    let seen = Arc::new(Mutex::new(BTreeMap::new()));
    let into = Arc::clone(&seen);
    std::thread::spawn(move || {
        loop {
            let Ok(mut s) = std::net::TcpStream::connect(addr) else {
                std::thread::sleep(Duration::from_millis(100));
                continue;
            };
            let _ = write!(s, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            let mut r = BufReader::new(s);
            let mut line = String::new();
            while r.read_line(&mut line).is_ok_and(|n| n > 0) {
                if let Some(json) = line.trim_end().strip_prefix("data: ")
                    && let Ok(v) = serde_json::from_str::<Value>(json)
                    && let Some(name) = v["event"].as_str()
                    && names.contains(&name)
                {
                    let now = Instant::now();
                    into.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .entry(name.to_string())
                        .or_insert(now);
                }
                line.clear();
            }
        }
    });
    seen
}

/// The instant each need (kind, board) first stood in a hub's view.
fn watch_needs(hub: &Hub) -> Arc<Mutex<BTreeMap<(String, u64), Instant>>> {
    let seen = Arc::new(Mutex::new(BTreeMap::new()));
    let into = Arc::clone(&seen);
    let mut views = hub.stream();
    std::thread::spawn(move || {
        while let Some(v) = views.next_view() {
            let now = Instant::now();
            for n in v["needs"].as_array().into_iter().flatten() {
                let key = (
                    n["kind"].as_str().unwrap_or_default().to_string(),
                    n["board"].as_u64().unwrap_or(0),
                );
                into.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .entry(key)
                    .or_insert(now);
            }
        }
    });
    seen
}

/// python-chess reads `pgn`: each game's Round and final position.
fn python_reads(pgn: &str) -> Vec<String> {
    common::piped_lines(
        "python3",
        &[
            "-c",
            "import chess.pgn, io, sys\n\
             t = io.StringIO(sys.stdin.read())\n\
             while (g := chess.pgn.read_game(t)) is not None:\n\
             \x20   assert not g.errors, g.errors\n\
             \x20   print(g.headers['Round'], g.end().board().fen())",
        ],
        pgn,
    )
}

#[test]
fn a_whole_round_of_24_real_games_plays_through_the_hub_and_loses_nothing() {
    let root = common::empty_dir("hall-round");
    let games = round::games();
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.token_scopes("study:write");
    server
        .state()
        .broadcast_rounds
        .insert(ROUND.into(), Vec::new());
    let token_file = hall_round::token_file(&root, TOKEN);
    let mut boards: Vec<Board> = (0..BOARDS)
        .map(|i| {
            let number = i + 1;
            let (shift, extra): (u64, Vec<(u64, &str)>) = match number {
                5 => (0, vec![(4000, "\"keys\":1"), (4150, "\"keys\":0")]),
                7 => (
                    6000,
                    vec![(500, "\"place\":\"h5\""), (4000, "\"lift\":\"h5\"")],
                ),
                _ => (0, Vec::new()),
            };
            let trace = hall_round::trace(&games[i], i as u64, quick(), shift, &extra);
            let control = if number == 3 { "20" } else { "5400+30" };
            Board::start(
                &root,
                number,
                &trace,
                control,
                (&games[i].white, &games[i].black),
            )
        })
        .collect();
    let board_events: Vec<_> = [
        (3, &["flag"][..]),
        (5, &["arbiter_called"][..]),
        (7, &["mismatch"][..]),
    ]
    .into_iter()
    .map(|(n, names)| (n, watch_board(boards[n - 1].addr(), names)))
    .collect();
    let push = format!(
        "[hall.push]\nround = \"{ROUND}\"\nserver = \"{}\"\ntoken_file = \"{}\"\n",
        server.url(),
        token_file.display()
    );
    let mut hub = Hub::start(&root.join("hub-a"), &boards, "differing_s = 1", &push);
    let delayed = Hub::start(
        &root.join("hub-b"),
        &boards,
        "differing_s = 1\ndelay_s = 5",
        "",
    );
    let needs = watch_needs(&delayed);
    let began = Instant::now();
    let mut killed_board = false;
    let mut killed_hub = false;
    let mut delay_samples = 0;
    // Until every board still on has played its whole game.
    loop {
        let t = began.elapsed();
        if !killed_board && t > Duration::from_secs(20) {
            boards[9].kill();
            killed_board = true;
        }
        if !killed_hub && t > Duration::from_secs(30) {
            hub.kill();
            // A push the killed hub had sent is still being read by the
            // server (a fifth of a second): the hub started again must not
            // be counted as pushing beside a process that is gone.
            let dead = Instant::now();
            while server.state().pushing > 0 {
                assert!(
                    dead.elapsed() < Duration::from_secs(30),
                    "a push never ended"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            hub.run();
            killed_hub = true;
        }
        // The delay: what the delayed hub shows of boards 1, 2, 4 is what
        // their own clocks made at least 5 s ago (a second's slack for the
        // reads between).
        for n in [1usize, 2, 4] {
            let state: Value =
                serde_json::from_str(&get(boards[n - 1].addr(), "/state")).unwrap_or_default();
            let Some(now) = state["now"].as_u64().or(state["t"].as_u64()) else {
                continue;
            };
            let times: Vec<u64> = state["moves"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["t"].as_u64())
                .collect();
            let shown_game = games_of(&delayed.round_pgn())
                .into_iter()
                .nth(n - 1)
                .unwrap_or_default();
            let shown = pegboard::hall::round::plies(&shown_game) as u64;
            let old_enough = times.iter().filter(|&&m| m + 5000 <= now + 1000).count() as u64;
            assert!(
                shown <= old_enough,
                "board {n}: {shown} moves public, {old_enough} at least 5 s old"
            );
            delay_samples += 1;
        }
        let playing: Vec<String> = boards
            .iter()
            .enumerate()
            .filter(|(i, b)| {
                *i != 9 && {
                    let s: Value =
                        serde_json::from_str(&get(b.addr(), "/state")).unwrap_or_default();
                    s["ply"].as_u64() != Some(hall_round::plies(&games[*i]))
                        && !s["result"].is_string()
                }
            })
            .map(|(i, b)| {
                let s: Value = serde_json::from_str(&get(b.addr(), "/state")).unwrap_or_default();
                format!(
                    "board {}: ply {} of {}, {}",
                    i + 1,
                    s["ply"],
                    hall_round::plies(&games[i]),
                    s["status"]
                )
            })
            .collect();
        if playing.is_empty() && killed_hub {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(600),
            "the round never ended: {playing:#?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(delay_samples > 20, "{delay_samples}");
    // The hubs catch up, the delayed one 5 s later.
    std::thread::sleep(Duration::from_secs(7));
    let own: Vec<String> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if i == 9 {
                b.journal_pgn()
            } else {
                get(b.addr(), "/pgn")
            }
        })
        .collect();
    for (i, pgn) in own.iter().enumerate() {
        assert!(pgn.contains("[%clk "), "board {}: {pgn}", i + 1);
    }
    // Each hub's games by board, each its board's own.
    let by_board = |round: &str| -> BTreeMap<usize, String> {
        games_of(round)
            .into_iter()
            .filter_map(|g| {
                let n = pegboard::hall::round::tag(&g, "Board")?.parse().ok()?;
                Some((n, g))
            })
            .collect()
    };
    let check = |what: &str, games: &BTreeMap<usize, String>| {
        for (n, g) in games {
            assert!(g.contains(&format!("[Round \"1.{n}\"]")), "{what}: {g}");
            assert_eq!(
                movetext(g),
                movetext(&own[n - 1]),
                "{what}: board {n}'s game is not its own"
            );
        }
    };
    // The hub started again after board 10 lost its power never read it:
    // it leaves that game as the broadcast has it, and has all others.
    let round_pgn = hub.round_pgn();
    let served = by_board(&round_pgn);
    check("the served round", &served);
    let expected: Vec<usize> = (1..=BOARDS).filter(|&n| n != 10).collect();
    assert_eq!(served.keys().copied().collect::<Vec<_>>(), expected);
    assert_eq!(python_reads(&round_pgn).len(), BOARDS - 1);
    // The delayed hub, never stopped, has every game, board 10's as its
    // journal keeps it: nothing lost.
    let late_pgn = delayed.round_pgn();
    let late = by_board(&late_pgn);
    check("the delayed round", &late);
    assert_eq!(late.len(), BOARDS, "{late_pgn}");
    assert_eq!(python_reads(&late_pgn).len(), BOARDS);
    // The broadcast: each board's game as last pushed is its own (board
    // 10's from a push before the hub was killed), the last push read by
    // python-chess.
    let began = Instant::now();
    loop {
        let pushes = server.state().broadcast_rounds[ROUND].clone();
        let mut last: BTreeMap<usize, String> = BTreeMap::new();
        for (_, body) in &pushes {
            last.extend(by_board(body));
        }
        let caught_up = last.len() == BOARDS
            && last
                .iter()
                .all(|(n, g)| movetext(g) == movetext(&own[n - 1]));
        if caught_up {
            let final_push = &pushes.last().expect("a push").1;
            assert_eq!(python_reads(final_push).len(), BOARDS - 1);
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "the broadcast never caught up: {} games",
            last.len()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(server.state().most_pushing, 1);
    // What needs the arbiter was shown within a second of being due: the
    // flag and the call at once, the board differing after differing_s.
    let needs = needs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    for ((board, names), (kind, due_after)) in
        board_events
            .iter()
            .zip([("flag", 0u64), ("called", 0), ("differing", 1000)])
    {
        let at_board = names
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .next()
            .copied()
            .unwrap_or_else(|| panic!("board {board} never had its event"));
        let shown = needs
            .get(&(kind.to_string(), *board as u64))
            .copied()
            .unwrap_or_else(|| panic!("{kind} at board {board} never shown: {needs:?}"));
        let late = shown.saturating_duration_since(at_board + Duration::from_millis(due_after));
        assert!(
            late <= Duration::from_secs(1),
            "{kind} at board {board} shown {late:?} after it was due"
        );
    }
}
