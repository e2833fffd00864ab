//! What in `[speech]` would leave the blind player without words, found
//! before the game: `check-config` says it.

use super::{SpeechConfig, VoiceName};
use crate::text::key::KeyProblem;

/// The problems in `speech`: no voice listed, a file voice whose folder
/// cannot be written, a speech-dispatcher voice that does not exist
/// (`dispatcher_voices`: the voices speech-dispatcher names, when it
/// answered). Each is a warning at its key; the second value is whether
/// no listed voice at all could speak, which makes them an error.
pub fn warnings(
    speech: &SpeechConfig,
    dispatcher_voices: Option<&[String]>,
) -> (Vec<KeyProblem>, bool) {
    let mut warnings = Vec::new();
    if speech.voices.is_empty() {
        warnings.push(KeyProblem::at(
            &["speech", "voices"],
            "[speech] voices is empty: no voice speaks, the moves are only printed".into(),
        ));
    }
    let mut can_speak = false;
    for voice in &speech.voices {
        match voice {
            VoiceName::File => {
                let dir = &speech.file.directory;
                if writable(dir) {
                    can_speak = true;
                } else {
                    warnings.push(KeyProblem::at(
                        &["speech", "file", "directory"],
                        format!(
                            "[speech.file] directory: {} cannot be written; the file voice \
                             will not speak",
                            dir.display()
                        ),
                    ));
                }
            }
            VoiceName::SpeechDispatcher => {
                let wanted = &speech.speech_dispatcher.voice;
                match dispatcher_voices {
                    Some(names) if !wanted.is_empty() && !names.iter().any(|n| n == wanted) => {
                        warnings.push(KeyProblem::at(
                            &["speech", "speech_dispatcher", "voice"],
                            format!(
                                "[speech.speech_dispatcher] voice: speech-dispatcher has no \
                                 voice named \"{}\" (`spd-say -L` lists them)",
                                crate::text::quote::short(wanted)
                            ),
                        ));
                    }
                    _ => can_speak = true,
                }
            }
            VoiceName::Clips | VoiceName::Text => can_speak = true,
            VoiceName::Null => {}
        }
    }
    (warnings, !can_speak && !speech.muted)
}

/// Whether a file can be made in `dir`, or (if it does not exist yet) in
/// the nearest folder above it, where the file voice would make it. The
/// check makes nothing that stays.
fn writable(dir: &std::path::Path) -> bool {
    let Some(existing) = dir
        .ancestors()
        .find(|d| d.as_os_str().is_empty() || d.is_dir())
    else {
        return false;
    };
    let existing = if existing.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        existing
    };
    let probe = existing.join(format!(".pegboard-check-{}", std::process::id()));
    let made = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    made
}
