//! `[braille]`: the Braille code the scoresheet's `.brf` is written in, and
//! the refreshable display: where brltty is, whether the voices speak
//! too, and what its keys do.

use serde::Deserialize;

use super::keys::DisplayKeyConfig;
use crate::text::key::KeyProblem;

/// `[braille]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BrailleConfig {
    /// The grade of the text (the names, the event): 1, uncontracted (for
    /// German its Vollschrift), or 2, contracted. Moves are always written
    /// uncontracted.
    pub grade: u8,
    /// A liblouis table for the text instead of the language's own (e.g.
    /// "en-us-g2.ctb" for American English Braille); the moves stay in the
    /// language's uncontracted table.
    pub table: Option<String>,
    /// Show the game on a refreshable Braille display, through brltty.
    pub display: bool,
    /// brltty's BrlAPI: its host ("localhost:0", ":1"; empty: brltty's
    /// own default, its local socket).
    pub host: String,
    /// BrlAPI's authorization ("none", "keyfile:/etc/brlapi.key"; empty:
    /// the library's default: brltty's key file, or polkit's brlapi group).
    pub auth: String,
    /// Whether the voices speak beside the display; false: Braille alone
    /// (a move counts as announced when the display shows it).
    pub speech: bool,
    /// The display's keys; none: pegboard's own set (`docs/player.md`).
    pub key: Vec<DisplayKeyConfig>,
}

impl Default for BrailleConfig {
    fn default() -> Self {
        BrailleConfig {
            grade: 2,
            table: None,
            display: false,
            host: String::new(),
            auth: String::new(),
            speech: true,
            key: Vec::new(),
        }
    }
}

impl BrailleConfig {
    /// What the file alone decides: the grade is 1 or 2.
    pub fn check(&self) -> Result<(), KeyProblem> {
        if !(1..=2).contains(&self.grade) {
            return Err(KeyProblem::at(
                &["braille", "grade"],
                format!(
                    "[braille] grade = {}: 1 (uncontracted) or 2 (contracted)",
                    self.grade
                ),
            ));
        }
        if !self.display && !self.speech {
            return Err(KeyProblem::at(
                &["braille", "speech"],
                "[braille] speech = false leaves the player with no announcement at all unless \
                 the display shows the game: set display = true"
                    .to_string(),
            ));
        }
        super::keys::DisplayKeys::new(&self.key).menu_problem()
    }
}
