//! `pegboard calibrate`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};
use pegboard::config::Config;
use pegboard::runtime::parts;
use pegboard::runtime::station::Stop;
use pegboard::runtime::tools;
use pegboard::runtime::voices;
use pegboard::speech::TextOutput;

#[derive(ClapArgs)]
pub struct Args {
    /// The configuration file to read and update (created if missing).
    #[arg(long)]
    config: String,
    /// Give up after this many seconds, counted from when the board's
    /// sensors are open.
    #[arg(long)]
    seconds: Option<f64>,
    /// Print only; do not speak.
    #[arg(long)]
    silent: bool,
}

pub fn run(a: Args) -> ExitCode {
    let stop = Stop::new(a.seconds, true);
    let loaded = if std::path::Path::new(&a.config).exists() {
        load_config(Some(&a.config))
    } else {
        Ok(Config::default())
    };
    let result = loaded.and_then(|c| {
        let words = parts::phrasebook(&c).map_err(|e| e.to_string())?;
        let speaker = (!a.silent).then(|| voices::speaker(&c, &words, TextOutput::Stdout));
        let r = tools::calibrate(
            &c,
            &a.config,
            &words,
            speaker.as_ref(),
            &stop,
            &mut std::io::stdout(),
        );
        if let Some(s) = speaker {
            voices::finish(s);
        }
        match r {
            Ok(true) => Ok(()),
            Ok(false) => {
                Err("stopped before the three corners were found; [board] is unchanged".to_string())
            }
            Err(e) => Err(e.to_string()),
        }
    });
    finish("calibrate", result)
}
