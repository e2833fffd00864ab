//! `pegboard console-token`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};

#[derive(ClapArgs)]
pub struct Args {
    /// A configuration file (see config/pegboard.toml); the secret is kept
    /// in its [journal] dir.
    #[arg(long)]
    config: Option<String>,
}

pub fn run(a: Args) -> ExitCode {
    let result = load_config(a.config.as_deref()).and_then(|c| {
        pegboard::runtime::console::print(&c, &mut std::io::stdout()).map_err(|e| e.to_string())
    });
    finish("console-token", result)
}
