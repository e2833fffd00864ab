//! `pegboard hall`: the tournament hall's hub. It follows every board
//! `[hall]` lists, serves the arbiter's hall view and the round's games,
//! and pushes them to a lichess broadcast when `[hall.push]` says so.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use pegboard::runtime::hall;
use pegboard::runtime::station::Stop;

use super::{finish, load_config};

#[derive(ClapArgs)]
pub struct Args {
    /// The hub's configuration: its [hall] table lists the boards (see
    /// config/hall.toml).
    #[arg(long)]
    config: String,
    /// Serve the hall view on this address instead of [hall] listen
    /// ("0.0.0.0:8090"); with [https], the plain address that sends on to
    /// HTTPS.
    #[arg(long)]
    listen: Option<String>,
    /// Read the lichess broadcast token (made on lichess with the
    /// study:write scope) from standard input, without showing it, and
    /// keep it in [hall.push] token_file, readable by you alone; then end.
    #[arg(long)]
    keep_token: bool,
    /// End after this many seconds (for trying it out).
    #[arg(long)]
    seconds: Option<f64>,
}

pub fn run(a: Args) -> ExitCode {
    let result = load_config(Some(&a.config)).and_then(|config| {
        if a.keep_token {
            return keep_token(&config);
        }
        let (hub, state, reports) =
            hall::start(&config, a.listen.as_deref()).map_err(|e| e.to_string())?;
        let url = hub.url();
        eprintln!(
            "pegboard hall: the hall view is at {url}/ and the round's games at \
             {url}/round.pgn; Ctrl-C ends it"
        );
        if let Some(addr) = hub.broadcast_addr() {
            eprintln!(
                "pegboard hall: the round's games alone, for a lichess broadcast's source URL, \
                 at http://{addr}/round.pgn"
            );
        }
        if let Some(f) = hub.fingerprint() {
            eprintln!("pegboard hall: its certificate's SHA-256 fingerprint is {f}");
        }
        hall::run(hub, state, reports, &Stop::new(a.seconds, false));
        Ok(())
    });
    finish("hall", result)
}

/// The broadcast token, read and kept where `[hall.push]` names it.
fn keep_token(config: &pegboard::config::Config) -> Result<(), String> {
    let push = config.hall.push.as_ref().ok_or(
        "the configuration has no [hall.push] table: it names the broadcast round and the \
         token's file",
    )?;
    let terminal = std::io::stdin().is_terminal();
    eprintln!(
        "pegboard hall: make a token on lichess (Preferences, API access tokens) with the scope \
         \"Create, update, delete studies and broadcasts\" (study:write), paste it here{} and \
         press Enter:",
        if terminal { " (it is not shown)" } else { "" }
    );
    let line = super::lichess_token::read_line(terminal)?;
    let token = pegboard::lichess::token::Token::new(&line).map_err(|e| e.0)?;
    pegboard::lichess::token::store(std::path::Path::new(&push.token_file), &token)
        .map_err(|e| e.0)?;
    eprintln!("pegboard hall: the token is kept in {}", push.token_file);
    Ok(())
}
