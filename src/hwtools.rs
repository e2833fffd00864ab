//! The hardware commands: `pegboard record`, `pegboard hw-test` and
//! `pegboard calibrate`. Each runs the configured sensor source at its scan
//! rate; the judgement (debounce, flicker, calibration) is in the pure
//! modules [`crate::sensor_check`] and [`crate::calibrate`].

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Bitboard;

use crate::announce::Phrasebook;
use crate::buttons::{ButtonDebouncer, KeySource, Keypad, Press};
use crate::calibrate::{self, Calibration, Said, Step};
use crate::config::Config;
use crate::core::{BLIND_BOARD, Input};
use crate::play::{Presence, PresenceChange};
use crate::sensor_check::{self, Seen, SensorCheck};
use crate::sensors::open::{open_keys, open_source};
use crate::sensors::poller::Poller;
use crate::sensors::{Layout, LossReport, SensorSource, SourceError};
use crate::speech::{Kind, Speaker, Utterance};
use crate::trace::{self, Header, Reading};

/// When a command stops: after so many seconds, when `q` and Enter are
/// typed (if standard input is a terminal or a pipe that says so), or at
/// SIGTERM or SIGINT (`systemctl stop`, Ctrl-C). A second signal while it
/// is stopping ends the process at once.
#[derive(Clone)]
pub struct Stop {
    deadline: Option<Instant>,
    quit: Arc<AtomicBool>,
}

impl Stop {
    /// Stops after `seconds` (if given) or at a `q` line on standard input.
    pub fn new(seconds: Option<f64>, watch_stdin: bool) -> Stop {
        let quit = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
            // Registration fails only for a signal that cannot be caught;
            // these two can. Without it the default (ending) still applies.
            let _ = signal_hook::flag::register_conditional_shutdown(signal, 1, Arc::clone(&quit));
            let _ = signal_hook::flag::register(signal, Arc::clone(&quit));
        }
        if watch_stdin {
            let flag = quit.clone();
            std::thread::spawn(move || {
                // The end of standard input (none, or a closed pipe) is not a quit.
                for line in std::io::stdin().lock().lines() {
                    match line {
                        Ok(l) if l.trim() == "q" => {
                            flag.store(true, Ordering::SeqCst);
                            return;
                        }
                        Ok(_) => {}
                        Err(_) => return,
                    }
                }
            });
        }
        Stop {
            deadline: seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0))),
            quit,
        }
    }

    pub fn now(&self) -> bool {
        self.quit.load(Ordering::SeqCst) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Stops as soon as possible (from another part of the command).
    fn set(&self) {
        self.quit.store(true, Ordering::SeqCst);
    }
}

/// One turn of the scan loop.
pub(crate) struct Tick {
    pub t: u64,
    /// The board by square, or why there is none this time.
    pub board: Result<Bitboard, SourceError>,
    /// Key presses completed in this turn, as inputs.
    pub inputs: Vec<Input>,
    /// What the source lost since the last such report (frames with a bad
    /// checksum, noise, scans that never came), at most every ten seconds.
    pub losses: Option<String>,
}

/// The source, its layout and the keys, run at the scan rate.
pub(crate) struct Station {
    source: Box<dyn SensorSource>,
    layout: Layout,
    keys: KeySource,
    debouncer: ButtonDebouncer,
    keypad: Keypad,
    poller: Poller,
    presses: Vec<Press>,
    loss_report: LossReport,
}

impl Station {
    pub fn open(config: &Config) -> Result<Station, String> {
        // What `pegboard check-config` checks: the same verdict here.
        config.check_sensors().map_err(|e| e.to_string())?;
        Ok(Station {
            source: open_source(&config.sensors)?,
            layout: config.board.layout.clone(),
            keys: open_keys(&config.buttons)?,
            debouncer: ButtonDebouncer::new(config.buttons.timing()),
            keypad: Keypad::new(config.buttons.keymaps(), config.buttons.player.into()),
            poller: Poller::new(config.sensors.scan_hz),
            presses: Vec::new(),
            loss_report: LossReport::default(),
        })
    }

    pub fn tick(&mut self) -> Tick {
        let t = self.poller.wait();
        let scan = self.source.scan(t);
        let word = self.keys.read(scan.as_ref().ok().and_then(|s| s.buttons));
        self.presses.clear();
        self.debouncer.sample(t, word, &mut self.presses);
        let inputs = self
            .presses
            .iter()
            .filter_map(|&p| self.keypad.press(p))
            .collect();
        let losses = self
            .loss_report
            .update(t, self.source.losses())
            .map(|what| format!("{}: {what}", self.source.describe()));
        Tick {
            t,
            board: scan.map(|s| self.layout.to_board(s.occ)),
            inputs,
            losses,
        }
    }
}

/// Reports a source's trouble once when it starts and once when it ends,
/// and what it lost on the way (rate-limited by the station).
#[derive(Default)]
pub(crate) struct Trouble {
    now: Option<String>,
}

impl Trouble {
    /// The messages to show for this tick: a change of state, and losses.
    pub fn update(&mut self, tick: &Tick) -> Vec<String> {
        let change = match &tick.board {
            Ok(_) if self.now.take().is_some() => Some("sensors are back".to_string()),
            Ok(_) => None,
            Err(e) => {
                // Stale and disconnected messages vary in their numbers: report the kind.
                let kind = match e {
                    SourceError::Stale { .. } => "stale".to_string(),
                    other => other.to_string(),
                };
                (self.now.as_deref() != Some(&kind)).then(|| {
                    self.now = Some(kind);
                    e.to_string()
                })
            }
        };
        change.into_iter().chain(tick.losses.clone()).collect()
    }
}

fn speak(speaker: Option<&Speaker>, text: String) {
    if let Some(s) = speaker {
        s.say(Utterance {
            kind: Kind::Answer,
            earcon: None,
            text,
            ply: None,
            volume: 100,
        });
    }
}

fn io(e: std::io::Error) -> String {
    format!("cannot write: {e}")
}

/// `pegboard record FILE`: writes everything the source delivers as a
/// trace: a header, an `occ` line at each change of the raw (undebounced)
/// board, an `input` line per key press, and a comment when the source
/// drops out and returns, `board_lost` and `board_back` inputs when `play`
/// would tell the player so, and at the end the board once more at the
/// instant the recording stopped: a replay runs to the end of the
/// recording, not to its last change. Every line is flushed as it is
/// written, so an interrupted recording keeps everything up to the
/// interruption.
pub fn record(
    config: &Config,
    file: &str,
    stop: &Stop,
    log: &mut dyn Write,
) -> Result<u64, String> {
    let mut station = Station::open(config)?;
    let out = std::fs::File::create(file).map_err(|e| format!("{file}: cannot be created: {e}"))?;
    let mut out = std::io::LineWriter::new(out);
    writeln!(
        out,
        "{}",
        trace::write_line(0, &Reading::Header(Header::default()))
    )
    .map_err(io)?;
    writeln!(
        log,
        "recording {} at {} Hz into {file}; type q and Enter to stop",
        station.source.describe(),
        config.sensors.scan_hz
    )
    .map_err(io)?;
    let mut last: Option<Bitboard> = None;
    let mut trouble = Trouble::default();
    let mut lines = 0u64;
    let mut written_t = 0;
    let mut now = 0;
    let mut presence = None;
    while !stop.now() {
        let tick = station.tick();
        now = tick.t;
        for message in trouble.update(&tick) {
            writeln!(out, "# t={} ms: {message}", tick.t).map_err(io)?;
            writeln!(log, "{message}").map_err(io)?;
        }
        // The board lost and back, as `play` tells the controller: a replay
        // then judges what changed meanwhile as `play` did.
        let presence = presence.get_or_insert_with(|| Presence::new(tick.t));
        if let Some(change) = presence.update(tick.t, tick.board.is_ok()) {
            let input = match change {
                PresenceChange::Lost => Input::BoardLost,
                PresenceChange::Back => Input::BoardBack,
            };
            writeln!(out, "{}", trace::write_line(tick.t, &Reading::Input(input))).map_err(io)?;
            lines += 1;
            written_t = tick.t;
        }
        if let Ok(board) = tick.board
            && presence.feeds()
            && last != Some(board)
        {
            last = Some(board);
            let reading = Reading::Scan {
                board: BLIND_BOARD.to_string(),
                occ: board,
            };
            writeln!(out, "{}", trace::write_line(tick.t, &reading)).map_err(io)?;
            lines += 1;
            written_t = tick.t;
        }
        for input in tick.inputs {
            writeln!(out, "{}", trace::write_line(tick.t, &Reading::Input(input))).map_err(io)?;
            lines += 1;
            written_t = tick.t;
        }
    }
    if let Some(board) = last.filter(|_| now > written_t) {
        let reading = Reading::Scan {
            board: BLIND_BOARD.to_string(),
            occ: board,
        };
        writeln!(out, "{}", trace::write_line(now, &reading)).map_err(io)?;
        lines += 1;
    }
    out.flush().map_err(io)?;
    writeln!(log, "{lines} lines written to {file}").map_err(io)?;
    Ok(lines)
}

/// `pegboard hw-test`: prints and speaks each square as a peg is lifted or
/// placed, shows the board (live on a terminal), and at the end reports
/// the squares that never changed or flickered, and any stuck lines.
pub fn hw_test(
    config: &Config,
    words: &Phrasebook,
    speaker: Option<&Speaker>,
    live_map: bool,
    stop: &Stop,
    out: &mut dyn Write,
) -> Result<sensor_check::CheckReport, String> {
    let mut station = Station::open(config)?;
    let mut check = SensorCheck::new(config.debounce.window_ms);
    writeln!(
        out,
        "hw-test: {} at {} Hz. Lift and put back every peg, one square at a time; type q and Enter to finish.",
        station.source.describe(),
        config.sensors.scan_hz
    )
    .map_err(io)?;
    let mut trouble = Trouble::default();
    let mut seen = Vec::new();
    let mut shown_faults = Vec::new();
    let mut redraw = live_map;
    while !stop.now() {
        let tick = station.tick();
        for message in trouble.update(&tick) {
            writeln!(out, "{message}").map_err(io)?;
        }
        let faults = station.source.faults();
        if faults != shown_faults {
            for f in &faults {
                writeln!(out, "wiring fault: {}", f.describe(&station.layout)).map_err(io)?;
            }
            shown_faults = faults;
        }
        if let Ok(board) = tick.board {
            seen.clear();
            check.scan(tick.t, board, &mut seen);
            for s in &seen {
                let (sq, what) = match *s {
                    Seen::Lifted(sq) => (sq, "lifted"),
                    Seen::Placed(sq) => (sq, "placed"),
                };
                if live_map {
                    write!(out, "\x1b[H\x1b[2J").map_err(io)?;
                    redraw = true;
                }
                writeln!(out, "{:>7} ms  {sq} {what}", tick.t).map_err(io)?;
                speak(speaker, words.square(sq));
            }
        }
        for input in &tick.inputs {
            writeln!(out, "{:>7} ms  key: {}", tick.t, input.name()).map_err(io)?;
        }
        if redraw {
            writeln!(out, "{}", sensor_check::map_text(check.board())).map_err(io)?;
            redraw = false;
        }
    }
    let report = check.report();
    writeln!(out, "\n{}", sensor_check::map_text(check.board())).map_err(io)?;
    writeln!(out, "{}", report.text()).map_err(io)?;
    for f in station.source.faults() {
        writeln!(out, "Wiring fault: {}", f.describe(&station.layout)).map_err(io)?;
    }
    Ok(report)
}

/// `pegboard calibrate`: asks for a1, h1 and h8 to be lifted in turn and
/// writes where they are into the configuration file's `[board]` table.
/// The source is read without the configured layout (raw positions).
pub fn calibrate(
    config: &Config,
    config_file: &str,
    words: &Phrasebook,
    speaker: Option<&Speaker>,
    stop: &Stop,
    out: &mut dyn Write,
) -> Result<bool, String> {
    let mut station = Station::open(config)?;
    station.layout = config.board.lines_in_order();
    let mut cal = Calibration::new(config.debounce.window_ms);
    let mut said = Vec::new();
    let mut trouble = Trouble::default();
    writeln!(out, "calibrate: reading {}", station.source.describe()).map_err(io)?;
    while !stop.now() {
        let tick = station.tick();
        for message in trouble.update(&tick) {
            writeln!(out, "{message}").map_err(io)?;
        }
        let Ok(raw) = tick.board else { continue };
        said.clear();
        cal.scan(tick.t, raw.0, &mut said);
        for s in &said {
            match s {
                Said::Next(Step::Fill) => {
                    writeln!(
                        out,
                        "Put pegs on a1, h1 and h8 (a full start position will do)."
                    )
                    .map_err(io)?;
                }
                Said::Next(Step::Lift(sq)) => {
                    writeln!(out, "Lift the peg on {sq}.").map_err(io)?;
                    speak(speaker, words.square(*sq));
                }
                Said::Next(Step::PutBack(sq)) => {
                    writeln!(out, "Seen. Put {sq} back.").map_err(io)?;
                }
                Said::Next(Step::Done) => stop.set(),
                Said::Problem(p) => writeln!(out, "{p}").map_err(io)?,
                Said::Found(corners) => {
                    let text = std::fs::read_to_string(config_file).unwrap_or_default();
                    let new = calibrate::write_board(&text, *corners)?;
                    // Written beside and renamed, so a power cut leaves the old or the new file.
                    let tmp = format!("{config_file}.new");
                    std::fs::write(&tmp, new)
                        .and_then(|_| std::fs::rename(&tmp, config_file))
                        .map_err(|e| format!("{config_file}: cannot be written: {e}"))?;
                    let [a1, h1, h8] = corners;
                    writeln!(
                        out,
                        "Calibrated: a1 at row {}, column {}; h1 at {}, {}; h8 at {}, {}. Written to [board] in {config_file}.",
                        a1.0, a1.1, h1.0, h1.1, h8.0, h8.1
                    )
                    .map_err(io)?;
                }
            }
        }
    }
    Ok(cal.step() == Step::Done)
}
