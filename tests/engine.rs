//! The engine opponent against the real engine: Debian's Stockfish over
//! UCI (`.ci/setup.sh` installs it in /usr/games). Its moves are legal
//! and its strength what the configuration asks; killed (SIGKILL) while it
//! thinks or stopped (SIGSTOP) past its time it is started again and asked
//! again, each trouble reported once; an engine that answers nonsense (a
//! small script, for that fault alone) or cannot be started is reported
//! once too. `play` with an engine seat plays its moves through the door,
//! journals them and has the blind player make them on his board; an
//! illegal answer is logged once and asked again; killed (SIGKILL) while
//! the engine is to move, `play` takes the game up and asks it again.

mod common;

use std::time::{Duration, Instant};

use pegboard::engine::uci::{Go, position};
use pegboard::engine::{Ask, Engine, EngineConfig, EngineError, Report, Seat};
use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn stockfish(more: impl FnOnce(&mut EngineConfig)) -> EngineConfig {
    let mut c = EngineConfig::default();
    more(&mut c);
    assert!(
        c.program().is_some(),
        "stockfish is installed (.ci/setup.sh) and found in /usr/games"
    );
    c
}

fn legal_at_start(m: &UciMove) -> bool {
    m.to_move(&Chess::default()).is_ok()
}

#[test]
fn stockfish_answers_a_legal_move_at_the_depth_and_strength_asked() {
    let config = stockfish(|c| c.elo = Some(1500));
    let mut e = Engine::start(&config, false).expect("stockfish starts and speaks UCI");
    assert!(e.name.starts_with("Stockfish"), "{}", e.name);
    assert!(!e.below_lowest, "1500 is within Stockfish's range");
    let go = Go {
        depth: Some(3),
        ..Go::default()
    };
    let t = e
        .think(&position(START, &[]), &go, Duration::from_secs(10))
        .expect("a move");
    assert!(legal_at_start(&t.uci), "{}", t.uci);
    assert_eq!(
        t.depth,
        Some(3),
        "the search went as deep as asked, no deeper"
    );
    // After 1. e4, a move for Black.
    let t = e
        .think(
            &position(START, &["e2e4".into()]),
            &go,
            Duration::from_secs(10),
        )
        .expect("a move");
    let mut pos = Chess::default();
    pos.play_unchecked(
        "e2e4"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal"),
    );
    assert!(t.uci.to_move(&pos).is_ok(), "{} for Black", t.uci);
    // A node limit is kept to, as closely as Stockfish looks at its clock
    // of nodes (every few hundred): 1,000 asked, never twice as many.
    let t = e
        .think(
            &position(START, &[]),
            &Go {
                nodes: Some(1000),
                ..Go::default()
            },
            Duration::from_secs(10),
        )
        .expect("a move");
    assert!(t.nodes.is_some_and(|n| n < 2000), "{:?}", t.nodes);
}

#[test]
fn below_the_engines_lowest_rating_it_searches_one_ply_at_its_lowest_skill() {
    let config = stockfish(|c| c.elo = Some(800));
    let mut e = Engine::start(&config, false).expect("starts");
    assert!(e.below_lowest, "Stockfish plays no lower than 1350");
    let t = e
        .think(
            &position(START, &[]),
            &Go {
                movetime_ms: Some(300),
                ..Go::default()
            },
            Duration::from_secs(10),
        )
        .expect("a move");
    assert_eq!(t.depth, Some(1));
    assert!(legal_at_start(&t.uci));
}

/// Stockfish behind a script that keeps a copy of every line it is sent
/// (`in`) and every line it answers (`out`) in `dir`.
fn recorded_stockfish(dir: &std::path::Path, more: impl FnOnce(&mut EngineConfig)) -> EngineConfig {
    use std::os::unix::fs::PermissionsExt;
    let program = stockfish(|_| {}).program().expect("stockfish");
    let script = dir.join("stockfish");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee -a '{0}/in' | '{1}' | tee -a '{0}/out'\n",
            dir.display(),
            program.display()
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("mode");
    stockfish(|c| {
        c.command = script.display().to_string();
        more(c);
    })
}

#[test]
fn the_strength_asked_reaches_stockfish_and_stockfish_takes_it() {
    // (the configuration, the options Stockfish must be sent before it is
    // asked to think)
    type Case = (fn(&mut EngineConfig), &'static [&'static str]);
    let cases: [Case; 4] = [
        (
            |c| c.elo = Some(1500),
            &[
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value 1500",
            ],
        ),
        // Above Stockfish's highest rating: its highest, as its own `uci`
        // answer gives it (`{max}`).
        (
            |c| c.elo = Some(4000),
            &[
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value {max}",
            ],
        ),
        // Below its lowest (1350 in Stockfish 15): its lowest skill, and
        // one ply.
        (
            |c| c.elo = Some(800),
            &["setoption name Skill Level value 0"],
        ),
        (
            |c| c.level = Some(5),
            &["setoption name Skill Level value 5"],
        ),
    ];
    for (i, (configure, wanted)) in cases.into_iter().enumerate() {
        let dir = common::empty_dir(&format!("engine-recorded-{i}"));
        let config = recorded_stockfish(&dir, configure);
        let mut e = Engine::start(&config, false).expect("starts");
        e.think(
            &position(START, &[]),
            &Go {
                depth: Some(2),
                ..Go::default()
            },
            Duration::from_secs(10),
        )
        .expect("a move");
        drop(e);
        let sent = std::fs::read_to_string(dir.join("in")).expect("what it was sent");
        let sent: Vec<&str> = sent.lines().collect();
        let answered = std::fs::read_to_string(dir.join("out")).expect("what it answered");
        let highest = answered
            .lines()
            .find_map(|l| l.strip_prefix("option name UCI_Elo type spin"))
            .and_then(|l| l.split_whitespace().skip_while(|w| *w != "max").nth(1))
            .expect("Stockfish names its highest rating");
        let go = sent
            .iter()
            .position(|l| l.starts_with("go "))
            .unwrap_or_else(|| panic!("case {i}: asked to think: {sent:?}"));
        for line in wanted {
            let line = line.replace("{max}", highest);
            let at = sent.iter().position(|l| *l == line);
            assert!(
                at.is_some_and(|at| at < go),
                "case {i}: {line:?} sent before it thinks: {sent:?}"
            );
        }
        // No strength other than the one asked.
        let strength = sent
            .iter()
            .filter(|l| l.contains("UCI_Elo") || l.contains("Skill Level"))
            .count();
        let asked = wanted
            .iter()
            .filter(|l| l.contains("UCI_Elo") || l.contains("Skill Level"))
            .count();
        assert_eq!(strength, asked, "case {i}: {sent:?}");
        // Below the lowest rating, one ply (depth 2 was asked).
        if i == 2 {
            assert_eq!(sent[go], "go depth 1", "case {i}: {sent:?}");
        }
        // Stockfish's own answer: it knows every option it was sent (an
        // option it does not know, it answers "No such option").
        assert!(answered.contains("bestmove"), "case {i}: {answered}");
        assert!(!answered.contains("No such option"), "case {i}: {answered}");
    }
}

/// The name the signalled test's Stockfish runs under (a link to it), so
/// that no other test's Stockfish, started and ended beside it, is taken
/// for it (a process's name is its program's, 15 characters at most).
const SIGNALLED: &str = "sf-signalled";

/// Stockfish, run under [`SIGNALLED`]'s name.
fn signalled_stockfish() -> EngineConfig {
    let dir = common::empty_dir("engine-signalled");
    let link = dir.join(SIGNALLED);
    let program = stockfish(|_| {}).program().expect("stockfish");
    std::os::unix::fs::symlink(&program, &link).expect("a link to stockfish");
    stockfish(|c| c.command = link.display().to_string())
}

/// The process id of the one signalled Stockfish this test process runs.
fn our_stockfish() -> u32 {
    let began = Instant::now();
    loop {
        let out = std::process::Command::new("pgrep")
            .args(["-P", &std::process::id().to_string(), "-x", SIGNALLED])
            .output()
            .expect("pgrep");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let pids: Vec<u32> = text
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        if let [pid] = pids.as_slice() {
            return *pid;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "not one stockfish: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(pid: u32, name: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .expect("kill");
    assert!(ok.success(), "kill -{name} {pid}");
}

fn ask(seat: &Seat, ply: u32, moves: &[&str], movetime: u64) {
    seat.ask(Ask {
        ply,
        position: position(
            START,
            &moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        ),
        go: Go {
            movetime_ms: Some(movetime),
            ..Go::default()
        },
        think: Duration::from_millis(movetime),
        new_game: ply == 0,
    });
}

/// Waits until Stockfish `pid` searches: its threads besides the main one
/// have had a tenth of a second of CPU time (before its first `go` they
/// only clear its hash table, in a few milliseconds, however long its
/// start took).
fn searching(pid: u32) {
    let began = Instant::now();
    loop {
        let ran: u64 = std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|t| t.file_name().to_string_lossy() != pid.to_string())
            .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
            .filter_map(|stat| {
                let rest = stat.rsplit_once(") ")?.1.to_string();
                let fields: Vec<&str> = rest.split(' ').collect();
                // utime and stime: the 14th and 15th fields of stat.
                Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
            })
            .sum();
        if ran >= 10 {
            return;
        }
        // It thinks at idle priority: it runs only while the machine has a
        // moment to spare, which even a busy build leaves within minutes.
        assert!(
            began.elapsed() < Duration::from_secs(300),
            "Stockfish never searched"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn next(seat: &Seat) -> Report {
    seat.wait(Duration::from_secs(40)).expect("a report")
}

// The signals go to this test's own Stockfish, told from the others'
// (the tests run side by side) by the name it runs under.
#[test]
fn stockfish_killed_or_stopped_is_started_again_and_asked_again_each_told_once() {
    let seat = Seat::open(signalled_stockfish(), false);
    // Killed while thinking (SIGKILL): once its search thread has run,
    // not during its start (which a busy machine can make long). Its
    // search is bounded by the nodes it looks at, not by time, so that a
    // machine too busy to give it much time cannot end it first.
    seat.ask(Ask {
        ply: 0,
        position: position(START, &[]),
        go: Go {
            nodes: Some(3_000_000),
            ..Go::default()
        },
        think: Duration::from_secs(60),
        new_game: true,
    });
    let pid = our_stockfish();
    // It thinks at idle priority (SCHED_IDLE, as util-linux's chrt says)
    // and at the configured nice value (the 19th field of its stat).
    let policy = std::process::Command::new("chrt")
        .args(["-p", &pid.to_string()])
        .output()
        .expect("chrt");
    let policy = String::from_utf8_lossy(&policy.stdout);
    assert!(policy.contains("SCHED_IDLE"), "{policy}");
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    let nice = stat
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.split(' ').nth(16))
        .unwrap_or_default();
    assert_eq!(nice, "10", "{stat}");
    searching(pid);
    signal(pid, "KILL");
    assert_eq!(next(&seat), Report::Trouble(EngineError::Crashed));
    match next(&seat) {
        Report::Move { ply: 0, thought } => assert!(legal_at_start(&thought.uci)),
        other => panic!("no move after the crash: {other:?}"),
    }
    // Stopped (SIGSTOP) past its time and the margin: killed, started
    // again, asked again. Its time runs from the asking, so the wait is
    // counted from before it (finding and stopping the engine takes long
    // on an emulated machine).
    let asked = Instant::now();
    ask(&seat, 1, &["e2e4"], 300);
    std::thread::sleep(Duration::from_millis(50));
    let pid = our_stockfish();
    signal(pid, "STOP");
    assert_eq!(next(&seat), Report::Trouble(EngineError::Hung));
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(300) + pegboard::engine::seat::MARGIN,
        "declared hung too soon: {waited:?}"
    );
    assert!(
        matches!(next(&seat), Report::Move { ply: 1, .. }),
        "a move for Black after the restart"
    );
    // A good move after each: nothing more is reported.
    assert!(seat.wait(Duration::from_millis(500)).is_none());
}

#[test]
fn an_engine_that_answers_nonsense_or_cannot_start_is_reported_once() {
    let dir = std::env::temp_dir().join(format!("pegboard-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    // A test engine for this fault alone: it speaks UCI, and answers no
    // move.
    let script = dir.join("garbage.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'id name garbage'; echo uciok;;\nisready) echo readyok;;\n\
         go*) echo 'bestmove zz99';;\nquit) exit 0;;\nesac; done\n",
    )
    .expect("script");
    let garbage = EngineConfig {
        command: "/bin/sh".into(),
        args: vec![script.display().to_string()],
        ..EngineConfig::default()
    };
    let seat = Seat::open(garbage, false);
    ask(&seat, 0, &[], 100);
    assert_eq!(
        next(&seat),
        Report::Trouble(EngineError::Malformed("zz99".into()))
    );
    // Asked again and again, the same trouble is not told again.
    assert!(seat.wait(Duration::from_secs(2)).is_none());
    drop(seat);
    let missing = EngineConfig {
        command: "no-such-engine-anywhere".into(),
        ..EngineConfig::default()
    };
    let seat = Seat::open(missing, false);
    ask(&seat, 0, &[], 100);
    match next(&seat) {
        Report::Trouble(EngineError::Start(why)) => {
            assert!(why.contains("no-such-engine-anywhere"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert!(seat.wait(Duration::from_secs(3)).is_none(), "told once");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `play` on `config` for four seconds, silent, printing its events: once
/// it has ended well, all it wrote (standard output, then error) and the
/// events among it.
fn play_four_seconds(config: &str) -> (String, Vec<Value>) {
    common::play_events(config, "4")
}

#[test]
fn play_gives_the_engines_reply_to_the_game_and_the_blind_player_makes_it() {
    let dir = std::env::temp_dir().join(format!("pegboard-engine-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let journal = dir.join("games");
    // White (the blind player) plays 1. Nf3 on his board; Black is the
    // engine.
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[game]\nblack_moves_on = \"engine\"\n[engine]\ncommand = \"{}\"\nelo = 1500\n\
             movetime_ms = 200\n[clock]\ncontrol = \"5+0\"\n[journal]\ndir = \"{}\"\n",
            recorded_stockfish(&dir, |_| {}).command,
            journal.display()
        ),
    );
    let check = common::pegboard_command()
        .args(["check-config", &config])
        .output()
        .expect("check-config runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let (_, events) = play_four_seconds(&config);
    // Stockfish, started once by `check-config` and once by `play`: the
    // engine `play` starts to check its configuration is the one that
    // plays.
    let sent = std::fs::read_to_string(dir.join("in")).expect("what Stockfish was sent");
    assert_eq!(
        sent.lines().filter(|l| *l == "uci").count(),
        2,
        "check-config and play each start it once: {sent}"
    );
    let moves = common::of(&events, "move");
    assert_eq!(moves.len(), 2, "Nf3 and the engine's reply: {events:?}");
    assert_eq!(moves[0]["san"], "Nf3");
    let reply = &moves[1];
    assert_eq!(
        reply["board"], "relay",
        "the engine's move comes through the door"
    );
    // Said in the long form, for the blind player to make it.
    assert!(
        reply["say"].as_str().is_some_and(|s| s.contains(" nach ")),
        "{reply}"
    );
    // The blind player is guided to make it on his board.
    let guided = common::of(&events, "replicate");
    assert!(!guided.is_empty(), "{events:?}");
    // The journal holds the engine's move as an input, so a replay needs
    // no engine; the scoresheet names the engine.
    let kept: String = std::fs::read_dir(&journal)
        .expect("journal dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "journal"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(
        kept.contains(&format!(
            r#""input":"move","uci":"{}""#,
            reply["uci"].as_str().unwrap_or("?")
        )),
        "{kept}"
    );
    let pgn = common::pegboard_command()
        .args(["pgn", "--config", &config])
        .output()
        .expect("pgn");
    let pgn = String::from_utf8_lossy(&pgn.stdout);
    assert!(pgn.contains("[Black \"stockfish (Elo 1500)\"]"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_be_started_is_a_clear_error_at_its_key_and_line() {
    let dir = std::env::temp_dir().join(format!("pegboard-engine-cc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let config = common::nf3_play_config(
        &dir,
        "[game]\nblack_moves_on = \"engine\"\n[engine]\ncommand = \"no-such-engine\"\n",
    );
    for command in [
        vec!["check-config", config.as_str()],
        vec![
            "play",
            "--silent",
            "--seconds",
            "1",
            "--config",
            config.as_str(),
        ],
    ] {
        let out = common::pegboard_command()
            .args(&command)
            .output()
            .expect("runs");
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {said}");
        assert!(
            said.contains(&format!("{config}:4: [engine] command \"no-such-engine\": the engine could not be started: no program")),
            "{command:?}: {said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_taken_up_after_pegboard_was_killed_asks_the_engine_again() {
    let dir = std::env::temp_dir().join(format!("pegboard-engine-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let journal = dir.join("games");
    let config_with = |movetime: u64| {
        common::nf3_play_config(
            &dir,
            &format!(
                "[game]\nblack_moves_on = \"engine\"\n[engine]\nmovetime_ms = {movetime}\n\
                 [journal]\ndir = \"{}\"\n",
                journal.display()
            ),
        )
    };
    // 1. Nf3 on the board, and pegboard killed (SIGKILL) while the engine
    // thinks about its reply for ten seconds.
    let config = config_with(10_000);
    let child = common::pegboard_command()
        .args([
            "play",
            "--silent",
            "--events",
            "--seconds",
            "30",
            "--config",
            &config,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("play starts");
    let mut child = common::Reaped(child);
    let mut out = std::io::BufReader::new(child.0.stdout.take().expect("stdout"));
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(
            std::io::BufRead::read_line(&mut out, &mut line).expect("a line") > 0,
            "no Nf3: {seen}"
        );
        seen.push_str(&line);
        if line.contains(r#""event":"move""#) {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    child.0.kill().expect("SIGKILL");
    let _ = child.0.wait();
    // Taken up again: the board shows 1. Nf3, and Black is the engine's
    // to move; it is asked on the first turn, and answers.
    let config = config_with(300);
    let after_nf3 = dir.join("nf3.jsonl");
    std::fs::write(
        &after_nf3,
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n{\"t\":0,\"occ\":\"ffff00000020ffbf\"}\n",
    )
    .expect("trace");
    let (printed, events) = play_four_seconds(&config);
    assert!(printed.contains("resumed"), "{printed}");
    let moves = common::of(&events, "move");
    assert_eq!(moves.len(), 1, "the engine's reply, once: {printed}");
    assert_eq!(moves[0]["ply"], 2);
    assert_eq!(moves[0]["board"], "relay");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_answers_an_illegal_move_is_asked_again_and_the_log_says_so_once() {
    let dir = std::env::temp_dir().join(format!("pegboard-engine-illegal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    // A test engine for this fault alone: its answer is well formed and
    // never legal for Black (a white pawn's move).
    let script = dir.join("illegal.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'id name illegal'; echo uciok;;\nisready) echo readyok;;\n\
         go*) echo 'bestmove e2e4';;\nquit) exit 0;;\nesac; done\n",
    )
    .expect("script");
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[game]\nblack_moves_on = \"engine\"\n[engine]\ncommand = \"/bin/sh\"\n\
             args = [\"{}\"]\nmovetime_ms = 100\nbook = \"\"\n[journal]\ndir = \"{}\"\n",
            script.display(),
            dir.join("games").display()
        ),
    );
    let (logged, events) = play_four_seconds(&config);
    // The game goes on (White's move stands, nothing else is played), and
    // the log says it once, however often the engine is asked again.
    assert_eq!(common::sans(&events), ["Nf3"], "{logged}");
    assert_eq!(
        logged.matches("its move e2e4 is not legal here").count(),
        1,
        "{logged}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sends `input` to the console at `addr` with `pin`: the status code.
fn console_input(addr: std::net::SocketAddr, pin: &str, input: &str) -> u16 {
    use std::io::{Read as _, Write as _};
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let raw = format!(
        "POST /api/input HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Bearer {pin}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{input}",
        input.len()
    );
    s.write_all(raw.as_bytes()).expect("sent");
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// Reads `play`'s events until one named `name` comes (or `play` ends:
/// `None`), keeping every event read in `seen`.
fn until_event(
    out: &mut impl std::io::BufRead,
    seen: &mut Vec<Value>,
    name: &str,
) -> Option<Value> {
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if let Ok(e) = serde_json::from_str::<Value>(&line) {
            seen.push(e.clone());
            if e["event"] == name {
                return Some(e);
            }
        }
    }
}

/// `play` for `seconds`, silent, printing its events, with the console
/// at `pin`, White's moves made on `white` and Black the engine (`engine`:
/// more of its table), the board showing `start` as its trace. Returns the
/// process, its output and the console's address.
fn play_with_console(
    dir: &std::path::Path,
    pin: &str,
    start: &str,
    seats: (&str, &str),
    seconds: &str,
) -> (
    common::Reaped,
    std::io::BufReader<std::process::ChildStdout>,
    std::net::SocketAddr,
) {
    play_with_keys(dir, pin, start, seats, seconds, ("", ""))
}

/// The same, with the blind player's `keys` (trace lines, and the
/// `[buttons]` table that gives them their actions).
fn play_with_keys(
    dir: &std::path::Path,
    pin: &str,
    start: &str,
    (white, engine): (&str, &str),
    seconds: &str,
    (keys, buttons): (&str, &str),
) -> (
    common::Reaped,
    std::io::BufReader<std::process::ChildStdout>,
    std::net::SocketAddr,
) {
    let trace = dir.join("still.jsonl");
    std::fs::write(
        &trace,
        format!("{{\"t\":0,\"trace\":1,\"start\":\"{start}\"}}\n{keys}"),
    )
    .expect("trace");
    let config = dir.join("play.toml");
    std::fs::write(
        &config,
        format!(
            "{buttons}[game]\nwhite_moves_on = \"{white}\"\nblack_moves_on = \"engine\"\n\
             [engine]\n{engine}\
             [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{pin}\"\n\
             [journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\n\
             [sensors.trace]\nfile = \"{}\"\n",
            dir.join("games").display(),
            trace.display()
        ),
    )
    .expect("config");
    let child = common::pegboard_command()
        .args([
            "play",
            "--silent",
            "--events",
            "--seconds",
            seconds,
            "--config",
        ])
        .arg(&config)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("play starts");
    let mut child = common::Reaped(child);
    let mut out = std::io::BufReader::new(child.0.stdout.take().expect("stdout"));
    let mut printed = String::new();
    let addr = common::mirror_of(&mut out, &mut printed);
    (child, out, addr)
}

/// White to move mates in one (Rd8#); Black's king is shut in by its
/// own pawns.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

#[test]
fn hint_evaluation_takeback_and_review_from_the_console_with_stockfish() {
    const PIN: &str = "60173";
    let dir = common::empty_dir("engine-practice-console");
    // The player's moves are relayed from the console; Black is Stockfish
    // at its lowest strength, which judges at full strength all the same.
    let (child, mut out, addr) = play_with_console(
        &dir,
        PIN,
        MATE_IN_ONE,
        (
            "relay",
            "level = 0\nmovetime_ms = 200\nanalysis_depth = 10\n",
        ),
        "25",
    );
    let mut seen = Vec::new();
    // The arbiter's console sets the position up (as the board shows it).
    let setup = format!(r#"{{"input":"setup","fen":"{MATE_IN_ONE}"}}"#);
    assert_eq!(console_input(addr, PIN, &setup), 200);
    while until_event(&mut out, &mut seen, "ready").expect("the next game")["fen"] != MATE_IN_ONE {}
    let mut ask = |input: &str, then: &str| {
        assert_eq!(console_input(addr, PIN, input), 200, "{input}");
        until_event(&mut out, &mut seen, then).unwrap_or_else(|| panic!("no {then} after {input}"))
    };
    // Stockfish finds the mate, and says so: the rook first, then, asked
    // again, the whole move.
    let hint = ask(r#"{"input":"hint"}"#, "hint");
    assert_eq!(
        (&hint["san"], &hint["part"]),
        (&"Rd8#".into(), &"piece".into()),
        "{hint}"
    );
    assert_eq!(
        hint["say"], "Tipp: Turm auf David eins. Noch einmal: der ganze Zug.",
        "{hint}"
    );
    let hint = ask(r#"{"input":"hint"}"#, "hint");
    assert_eq!(hint["part"], "move", "{hint}");
    assert_eq!(hint["say"], "Tipp: Turm David acht, Schachmatt.", "{hint}");
    // Black, were it to move, has nothing that takes or gives check.
    let threat = ask(r#"{"input":"threat"}"#, "threat");
    assert_eq!(threat["say"], "Keine Drohung.", "{threat}");
    let evaluation = ask(r#"{"input":"evaluation"}"#, "evaluation");
    assert_eq!(evaluation["mate"], 1, "{evaluation}");
    assert_eq!(evaluation["say"], "Weiß setzt im nächsten Zug matt.");
    // The player misses it; the engine replies; he takes both back.
    ask(r#"{"input":"move","uci":"h2h3"}"#, "move");
    let reply = ask(r#"{"input":"clock","color":"white"}"#, "move");
    assert_eq!(reply["ply"], 2, "{reply}");
    let retraced = ask(r#"{"input":"practice_take_back"}"#, "retraced");
    assert_eq!(retraced["ply"], 0);
    assert_eq!(retraced["fen"], MATE_IN_ONE);
    // He misses it again, and resigns after the engine's reply; the
    // review names the miss and the mate.
    ask(r#"{"input":"move","uci":"h2h3"}"#, "move");
    ask(r#"{"input":"clock","color":"white"}"#, "move");
    // The console resigns as the keypad does: asked, then confirmed.
    ask(r#"{"input":"resign","color":"white"}"#, "say");
    ask(r#"{"input":"resign","color":"white"}"#, "game_over");
    let review = ask(r#"{"input":"review"}"#, "review");
    const MISSED: &str = "Fehler 1 von 1. Zug 1: Bauer Hector drei verpasst ein Matt; \
                          besser war Turm David acht, Schachmatt.";
    assert_eq!(review["say"], MISSED, "{review}");
    assert_eq!(review["moves"][0]["mark"], "??", "{review}");
    assert_eq!(review["moves"][0]["better"], "Rd8#", "{review}");
    // In the review, the evaluation after his move, as Stockfish judged it
    // (a rook up: won). (Its steps are the blind player's menu keys, not
    // the console's: tests/practice.rs steps through them.)
    let after = ask(r#"{"input":"evaluation","ply":1}"#, "evaluation");
    assert_eq!(
        after["say"], "Nach Zug 1 von Weiß: Weiß steht auf Gewinn.",
        "{after}"
    );
    // The engine's answers are in the journal, so a replay says the same
    // without an engine.
    drop(child);
    let journal: String = files_in(&dir.join("games"))
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    assert!(
        journal.contains(r#""input":"analysis","ply":0,"uci":"d1d8","mate":1"#),
        "{journal}"
    );
    assert!(
        journal.contains(r#""input":"review_analysis","ply":0,"uci":"d1d8","mate":1"#),
        "{journal}"
    );
    // pegboard starts again: a new game begins, and the review of the
    // finished one is there at once, from its journal.
    // The blind player asks for the review (his first key, at 3 s) and
    // sets its mistake's position up with his menu's `select` (his second
    // key, at 6 s): keys of his own, not the console's.
    let keys = "{\"t\":0,\"keys\":0}\n{\"t\":3000,\"keys\":1}\n{\"t\":3120,\"keys\":0}\n\
                {\"t\":6000,\"keys\":2}\n{\"t\":6120,\"keys\":0}\n";
    let buttons = "[[buttons.key]]\nbit = 0\npress = \"review\"\n\
                   [[buttons.key]]\nbit = 1\npress = \"repeat\"\nlong = \"menu\"\nmenu = \"select\"\n\
                   [[buttons.key]]\nbit = 2\npress = \"times\"\nmenu = \"next\"\n\
                   [[buttons.key]]\nbit = 3\npress = \"position\"\nmenu = \"back\"\n";
    let (child, mut out, _) = play_with_keys(
        &dir,
        PIN,
        MATE_IN_ONE,
        (
            "relay",
            "level = 0\nmovetime_ms = 200\nanalysis_depth = 10\n",
        ),
        "25",
        (keys, buttons),
    );
    let mut seen = Vec::new();
    let begun = until_event(&mut out, &mut seen, "ready").expect("the new game");
    // (The console's setup was that session's; this one begins from the
    // start.)
    assert_eq!(
        begun["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "{begun}"
    );
    let review = until_event(&mut out, &mut seen, "review").expect("the review after the restart");
    assert_eq!(review["past"], true, "{review}");
    assert_eq!(review["say"], MISSED, "{review}");
    // Its position set up as the next game: that game's journal says
    // where the game after it begins (where this session's games do).
    let set_up = until_event(&mut out, &mut seen, "ready").expect("the mistake's game");
    assert_eq!(set_up["fen"], MATE_IN_ONE, "{set_up}");
    let newest = files_in(&dir.join("games"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "journal"))
        .max()
        .expect("a journal");
    let journal = std::fs::read_to_string(&newest).unwrap_or_default();
    let header = journal.lines().find(|l| l.contains(r#""trace":1"#));
    assert!(
        header.is_some_and(|l| l.contains(&format!(r#""start":"{MATE_IN_ONE}""#))
            && l.contains(r#""after":"startpos""#)),
        "{journal}"
    );
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files in the folder `dir` (the journal's).
fn files_in(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .expect("journal dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect()
}

/// Black to move in a Chess960 position (king g8, rook h8, castling
/// kept): its one legal move is castling short, the rook to f8 and the
/// king staying on g8. f8 is the bishop's, f7 and g7 the rook's and the
/// pawn's, and the h-pawn shuts the rook in.
const CASTLE_ONLY: &str = "6kr/R6p/7P/8/8/B7/8/4K3 b k - 0 1";

#[test]
fn a_chess960_position_set_up_from_the_console_is_played_by_stockfish_with_its_castling() {
    const PIN: &str = "96096";
    let dir = common::empty_dir("engine-chess960");
    // The board shows the position the arbiter will set up.
    let (child, mut out, addr) = play_with_console(
        &dir,
        PIN,
        CASTLE_ONLY,
        ("blind", "movetime_ms = 200\n"),
        "15",
    );
    let mut seen = Vec::new();
    // The game began with the standard start; the arbiter sets up the
    // Chess960 position, and the engine must now be told Chess960's
    // castling (UCI_Chess960) to answer its one move.
    let setup = format!(r#"{{"input":"setup","fen":"{CASTLE_ONLY}"}}"#);
    assert_eq!(console_input(addr, PIN, &setup), 200);
    let ready = loop {
        let ready = until_event(&mut out, &mut seen, "ready").expect("the next game");
        if ready["fen"] == CASTLE_ONLY {
            break ready;
        }
    };
    assert_eq!(ready["variant"], "chess960");
    let reply = until_event(&mut out, &mut seen, "move").expect("the engine's move");
    assert_eq!(reply["board"], "relay", "{reply}");
    assert_eq!(reply["san"], "O-O", "{reply}");
    // Chess960's UCI writes castling as the king taking his rook.
    assert_eq!(reply["uci"], "g8h8", "{reply}");
    assert_eq!(reply["say"], "Kurze Rochade", "{reply}");
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The book's moves in the position after `moves` (UCI), as python-chess's
/// own Polyglot reader finds them in Debian's `gnuchess-book`.
fn book_moves_by_python_chess(moves: &[&str]) -> Vec<String> {
    let script = format!(
        "import chess, chess.polyglot\nb = chess.Board()\nfor m in {moves:?}: b.push_uci(m)\n\
         with chess.polyglot.open_reader('{}') as r:\n    \
         print(' '.join(sorted(set(e.move.uci() for e in r.find_all(b)))))\n",
        pegboard::engine::book::DEBIAN_BOOK
    );
    let out = std::process::Command::new("python3")
        .args(["-c", &script])
        .output()
        .expect("python3 runs (.ci/setup.sh installs python-chess)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn by_default_the_engine_plays_the_gentle_step_from_the_book_at_a_persons_pace_and_the_game_is_said_as_it_begins()
 {
    let dir = common::empty_dir("engine-pace");
    let journal = dir.join("games");
    // No strength, no time a move: what a newcomer gets. 1. Nf3 on the
    // board at 0.7 s; the engine, Black, answers from the book.
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[game]\nblack_moves_on = \"engine\"\n[clock]\ncontrol = \"5+3\"\n\
             [journal]\ndir = \"{}\"\n",
            journal.display()
        ),
    );
    let (logged, events) = common::play_events(&config, "7");
    let ready = &common::of(&events, "ready")[0];
    assert_eq!(
        ready["say"],
        "Maschine, Stufe 2, etwa 1100. Sie spielen Weiß. 5 Minuten plus 3 Sekunden pro Zug.",
        "{logged}"
    );
    let moves = common::of(&events, "move");
    assert_eq!(moves.len(), 2, "{logged}");
    // A move of the book, as python-chess reads it.
    let reply = moves[1]["uci"].as_str().unwrap_or_default().to_string();
    let book = book_moves_by_python_chess(&["g1f3"]);
    assert!(book.contains(&reply), "{reply} among {book:?}");
    // Taken after a book move's 1 to 3 s (Black's clock ran from Nf3's
    // announcement), not at once, and not for the clock's share.
    let announced = common::of(&events, "announced");
    let nf3_said = announced[0]["t"].as_u64().expect("Nf3 said");
    let took = moves[1]["t"].as_u64().expect("the reply") - nf3_said;
    assert!((1000..=3100).contains(&took), "the reply took {took} ms");
    // Its clock stopped when it moved: 5:03 less what it took (the next
    // increment given at the press).
    let press = common::of(&events, "clock")
        .into_iter()
        .filter(|c| c["cause"] == "press")
        .nth(1)
        .expect("Black's press");
    assert_eq!(
        press["black"]["remaining_ms"].as_u64(),
        Some(300_000 + 3000 - took + 3000),
        "{press}"
    );
    let pgn = common::pegboard_command()
        .args(["pgn", "--config", &config])
        .output()
        .expect("pgn");
    let pgn = String::from_utf8_lossy(&pgn.stdout);
    assert!(
        pgn.contains("[Black \"stockfish (step 2, about 1100)\"]"),
        "{pgn}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hung_engine_is_noticed_within_its_think_time_not_its_clock() {
    let dir = common::empty_dir("engine-hang-bound");
    // An engine that takes every search and never answers one. At 90+30
    // a hang was noticed only after its 90 minutes; now within the think
    // time pegboard gave it (at most 8 s in the opening) and 2 s more.
    let script = dir.join("silent.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'id name silent'; echo uciok;;\nisready) echo readyok;;\n\
         quit) exit 0;;\nesac; done\n",
    )
    .expect("script");
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[game]\nblack_moves_on = \"engine\"\n[engine]\ncommand = \"/bin/sh\"\n\
             args = [\"{}\"]\nbook = \"\"\n[clock]\ncontrol = \"90+30\"\n[journal]\ndir = \"{}\"\n",
            script.display(),
            dir.join("games").display()
        ),
    );
    let (logged, events) = common::play_events(&config, "16");
    assert!(
        logged.contains("engine: the engine gave no move in its time; it is started again"),
        "{logged}"
    );
    assert_eq!(common::sans(&events), ["Nf3"], "{logged}");
    // Told once, as an event for every output (the voices, the mirror, the
    // console), in the language file's words, and journaled.
    let told = common::of(&events, "engine_trouble");
    assert_eq!(told.len(), 1, "{events:?}");
    assert_eq!(told[0]["trouble"], "hung");
    let hung = pegboard::announce::Vocabulary::fide().opponent.hung;
    assert_eq!(told[0]["say"], hung.as_str());
    let journaled: String = files_in(&dir.join("games"))
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect();
    assert!(
        journaled.contains(r#""input":"engine_trouble","trouble":"hung""#),
        "{journaled}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_trouble_of_the_engine_in_a_journal_is_told_as_an_event_in_the_language_files_words() {
    let events = common::run(
        r#"{"t":100,"input":"engine_trouble","trouble":"cannot_start"}
{"t":200,"input":"engine_trouble","trouble":"crashed"}
{"t":300,"input":"engine_trouble","trouble":"hung"}
{"t":400,"input":"engine_trouble","trouble":"malformed"}"#,
    );
    let words = pegboard::announce::Vocabulary::fide().opponent;
    let told: Vec<(u64, String, String)> = common::of(&events, "engine_trouble")
        .iter()
        .map(|e| {
            (
                e["t"].as_u64().unwrap_or(0),
                e["trouble"].as_str().unwrap_or("").to_string(),
                e["say"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        told,
        [
            (100, "cannot_start".into(), words.cannot_start),
            (200, "crashed".into(), words.crashed),
            (300, "hung".into(), words.hung),
            (400, "malformed".into(), words.malformed),
        ]
    );
}
