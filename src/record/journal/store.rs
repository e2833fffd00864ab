//! The journal directory: one numbered set of files per game.

use std::path::{Path, PathBuf};

use super::record::{self, Damage, Records};
use super::{Error, Result, io_error};
use crate::trace::{Entry, Reading, TraceError};

/// The journal directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// The files of game number `number`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFiles {
    pub number: u32,
    pub journal: PathBuf,
    /// The scoresheet, rewritten after every move.
    pub pgn: PathBuf,
    /// The last instant the game was seen alive (kept without syncing: it
    /// makes a crash of pegboard alone cost no clock time).
    pub beat: PathBuf,
}

/// A game read back: its records as trace entries.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub files: GameFiles,
    /// The records' payloads, as trace entries; `line` is the record's
    /// sequence number.
    pub entries: Vec<Entry>,
    /// The length of the good part of the file.
    pub good_len: u64,
    /// A torn end (cut off when the game is resumed), or damage in the
    /// middle.
    pub damage: Option<Damage>,
}

impl Loaded {
    /// The instant of the last record.
    pub fn last_t(&self) -> u64 {
        self.entries.last().map_or(0, |e| e.t)
    }

    /// The damage in the middle, if any, as an error to report.
    pub fn corruption(&self) -> Option<Error> {
        match &self.damage {
            Some(Damage::Corrupt { offset, seq, why }) => Some(Error::Corrupt {
                path: self.files.journal.clone(),
                seq: *seq,
                offset: *offset,
                why: why.clone(),
            }),
            _ => None,
        }
    }
}

/// The directory journals go to when the configuration names none: the
/// service's state directory (systemd's `StateDirectory=`, which is
/// `/var/lib/pegboard` for the unit in `hardware/`), else
/// `$XDG_STATE_HOME/pegboard`, else `~/.local/state/pegboard`.
pub fn default_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dirs) = var("STATE_DIRECTORY") {
        // systemd gives a colon-separated list; the first is ours.
        let first = dirs.to_string_lossy().split(':').next()?.to_string();
        return Some(PathBuf::from(first));
    }
    if let Some(state) = var("XDG_STATE_HOME") {
        return Some(PathBuf::from(state).join("pegboard"));
    }
    var("HOME").map(|home| PathBuf::from(home).join(".local/state/pegboard"))
}

fn number_of(name: &str) -> Option<u32> {
    name.strip_prefix("game-")?
        .strip_suffix(".journal")?
        .parse()
        .ok()
}

/// Makes `dir` (and the folders above it that are missing) for its owner
/// alone: 0700, whatever the umask. One that is there is left as it is.
pub fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

impl Store {
    /// The journal directory `dir`, made if it is not there: for its
    /// owner alone (0700, whatever the umask), as it also keeps the
    /// console's secret.
    pub fn open(dir: &Path) -> Result<Store> {
        make_private_dir(dir).map_err(io_error(dir))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn game(&self, number: u32) -> GameFiles {
        let name = |ext: &str| self.dir.join(format!("game-{number:04}.{ext}"));
        GameFiles {
            number,
            journal: name("journal"),
            pgn: name("pgn"),
            beat: name("beat"),
        }
    }

    /// Every game's number, oldest first.
    pub fn numbers(&self) -> Result<Vec<u32>> {
        let mut numbers = Vec::new();
        for entry in std::fs::read_dir(&self.dir).map_err(io_error(&self.dir))? {
            let entry = entry.map_err(io_error(&self.dir))?;
            if let Some(n) = entry.file_name().to_str().and_then(number_of) {
                numbers.push(n);
            }
        }
        numbers.sort_unstable();
        Ok(numbers)
    }

    /// The files of the next game, by a number no game has had.
    pub fn next(&self) -> Result<GameFiles> {
        let last = self.numbers()?.last().copied().unwrap_or(0);
        let next = last.checked_add(1).ok_or_else(|| Error::Io {
            path: self.dir.clone(),
            error: std::io::Error::other(format!(
                "a game numbered {last} is there, and no number follows it; move the games \
                 elsewhere"
            )),
        })?;
        Ok(self.game(next))
    }

    /// Reads a game's journal back. A torn end is no error (see
    /// [`Loaded::damage`]); a file that is no journal is.
    pub fn load(&self, number: u32) -> Result<Loaded> {
        load_files(self.game(number))
    }
}

/// Whether the file at `path` begins as a journal does.
pub fn is_journal(path: &Path) -> bool {
    use std::io::Read as _;
    let mut head = [0u8; record::MAGIC.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == *record::MAGIC.as_bytes())
}

/// Reads the journal at `path` back (for `pegboard replay`).
pub fn load_file(path: &Path) -> Result<Loaded> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let with = |ext: &str| path.with_extension(ext);
    load_files(GameFiles {
        number: number_of(name).unwrap_or(0),
        journal: path.to_path_buf(),
        pgn: with("pgn"),
        beat: with("beat"),
    })
}

fn load_files(files: GameFiles) -> Result<Loaded> {
    {
        let bytes = std::fs::read(&files.journal).map_err(io_error(&files.journal))?;
        let Records {
            records,
            good_len,
            damage,
        } = record::records(&bytes).map_err(|_| Error::Foreign {
            path: files.journal.clone(),
        })?;
        let mut entries = Vec::with_capacity(records.len());
        let mut prev_t = 0;
        for r in records {
            let bad = |message: String| Error::Record {
                path: files.journal.clone(),
                seq: r.seq,
                message,
            };
            match crate::trace::parse_line(&r.payload, entries.is_empty(), prev_t) {
                Ok(Some((t, reading))) => {
                    prev_t = t;
                    entries.push(Entry {
                        t,
                        line: r.seq as usize,
                        reading,
                    });
                }
                Ok(None) => {}
                Err(message) => return Err(bad(message)),
            }
        }
        if !matches!(
            entries.first().map(|e| &e.reading),
            None | Some(Reading::Header(_))
        ) {
            return Err(Error::Record {
                path: files.journal.clone(),
                seq: 1,
                message: "a journal opens with the game's header".into(),
            });
        }
        Ok(Loaded {
            files,
            entries,
            good_len,
            damage,
        })
    }
}

/// The trace error a journal's damage is, for a replay that reads it.
pub fn trace_error(loaded: &Loaded) -> Option<TraceError> {
    let file = loaded.files.journal.display().to_string();
    match &loaded.damage {
        None => None,
        Some(Damage::Torn { why, .. }) => Some(TraceError {
            file,
            line: loaded.entries.len() + 1,
            message: format!("the journal's last record is torn ({why}); it was cut there"),
            kind: crate::trace::ErrorKind::Torn,
        }),
        Some(Damage::Corrupt { seq, why, .. }) => Some(TraceError {
            file,
            line: *seq as usize,
            message: format!("record {seq} is damaged ({why}); the records after it are not read"),
            kind: crate::trace::ErrorKind::Malformed,
        }),
    }
}

/// The beat file's line: the instant, and its CRC-32.
fn beat_line(t: u64) -> String {
    let digits = format!("{t:016x}");
    format!("{digits} {:08x}\n", crc32fast::hash(digits.as_bytes()))
}

/// Writes the beat file's one line in place.
pub(crate) fn write_beat(file: &std::fs::File, t: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.write_all_at(beat_line(t).as_bytes(), 0)
}

/// The instant the beat file holds, if it holds a whole, good one.
pub fn read_beat(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let (digits, crc) = text.trim_end().split_once(' ')?;
    let t = u64::from_str_radix(digits, 16).ok()?;
    (digits.len() == 16 && u32::from_str_radix(crc, 16).ok()? == crc32fast::hash(digits.as_bytes()))
        .then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_game_number_wraps_to_the_first() {
        let dir = std::env::temp_dir().join(format!("pegboard-last-number-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).expect("store");
        std::fs::write(dir.join("game-4294967295.journal"), b"").expect("a last game");
        match store.next() {
            Ok(_) => panic!("a number after the last"),
            Err(e) => assert!(e.to_string().contains("no number follows it"), "{e}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_beat_reads_back_and_a_damaged_one_does_not() {
        let dir = std::env::temp_dir().join(format!("pegboard-beat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("game-0001.beat");
        let f = std::fs::File::create(&path).expect("beat file");
        write_beat(&f, 123_456).expect("written");
        assert_eq!(read_beat(&path), Some(123_456));
        write_beat(&f, 7).expect("written");
        assert_eq!(read_beat(&path), Some(7));
        std::fs::write(&path, beat_line(99).replace('9', "8")).expect("damaged");
        assert_eq!(read_beat(&path), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn games_are_numbered_after_the_highest_and_other_files_are_ignored() {
        let dir = std::env::temp_dir().join(format!("pegboard-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).expect("made");
        assert_eq!(store.next().expect("listed").number, 1);
        for name in [
            "game-0002.journal",
            "game-0010.journal",
            "notes.txt",
            "game-x.journal",
        ] {
            std::fs::write(dir.join(name), "x").expect("written");
        }
        assert_eq!(store.numbers().expect("listed"), [2, 10]);
        assert_eq!(store.next().expect("listed").number, 11);
        assert!(matches!(store.load(2), Err(Error::Foreign { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
