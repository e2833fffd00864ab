//! lichess's side of the runtime: where the player's token is kept (the
//! journal directory, as the console's secret is).

use std::path::PathBuf;

use crate::config::Config;
use crate::lichess::token::{TOKEN_FILE, Token, store};
use crate::runtime::error::{Error, Result};

/// Where the token is kept: the journal directory.
pub fn token_path(config: &Config) -> Result<PathBuf> {
    let dir = crate::runtime::keeper::journal_dir(config).ok_or_else(|| {
        Error::Journal(
            "no state directory for the lichess token: set [journal] dir, or HOME".into(),
        )
    })?;
    Ok(dir.join(TOKEN_FILE))
}

/// Keeps the token pasted as `text`; returns where. The error never
/// holds the token.
pub fn keep_token(config: &Config, text: &str) -> Result<PathBuf> {
    let token = Token::new(text).map_err(Error::Token)?;
    let path = token_path(config)?;
    store(&path, &token).map_err(Error::Token)?;
    Ok(path)
}
