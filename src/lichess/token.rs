//! The player's lichess token (a personal OAuth token with the
//! `board:play` scope), kept in the state directory, readable by its owner
//! alone (0600). It is read once from standard input by `pegboard
//! lichess-token` and never printed, logged or journaled: a [`Token`]
//! shows itself as hidden, and no error repeats it.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The file the token is kept in, beside the games.
pub const TOKEN_FILE: &str = "lichess-token";

/// A lichess token. Its `Debug` and `Display` hide it; only
/// [`Token::secret`] gives it, for the `Authorization` header.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A token as pasted: surrounding white space taken off, and checked
    /// to look like one (letters, digits and `_`, 8 to 200 of them). The
    /// error never repeats what was given.
    pub fn new(text: &str) -> Result<Token, TokenError> {
        let token = text.trim();
        if token.is_empty() {
            return Err(TokenError(
                "no token was given: paste the token from lichess (Preferences, API access \
                 tokens, with \"Play games with the board API\") and press Enter"
                    .into(),
            ));
        }
        let plain = token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain || !(8..=200).contains(&token.len()) {
            return Err(TokenError(format!(
                "what was given ({} characters) is no lichess token: a token is 8 to 200 \
                 letters, digits and underscores, like lip_ and twenty more",
                token.chars().count()
            )));
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
}
