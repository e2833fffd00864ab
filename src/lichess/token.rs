//! The player's lichess token (a personal OAuth token with the
//! `board:play` scope), kept in the state directory, readable by its owner
//! alone (0600). It is read once from standard input by `pegboard
//! lichess-token` and never printed, logged or journaled: a [`Token`]
//! shows itself as hidden, and no error repeats it.
//!
//! A token kept in a directory is its owner's: the user `play` runs as
//! there. Kept by root in the service's state directory, it is given to
//! the service's user ([`keeper`], [`store_for`]).

use std::os::unix::fs::{MetadataExt as _, PermissionsExt};
use std::path::{Path, PathBuf};

/// The file the token is kept in, beside the games.
pub const TOKEN_FILE: &str = "lichess-token";

/// The scope a token needs to play from a board ("Play games with the
/// board API").
pub const BOARD_PLAY: &str = "board:play";

/// The shortest token taken: lichess's are far longer (lip_ and twenty
/// more); fewer characters are a piece of one.
pub const SHORTEST: usize = 8;

/// The longest token taken. lichess's tokens are letters, digits and
/// underscores (`^[A-Za-z0-9_]+$`), their length may grow without notice,
/// and lichess asks every client to take at least 512 characters: twice
/// that is taken.
pub const LONGEST: usize = 1024;

/// The page on `server` (lichess, or a lila of one's own) that makes a
/// personal token for pegboard, with "Play games with the board API"
/// (`board:play`) already chosen and "pegboard" as its description: the
/// form lichess fills from its query (`scopes[]`, its brackets written
/// `%5B%5D`).
pub fn create_address(server: &str) -> String {
    format!(
        "{}/account/oauth/token/create?scopes%5B%5D={BOARD_PLAY}&description=pegboard",
        server.trim_end_matches('/')
    )
}

/// A lichess token. Its `Debug` and `Display` hide it; only
/// [`Token::secret`] gives it, for the `Authorization` header.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A token as pasted: surrounding white space taken off, and checked
    /// to look like one (letters, digits and `_`, [`SHORTEST`] to
    /// [`LONGEST`] of them). The error never repeats what was given, nor
    /// where in it a wrong character stands.
    pub fn new(text: &str) -> Result<Token, TokenError> {
        let token = text.trim();
        if token.is_empty() {
            return Err(TokenError(
                "no token was given: paste the token from lichess and press Enter".into(),
            ));
        }
        let count = token.chars().count();
        let wrong = |why: String| {
            Err(TokenError(format!(
                "what was given ({count} characters) is no lichess token: {why}"
            )))
        };
        if !token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return wrong(
                "a token holds only letters, digits and underscores (lip_ and twenty more, \
                 say), and this holds something else too (a space, a quote, an accented \
                 letter): paste the token alone"
                    .into(),
            );
        }
        if count < SHORTEST {
            return wrong(format!(
                "a token is at least {SHORTEST} characters (lip_ and twenty more, say): \
                 paste the whole token"
            ));
        }
        if count > LONGEST {
            return wrong(format!(
                "a token is at most {LONGEST} characters: paste the token alone, once"
            ));
        }
        Ok(Token(token.to_string()))
    }

    /// The token itself, for the `Authorization: Bearer` header and
    /// nothing else.
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(hidden)")
    }
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("(the lichess token, hidden)")
    }
}

/// A token that cannot be kept or read: what is wrong, never the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenError(pub String);

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokenError {}

/// Keeps `token` at `path`: written whole beside it, readable by its
/// owner only, synced, renamed over it, the directory synced.
pub fn store(path: &Path, token: &Token) -> Result<(), TokenError> {
    crate::record::journal::replace_private_file(path, &format!("{}\n", token.secret()))
        .map_err(|e| TokenError(format!("{}: {e}", path.display())))
}

/// Whom a token kept in a directory is for: the directory's owner (the
/// service's user, for its state directory), who alone may read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keeper {
    pub dir: PathBuf,
    pub uid: u32,
    pub gid: u32,
    /// His login name, or `user 1001` where the system knows none.
    pub name: String,
    /// He is the caller, whose file the token is as he writes it; else
    /// the caller is root, and gives the file to him.
    pub is_caller: bool,
}

impl Keeper {
    /// Where the token is kept.
    pub fn path(&self) -> PathBuf {
        self.dir.join(TOKEN_FILE)
    }
}

/// Why the caller cannot keep a token in a directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaceError {
    /// It belongs to another user, who could not read a token the caller
    /// wrote there (the file would be the caller's): only root can keep it
    /// for him.
    OthersDir { dir: PathBuf, owner: String },
    /// It is not there and cannot be made, or cannot be looked at;
    /// `denied` when the system refused the caller.
    Unusable {
        dir: PathBuf,
        why: String,
        denied: bool,
    },
}

impl std::fmt::Display for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlaceError::OthersDir { dir, owner } => write!(
                f,
                "{} belongs to the user {owner}: a token kept there is for {owner}, whose \
                 `pegboard play` reads it, and only root can give it to {owner}",
                dir.display()
            ),
            PlaceError::Unusable { dir, why, .. } => write!(f, "{}: {why}", dir.display()),
        }
    }
}

impl std::error::Error for PlaceError {}

/// Whom a token kept in `dir` is for, found before the token is asked
/// for: the directory's owner, if the caller is he or root. A directory
/// not there yet is made, the caller's (systemd gives the service's state
/// directory, and all in it, to the service's user when it starts).
pub fn keeper(dir: &Path) -> Result<Keeper, PlaceError> {
    let unusable = |e: std::io::Error| PlaceError::Unusable {
        dir: dir.to_path_buf(),
        denied: e.kind() == std::io::ErrorKind::PermissionDenied,
        why: e.to_string(),
    };
    let meta = match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(unusable)?;
            std::fs::metadata(dir).map_err(unusable)?
        }
        other => other.map_err(unusable)?,
    };
    if !meta.is_dir() {
        return Err(PlaceError::Unusable {
            dir: dir.to_path_buf(),
            why: "this is no directory".into(),
            denied: false,
        });
    }
    let caller = caller();
    let name = user_name(meta.uid()).unwrap_or_else(|| format!("user {}", meta.uid()));
    if meta.uid() != caller && caller != 0 {
        return Err(PlaceError::OthersDir {
            dir: dir.to_path_buf(),
            owner: name,
        });
    }
    Ok(Keeper {
        dir: dir.to_path_buf(),
        uid: meta.uid(),
        gid: meta.gid(),
        name,
        is_caller: meta.uid() == caller,
    })
}

/// Keeps `token` for `keeper`, as [`store`] does, given to him (and his
/// directory's group) when the caller is root keeping it for another
/// user. Returns where.
pub fn store_for(keeper: &Keeper, token: &Token) -> Result<PathBuf, TokenError> {
    let path = keeper.path();
    if keeper.is_caller {
        store(&path, token)?;
    } else {
        crate::record::journal::replace_private_file_of(
            &path,
            &format!("{}\n", token.secret()),
            (keeper.uid, keeper.gid),
        )
        .map_err(|e| TokenError(format!("{}: {e}", path.display())))?;
    }
    Ok(path)
}

/// The user this process acts as (its effective user).
fn caller() -> u32 {
    // SAFETY: geteuid(2) takes nothing, always succeeds and touches no
    // memory of ours.
    unsafe { libc::geteuid() }
}

/// The login name of user `uid`, as the system's user database (NSS:
/// /etc/passwd, or a directory service) has it.
fn user_name(uid: u32) -> Option<String> {
    let mut buf = vec![0 as libc::c_char; 1024];
    loop {
        // SAFETY: a passwd of plain fields, all zero, for getpwuid_r to
        // fill; its strings point into `buf`, which outlives their use.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: every pointer is to memory of ours, `buf`'s length is
        // its own; getpwuid_r is thread-safe.
        let rc =
            unsafe { libc::getpwuid_r(uid, &mut entry, buf.as_mut_ptr(), buf.len(), &mut found) };
        if rc == libc::ERANGE && buf.len() < 1 << 20 {
            buf.resize(buf.len() * 2, 0);
            continue;
        }
        if rc != 0 || found.is_null() || entry.pw_name.is_null() {
            return None;
        }
        // SAFETY: getpwuid_r found the user: pw_name is a C string in `buf`.
        let name = unsafe { std::ffi::CStr::from_ptr(entry.pw_name) };
        return Some(name.to_string_lossy().into_owned());
    }
}

/// The token kept at `path`, if there is one. A file others can read is
/// refused, with what to do: the token may have been seen.
pub fn load(path: &Path) -> Result<Option<Token>, TokenError> {
    let fail = |e: std::io::Error| TokenError(format!("{}: {e}", path.display()));
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(e)),
    };
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(TokenError(format!(
            "{} can be read by others (mode {mode:03o}): revoke the token on lichess and \
             keep a new one with `pegboard lichess-token`",
            path.display()
        )));
    }
    let text = std::fs::read_to_string(path).map_err(fail)?;
    Token::new(&text)
        .map(Some)
        .map_err(|e| TokenError(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "lip_Zx8kQ2mN4pR6tV1wY3bC";

    #[test]
    fn a_token_is_kept_for_its_owner_alone_and_read_back() {
        let dir = std::env::temp_dir().join(format!("pegboard-token-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(TOKEN_FILE);
        assert_eq!(load(&path), Ok(None));
        let token = Token::new(&format!("  {TOKEN}\n")).expect("a token");
        store(&path, &token).expect("kept");
        let mode = std::fs::metadata(&path).expect("kept").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(load(&path), Ok(Some(token.clone())));
        // Opened to others, it is refused without being repeated.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let e = load(&path).expect_err("readable by others");
        assert!(e.0.contains("mode 644") && !e.0.contains(TOKEN), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_token_shows_itself_hidden_and_a_wrong_one_is_not_repeated() {
        let token = Token::new(TOKEN).expect("a token");
        assert_eq!(format!("{token:?}"), "Token(hidden)");
        assert!(!format!("{token}").contains(TOKEN));
        assert_eq!(token.secret(), TOKEN);
        for wrong in ["", "lip_has spaces in it", "short", "lip_ünïcødé_token"] {
            let e = Token::new(wrong).expect_err(wrong);
            assert!(wrong.is_empty() || !e.0.contains(wrong), "{e}");
        }
    }

    #[test]
    fn a_token_as_long_as_lichess_may_make_one_is_taken_and_a_longer_one_refused_unrepeated() {
        // lichess asks clients to take at least 512 characters.
        let long: String = "lip_"
            .chars()
            .chain("aZ09_".chars().cycle())
            .take(512)
            .collect();
        assert_eq!(long.len(), 512);
        assert_eq!(Token::new(&long).expect("512 characters").secret(), long);
        let longest = "x".repeat(LONGEST);
        assert!(Token::new(&longest).is_ok());
        let over = "y".repeat(LONGEST + 1);
        let e = Token::new(&over).expect_err("too long");
        assert!(
            e.0.contains("1025 characters") && e.0.contains("at most 1024"),
            "{e}"
        );
        assert!(!e.0.contains("yyyyyyyy"), "{e}");
        // A wrong character is named by its kind, never shown, nor where.
        let quoted = format!("\"{}\"", &long[..40]);
        let e = Token::new(&quoted).expect_err("quoted");
        assert!(e.0.contains("letters, digits and underscores"), "{e}");
        assert!(!e.0.contains(&long[..12]), "{e}");
    }

    #[test]
    fn the_address_that_makes_a_token_chooses_board_play() {
        assert_eq!(
            create_address("https://lichess.org/"),
            "https://lichess.org/account/oauth/token/create?scopes%5B%5D=board:play\
             &description=pegboard"
        );
    }

    #[test]
    fn a_token_kept_in_a_directory_is_its_owners() {
        let dir = std::env::temp_dir().join(format!("pegboard-keeper-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Not there yet: made, the caller's.
        let mine = keeper(&dir.join("state")).expect("made");
        assert!(mine.is_caller && mine.dir.is_dir(), "{mine:?}");
        let token = Token::new(TOKEN).expect("a token");
        let path = store_for(&mine, &token).expect("kept");
        assert_eq!(load(&path), Ok(Some(token.clone())));
        if caller() == 0 {
            // Root keeps it for the directory's owner (nobody, here), who
            // alone may read it.
            let theirs = dir.join("theirs");
            std::fs::create_dir_all(&theirs).expect("made");
            std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).expect("chown");
            let keeper = keeper(&theirs).expect("root may");
            assert!(!keeper.is_caller && keeper.uid == 65534, "{keeper:?}");
            assert!(!keeper.name.is_empty());
            let path = store_for(&keeper, &token).expect("kept");
            let meta = std::fs::metadata(&path).expect("there");
            assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
            assert_eq!(meta.permissions().mode() & 0o777, 0o600);
            assert_eq!(std::fs::read_to_string(&path).expect("read").trim(), TOKEN);
        } else {
            // Another's directory (root's) is refused before any token.
            let e = keeper(Path::new("/")).expect_err("root's");
            assert!(
                matches!(&e, PlaceError::OthersDir { owner, .. } if owner == "root"),
                "{e:?}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
