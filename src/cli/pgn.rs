//! `pegboard pgn`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};
use pegboard::runtime::scoresheets::{Which, print};

#[derive(ClapArgs)]
pub struct Args {
    /// A configuration file (see config/pegboard.toml); its [journal] dir
    /// says where the games are.
    #[arg(long)]
    config: Option<String>,
    /// Print game number N (as in game-000N.journal).
    #[arg(long, value_name = "N", conflicts_with = "all")]
    game: Option<u32>,
    /// Print every game, oldest first.
    #[arg(long)]
    all: bool,
}

pub fn run(a: Args) -> ExitCode {
    let which = match (a.game, a.all) {
        (Some(n), _) => Which::Number(n),
        (None, true) => Which::All,
        (None, false) => Which::Newest,
    };
    let result = load_config(a.config.as_deref()).and_then(|c| {
        print(&c, which, &mut std::io::stdout(), &mut std::io::stderr()).map_err(|e| e.to_string())
    });
    finish("pgn", result)
}
