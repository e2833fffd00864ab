//! `pegboard demo`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::load_config;
use pegboard::runtime::demo::{self, DemoOptions};
use pegboard::runtime::parts;
use pegboard::runtime::voices::SpeechSetup;

#[derive(ClapArgs)]
pub struct Args {
    /// Play this many times faster than real time (e.g. 10).
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
    /// Vary the simulated hands' timing and bounces.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also print every event as a JSON line.
    #[arg(long)]
    events: bool,
    /// Print only; do not speak.
    #[arg(long)]
    silent: bool,
    /// A configuration file (language, style, voices; see config/pegboard.toml).
    #[arg(long)]
    config: Option<String>,
    /// Play with a clock: a time control in minutes, e.g. 5+3 or
    /// 40/90,30+30 (overrides the configuration's [clock] control).
    #[arg(long)]
    clock: Option<String>,
    /// Serve the sighted opponent's page (the mirror) while the demo plays,
    /// on ADDR (default: [mirror] listen, 127.0.0.1:8080); open
    /// http://ADDR/ in a browser.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    mirror: Option<String>,
    /// Play a short game against the chess engine (Stockfish, as the
    /// configuration's [engine] names it, at its step: 2 by default)
    /// instead, the simulated hands playing White, so that practice can be
    /// heard without a board.
    #[arg(long)]
    engine: bool,
}

pub fn run(a: Args) -> ExitCode {
    let (config, words) = match load_config(a.config.as_deref()).and_then(|c| {
        parts::phrasebook(&c)
            .map(|w| (c, w))
            .map_err(|e| e.to_string())
    }) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pegboard demo: {e}");
            return ExitCode::from(2);
        }
    };
    let mut settings = parts::settings(&config);
    if let Some(text) = a.clock {
        match pegboard::core::clock::TimeControl::parse_human(&text) {
            Ok(control) => settings.clock.control = Some(control),
            Err(e) => {
                eprintln!("pegboard demo: --clock: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let speech = (!a.silent).then(|| SpeechSetup::of(&config, &words));
    let mirror = a.mirror.map(|given| {
        (
            config.mirror.address(&given),
            config.mirror.hosts.clone(),
            parts::mirror_view(&config, &words.words),
        )
    });
    let mut out = std::io::stdout().lock();
    match demo::run(
        DemoOptions {
            speed: a.speed,
            seed: a.seed,
            events: a.events,
            words,
            settings,
            speech,
            mirror,
            engine: a.engine.then(|| config.engine.clone()),
        },
        &mut out,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pegboard demo: {e}");
            ExitCode::FAILURE
        }
    }
}
