//! The configuration's parts put together, in one place: the phrasebook,
//! the game's settings, the voices' language and delivery, the mirror's
//! view, and `check-config`'s warnings. Each wing owns its table's type
//! and checks; this is where the tables meet.

use crate::announce::Phrasebook;
use crate::announce::vocabulary::Vocabulary;
use crate::config::{Config, ConfigError};
use crate::core::Settings;
use crate::mirror::View;
use crate::speech::{Delivery, VoiceLanguage};
use crate::text::key::KeyProblem;

/// The words to speak, checked completely before anything starts. An
/// error names the configuration's `language` key and its line.
pub fn phrasebook(config: &Config) -> Result<Phrasebook, ConfigError> {
    crate::announce::section::phrasebook(config.language.as_deref(), &config.announce)
        .map_err(|e| config.error(KeyProblem::at(&["language"], e.0)))
}

/// The game's settings: `[debounce]`, `[tracker]`, `[clock]`, `[game]`.
pub fn settings(config: &Config) -> Settings {
    crate::core::sections::settings(
        &config.debounce,
        &config.tracker,
        &config.clock,
        &config.game,
    )
}

/// How events become utterances: earcons and the warnings' loudness.
pub fn delivery(config: &Config) -> Delivery {
    Delivery {
        earcons: config.earcons,
        warning_volume: (config.clock.warning_volume * 100.0).round() as u8,
    }
}

/// What the voices need to know of the language: the clip folder (the
/// language's name, or a language file's name without `.toml`) and the
/// synthesizer's language code.
pub fn voice_language(config: &Config, words: &Phrasebook) -> VoiceLanguage {
    let name = config.language.as_deref().unwrap_or("fide");
    let clips = std::path::Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_string());
    VoiceLanguage {
        clips,
        synthesizer: words.words.language.synthesizer.clone(),
        spoken: words.words.spoken.clone(),
    }
}

/// The mirror's view: the blind player's colour (the keypad owner's),
/// the side its board is seen from, and its page in `words`' language.
pub fn mirror_view(config: &Config, words: &Vocabulary) -> View {
    let blind: shakmaty::Color = config.buttons.player.into();
    let practice = [&config.game.white_moves_on, &config.game.black_moves_on]
        .iter()
        .any(|seat| crate::core::Seat::parse(seat) == crate::core::Seat::Engine);
    View::new(blind, config.mirror.orientation.seen_by(blind), words)
        .with_console(&crate::console::page(practice), words)
}

/// What in `[speech]` would leave the blind player without words, each
/// at its key's line (`dispatcher_voices`: what speech-dispatcher names,
/// when it answered); and whether no voice at all could speak.
pub fn speech_warnings(
    config: &Config,
    dispatcher_voices: Option<&[String]>,
) -> (Vec<ConfigError>, bool) {
    let (problems, silent) = crate::speech::warnings::warnings(&config.speech, dispatcher_voices);
    (
        problems.into_iter().map(|p| config.error(p)).collect(),
        silent,
    )
}
