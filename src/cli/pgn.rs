//! `pegboard pgn`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};
use pegboard::runtime::scoresheets::{Form, Which, print, print_file_brf};

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
    /// Print the scoresheet in Braille: a Braille-ready file (.brf, 40
    /// cells by 25 lines) for an embosser or a Braille notetaker, in the
    /// language's Braille code ([braille] in the configuration).
    #[arg(long)]
    brf: bool,
    /// With --brf: put the games of this PGN file into Braille instead of
    /// the journal's.
    #[arg(long, value_name = "FILE.pgn", requires = "brf", conflicts_with_all = ["game", "all"])]
    from: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> ExitCode {
    let which = match (a.game, a.all) {
        (Some(n), _) => Which::Number(n),
        (None, true) => Which::All,
        (None, false) => Which::Newest,
    };
    let form = if a.brf { Form::Brf } else { Form::Pgn };
    let result = load_config(a.config.as_deref()).and_then(|c| {
        let out = &mut std::io::stdout();
        match &a.from {
            Some(file) => print_file_brf(&c, file, out, &mut std::io::stderr()),
            None => print(&c, which, form, out, &mut std::io::stderr()),
        }
        .map_err(|e| e.to_string())
    });
    finish("pgn", result)
}
