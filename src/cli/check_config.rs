//! `pegboard check-config`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use std::time::Duration;

use pegboard::config::Config;
use pegboard::runtime::parts;
use pegboard::speech::VoiceName;

#[derive(ClapArgs)]
pub struct Args {
    /// The configuration file.
    file: String,
}

pub fn run(a: Args) -> ExitCode {
    // A hall's hub's file: checked as `pegboard hall` would.
    if let Ok(c) = Config::load(&a.file)
        && !c.hall.boards.is_empty()
    {
        return match pegboard::runtime::hall::usable(&c) {
            Ok(warnings) => {
                for w in &warnings {
                    eprintln!("warning: {w}");
                }
                println!(
                    "{}: the hall's configuration is valid ({} boards)",
                    a.file,
                    c.hall.boards.len()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{}: {e}", a.file);
                ExitCode::from(2)
            }
        };
    }
    // The same checks, in the same order, as the commands that use the
    // file: the file itself, then the sensors, keys and faces it names;
    // then whether any voice can speak.
    let config =
        match Config::load(&a.file).and_then(|c| pegboard::runtime::open::usable(&c).map(|()| c)) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
    let listed = config.speech.voices.contains(&VoiceName::SpeechDispatcher)
        && !config.speech.speech_dispatcher.voice.is_empty();
    let names = if listed {
        let asked = dispatcher_voices();
        if let Err(why) = &asked {
            eprintln!(
                "note: {}: [speech.speech_dispatcher] voice \"{}\" not checked: {why}",
                a.file, config.speech.speech_dispatcher.voice
            );
        }
        asked.ok()
    } else {
        None
    };
    let (warnings, silent) = parts::speech_warnings(&config, names.as_deref());
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    if let Some(w) = pegboard::runtime::lichess::missing_token(&config) {
        eprintln!("warning: {w}");
    }
    if config.journal.brf
        && let Err(e) = pegboard::runtime::scoresheets::brailler(&config)
    {
        eprintln!(
            "warning: {}: [journal] brf = true, but {e}: the games would be kept in PGN alone",
            a.file
        );
    }
    if silent {
        eprintln!(
            "{}: no voice in [speech] voices could speak: the blind player would hear nothing",
            a.file
        );
        return ExitCode::from(2);
    }
    println!("{}: configuration is valid", a.file);
    ExitCode::SUCCESS
}

/// The voices speech-dispatcher names, if it answers within 3 s.
fn dispatcher_voices() -> Result<Vec<String>, String> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let _ = tx.send(pegboard::speech::dispatcher::voice_names());
    });
    match rx.recv_timeout(Duration::from_secs(3)) {
        Ok(Ok(names)) => Ok(names),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("speech-dispatcher did not answer within 3 s".to_string()),
    }
}
