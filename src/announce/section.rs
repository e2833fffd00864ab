//! The words' sections of the configuration file: `language` and
//! `[announce]` (how files are named, the long or short form), and the
//! phrasebook they make.

use serde::Deserialize;

use super::phrases::{Style, Styles};
use super::vocabulary::FileNaming;
use super::{Phrasebook, Vocabulary};

/// Why the configured language cannot be spoken: no such built-in
/// language, or a language file that cannot be read or is wrong. Said of
/// the configuration's `language` key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageError(pub String);

impl std::fmt::Display for LanguageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LanguageError {}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnnounceConfig {
    /// How files are spoken: `fide`, `letters` or `nato`.
    pub files: FileNaming,
    /// `short` or `long`, for both players' moves…
    pub style: Style,
    /// …unless set for one player here.
    pub white_style: Option<Style>,
    pub black_style: Option<Style>,
}

impl AnnounceConfig {
    pub fn styles(&self) -> Styles {
        Styles {
            white: self.white_style.unwrap_or(self.style),
            black: self.black_style.unwrap_or(self.style),
        }
    }
}

/// The words to speak: the built-in language or language file `language`
/// (`fide` when none is given), with `section`'s naming and styles. Read
/// and checked completely.
pub fn phrasebook(
    language: Option<&str>,
    section: &AnnounceConfig,
) -> Result<Phrasebook, LanguageError> {
    let name = language.unwrap_or("fide");
    let words = match Vocabulary::built_in(name) {
        Some(parsed) => parsed.map_err(|e| LanguageError(e.to_string()))?,
        None if !name.contains('/') && !name.ends_with(".toml") => {
            let known: Vec<&str> = Vocabulary::built_in_names().collect();
            return Err(LanguageError(format!(
                "language = \"{}\": no such built-in language (built in: {}); \
                 a language file is given by its path, e.g. \"./my-language.toml\"",
                crate::text::quote::short(name),
                known.join(", ")
            )));
        }
        None => {
            let text = std::fs::read_to_string(name).map_err(|e| {
                LanguageError(format!(
                    "language = \"{}\": the language file cannot be read: {e}",
                    crate::text::quote::short(name)
                ))
            })?;
            Vocabulary::parse(&text, name).map_err(|e| LanguageError(e.to_string()))?
        }
    };
    Ok(Phrasebook::new(words)
        .with_naming(section.files)
        .with_styles(section.styles()))
}
