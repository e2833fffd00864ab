//! Feeding a trace through the controller, in simulated time.

use crate::announce::Phrasebook;
use crate::core::{Controller, Settings, Stamped};
use crate::trace::{Entry, Header, Reading, TraceError};

/// Replays `entries` and returns every event, `ready` first. Timers still
/// pending after the last line fire as simulated time runs on.
pub fn replay(
    entries: &[Entry],
    file: &str,
    settings: Settings,
    words: Phrasebook,
    boards: &[&str],
) -> Result<Vec<Stamped>, TraceError> {
    let mut out = Vec::new();
    replay_into(entries, file, settings, words, boards, &mut out)?;
    Ok(out)
}

/// As [`replay`], appending to `out`; returns the controller at the end.
pub fn replay_into(
    entries: &[Entry],
    file: &str,
    settings: Settings,
    words: Phrasebook,
    boards: &[&str],
    out: &mut Vec<Stamped>,
) -> Result<Controller, TraceError> {
    let error = |line: usize, message: String| TraceError {
        file: file.to_string(),
        line,
        message,
    };
    let (header, first_line) = match entries.first() {
        Some(Entry {
            reading: Reading::Header(header),
            ..
        }) => (header.clone(), 1),
        _ => (Header::default(), 0),
    };
    let start_line = entries.first().map_or(0, |e| e.line);
    let mut settings = settings;
    // The trace's own time control is the one its game was played with.
    if header.time_control.is_some() {
        settings.clock.control = header.time_control;
    }
    let mut c = Controller::new(&header.start, settings, words, boards)
        .map_err(|e| error(start_line, format!("`start`: {e}")))?;
    c.start(entries.first().map_or(0, |e| e.t), out);
    for entry in &entries[first_line..] {
        feed(&mut c, entry, out).map_err(|message| error(entry.line, message))?;
    }
    c.finish(out);
    Ok(c)
}

/// Hands one trace line to the controller at its instant. The error says
/// what is wrong with the line (a header after the first line, a board
/// that is not configured).
pub fn feed(c: &mut Controller, entry: &Entry, out: &mut Vec<Stamped>) -> Result<(), String> {
    let t = entry.t;
    let board = |c: &Controller, name: &str| {
        c.board_index(name).ok_or_else(|| {
            let known: Vec<&str> = c.board_names().collect();
            format!(
                "board \"{name}\" is not configured (configured: {})",
                known.join(", ")
            )
        })
    };
    match &entry.reading {
        Reading::Header(_) => return Err("the header may only be the first line".into()),
        Reading::Scan { board: name, occ } => {
            let b = board(c, name)?;
            c.scan(t, b, *occ, out);
        }
        Reading::Lift {
            board: name,
            square,
        } => {
            let b = board(c, name)?;
            c.lift(t, b, *square, out);
        }
        Reading::Place {
            board: name,
            square,
        } => {
            let b = board(c, name)?;
            c.place(t, b, *square, out);
        }
        Reading::Input(input) => c.input(t, *input, out),
    }
    Ok(())
}
