//! The clock on a terminal: one line per change of what is shown.

use std::io::Write;

use super::{ClockDisplay, DisplayError, Face, hms};
use shakmaty::Color;

/// Writes `White 1:29:58 <  Black 1:30:00` lines: the arrow marks the
/// running clock, `FLAG` a fallen flag, `(stopped)` a paused clock. A line
/// is written only when it differs from the last one.
pub struct TerminalDisplay<W: Write> {
    out: W,
    white: String,
    black: String,
    last: String,
}

impl<W: Write> TerminalDisplay<W> {
    /// `white` and `black` are the players' names as shown.
    pub fn new(out: W, white: &str, black: &str) -> TerminalDisplay<W> {
        TerminalDisplay {
            out,
            white: white.to_string(),
            black: black.to_string(),
            last: String::new(),
        }
    }

    /// The line for `face`.
    pub fn line(&self, face: &Face) -> String {
        let side = |name: &str, color: Color| {
            let time = if face.flag(color) {
                "FLAG".to_string()
            } else {
                hms(face.remaining(color))
            };
            let mark = if face.running == Some(color) {
                " <"
            } else {
                "  "
            };
            format!("{name} {time:>7}{mark}")
        };
        let paused = if face.paused { "  (stopped)" } else { "" };
        format!(
            "{}  {}{paused}",
            side(&self.white, Color::White),
            side(&self.black, Color::Black)
        )
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> ClockDisplay for TerminalDisplay<W> {
    fn show(&mut self, _t: u64, face: &Face) -> Result<(), DisplayError> {
        let line = self.line(face);
        if line == self.last {
            return Ok(());
        }
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| DisplayError(format!("terminal: {e}")))?;
        self.last = line;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::ByColor;

    fn face(white: u64, black: u64, running: Option<Color>) -> Face {
        Face {
            running,
            paused: false,
            remaining: ByColor { white, black },
            moves: ByColor::new_with(|_| 0),
            periods: ByColor::new_with(|_| 1),
            flags: ByColor {
                white: white == 0,
                black: false,
            },
        }
    }

    #[test]
    fn writes_a_line_only_when_what_is_shown_changes() {
        let mut d = TerminalDisplay::new(Vec::new(), "White", "Black");
        let f = face(5_398_999, 5_400_000, Some(Color::White));
        d.show(0, &f).expect("shown");
        d.show(1, &face(5_398_500, 5_400_000, Some(Color::White)))
            .expect("shown");
        d.show(2, &face(0, 5_400_000, Some(Color::Black)))
            .expect("shown");
        let text = String::from_utf8(d.into_inner()).expect("utf-8");
        assert_eq!(
            text,
            "White 1:29:58 <  Black 1:30:00  \nWhite    FLAG    Black 1:30:00 <\n"
        );
    }
}
