//! The one trait every voice implements, and the two simplest voices.

use std::fmt;
use std::io::Write;
use std::time::Instant;

use super::utterance::Utterance;

/// Why a voice did not speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceError {
    /// This voice cannot say this utterance (a word without a clip); the
    /// next voice in the chain says it, and this voice stays in use.
    CannotSay(String),
    /// The voice does not work (no speech-dispatcher, no sound device, a
    /// file that cannot be written). The chain skips it for a while.
    Broken(String),
    /// The voice is still being opened; the next voice speaks meanwhile.
    /// Whether it opens, or why not, is told when known.
    Opening(String),
}

impl fmt::Display for VoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VoiceError::CannotSay(why) => write!(f, "cannot say this: {why}"),
            VoiceError::Broken(why) => write!(f, "not working: {why}"),
            VoiceError::Opening(why) => write!(f, "not ready: {why}"),
        }
    }
}

impl std::error::Error for VoiceError {}

/// Where a voice is with the utterance it was last given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Handed over; the first sound has not been heard yet.
    Waiting,
    /// Audible since that instant; still speaking.
    Speaking(Instant),
    /// Done (or stopped).
    Finished,
    /// The voice stopped working with the utterance in hand (its backend
    /// stopped answering); the next voice is to say it if it was not heard.
    Broken,
}

/// A way of saying things. Each voice is opened, called and dropped on a
/// worker thread of its own (see [`super::guard`]), so a voice may block
/// without stopping anything else.
pub trait Voice {
    /// The name used in the configuration's voice chain.
    fn name(&self) -> &'static str;

    /// Starts saying `u` and returns at once, without waiting for the end.
    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError>;

    /// Whether this voice can tell when the sound actually starts. A voice
    /// that cannot has announced a move when it was handed the utterance.
    /// The default is a voice that is done when handed the words (text,
    /// file, null): it cannot tell, it is always finished, and there is
    /// nothing to stop.
    fn reports_start(&self) -> bool {
        false
    }

    /// How far the current utterance has got. A voice whose end report may
    /// never arrive says `Waiting` or `Speaking`; the speaker's timeouts
    /// take care of that.
    fn progress(&mut self) -> Progress {
        Progress::Finished
    }

    /// Stops the current utterance at once.
    fn stop(&mut self) {}

    /// Asks the backend whether it still answers (a voice that can hang:
    /// speech-dispatcher). It may block; the guard's deadline is the
    /// answer to that.
    fn check(&mut self) -> Result<(), VoiceError> {
        Ok(())
    }
}

/// Prints each utterance on a line (standard output by default).
pub struct TextVoice {
    out: Box<dyn Write + Send>,
}

impl TextVoice {
    pub fn stdout() -> TextVoice {
        TextVoice {
            out: Box::new(std::io::stdout()),
        }
    }

    pub fn to(out: Box<dyn Write + Send>) -> TextVoice {
        TextVoice { out }
    }
}

impl Voice for TextVoice {
    fn name(&self) -> &'static str {
        "text"
    }

    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
        let line = match (u.earcon, u.text.is_empty()) {
            (Some(e), true) => format!("[{}]", e.name()),
            (Some(e), false) => format!("[{}] {}", e.name(), u.text),
            (None, _) => u.text.clone(),
        };
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| VoiceError::Broken(format!("cannot print: {e}")))
    }
}

/// Says nothing (muted, or a headless test).
pub struct NullVoice;

impl Voice for NullVoice {
    fn name(&self) -> &'static str {
        "null"
    }

    fn start(&mut self, _u: &Utterance) -> Result<(), VoiceError> {
        Ok(())
    }
}
