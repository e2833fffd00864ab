//! The `pegboard` command.

use std::io::{BufReader, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use std::time::Duration;

use pegboard::config::Config;
use pegboard::core::BLIND_BOARD;
use pegboard::demo::{self, DemoOptions, SpeechSetup};
use pegboard::hwtools;
use pegboard::replay::{self, ReplayError, Until};
use pegboard::speech::{
    Kind, READY_WITHIN, Report, Speaker, TextOutput, Utterance, VoiceName, build_chain,
};
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
    /// Play a famous game through the whole controller in real time,
    /// speaking and printing each announcement. Needs no hardware; without a
    /// working voice it prints only.
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
    },
    /// Say something through the configured voices, to try them: a text, or
    /// a move as it would be announced.
    ///
    /// Examples: pegboard say "Springer Felix drei";
    /// pegboard say --move e2e4;
    /// pegboard say --move e1g1 --fen "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    Say {
        /// The words to say.
        #[arg(required_unless_present = "move")]
        text: Option<String>,
        /// A move in UCI notation (e2e4, e7e8q), announced as in a game.
        #[arg(long = "move", conflicts_with = "text")]
        r#move: Option<String>,
        /// The position the move is played in (FEN); default: the start.
        #[arg(long, requires = "move")]
        fen: Option<String>,
        /// Use this voice only: speech-dispatcher, clips, file, text or null.
        #[arg(long)]
        voice: Option<String>,
        /// Say nothing (the muted path: nothing reaches the sound output).
        #[arg(long)]
        mute: bool,
        /// A configuration file (see config/pegboard.toml).
        #[arg(long)]
        config: Option<String>,
    },
    /// Read a sensor trace (JSON Lines, format 1) and print the events the
    /// controller concludes from it, one JSON object per line, as it reads.
    /// Simulated time: the output is the same on every run. The recording
    /// ends at its last line: a timer due later (a debounce window, a flag)
    /// does not fire unless --until says how far to go on. A malformed line
    /// stops the replay (exit code 2); a damaged last line, as a power cut
    /// leaves it, is reported after everything before it was replayed
    /// (exit code 3).
    Replay {
        /// The trace file, or - for standard input.
        trace: String,
        /// A configuration file (see config/pegboard.toml).
        #[arg(long)]
        config: Option<String>,
        /// Let simulated time run on to this instant (ms since the trace
        /// began) after the last line, firing the timers due by then.
        #[arg(long, value_name = "T")]
        until: Option<u64>,
    },
    /// Play a game on the board: the daemon. Reads the configured sensors
    /// and keys, applies the Laws, speaks every move and answer, and prints
    /// each event (with --events also as JSON lines, for a mirror display).
    /// Type q and Enter, or stop the service, to end.
    Play {
        /// A configuration file (see config/pegboard.toml).
        #[arg(long)]
        config: Option<String>,
        /// The start position as FEN (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Also print every event as a JSON line.
        #[arg(long)]
        events: bool,
        /// Print only; do not speak.
        #[arg(long)]
        silent: bool,
        /// Stop after this many seconds.
        #[arg(long)]
        seconds: Option<f64>,
    },
    /// Record what the board's sensors deliver into a trace file, to replay
    /// later (pegboard replay FILE). Raw scans as they come, key presses as
    /// inputs. Type q and Enter to stop.
    Record {
        /// The trace file to write.
        file: String,
        /// A configuration file ([sensors], [board], [buttons]).
        #[arg(long)]
        config: Option<String>,
        /// Stop after this many seconds.
        #[arg(long)]
        seconds: Option<f64>,
    },
    /// Check the sensors: lift and put back each peg, and pegboard says and
    /// prints the square; a live map of the board is shown, and at the end
    /// the squares that never changed, flicker or are stuck are listed.
    /// Type q and Enter to finish.
    HwTest {
        /// A configuration file ([sensors], [board], [buttons]).
        #[arg(long)]
        config: Option<String>,
        /// Finish after this many seconds.
        #[arg(long)]
        seconds: Option<f64>,
        /// Print only; do not speak.
        #[arg(long)]
        silent: bool,
        /// Print each change as a line, without redrawing the map.
        #[arg(long)]
        plain: bool,
    },
    /// Find the board's orientation: lift a1, then h1, then h8 (putting
    /// each back) when asked; the result is written into the configuration
    /// file's [board] table, keeping the rest of the file as it is.
    Calibrate {
        /// The configuration file to read and update (created if missing).
        #[arg(long)]
        config: String,
        /// Give up after this many seconds.
        #[arg(long)]
        seconds: Option<f64>,
        /// Print only; do not speak.
        #[arg(long)]
        silent: bool,
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
            silent,
            config,
            clock,
        } => {
            let (config, words) = match load_config(config.as_deref())
                .and_then(|c| c.phrasebook().map(|w| (c, w)).map_err(|e| e.to_string()))
            {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("pegboard demo: {e}");
                    return ExitCode::from(2);
                }
            };
            let mut settings = config.settings();
            if let Some(text) = clock {
                match pegboard::core::clock::TimeControl::parse_human(&text) {
                    Ok(control) => settings.clock.control = Some(control),
                    Err(e) => {
                        eprintln!("pegboard demo: --clock: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            let speech = (!silent).then(|| SpeechSetup {
                config: config.speech.clone(),
                language: config.voice_language(&words),
                delivery: config.delivery(),
            });
            let mut out = std::io::stdout().lock();
            match demo::run(
                DemoOptions {
                    speed,
                    seed,
                    events,
                    words,
                    settings,
                    speech,
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
            until,
        } => replay_command(&path, config.as_deref(), until),
        Command::Say {
            text,
            r#move,
            fen,
            voice,
            mute,
            config,
        } => match say(text, r#move, fen, voice, mute, config) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pegboard say: {e}");
                ExitCode::from(2)
            }
        },
        Command::Play {
            config,
            fen,
            events,
            silent,
            seconds,
        } => {
            let stop = hwtools::Stop::new(seconds, true);
            let result = load_config(config.as_deref()).and_then(|c| {
                let words = c.phrasebook().map_err(|e| e.to_string())?;
                let speech = (!silent).then(|| SpeechSetup {
                    config: c.speech.clone(),
                    language: c.voice_language(&words),
                    delivery: c.delivery(),
                });
                let start = pegboard::core::StartPosition {
                    start: fen.unwrap_or_else(|| "startpos".to_string()),
                    chess960: false,
                };
                let faces = pegboard::play::open_faces(&c, std::io::stdout().is_terminal())?;
                pegboard::play::play(
                    &c,
                    &start,
                    speech,
                    events,
                    &stop,
                    faces,
                    &mut std::io::stdout(),
                )
            });
            finish("play", result)
        }
        Command::Record {
            file,
            config,
            seconds,
        } => {
            let stop = hwtools::Stop::new(seconds, true);
            let result = load_config(config.as_deref())
                .and_then(|c| hwtools::record(&c, &file, &stop, &mut std::io::stderr()));
            finish("record", result.map(|_| ()))
        }
        Command::HwTest {
            config,
            seconds,
            silent,
            plain,
        } => {
            let stop = hwtools::Stop::new(seconds, true);
            let result = load_config(config.as_deref()).and_then(|c| {
                let words = c.phrasebook().map_err(|e| e.to_string())?;
                let speaker = (!silent).then(|| start_speaker(&c, &words));
                let live = !plain && std::io::stdout().is_terminal();
                let r = hwtools::hw_test(
                    &c,
                    &words,
                    speaker.as_ref(),
                    live,
                    &stop,
                    &mut std::io::stdout(),
                );
                if let Some(s) = speaker {
                    s.wait_idle(Duration::from_secs(5));
                    s.quit();
                }
                r.map(|_| ())
            });
            finish("hw-test", result)
        }
        Command::Calibrate {
            config,
            seconds,
            silent,
        } => {
            let stop = hwtools::Stop::new(seconds, true);
            let loaded = if std::path::Path::new(&config).exists() {
                load_config(Some(&config))
            } else {
                Ok(Config::default())
            };
            let result = loaded.and_then(|c| {
                let words = c.phrasebook().map_err(|e| e.to_string())?;
                let speaker = (!silent).then(|| start_speaker(&c, &words));
                let r = hwtools::calibrate(
                    &c,
                    &config,
                    &words,
                    speaker.as_ref(),
                    &stop,
                    &mut std::io::stdout(),
                );
                if let Some(s) = speaker {
                    s.wait_idle(Duration::from_secs(5));
                    s.quit();
                }
                match r {
                    Ok(true) => Ok(()),
                    Ok(false) => Err(
                        "stopped before the three corners were found; [board] is unchanged"
                            .to_string(),
                    ),
                    Err(e) => Err(e),
                }
            });
            finish("calibrate", result)
        }
        Command::CheckConfig { file } => {
            // The same checks, in the same order, as the commands that use
            // the file: the file itself, then the sensors and keys it names.
            match Config::load(&file).and_then(|c| c.check_sensors()) {
                Ok(()) => {
                    println!("{file}: configuration is valid");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Ends a command: its error on standard error, and the exit code.
fn finish(command: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pegboard {command}: {e}");
            ExitCode::from(2)
        }
    }
}

/// The configured voices on their own thread. Their reports are not read:
/// the commands that use it print everything they say.
fn start_speaker(config: &Config, words: &pegboard::announce::Phrasebook) -> Speaker {
    let language = config.voice_language(words);
    let speech = config.speech.clone();
    let (tx, _rx) = crossbeam_channel::unbounded();
    let speaker = Speaker::spawn(
        move || build_chain(&speech, &language, TextOutput::Stdout),
        tx,
    );
    speaker.wait_ready(READY_WITHIN);
    speaker
}

/// `pegboard say`: one utterance through the voice chain; reports on
/// standard error which voice spoke.
fn say(
    text: Option<String>,
    uci: Option<String>,
    fen: Option<String>,
    voice: Option<String>,
    mute: bool,
    config: Option<String>,
) -> Result<(), String> {
    let mut config = load_config(config.as_deref())?;
    let words = config.phrasebook().map_err(|e| e.to_string())?;
    if let Some(name) = voice {
        let v = VoiceName::parse(&name).ok_or_else(|| {
            format!(
                "--voice {name}: no such voice (voices: speech-dispatcher, clips, file, text, null)"
            )
        })?;
        config.speech.voices = vec![v];
    }
    config.speech.muted |= mute;
    let (kind, text, ply) = match (text, uci) {
        (Some(text), _) => (Kind::Answer, text, None),
        (None, Some(uci)) => {
            let text = pegboard::announce::phrases::announce_uci(&words, fen.as_deref(), &uci)?;
            (Kind::Move, text, Some(1))
        }
        (None, None) => return Err("give a text or --move".into()),
    };
    let language = config.voice_language(&words);
    let speech = config.speech.clone();
    let (tx, rx) = crossbeam_channel::unbounded();
    let speaker = Speaker::spawn(
        move || build_chain(&speech, &language, TextOutput::Stdout),
        tx,
    );
    // A voice still opening after this is skipped (and named below).
    speaker.wait_ready(READY_WITHIN);
    speaker.say(Utterance {
        kind,
        earcon: None,
        text,
        ply,
        volume: 100,
    });
    // Room for connecting to every voice in the chain (checking a named
    // speech-dispatcher voice reads its whole list of voices) and for a
    // long text; a voice that never reports its end gives up well before.
    let done = speaker.wait_idle(Duration::from_secs(120));
    speaker.quit();
    let mut spoken = None;
    for report in rx.try_iter() {
        match report {
            Report::VoiceFailed(f) => eprintln!("voice {}: {}", f.voice, f.error),
            Report::Started {
                voice, confirmed, ..
            } => {
                spoken = Some(voice);
                if !confirmed {
                    eprintln!("voice {voice}: did not report when it started");
                }
            }
            Report::Unsaid(_) | Report::Idle => {}
        }
    }
    match spoken {
        Some(voice) => eprintln!("spoken by: {voice}"),
        None => return Err("no voice could say it".into()),
    }
    if !done {
        eprintln!("still speaking after 120 s; stopped");
    }
    Ok(())
}

/// `pegboard replay`: streams the trace through the controller, writing
/// each line's events as soon as it is read.
fn replay_command(path: &str, config: Option<&str>, until: Option<u64>) -> ExitCode {
    let config = match load_config(config) {
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
    let input: Box<dyn std::io::BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                eprintln!("pegboard replay: {path}: cannot be opened: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let name = if path == "-" { "<stdin>" } else { path };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    let sink = |events: &[pegboard::core::Stamped]| {
        for e in events {
            line.clear();
            // Events are plain data; they always serialize.
            if let Ok(text) = serde_json::to_string(e) {
                line.push_str(&text);
            }
            writeln!(out, "{line}")?;
        }
        Ok(())
    };
    let until = until.map_or(Until::LastLine, Until::At);
    let result = replay::stream(
        trace::Reader::new(input, name),
        name,
        config.settings(),
        words,
        &[BLIND_BOARD],
        until,
        sink,
    );
    let flushed = out.flush();
    match result {
        Ok(done) => {
            if flushed.is_err() {
                return ExitCode::FAILURE;
            }
            match done.torn {
                Some(e) => {
                    eprintln!(
                        "pegboard replay: {e} (the recording's last line is damaged, as a \
                         power cut leaves it; everything before it was replayed)"
                    );
                    ExitCode::from(3)
                }
                None => ExitCode::SUCCESS,
            }
        }
        Err(ReplayError::Trace(e)) => {
            eprintln!("pegboard replay: {e}");
            ExitCode::from(2)
        }
        Err(ReplayError::Write(_)) => ExitCode::FAILURE,
    }
}
