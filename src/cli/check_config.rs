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
    if config.braille.display
        && let Some(w) = display_warning(&config)
    {
        eprintln!("warning: {}: [braille] display = true, but {w}", a.file);
    }
    // Braille alone: the voices are not asked to speak.
    if silent && config.braille.speech {
        eprintln!(
            "{}: no voice in [speech] voices could speak: the blind player would hear nothing",
            a.file
        );
        return ExitCode::from(2);
    }
    println!("{}: configuration is valid", a.file);
    ExitCode::SUCCESS
}

/// Why the Braille display `[braille]` asks for cannot be had now, if it
/// cannot: its tables, or brltty (asked for 3 s at most).
fn display_warning(config: &pegboard::config::Config) -> Option<String> {
    if let Err(e) = pegboard::runtime::scoresheets::brailler(config) {
        return Some(format!("{e}: the game would go on without the display"));
    }
    let (host, auth) = (config.braille.host.clone(), config.braille.auth.clone());
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        // Asked without taking the display: a game may be showing on it.
        let size = pegboard::braille::brlapi::Display::size(&host, &auth, Duration::from_secs(2));
        let _ = tx.send(size.map_err(|e| e.to_string()));
    });
    let e = match rx.recv_timeout(Duration::from_secs(3)) {
        Ok(Ok(_)) => return None,
        Ok(Err(e)) => e,
        Err(_) => "brltty did not answer within 3 s".to_string(),
    };
    Some(format!(
        "{e} (is brltty running, and may this user use it: the brlapi group, or its key?): until it answers, the game \
         goes on without the display"
    ))
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
