//! `[journal]`: where the games are kept, and how a game resumes.

use serde::Deserialize;

/// `[journal]`: where games are kept, and how a game resumes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JournalConfig {
    /// The journal directory; by default the service's state directory
    /// (`/var/lib/pegboard`), else `$XDG_STATE_HOME/pegboard`.
    pub dir: Option<std::path::PathBuf>,
    pub resume: ResumeClocks,
    /// Write each game's scoresheet in Braille too, as a `.brf` beside its
    /// `.pgn` (in the code `[braille]` names).
    pub brf: bool,
}

/// After pegboard restarted on a game: do the clocks wait for the
/// `resume` key, or run on at once?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResumeClocks {
    #[default]
    Held,
    Running,
}
