//! `pegboard pgn`: the scoresheets of the games in the journal directory.

use std::io::Write;
use std::path::Path;

use crate::braille::{Brailler, SheetError};

use crate::config::Config;
use crate::core::BLIND_BOARD;
use crate::record::journal::Store;
use crate::record::pgn::read_games;
use crate::runtime::error::{Error, Result};
use crate::runtime::keeper::{journal_dir, rebuild};
use crate::runtime::parts;

/// How a scoresheet is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// PGN, as the journal keeps it.
    Pgn,
    /// A Braille-ready file (`.brf`) in the code `[braille]` names.
    Brf,
}

/// Which games to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The game being played, or the last one.
    Newest,
    /// Game number N.
    Number(u32),
    /// Every game, oldest first.
    All,
}

/// Prints the chosen games' scoresheets as PGN or Braille. Each is made
/// anew from its journal, so it holds every move that reached the disk; a
/// journal that cannot be read is reported on `log`, and its last written
/// scoresheet printed if there is one.
pub fn print(
    config: &Config,
    which: Which,
    form: Form,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<()> {
    let dir = journal_dir(config)
        .ok_or_else(|| Error::Journal("there is no journal directory: set [journal] dir".into()))?;
    if !dir.is_dir() {
        return Err(Error::Journal(format!(
            "{}: no games yet (the journal directory does not exist)",
            dir.display()
        )));
    }
    let store = Store::open(&dir).map_err(|e| Error::Journal(e.to_string()))?;
    let numbers = store.numbers().map_err(|e| Error::Journal(e.to_string()))?;
    let chosen: Vec<u32> = match which {
        Which::All => numbers,
        Which::Newest => numbers.last().copied().into_iter().collect(),
        Which::Number(n) if numbers.contains(&n) => vec![n],
        Which::Number(n) => {
            return Err(Error::Journal(format!(
                "there is no game {n} in {} (games: {})",
                dir.display(),
                numbers
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    };
    if chosen.is_empty() {
        return Err(Error::Journal(format!("{}: no games yet", dir.display())));
    }
    let words = parts::phrasebook(config)?;
    let mut put = writer(config, form)?;
    for n in chosen {
        let rebuilt = store.load(n).map_err(|e| e.to_string()).and_then(|loaded| {
            if let Some(e) = loaded.corruption() {
                writeln!(log, "pegboard pgn: {e}").map_err(|e| e.to_string())?;
            }
            rebuild(
                &loaded,
                parts::settings(config),
                words.clone(),
                &[BLIND_BOARD],
            )
        });
        match rebuilt {
            Ok(r) => put(&r.sheet.pgn(), out)?,
            Err(e) => {
                writeln!(log, "pegboard pgn: {e}")?;
                if let Ok(text) = std::fs::read_to_string(store.game(n).pgn) {
                    put(&text, out)?;
                }
            }
        }
    }
    Ok(())
}

/// What prints one game's PGN text in the chosen form.
type Put = Box<dyn FnMut(&str, &mut dyn Write) -> Result<()>>;

fn writer(config: &Config, form: Form) -> Result<Put> {
    Ok(match form {
        Form::Pgn => Box::new(|pgn: &str, out: &mut dyn Write| Ok(out.write_all(pgn.as_bytes())?)),
        Form::Brf => {
            let brailler = brailler(config)?;
            let mut first = true;
            Box::new(move |pgn: &str, out: &mut dyn Write| {
                let brf = brf_of(&brailler, pgn, "the scoresheet", &mut std::io::sink())?;
                // Each game begins on a page of its own.
                if !std::mem::take(&mut first) {
                    out.write_all(b"\x0c")?;
                }
                Ok(out.write_all(brf.as_bytes())?)
            })
        }
    })
}

/// The Braille scoresheets of the configured language and `[braille]` code.
pub fn brailler(config: &Config) -> Result<Brailler> {
    let words = parts::phrasebook(config)?;
    Ok(Brailler::new(
        &config.braille,
        &words.words.language.synthesizer,
    )?)
}

/// Every game of a PGN text (named `source` in errors) as a Braille-ready
/// file, one after another, each beginning on a page of its own (its page
/// one). What could not be written as it should is reported on `log`: a
/// game whose start is no position is left out, and a move that cannot be
/// played is named (the moves from it on are as the file gives them).
pub fn brf_of(brailler: &Brailler, pgn: &str, source: &str, log: &mut dyn Write) -> Result<String> {
    let games = read_games(pgn.as_bytes()).map_err(|error| Error::File {
        path: source.to_string(),
        error,
    })?;
    let mut sheets = Vec::with_capacity(games.len());
    for (i, game) in games.iter().enumerate() {
        let which = format!(
            "pegboard pgn: {source}: game {} ({} - {})",
            i + 1,
            game.white.trim(),
            game.black.trim()
        );
        match brailler.brf(game) {
            Ok(brf) => {
                if let Some(e) = brf.stopped {
                    writeln!(
                        log,
                        "{which}: {e}; it and the moves after it are written as the file gives them"
                    )?;
                }
                sheets.push(brf.text);
            }
            Err(SheetError::Start(e)) => writeln!(log, "{which}: its start: {e}; left out")?,
            Err(e) => return Err(e.into()),
        }
    }
    if sheets.is_empty() {
        return Err(Error::File {
            path: source.to_string(),
            error: std::io::Error::new(std::io::ErrorKind::InvalidData, "it holds no game"),
        });
    }
    Ok(sheets.join("\x0c"))
}

/// Prints every game of the PGN file at `path` as a Braille-ready file.
/// A file that is not UTF-8 is read as ISO 8859-1, the PGN standard's own
/// character set.
pub fn print_file_brf(
    config: &Config,
    path: &Path,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<()> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|error| Error::File {
        path: name.clone(),
        error,
    })?;
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().iter().map(|&b| char::from(b)).collect());
    let brailler = brailler(config)?;
    let brf = brf_of(&brailler, &text, &name, log)?;
    out.write_all(brf.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_in_braille_each_begin_on_a_page_of_their_own() {
        let config = Config::parse("language = \"en\"\n", "t.toml").expect("valid");
        let mut put = writer(&config, Form::Brf).expect("liblouis has the tables");
        let mut out = Vec::new();
        for pgn in ["[White \"A\"]\n\n1. e4 *\n", "[White \"B\"]\n\n1. d4 *\n"] {
            put(pgn, &mut out).expect("written");
        }
        let text = String::from_utf8(out).expect("Braille ASCII");
        let pages: Vec<&str> = text.split('\x0c').collect();
        assert_eq!(pages.len(), 2, "{text:?}");
        for (page, white) in pages.iter().zip([",A", ",B"]) {
            let first = page.lines().next().unwrap_or_default();
            assert!(first.contains(white), "{first:?}");
            assert!(
                first.trim_end().ends_with("#A"),
                "each game's page 1: {first:?}"
            );
        }
    }
}
