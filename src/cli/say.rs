//! `pegboard say`.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args as ClapArgs;

use super::load_config;
use pegboard::runtime::parts;
use pegboard::runtime::voices;
use pegboard::speech::{Kind, Report, TextOutput, Utterance, VoiceName};

#[derive(ClapArgs)]
pub struct Args {
    /// The words to say.
    #[arg(required_unless_present = "move")]
    text: Option<String>,
    /// A move in UCI notation (e2e4, e7e8q), announced as in a game.
    #[arg(long = "move", conflicts_with = "text")]
    r#move: Option<String>,
    /// The position the move is played in (FEN); default: the start.
    #[arg(long, requires = "move")]
    fen: Option<String>,
    /// Use this voice only: speech-dispatcher, clips, file, text or null.
    #[arg(long)]
    voice: Option<String>,
    /// Say nothing (the muted path: nothing reaches the sound output).
    #[arg(long)]
    mute: bool,
    /// A configuration file (see config/pegboard.toml).
    #[arg(long)]
    config: Option<String>,
}

pub fn run(a: Args) -> ExitCode {
    match say(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pegboard say: {e}");
            ExitCode::from(2)
        }
    }
}

/// One utterance through the voice chain; reports on standard error which
/// voice spoke.
fn say(a: Args) -> Result<(), String> {
    let mut config = load_config(a.config.as_deref())?;
    let words = parts::phrasebook(&config).map_err(|e| e.to_string())?;
    if let Some(name) = a.voice {
        let v = VoiceName::parse(&name).ok_or_else(|| {
            format!(
                "--voice {name}: no such voice (voices: speech-dispatcher, clips, file, text, null)"
            )
        })?;
        config.speech.voices = vec![v];
    }
    config.speech.muted |= a.mute;
    let (kind, text, ply) = match (a.text, a.r#move) {
        (Some(text), _) => (Kind::Answer, text, None),
        (None, Some(uci)) => {
            let text = pegboard::announce::phrases::announce_uci(&words, a.fen.as_deref(), &uci)
                .map_err(|e| e.to_string())?;
            (Kind::Move, text, Some(1))
        }
        (None, None) => return Err("give a text or --move".into()),
    };
    let (speaker, rx) = voices::speaker_with_reports(&config, &words, TextOutput::Stdout);
    // `say` is for trying the voices: it waits for a slow one (a named
    // speech-dispatcher voice is looked up in a list of thousands) as long
    // as a voice may take to open, so that it is heard, or why not is told.
    if !speaker.wait_ready(Duration::from_millis(200)) {
        let within = Duration::from_millis(config.speech.open_within_ms);
        eprintln!(
            "waiting up to {} s ([speech] open_within_ms) for the voices to connect ...",
            within.as_secs()
        );
        speaker.wait_ready(within);
    }
    speaker.say(Utterance {
        kind,
        earcon: None,
        text,
        ply,
        volume: 100,
        private: false,
    });
    // Room for a long text; a voice that never reports its end gives up
    // well before.
    let done = speaker.wait_idle(Duration::from_secs(120));
    speaker.quit();
    let mut spoken = None;
    for report in rx.try_iter() {
        match report {
            Report::VoiceFailed(f) => eprintln!("voice {}: {}", f.voice, f.error),
            Report::Started {
                voice, confirmed, ..
            } => {
                spoken = Some(voice);
                if !confirmed {
                    eprintln!("voice {voice}: did not report when it started");
                }
            }
            Report::Unsaid(_) | Report::Idle => {}
        }
    }
    match spoken {
        Some(voice) => eprintln!("spoken by: {voice}"),
        None => return Err("no voice could say it".into()),
    }
    if !done {
        eprintln!("still speaking after 120 s; stopped");
    }
    Ok(())
}
