//! The hardware commands: `pegboard record`, `pegboard hw-test` and
//! `pegboard calibrate`. Each runs the configured sensor source at its scan
//! rate; the judgement (debounce, flicker, calibration) is in the pure
//! modules [`crate::hwcheck::sensor_check`] and [`crate::hwcheck::calibrate`].

use std::io::Write;

use shakmaty::Bitboard;

use crate::announce::Phrasebook;
use crate::config::Config;
use crate::core::{BLIND_BOARD, Input};
use crate::hwcheck::calibrate::{self, Calibration, Said, Step};
use crate::hwcheck::sensor_check::{self, Seen, SensorCheck};
use crate::runtime::error::{Error, Result};
use crate::runtime::presence::{Presence, PresenceChange, Trouble};
use crate::runtime::station::{Station, Stop};
use crate::sensors::SensorSource;
use crate::speech::{Kind, Speaker, Utterance};
use crate::trace::{self, Header, Reading};

fn speak(speaker: Option<&Speaker>, text: String) {
    if let Some(s) = speaker {
        s.say(Utterance {
            kind: Kind::Answer,
            earcon: None,
            text,
            ply: None,
            volume: 100,
            private: false,
        });
    }
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
pub fn record(config: &Config, file: &str, stop: &Stop, log: &mut dyn Write) -> Result<u64> {
    let mut station = Station::open(config)?;
    let out = std::fs::File::create(file).map_err(|error| Error::File {
        path: file.to_string(),
        error,
    })?;
    let mut out = std::io::LineWriter::new(out);
    writeln!(
        out,
        "{}",
        trace::write_line(0, &Reading::Header(Header::default()))
    )?;
    writeln!(
        log,
        "recording {} at {} Hz into {file}; type q and Enter to stop",
        station.source.describe(),
        config.sensors.scan_hz
    )?;
    let mut last: Option<Bitboard> = None;
    let mut trouble = Trouble::default();
    let mut lines = 0u64;
    let mut written_t = 0;
    let mut now = 0;
    let mut presence = None;
    stop.count_from_now();
    while !stop.now() {
        let tick = station.tick();
        now = tick.t;
        for message in trouble.update(&tick) {
            writeln!(out, "# t={} ms: {message}", tick.t)?;
            writeln!(log, "{message}")?;
        }
        // The board lost and back, as `play` tells the controller: a replay
        // then judges what changed meanwhile as `play` did.
        let presence = presence.get_or_insert_with(|| Presence::new(tick.t));
        if let Some(change) = presence.update(tick.t, tick.board.is_ok()) {
            let input = match change {
                PresenceChange::Lost => Input::BoardLost,
                PresenceChange::Back => Input::BoardBack,
            };
            writeln!(out, "{}", trace::write_line(tick.t, &Reading::Input(input)))?;
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
            writeln!(out, "{}", trace::write_line(tick.t, &reading))?;
            lines += 1;
            written_t = tick.t;
        }
        for input in tick.inputs {
            writeln!(out, "{}", trace::write_line(tick.t, &Reading::Input(input)))?;
            lines += 1;
            written_t = tick.t;
        }
    }
    if let Some(board) = last.filter(|_| now > written_t) {
        let reading = Reading::Scan {
            board: BLIND_BOARD.to_string(),
            occ: board,
        };
        writeln!(out, "{}", trace::write_line(now, &reading))?;
        lines += 1;
    }
    out.flush()?;
    writeln!(log, "{lines} lines written to {file}")?;
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
) -> Result<sensor_check::CheckReport> {
    let mut station = Station::open(config)?;
    let mut check = SensorCheck::new(config.debounce.window_ms);
    writeln!(
        out,
        "hw-test: {} at {} Hz. Lift and put back every peg, one square at a time; type q and Enter to finish.",
        station.source.describe(),
        config.sensors.scan_hz
    )?;
    let mut trouble = Trouble::default();
    let mut seen = Vec::new();
    let mut shown_faults = Vec::new();
    let mut redraw = live_map;
    stop.count_from_now();
    while !stop.now() {
        let tick = station.tick();
        for message in trouble.update(&tick) {
            writeln!(out, "{message}")?;
        }
        let faults = station.source.faults();
        if faults != shown_faults {
            for f in &faults {
                writeln!(out, "wiring fault: {}", f.describe(&station.layout))?;
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
                    write!(out, "\x1b[H\x1b[2J")?;
                    redraw = true;
                }
                writeln!(out, "{:>7} ms  {sq} {what}", tick.t)?;
                speak(speaker, words.square(sq));
            }
        }
        for input in &tick.inputs {
            writeln!(out, "{:>7} ms  key: {}", tick.t, input.name())?;
        }
        if redraw {
            writeln!(out, "{}", sensor_check::map_text(check.board()))?;
            redraw = false;
        }
    }
    let report = check.report();
    writeln!(out, "\n{}", sensor_check::map_text(check.board()))?;
    writeln!(out, "{}", report.text())?;
    for f in station.source.faults() {
        writeln!(out, "Wiring fault: {}", f.describe(&station.layout))?;
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
) -> Result<bool> {
    let mut station = Station::open(config)?;
    station.layout = config.board.lines_in_order();
    let mut cal = Calibration::new(config.debounce.window_ms);
    let mut said = Vec::new();
    let mut trouble = Trouble::default();
    writeln!(out, "calibrate: reading {}", station.source.describe())?;
    stop.count_from_now();
    while !stop.now() {
        let tick = station.tick();
        for message in trouble.update(&tick) {
            writeln!(out, "{message}")?;
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
                    )?;
                }
                Said::Next(Step::Lift(sq)) => {
                    writeln!(out, "Lift the peg on {sq}.")?;
                    speak(speaker, words.square(*sq));
                }
                Said::Next(Step::PutBack(sq)) => {
                    writeln!(out, "Seen. Put {sq} back.")?;
                }
                Said::Next(Step::Done) => stop.set(),
                Said::Problem(p) => writeln!(out, "{p}")?,
                Said::Found(corners) => {
                    let text = std::fs::read_to_string(config_file).unwrap_or_default();
                    let new = calibrate::write_board(&text, *corners).map_err(|why| {
                        Error::Config(crate::config::ConfigError {
                            file: config_file.to_string(),
                            line: None,
                            message: why,
                        })
                    })?;
                    crate::record::journal::replace_file(std::path::Path::new(config_file), &new)
                        .map_err(|error| Error::File {
                        path: config_file.to_string(),
                        error,
                    })?;
                    let [a1, h1, h8] = corners;
                    writeln!(
                        out,
                        "Calibrated: a1 at row {}, column {}; h1 at {}, {}; h8 at {}, {}. Written to [board] in {config_file}.",
                        a1.0, a1.1, h1.0, h1.1, h8.0, h8.1
                    )?;
                }
            }
        }
    }
    Ok(cal.step() == Step::Done)
}
