//! `pegboard pgn`: the scoresheets of the games in the journal directory.

use std::io::Write;

use crate::config::Config;
use crate::core::BLIND_BOARD;
use crate::record::journal::Store;
use crate::runtime::error::{Error, Result};
use crate::runtime::keeper::{journal_dir, rebuild};
use crate::runtime::parts;

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

/// Prints the chosen games' scoresheets as PGN. Each is made anew from its
/// journal, so it holds every move that reached the disk; a journal that
/// cannot be read is reported on `log`, and its last written scoresheet
/// printed if there is one.
pub fn print(
    config: &Config,
    which: Which,
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
            Ok(r) => out.write_all(r.sheet.pgn().as_bytes())?,
            Err(e) => {
                writeln!(log, "pegboard pgn: {e}")?;
                if let Ok(text) = std::fs::read_to_string(store.game(n).pgn) {
                    out.write_all(text.as_bytes())?;
                }
            }
        }
    }
    Ok(())
}
