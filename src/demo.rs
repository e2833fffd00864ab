//! `pegboard demo`: a famous game played through the whole pipeline in real
//! time, by simulated hands with human timing and the occasional bounce.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::announce::Phrasebook;
use crate::core::{BLIND_BOARD, Controller, Event, Settings, Stamped};
use crate::pgn::read_games;
use crate::sim::{Style, simulate};
use crate::trace::{Entry, Reading};

/// The Opera Game, Paris 1858: Morphy against the Duke of Brunswick and
/// Count Isouard, seventeen moves to a famous mate.
pub const GAME: &str = include_str!("demo_game.pgn");

/// Demo options.
#[derive(Debug, Clone, Copy)]
pub struct DemoOptions {
    /// How many times faster than real time.
    pub speed: f64,
    pub seed: u64,
    /// Print every event as JSON as well.
    pub events: bool,
}

fn clock(t: u64) -> String {
    format!("{:02}:{:02}.{:03}", t / 60_000, (t / 1000) % 60, t % 1000)
}

fn print_event(out: &mut impl Write, e: &Stamped, json: bool) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(e).unwrap_or_default())?;
    }
    let t = clock(e.t);
    match &e.event {
        Event::Ready { .. } => Ok(()),
        Event::Touch { square, piece, .. } => {
            writeln!(out, "[{t}]   (touched {piece} on {square})")
        }
        Event::Move { ply, san, say, .. } => {
            let number = ply.div_ceil(2);
            let dots = if ply % 2 == 1 { "." } else { "..." };
            writeln!(out, "[{t}] {number}{dots} {san:<8} « {say} »")
        }
        other => match other.spoken() {
            Some(text) => writeln!(out, "[{t}] {:<12} « {text} »", other.name()),
            None => Ok(()),
        },
    }
}

/// The demo game's trace: the game played by simulated hands.
pub fn demo_trace(seed: u64) -> Result<Vec<Entry>, String> {
    let games = read_games(GAME.as_bytes()).map_err(|e| e.to_string())?;
    let game = games.first().ok_or("the demo game is missing")?;
    let style = Style {
        think: (1500, 4000),
        hand: (400, 1200),
        ..Style::default()
    };
    simulate(&game.record, seed, style)
}

/// Plays the demo, writing what would be spoken to `out`.
pub fn run(options: DemoOptions, out: &mut impl Write) -> Result<(), String> {
    let trace = demo_trace(options.seed)?;
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "pegboard demo: the Opera Game, Morphy vs. the Duke of Brunswick, Paris 1858.\n\
         Simulated hands play it on the pegged board; each line is what pegboard says.\n"
    )
    .map_err(io)?;
    let mut c = Controller::new(
        &crate::core::StartPosition::default(),
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
    )
    .map_err(|e| e.to_string())?;
    let speed = if options.speed > 0.0 {
        options.speed
    } else {
        1.0
    };
    let began = Instant::now();
    let wait_until = |t: u64| {
        let target = Duration::from_secs_f64(t as f64 / 1000.0 / speed);
        let elapsed = began.elapsed();
        if target > elapsed {
            std::thread::sleep(target - elapsed);
        }
    };
    let mut events = vec![c.ready(0)];
    for entry in &trace {
        // Fire timers (debounce, settle) at their own instants, in real time.
        while let Some(d) = c.next_deadline().filter(|&d| d <= entry.t) {
            wait_until(d);
            c.advance(d, &mut events);
            for e in events.drain(..) {
                print_event(out, &e, options.events).map_err(io)?;
            }
        }
        wait_until(entry.t);
        match &entry.reading {
            Reading::Header(_) => {}
            Reading::Scan { occ, .. } => c.scan(entry.t, 0, *occ, &mut events),
            Reading::Lift { square, .. } => c.lift(entry.t, 0, *square, &mut events),
            Reading::Place { square, .. } => c.place(entry.t, 0, *square, &mut events),
            Reading::Input(input) => c.input(entry.t, *input, &mut events),
        }
        for e in events.drain(..) {
            print_event(out, &e, options.events).map_err(io)?;
        }
        out.flush().map_err(io)?;
    }
    c.finish(&mut events);
    for e in events.drain(..) {
        print_event(out, &e, options.events).map_err(io)?;
    }
    Ok(())
}
