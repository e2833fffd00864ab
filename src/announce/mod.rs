//! The words: what every move, problem and answer sounds like.
//!
//! All wording lives in language files (`lang/*.toml`); this module only
//! puts the words together.

pub mod narrator;
pub mod phrases;
pub mod section;
pub mod spoken;
pub mod vocabulary;

pub use narrator::Narrator;
pub use phrases::Phrasebook;
pub use spoken::Pronunciation;
pub use vocabulary::Vocabulary;
