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
//!
//! Only a start the clip voice confirmed counts as its first sample: a
//! report that is not confirmed is the instant the utterance was handed
//! over, and a move whose start is not confirmed fails the benchmark.
//!
//! The smoke run (`PEGBOARD_BENCH_SMOKE=1`) hears the first 6 of the
//! sighted player's moves and times a tenth of the idle scans.

#[path = "../support/audio.rs"]
mod audio;
#[path = "../support/bench.rs"]
mod bench;

use std::hint::black_box;
use std::time::{Duration, Instant};

use pegboard::announce::{Narrator, Phrasebook};
use pegboard::core::debounce::DEFAULT_WINDOW_MS;
use pegboard::core::{BLIND_BOARD, Controller, Event, Settings, Stamped, StartPosition};
use pegboard::record::pgn::read_games;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sim::{Sighted, Style, playable_moves, simulate_two_boards};
use pegboard::speech::{
    Kind, Report, Speaker, SpeechConfig, TextOutput, Utterance, VoiceLanguage, VoiceName,
    build_chain,
};
use pegboard::trace::{Entry, Reading};
use shakmaty::Bitboard;

const CHILD: &str = "PEGBOARD_TWO_BOARDS_BENCH_CHILD";

/// Prints the figures of `v`; returns its median and maximum.
fn stats(name: &str, mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    assert!(!v.is_empty(), "{name}: no samples");
    let pick = |q: f64| bench::quantile(&v, q);
    println!(
        "{name:<62} median {:>6.1}  p95 {:>6.1}  max {:>6.1}   (n = {})",
        pick(0.5),
        pick(0.95),
        v[v.len() - 1],
        v.len()
    );
    (pick(0.5), v[v.len() - 1])
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
fn replication(entries: &[Entry], events: &[Stamped], targets: &mut bench::Targets) {
    let mut after = Vec::new();
    for e in events {
        if let Event::Replicated { board, .. } = &e.event
            && let Some((_, t)) = last_change(entries, board, e.t)
        {
            after.push((e.t - t) as f64);
        }
    }
    let (_, max) = stats(
        &format!("replicated after the last raw change, ms (window {DEFAULT_WINDOW_MS} ms)"),
        after,
    );
    targets.at_most(
        "a replication confirmed after its last raw change, the longest",
        max,
        DEFAULT_WINDOW_MS as f64,
        "ms",
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
fn release_to_speech(entries: &[Entry], events: &[Stamped], targets: &mut bench::Targets) {
    let releases: Vec<usize> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Move { board, .. } if board == "sighted" => {
                last_change(entries, board, e.t).map(|(i, _)| i)
            }
            _ => None,
        })
        .take(bench::pick(usize::MAX, 6))
        .collect();
    let last_release = *releases.last().expect("the sighted player moves");
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
    assert!(
        speaker.wait_ready(Duration::from_secs(10)),
        "the clips did not open within 10 s"
    );
    speaker.say(Utterance::words(Kind::Answer, "Anna"));
    speaker.wait_idle(Duration::from_secs(10));
    let mut settings = Settings::default();
    settings.seats.black = pegboard::core::Seat::Board("sighted".into());
    let mut narrator = Narrator::new(Phrasebook::default(), &settings.preferences.language);
    let mut c = Controller::new(
        &StartPosition::default(),
        settings,
        &[BLIND_BOARD, "sighted"],
    )
    .expect("start");
    let mut out = Vec::new();
    c.start(0, &mut out);
    let (mut took, mut decided) = (Vec::new(), Vec::new());
    let mut unconfirmed = 0;
    let mut i = 1;
    while i <= last_release {
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
            // Its words made, as the runtime makes them before the voices.
            narrator.tell(&mut out);
            for e in out.drain(..) {
                if let Event::Move { ply, say, .. } = &e.event {
                    decided.push(began.elapsed().as_secs_f64() * 1000.0);
                    speaker.say(Utterance {
                        kind: Kind::Move,
                        earcon: None,
                        text: say.as_str().to_string(),
                        ply: Some(*ply),
                        volume: 100,
                        private: false,
                    });
                    spoken = Some(());
                }
            }
        }
        let started = rx.iter().find_map(|r| match r {
            Report::Started { at, confirmed, .. } => Some((at, confirmed)),
            Report::Unsaid(_) => panic!("the clips could not say a move"),
            _ => None,
        });
        match started {
            Some((at, true)) => took.push((at - began).as_secs_f64() * 1000.0),
            Some((_, false)) => unconfirmed += 1,
            None => panic!("the clips reported no start"),
        }
        speaker.wait_idle(Duration::from_secs(10));
    }
    speaker.quit();
    stats("sighted move released -> move executed, ms", decided);
    let (median, _) = stats(
        "sighted move released -> first sample taken (clips), ms",
        took,
    );
    targets.holds(
        "every start confirmed by the clip voice",
        unconfirmed == 0,
        &format!("{unconfirmed} not confirmed"),
    );
    targets.at_most(
        "sighted move released → first sample taken (clips), median",
        median,
        50.0,
        "ms",
    );
}

/// Idle scans: one board, then two boards, each scanned once a tick.
fn idle_scans(targets: &mut bench::Targets) {
    let occ = Bitboard(0xffff_0000_0000_ffff);
    let per_tick = |boards: &[&str]| {
        let mut settings = Settings::default();
        if boards.len() > 1 {
            settings.seats.black = pegboard::core::Seat::Board(boards[1].into());
        }
        let mut c = Controller::new(&StartPosition::default(), settings, boards).expect("start");
        let mut out = Vec::new();
        let n = bench::pick(20_000_000u64, 2_000_000);
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
    targets.at_most(
        "idle scan tick, two boards against one",
        two / one,
        2.0,
        "×",
    );
}

fn child() {
    let mut targets = bench::Targets::new("two_boards");
    let entries = trace();
    let events = replay_all(&entries);
    replication(&entries, &events, &mut targets);
    release_to_speech(&entries, &events, &mut targets);
    idle_scans(&mut targets);
    targets.finish();
}

fn main() {
    // `cargo bench` passes --bench; there is nothing to filter.
    audio::in_own_sound_system(CHILD, "two-boards-bench", false, child);
}
