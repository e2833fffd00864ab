//! The commands, one file each: their arguments, and how each turns the
//! configuration into a run of the runtime. `main.rs` only dispatches.

pub mod calibrate;
pub mod check_config;
pub mod console_token;
pub mod demo;
pub mod hall;
pub mod hw_test;
pub mod lichess_token;
pub mod pgn;
pub mod play;
pub mod record;
pub mod replay;
pub mod say;

use std::process::ExitCode;

use pegboard::config::Config;

/// The configuration file named, or the defaults.
pub fn load_config(path: Option<&str>) -> Result<Config, String> {
    match path {
        Some(p) => Config::load(p).map_err(|e| e.to_string()),
        None => Ok(Config::default()),
    }
}

/// Ends a command: its error on standard error, and the exit code.
pub fn finish(command: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pegboard {command}: {e}");
            ExitCode::from(2)
        }
    }
}
