//! `pegboard play`: the daemon.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};
use pegboard::core::StartPosition;
use pegboard::runtime::parts;
use pegboard::runtime::play::{open_faces, play};
use pegboard::runtime::station::Stop;

#[derive(ClapArgs)]
pub struct Args {
    /// A configuration file (see config/pegboard.toml).
    #[arg(long)]
    config: Option<String>,
    /// The start position of a new game, as FEN (default: the standard
    /// start). An unfinished game in the journal directory is taken up
    /// instead, from its own start.
    #[arg(long)]
    fen: Option<String>,
    /// Also print every event as a JSON line.
    #[arg(long)]
    events: bool,
    /// Print only; do not speak.
    #[arg(long)]
    silent: bool,
    /// Stop after this many seconds, counted from when the game is
    /// ready (the parts opened, the board first read).
    #[arg(long)]
    seconds: Option<f64>,
    /// At the end, print how late the scan loop took its scans: whether
    /// this machine keeps up with the scan rate, and whether the loop was
    /// given its real-time priority; in a game on lichess, also
    /// how soon after its scan each move was sent.
    #[arg(long)]
    scan_timing: bool,
}

pub fn run(a: Args) -> ExitCode {
    let stop = Stop::new(a.seconds, true);
    let result = load_config(a.config.as_deref()).and_then(|c| {
        parts::phrasebook(&c).map_err(|e| e.to_string())?;
        let start = StartPosition {
            start: a.fen.unwrap_or_else(|| "startpos".to_string()),
            chess960: false,
        };
        let faces = open_faces(&c, std::io::stdout().is_terminal()).map_err(|e| e.to_string())?;
        play(
            &c,
            &start,
            !a.silent,
            a.events,
            &stop,
            faces,
            &mut std::io::stdout(),
        )
        .map(|timing| {
            if a.scan_timing {
                println!("pegboard: the scan loop ran at {}", timing.place);
                println!(
                    "pegboard: scans taken after they were due: {}",
                    timing.taken
                );
                println!(
                    "pegboard: scans handled after they were taken: {}",
                    timing.handled
                );
                if let Some(posted) = &timing.posted {
                    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
                    println!(
                        "pegboard: moves posted to lichess (the request written to the socket) \
                         after the scan that completed them: p50 {:.2} ms, max {:.2} ms ({} moves)",
                        ms(posted.quantile(0.5)),
                        ms(posted.max()),
                        posted.scans()
                    );
                }
            }
        })
        .map_err(|e| e.to_string())
    });
    finish("play", result)
}
