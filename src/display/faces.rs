//! The clock faces `play` drives: the modules (TM1637 pair) and a status
//! line on the terminal. Each turn of the scan loop shows the clock as it
//! stands; a face that fails is told once and the game goes on.

use std::io::Write;

use super::{ClockDisplay, Face, TerminalDisplay};

/// Erases the terminal's current line and returns to its start.
const CLEAR_LINE: &str = "\r\x1b[2K";

/// The clock faces of a running game.
#[derive(Default)]
pub struct Faces {
    modules: Vec<(&'static str, Box<dyn ClockDisplay>)>,
    /// The status line, when standard output is a terminal: the line shown.
    status: Option<String>,
    /// Faces that failed, each told once.
    failed: Vec<&'static str>,
}

impl Faces {
    /// Adds a face (a pair of modules) named for the log.
    pub fn add(&mut self, name: &'static str, face: Box<dyn ClockDisplay>) {
        self.modules.push((name, face));
    }

    /// Shows a status line with both times on the terminal, kept below the
    /// printed events.
    pub fn with_status_line(mut self) -> Faces {
        self.status = Some(String::new());
        self
    }

    /// Shows the clock as it stands at `t` on every face. Returns what to
    /// log: a face that failed for the first time.
    pub fn show(
        &mut self,
        t: u64,
        face: &Face,
        out: &mut dyn Write,
    ) -> std::io::Result<Vec<String>> {
        let mut log = Vec::new();
        for (name, module) in &mut self.modules {
            match module.show(t, face) {
                Ok(()) => self.failed.retain(|n| n != name),
                Err(e) if !self.failed.contains(name) => {
                    self.failed.push(name);
                    log.push(format!("clock face {name}: {e}"));
                }
                Err(_) => {}
            }
        }
        if let Some(shown) = &mut self.status {
            let line = TerminalDisplay::new(std::io::sink(), "White", "Black").line(face);
            if *shown != line {
                write!(out, "{CLEAR_LINE}{line}")?;
                out.flush()?;
                *shown = line;
            }
        }
        Ok(log)
    }

    /// Clears the status line before other lines are printed; `resume`
    /// puts it back after them.
    pub fn pause(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(shown) = &self.status
            && !shown.is_empty()
        {
            write!(out, "{CLEAR_LINE}")?;
        }
        Ok(())
    }

    /// Puts the status line back below what was printed.
    pub fn resume(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(shown) = &self.status
            && !shown.is_empty()
        {
            write!(out, "{shown}")?;
        }
        Ok(())
    }

    /// Leaves the terminal on a fresh line.
    pub fn finish(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(shown) = &self.status
            && !shown.is_empty()
        {
            writeln!(out)?;
        }
        Ok(())
    }
}
