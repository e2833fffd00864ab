//! The journal: every game on disk as it is played, so that a power cut, a
//! crash or a restart loses nothing.
//!
//! One append-only file per game in the journal directory
//! (`game-0007.journal`), beside it the game's scoresheet (`game-0007.pgn`)
//! and a small file with the last instant the game was seen alive
//! (`game-0007.beat`). A record holds what the core was fed, as a trace
//! line (`docs/trace-format.md`): changed scans, inputs, `announced`, each
//! with its time. A journal is therefore a trace: `pegboard replay` reads
//! it, and pegboard resumes a game by feeding it through the core again.
//!
//! - [`record`]: a record as a line of text with its length, sequence
//!   number and CRC-32, and reading records back, torn or corrupt;
//! - [`store`]: the directory: numbering games, finding the newest,
//!   reading a game back as trace entries, the beat file;
//! - [`writer`]: the thread that writes and syncs records (fdatasync)
//!   and the scoresheet (temp file, fsync, rename), off the scan loop.

pub mod record;
pub mod section;
pub mod store;
pub mod writer;

use std::path::{Path, PathBuf};

pub use section::{JournalConfig, ResumeClocks};
pub use store::{GameFiles, Loaded, Store};
pub use writer::{Companion, Writer};

/// What went wrong with the journal.
#[derive(Debug)]
pub enum Error {
    /// A file or the directory could not be read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A file named like a journal that is not one.
    Foreign { path: PathBuf },
    /// A record in the middle of a journal is damaged (`seq`, at byte
    /// `offset`): the records before it are good, those after it are not
    /// trusted.
    Corrupt {
        path: PathBuf,
        seq: u64,
        offset: u64,
        why: String,
    },
    /// A whole record whose payload is no trace line.
    Record {
        path: PathBuf,
        seq: u64,
        message: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Error::Foreign { path } => write!(
                f,
                "{}: not a pegboard journal (its first line is not \"{}\"); left alone",
                path.display(),
                record::MAGIC
            ),
            Error::Corrupt {
                path,
                seq,
                offset,
                why,
            } => write!(
                f,
                "{}: record {seq} (byte {offset}) is damaged: {why}; the records before it are \
                 kept, the file is left alone",
                path.display()
            ),
            Error::Record { path, seq, message } => {
                write!(f, "{}: record {seq}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |error| Error::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Replaces a file's contents so that a power cut leaves the old or the
/// new contents, never a mix: a temporary file beside it, written and
/// synced, renamed over it, and the directory synced (made first if it is
/// not there). A file that was there keeps its permissions (a configuration installed 0640 stays so).
pub fn replace_file(path: &Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let kept = std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777);
    replace(path, text, kept, None)
}

/// The same for a file its owner alone may read (0600, from its first
/// byte): a secret, a token.
pub fn replace_private_file(path: &Path, text: &str) -> std::io::Result<()> {
    replace(path, text, Some(0o600), None)
}

/// The same for a file another user alone may read (0600, his from its
/// first byte): root keeping a token for the service's user. Only root
/// may give a file away.
pub fn replace_private_file_of(
    path: &Path,
    text: &str,
    (uid, gid): (u32, u32),
) -> std::io::Result<()> {
    replace(path, text, Some(0o600), Some((uid, gid)))
}

/// `mode`: the permissions the file is to have; `None`: a new file's, as
/// the umask leaves them. `owner`: the user and group it is given to
/// before it takes the old file's place.
fn replace(
    path: &Path,
    text: &str,
    mode: Option<u32>,
    owner: Option<(u32, u32)>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    // The folder first, if it is not there yet (a state directory on the
    // first run).
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".new");
    let tmp = PathBuf::from(tmp);
    // A leftover from a cut may have another mode: made anew.
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode.unwrap_or(0o666))
        .open(&tmp)?;
    if let Some(mode) = mode {
        // The mode asked, whatever the umask would have left of it.
        f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))?;
    }
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::fchown(&f, Some(uid), Some(gid))?;
    }
    f.write_all(text.as_bytes())?;
    f.sync_data()?;
    drop(f);
    std::fs::rename(&tmp, path)?;
    sync_dir(path)
}

/// Syncs the directory that holds `path`, so that a file created or
/// renamed there survives a power cut.
pub fn sync_dir(path: &Path) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).expect("there").permissions().mode() & 0o777
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions_and_a_private_one_is_its_owners() {
        let dir = std::env::temp_dir().join(format!("pegboard-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        // A configuration installed 0640 (it may hold the console's PIN)
        // stays 0640 when calibrate writes it anew.
        let config = dir.join("pegboard.toml");
        std::fs::write(&config, "old").expect("written");
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        replace_file(&config, "new").expect("replaced");
        assert_eq!(std::fs::read_to_string(&config).expect("read"), "new");
        assert_eq!(mode(&config), 0o640);
        // A secret is its owner's alone, even over a file others could read.
        let secret = dir.join("secret");
        std::fs::write(&secret, "old").expect("written");
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        replace_private_file(&secret, "s3cret").expect("replaced");
        assert_eq!(mode(&secret), 0o600);
        assert!(!dir.join("secret.new").exists());
        // A state directory not made yet is made on the way.
        let first = dir.join("state").join("token");
        replace_private_file(&first, "t").expect("made");
        assert_eq!(mode(&first), 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
