//! The clock as JSON lines for the web mirror: `clock` events with the
//! cause `tick`, in the event stream's own shape, one per shown second.

use std::io::Write;

use super::{ClockDisplay, DisplayError, Face};
use crate::core::event::{ClockCause, Event, Stamped};

/// What a line shows: running side, paused, whole seconds, flags.
type Shown = (
    Option<shakmaty::Color>,
    bool,
    shakmaty::ByColor<u64>,
    shakmaty::ByColor<bool>,
);

/// Writes a `{"event":"clock","cause":"tick",…}` line whenever a shown
/// second, the running side, a flag or the pause changes.
pub struct EventStreamDisplay<W: Write> {
    out: W,
    last: Option<Shown>,
}

impl<W: Write> EventStreamDisplay<W> {
    pub fn new(out: W) -> EventStreamDisplay<W> {
        EventStreamDisplay { out, last: None }
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> ClockDisplay for EventStreamDisplay<W> {
    fn show(&mut self, t: u64, face: &Face) -> Result<(), DisplayError> {
        let shown = (
            face.running,
            face.paused,
            face.remaining.map(|ms| ms / 1000),
            face.flags,
        );
        if self.last == Some(shown) {
            return Ok(());
        }
        let tick = Stamped {
            t,
            event: Event::clock(ClockCause::Tick, face),
        };
        let line =
            serde_json::to_string(&tick).map_err(|e| DisplayError(format!("event stream: {e}")))?;
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| DisplayError(format!("event stream: {e}")))?;
        self.last = Some(shown);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::{Clock, TimeControl};
    use shakmaty::Color;

    #[test]
    fn one_line_per_shown_second_in_the_event_streams_shape() {
        let mut clock = Clock::new(TimeControl::parse_pgn("60").expect("control"));
        clock.start(0, Color::White);
        let mut d = EventStreamDisplay::new(Vec::new());
        for t in (0..=2_000).step_by(100) {
            d.show(t, &clock.face(t)).expect("shown");
        }
        let text = String::from_utf8(d.into_inner()).expect("utf-8");
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        // Looked at every 100 ms: 60 s shown at 0, 59 s from 0.1 s, 58 s
        // from 1.1 s: three lines.
        let shown: Vec<(u64, u64)> = lines
            .iter()
            .map(|l| {
                (
                    l["t"].as_u64().unwrap_or(0),
                    l["white"]["remaining_ms"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        assert_eq!(shown, vec![(0, 60_000), (100, 59_900), (1_100, 58_900)]);
        assert!(
            lines
                .iter()
                .all(|l| l["event"] == "clock" && l["cause"] == "tick")
        );
        assert_eq!(lines[0]["running"], "white");
    }
}
