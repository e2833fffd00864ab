//! `pegboard lichess-token`.

use std::io::BufRead as _;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};

#[derive(ClapArgs)]
pub struct Args {
    /// A configuration file (see config/pegboard.toml); the token is kept
    /// in its [journal] dir.
    #[arg(long)]
    config: Option<String>,
}

pub fn run(a: Args) -> ExitCode {
    let result = load_config(a.config.as_deref()).and_then(|c| {
        eprintln!(
            "pegboard lichess-token: paste your lichess token (Preferences, API access tokens, \
             with \"Play games with the board API\") and press Enter"
        );
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("standard input: {e}"))?;
        let path = pegboard::runtime::lichess::keep_token(&c, &line).map_err(|e| e.to_string())?;
        println!(
            "pegboard: the lichess token is kept in {}, readable by you alone",
            path.display()
        );
        Ok(())
    });
    finish("lichess-token", result)
}
