//! `pegboard pgn`: the scoresheets of the games in the journal directory.

use std::io::Write;
use std::path::Path;

use crate::braille::Brailler;

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
            Box::new(move |pgn: &str, out: &mut dyn Write| {
                let brf = brf_of(&brailler, pgn, &mut std::io::sink())?;
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

/// Every game of a PGN text as a Braille-ready file, one after another
/// (each begins on a page of its own, numbered 1). A game whose moves stop
/// at one that is not legal (a damaged PGN) is written up to it, and that
/// move is reported on `log`.
pub fn brf_of(brailler: &Brailler, pgn: &str, log: &mut dyn Write) -> Result<String> {
    let games = read_games(pgn.as_bytes())?;
    let mut sheets = Vec::with_capacity(games.len());
    for (i, game) in games.iter().enumerate() {
        let brf = brailler.brf(game)?;
        if let Some(e) = brf.stopped {
            writeln!(
                log,
                "pegboard pgn: game {} ({} - {}): {e}; its moves stop before it",
                i + 1,
                game.white.trim(),
                game.black.trim()
            )?;
        }
        sheets.push(brf.text);
    }
    Ok(sheets.join("\x0c"))
}

/// Prints every game of the PGN file at `path` as a Braille-ready file.
pub fn print_file_brf(
    config: &Config,
    path: &Path,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<()> {
    let text = std::fs::read(path).map_err(|error| Error::File {
        path: path.display().to_string(),
        error,
    })?;
    let brailler = brailler(config)?;
    let brf = brf_of(&brailler, &String::from_utf8_lossy(&text), log)?;
    out.write_all(brf.as_bytes())?;
    Ok(())
}
