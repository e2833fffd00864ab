//! `pegboard check-config`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use pegboard::config::Config;

#[derive(ClapArgs)]
pub struct Args {
    /// The configuration file.
    file: String,
}

pub fn run(a: Args) -> ExitCode {
    // The same checks, in the same order, as the commands that use the
    // file: the file itself, then the sensors, keys and faces it names.
    match Config::load(&a.file).and_then(|c| c.check_sensors()) {
        Ok(()) => {
            println!("{}: configuration is valid", a.file);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
