//! Braille: the scoresheet as a Braille-ready file (E2.5), and a
//! refreshable Braille display.
//!
//! - [`cell`]: a six-dot cell and its written forms (Unicode Braille,
//!   North American Braille ASCII);
//! - [`louis`]: text in the reader's Braille code, through liblouis;
//! - [`brf`]: cells laid out on the pages of a `.brf` file;
//! - [`brlapi`]: a refreshable display through brltty's BrlAPI;
//! - [`scoresheet`]: a game's scoresheet in Braille;
//! - [`screen`]: what the display shows, and where the reader is in it;
//! - [`keys`]: the display's keys as a keypad;
//! - [`section`]: `[braille]`, the code it is written in and the display.

pub mod brf;
pub mod brlapi;
pub mod cell;
pub mod keys;
pub mod louis;
pub mod scoresheet;
pub mod screen;
pub mod section;

pub use scoresheet::{Brailler, SheetError};
pub use section::BrailleConfig;
