//! Feeding a trace through the controller, in simulated time.

use crate::announce::Phrasebook;
use crate::core::{Controller, Settings, Stamped, StartPosition};
use crate::trace::{Entry, Reading, TraceError};

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
    let (start, first_line) = match entries.first() {
        Some(Entry {
            reading: Reading::Header(start),
            ..
        }) => (start.clone(), 1),
        _ => (StartPosition::default(), 0),
    };
    let start_line = entries.first().map_or(0, |e| e.line);
    let mut c = Controller::new(&start, settings, words, boards)
        .map_err(|e| error(start_line, format!("`start`: {e}")))?;
    out.push(c.ready(entries.first().map_or(0, |e| e.t)));
    let board = |c: &Controller, name: &str, line: usize| {
        c.board_index(name).ok_or_else(|| {
            let known: Vec<&str> = c.board_names().collect();
            error(
                line,
                format!(
                    "board \"{name}\" is not configured (configured: {})",
                    known.join(", ")
                ),
            )
        })
    };
    for entry in &entries[first_line..] {
        let t = entry.t;
        match &entry.reading {
            Reading::Header(_) => {
                return Err(error(
                    entry.line,
                    "the header may only be the first line".into(),
                ));
            }
            Reading::Scan { board: name, occ } => {
                let b = board(&c, name, entry.line)?;
                c.scan(t, b, *occ, out);
            }
            Reading::Lift {
                board: name,
                square,
            } => {
                let b = board(&c, name, entry.line)?;
                c.lift(t, b, *square, out);
            }
            Reading::Place {
                board: name,
                square,
            } => {
                let b = board(&c, name, entry.line)?;
                c.place(t, b, *square, out);
            }
            Reading::Input(input) => c.input(t, *input, out),
        }
    }
    c.finish(out);
    Ok(c)
}
