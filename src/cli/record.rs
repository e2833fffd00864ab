//! `pegboard record`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};
use pegboard::runtime::station::Stop;
use pegboard::runtime::tools;

#[derive(ClapArgs)]
pub struct Args {
    /// The trace file to write.
    file: String,
    /// A configuration file ([sensors], [board], [buttons]).
    #[arg(long)]
    config: Option<String>,
    /// Stop after this many seconds, counted from when the board's
    /// sensors are open.
    #[arg(long)]
    seconds: Option<f64>,
}

pub fn run(a: Args) -> ExitCode {
    let stop = Stop::new(a.seconds, true);
    let result = load_config(a.config.as_deref()).and_then(|c| {
        tools::record(&c, &a.file, &stop, &mut std::io::stderr()).map_err(|e| e.to_string())
    });
    finish("record", result.map(|_| ()))
}
