//! `[braille]`: the Braille code the scoresheet's `.brf` is written in.

use serde::Deserialize;

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
}

impl Default for BrailleConfig {
    fn default() -> Self {
        BrailleConfig {
            grade: 2,
            table: None,
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
        Ok(())
    }
}
