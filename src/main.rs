//! The `pegboard` command.

use std::io::{BufReader, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use pegboard::config::Config;
use pegboard::core::BLIND_BOARD;
use pegboard::demo::{self, DemoOptions};
use pegboard::replay::replay;
use pegboard::trace;

/// pegboard lets a blind or partially sighted player play a real,
/// FIDE-conformant game on a pegged chessboard: it sees touches and moves
/// from the board's reed switches, applies touch-move, and announces every
/// move in the FIDE words (Anna, Bella, Cesar ...).
#[derive(Parser)]
#[command(name = "pegboard", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a famous game through the whole controller in real time, printing
    /// each announcement as it would be spoken. Needs no hardware.
    Demo {
        /// Play this many times faster than real time (e.g. 10).
        #[arg(long, default_value_t = 1.0)]
        speed: f64,
        /// Vary the simulated hands' timing and bounces.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also print every event as a JSON line.
        #[arg(long)]
        events: bool,
    },
    /// Read a sensor trace (JSON Lines, format 1) and print the events the
    /// controller concludes from it, one JSON object per line. Simulated
    /// time: the output is the same on every run.
    Replay {
        /// The trace file, or - for standard input.
        trace: String,
        /// A configuration file (see config/pegboard.toml).
        #[arg(long)]
        config: Option<String>,
    },
    /// Check a configuration file and say what is wrong with it.
    CheckConfig {
        /// The configuration file.
        file: String,
    },
}

fn load_config(path: Option<&str>) -> Result<Config, String> {
    match path {
        Some(p) => Config::load(p).map_err(|e| e.to_string()),
        None => Ok(Config::default()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Demo {
            speed,
            seed,
            events,
        } => {
            let mut out = std::io::stdout().lock();
            match demo::run(
                DemoOptions {
                    speed,
                    seed,
                    events,
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
        Command::Replay {
            trace: path,
            config,
        } => {
            let config = match load_config(config.as_deref()) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("pegboard replay: {e}");
                    return ExitCode::from(2);
                }
            };
            let words = match config.phrasebook() {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("pegboard replay: {e}");
                    return ExitCode::from(2);
                }
            };
            let entries = if path == "-" {
                trace::read(std::io::stdin().lock(), "<stdin>")
            } else {
                match std::fs::File::open(&path) {
                    Ok(f) => trace::read(BufReader::new(f), &path),
                    Err(e) => {
                        eprintln!("pegboard replay: {path}: cannot be opened: {e}");
                        return ExitCode::from(2);
                    }
                }
            };
            let events = entries.and_then(|entries| {
                replay(&entries, &path, config.settings(), words, &[BLIND_BOARD])
            });
            match events {
                Ok(events) => {
                    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
                    for e in &events {
                        let line = serde_json::to_string(e).unwrap_or_default();
                        if writeln!(out, "{line}").is_err() {
                            return ExitCode::FAILURE;
                        }
                    }
                    if out.flush().is_err() {
                        return ExitCode::FAILURE;
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("pegboard replay: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::CheckConfig { file } => match Config::load(&file).and_then(|c| {
            c.phrasebook()?;
            Ok(c)
        }) {
            Ok(_) => {
                println!("{file}: configuration is valid");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
    }
}
