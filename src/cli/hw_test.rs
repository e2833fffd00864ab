//! `pegboard hw-test`.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::{finish, load_config};
use pegboard::runtime::parts;
use pegboard::runtime::station::Stop;
use pegboard::runtime::tools;
use pegboard::runtime::voices;
use pegboard::speech::TextOutput;

#[derive(ClapArgs)]
pub struct Args {
    /// A configuration file ([sensors], [board], [buttons]).
    #[arg(long)]
    config: Option<String>,
    /// Finish after this many seconds, counted from when the board's
    /// sensors are open.
    #[arg(long)]
    seconds: Option<f64>,
    /// Print only; do not speak.
    #[arg(long)]
    silent: bool,
    /// Print each change as a line, without redrawing the map.
    #[arg(long)]
    plain: bool,
}

pub fn run(a: Args) -> ExitCode {
    let stop = Stop::new(a.seconds, true);
    let result = load_config(a.config.as_deref()).and_then(|c| {
        let words = parts::phrasebook(&c).map_err(|e| e.to_string())?;
        let speaker = (!a.silent).then(|| voices::speaker(&c, &words, TextOutput::Stdout));
        let live = !a.plain && std::io::stdout().is_terminal();
        let r = tools::hw_test(
            &c,
            &words,
            speaker.as_ref(),
            live,
            &stop,
            &mut std::io::stdout(),
        );
        if let Some(s) = speaker {
            voices::finish(s);
        }
        r.map(|_| ()).map_err(|e| e.to_string())
    });
    finish("hw-test", result)
}
