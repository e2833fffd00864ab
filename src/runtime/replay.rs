//! Feeding a trace through the controller, in simulated time.
//!
//! A replay streams: each line is read, fed to the controller, and its
//! events handed on before the next line is read, so memory stays flat
//! however long the trace. A recording ends where it ends: timers past its
//! last line fire only up to an instant the caller names ([`Until`]).

use std::borrow::Borrow;

use crate::announce::{Narrator, Phrasebook};
use crate::core::{Controller, Settings, Stamped};
use crate::trace::{Entry, ErrorKind, Header, Reading, TraceError};

/// How far simulated time runs after the trace's last line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// To the last line's instant: nothing is invented after the
    /// recording (a timer due later does not fire).
    LastLine,
    /// To this instant, if it is after the last line (`replay --until`).
    At(u64),
    /// Until no timer is left: every pending debounce, wait and clock
    /// timer fires, a flag included. For hand-written test traces whose
    /// point lies after their last line.
    Idle,
}

/// What went wrong in a replay.
#[derive(Debug)]
pub enum ReplayError {
    /// The trace is malformed or unreadable at a line.
    Trace(TraceError),
    /// The events could not be written (a closed pipe).
    Write(std::io::Error),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Trace(e) => e.fmt(f),
            ReplayError::Write(e) => write!(f, "the events cannot be written: {e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// How a streamed replay ended.
pub struct Replayed {
    /// The controller at the end.
    pub controller: Controller,
    /// Who put the events in words, in the language of the last game.
    pub narrator: Narrator,
    /// The trace's last line was torn (a power cut in the middle of a
    /// write): everything before it was replayed.
    pub torn: Option<TraceError>,
}

/// Replays the entries `lines` yields, handing the events of each line to
/// `sink` as soon as it is fed, `ready` first. A torn last line ends the
/// replay as if the trace ended before it, and is returned in
/// [`Replayed::torn`]; any other bad line stops the replay with an error.
pub fn stream<I, E, S>(
    lines: I,
    file: &str,
    settings: Settings,
    words: Phrasebook,
    boards: &[&str],
    until: Until,
    mut sink: S,
) -> Result<Replayed, ReplayError>
where
    I: IntoIterator<Item = Result<E, TraceError>>,
    E: Borrow<Entry>,
    S: FnMut(&[Stamped]) -> std::io::Result<()>,
{
    let error = |line: usize, message: String| {
        ReplayError::Trace(TraceError {
            file: file.to_string(),
            line,
            message,
            kind: ErrorKind::Malformed,
        })
    };
    let mut lines = lines.into_iter();
    let mut torn = None;
    let mut next_line = |torn: &mut Option<TraceError>| match lines.next() {
        Some(Ok(entry)) => Ok(Some(entry)),
        Some(Err(e)) if e.kind == ErrorKind::Torn => {
            *torn = Some(e);
            Ok(None)
        }
        Some(Err(e)) => Err(ReplayError::Trace(e)),
        None => Ok(None),
    };
    let first = next_line(&mut torn)?;
    let (start_t, start_line) = first
        .as_ref()
        .map_or((0, 0), |e| (e.borrow().t, e.borrow().line));
    // A header opens the game; any other first line is the first to feed.
    let (header, pending) = match first.as_ref().map(|e| &e.borrow().reading) {
        Some(Reading::Header(header)) => (header.clone(), None),
        _ => (Header::default(), first),
    };
    let mut settings = settings;
    // The trace's own time control and seats are the ones its game was
    // played with.
    header.apply(&mut settings);
    let boards = crate::core::controller::boards_of(boards, &settings);
    let boards: Vec<&str> = boards.iter().map(String::as_str).collect();
    let mut narrator = Narrator::new(words, &settings.preferences.language);
    let mut c = Controller::new(&header.start, settings, &boards)
        .map_err(|e| error(start_line, format!("`start`: {e}")))?;
    let mut out = Vec::new();
    c.start(start_t, &mut out);
    if let Some(after) = &header.after {
        c.set_up_once(
            start_t,
            &crate::core::StartPosition {
                start: after.clone(),
                chess960: header.start.chess960,
            },
        );
    }
    let mut last_t = start_t;
    let mut entry = pending;
    loop {
        if let Some(entry) = &entry {
            let entry = entry.borrow();
            feed(&mut c, entry, &mut out).map_err(|message| error(entry.line, message))?;
            last_t = entry.t;
            next_game(&mut c, last_t, &mut out);
        }
        narrator.tell(&mut out);
        sink(&out).map_err(ReplayError::Write)?;
        out.clear();
        entry = next_line(&mut torn)?;
        if entry.is_none() {
            break;
        }
    }
    match until {
        Until::LastLine => c.advance(last_t, &mut out),
        Until::At(t) => c.advance(t.max(last_t), &mut out),
        Until::Idle => c.finish(&mut out),
    }
    let end = out.last().map_or(last_t, |e| e.t);
    next_game(&mut c, end, &mut out);
    narrator.tell(&mut out);
    sink(&out).map_err(ReplayError::Write)?;
    Ok(Replayed {
        controller: c,
        narrator,
        torn,
    })
}

/// Replays `entries` held in memory and returns every event, `ready`
/// first. Timers fire as `until` says.
pub fn replay(
    entries: &[Entry],
    file: &str,
    settings: Settings,
    words: Phrasebook,
    boards: &[&str],
    until: Until,
) -> Result<Vec<Stamped>, TraceError> {
    let mut events = Vec::new();
    let lines = entries.iter().map(Ok);
    let sink = |new: &[Stamped]| {
        events.extend_from_slice(new);
        Ok(())
    };
    match stream(lines, file, settings, words, boards, until, sink) {
        Ok(_) => Ok(events),
        Err(ReplayError::Trace(e)) => Err(e),
        // Collecting into memory cannot fail to write.
        Err(ReplayError::Write(e)) => Err(TraceError {
            file: file.to_string(),
            line: 0,
            message: e.to_string(),
            kind: ErrorKind::Unreadable,
        }),
    }
}

/// After a `new_game` event the next game is played, as `play` does:
/// its controller takes over at `t`, and is handed the game before for
/// its review.
pub(crate) fn next_game(c: &mut Controller, t: u64, out: &mut Vec<Stamped>) {
    if c.new_game_given() {
        let at = out
            .iter()
            .rev()
            .find(|e| matches!(e.event, crate::core::Event::NewGame { .. }))
            .map_or(t, |e| e.t);
        let past = c.review_to_keep();
        *c = c.next_game(at, out);
        if let Some(past) = past {
            c.input(at, crate::core::Input::past_game(past), out);
        }
    }
}

/// Hands one trace line to the controller at its instant. The error says
/// what is wrong with the line (a header after the first line, a board
/// that is not configured).
pub(crate) fn feed(
    c: &mut Controller,
    entry: &Entry,
    out: &mut Vec<Stamped>,
) -> Result<(), String> {
    let t = entry.t;
    let board = |c: &Controller, name: &str| {
        c.board_index(name).ok_or_else(|| {
            let known: Vec<&str> = c.board_names().collect();
            format!(
                "board \"{}\" is not configured (configured: {})",
                crate::text::quote::short(name),
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
        Reading::Input(input) => c.input(t, input.clone(), out),
        // The inputs keys gave are in the trace as `input` lines.
        Reading::Keys(_) => {}
    }
    Ok(())
}
