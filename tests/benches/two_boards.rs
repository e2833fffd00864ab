//! Two boards: `cargo bench --bench two_boards`.
//!
//! - the sighted player's move released on his board → the blind player
//!   hears it: the scans fed in real time from the release until the move
//!   is executed, then its announcement spoken by the clip voice into a
//!   PulseAudio null sink, until the first sample is taken (target: median
//!   ≤ 50 ms);
//! - a replication confirmed after its last peg settled: from the last raw
//!   change on the replicating board to the `replicated` event, in a real
//!   game's simulated two-board trace (target: ≤ one debounce window);
//! - the idle scan with two boards against one (target: ≤ 2×).

#[path = "../support/audio.rs"]
mod audio;

use std::hint::black_box;
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::core::debounce::DEFAULT_WINDOW_MS;
use pegboard::core::{BLIND_BOARD, Controller, Event, Settings, Stamped, StartPosition};
use pegboard::pgn::read_games;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sim::{Sighted, Style, playable_moves, simulate_two_boards};
use pegboard::speech::{
    Kind, Report, Speaker, SpeechConfig, TextOutput, Utterance, VoiceLanguage, VoiceName,
    build_chain,
};
use pegboard::trace::{Entry, Reading};
use shakmaty::Bitboard;

const CHILD: &str = "PEGBOARD_TWO_BOARDS_BENCH_CHILD";

fn stats(name: &str, mut v: Vec<f64>) {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        println!("{name:<62} no samples");
        return;
    }
    let pick = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<62} median {:>6.1}  p95 {:>6.1}  max {:>6.1}   (n = {})",
        pick(0.5),
        pick(0.95),
        v[v.len() - 1],
        v.len()
    );
}

/// Kasparov – Deep Blue 1997, game 6, on two boards, scanned at 200 Hz.
fn trace() -> Vec<Entry> {
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    let game = &games[5];
    let (start, mode, moves, _) = playable_moves(&game.record).expect("playable");
    let style = Style {
        scan_period: 5,
        ..Style::default()
    };
    simulate_two_boards(
        &game.record,
        &start,
        mode,
        &moves,
        6,
        style,
        Sighted::Board,
        (500, 2500),
    )
}

fn board_of(e: &Entry) -> Option<&str> {
    match &e.reading {
        Reading::Scan { board, .. }
        | Reading::Lift { board, .. }
        | Reading::Place { board, .. } => Some(board),
        _ => None,
    }
}

fn replay_all(entries: &[Entry]) -> Vec<Stamped> {
    replay(
        entries,
        "bench",
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replays")
}

/// The last raw change on `board` before `t`.
fn last_change(entries: &[Entry], board: &str, t: u64) -> Option<(usize, u64)> {
    let mut last = None;
    let mut raw: Option<Bitboard> = None;
    for (i, e) in entries.iter().enumerate() {
        if e.t >= t {
            break;
        }
        if board_of(e) != Some(board) {
            continue;
        }
        let now = match &e.reading {
            Reading::Scan { occ, .. } => *occ,
            Reading::Lift { square, .. } => raw.unwrap_or_default().without(*square),
            Reading::Place { square, .. } => raw.unwrap_or_default().with(*square),
            _ => continue,
        };
        if raw != Some(now) {
            last = Some((i, e.t));
        }
        raw = Some(now);
    }
    last
}

/// Replication: `replicated` after the replicating board's last change.
fn replication(entries: &[Entry], events: &[Stamped]) {
    let mut after = Vec::new();
    for e in events {
        if let Event::Replicated { board, .. } = &e.event
            && let Some((_, t)) = last_change(entries, board, e.t)
        {
            after.push((e.t - t) as f64);
        }
    }
    stats(
        &format!("replicated after the last raw change, ms (window {DEFAULT_WINDOW_MS} ms)"),
        after,
    );
}

/// Feeds one trace line to the controller, as a replay does.
fn feed(c: &mut Controller, e: &Entry, out: &mut Vec<Stamped>) -> Result<(), &'static str> {
    let index = |c: &Controller, b: &str| c.board_index(b).ok_or("no such board");
    match &e.reading {
        Reading::Scan { board, occ } => c.scan(e.t, index(c, board)?, *occ, out),
        Reading::Lift { board, square } => c.lift(e.t, index(c, board)?, *square, out),
        Reading::Place { board, square } => c.place(e.t, index(c, board)?, *square, out),
        Reading::Input(input) => c.input(e.t, input.clone(), out),
        Reading::Header(_) | Reading::Keys(_) => {}
    }
    Ok(())
}

/// The sighted player's releases, fed in real time from each release
/// until the move is executed, then spoken by the clips.
fn release_to_speech(entries: &[Entry], events: &[Stamped]) {
    let releases: Vec<usize> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Move { board, .. } if board == "sighted" => {
                last_change(entries, board, e.t).map(|(i, _)| i)
            }
            _ => None,
        })
        .collect();
    let config = SpeechConfig {
        voices: vec![VoiceName::Clips],
        ..SpeechConfig::default()
    };
    let language = VoiceLanguage {
        clips: "fide".into(),
        synthesizer: "de".into(),
        spoken: pegboard::announce::Vocabulary::fide().spoken,
    };
    let (tx, rx) = crossbeam_channel::unbounded();
    let speaker = Speaker::spawn(
        move || build_chain(&config, &language, TextOutput::PrintedByCaller),
        tx,
    );
    speaker.say(Utterance::words(Kind::Answer, "Anna"));
    speaker.wait_idle(Duration::from_secs(10));
    let mut settings = Settings::default();
    settings.seats.black = pegboard::core::Seat::Board("sighted".into());
    let mut c = Controller::new(
        &StartPosition::default(),
        settings,
        Phrasebook::default(),
        &[BLIND_BOARD, "sighted"],
    )
    .expect("start");
    let mut out = Vec::new();
    c.start(0, &mut out);
    let (mut took, mut decided) = (Vec::new(), Vec::new());
    let mut i = 1;
    while i < entries.len() {
        if !releases.contains(&i) {
            feed(&mut c, &entries[i], &mut out).expect("fed");
            out.clear();
            i += 1;
            continue;
        }
        // The release: from here on, wall-clock time is game time.
        let began = Instant::now();
        let t0 = entries[i].t;
        rx.try_iter().for_each(drop);
        let mut spoken = None;
        while i < entries.len() && spoken.is_none() {
            let due = Duration::from_millis(entries[i].t - t0);
            if let Some(wait) = due.checked_sub(began.elapsed()) {
                std::thread::sleep(wait);
            }
            feed(&mut c, &entries[i], &mut out).expect("fed");
            i += 1;
            for e in out.drain(..) {
                if let Event::Move { ply, say, .. } = &e.event {
                    decided.push(began.elapsed().as_secs_f64() * 1000.0);
                    speaker.say(Utterance {
                        kind: Kind::Move,
                        earcon: None,
                        text: say.clone(),
                        ply: Some(*ply),
                        volume: 100,
                    });
                    spoken = Some(());
                }
            }
        }
        let started = rx.iter().find_map(|r| match r {
            Report::Started { at, .. } => Some(at),
            Report::Unsaid(_) => panic!("the clips could not say a move"),
            _ => None,
        });
        if let Some(at) = started {
            took.push((at - began).as_secs_f64() * 1000.0);
        }
        speaker.wait_idle(Duration::from_secs(10));
    }
    speaker.quit();
    stats("sighted move released -> move executed, ms", decided);
    stats(
        "sighted move released -> first sample taken (clips), ms",
        took,
    );
}

/// Idle scans: one board, then two boards, each scanned once a tick.
fn idle_scans() {
    let occ = Bitboard(0xffff_0000_0000_ffff);
    let per_tick = |boards: &[&str]| {
        let mut settings = Settings::default();
        if boards.len() > 1 {
            settings.seats.black = pegboard::core::Seat::Board(boards[1].into());
        }
        let mut c = Controller::new(
            &StartPosition::default(),
            settings,
            Phrasebook::default(),
            boards,
        )
        .expect("start");
        let mut out = Vec::new();
        let n = 20_000_000u64;
        let began = Instant::now();
        for t in 0..n {
            for b in 0..boards.len() {
                c.scan(black_box(t * 5), b, black_box(occ), &mut out);
            }
        }
        assert!(out.is_empty());
        began.elapsed().as_secs_f64() * 1e9 / n as f64
    };
    let one = per_tick(&[BLIND_BOARD]);
    let two = per_tick(&[BLIND_BOARD, "sighted"]);
    println!(
        "idle scan tick: one board {one:.2} ns, two boards {two:.2} ns ({:.2}x)",
        two / one
    );
}

fn child() {
    let entries = trace();
    let events = replay_all(&entries);
    replication(&entries, &events);
    release_to_speech(&entries, &events);
    idle_scans();
}

fn main() {
    // `cargo bench` passes --bench; there is nothing to filter.
    audio::in_own_sound_system(CHILD, "two-boards-bench", false, child);
}
