//! The configuration's parts put together, in one place: the phrasebook,
//! the game's settings, the voices' language and delivery, the mirror's
//! view, and `check-config`'s warnings. Each wing owns its table's type
//! and checks; this is where the tables meet.

use crate::announce::Phrasebook;
use crate::announce::vocabulary::Vocabulary;
use crate::config::{Config, ConfigError};
use crate::core::sections::PgnControl;
use crate::core::settings::{Choices, OnlineWay, Opponent, Strength};
use crate::core::{BLIND_BOARD, Seat, Settings};
use crate::keys::PlayerColor;
use crate::mirror::View;
use crate::speech::{Delivery, VoiceLanguage, VoiceName};
use crate::text::key::KeyProblem;
use shakmaty::Color;

/// The words to speak, checked completely before anything starts. An
/// error names the configuration's `language` key and its line.
pub fn phrasebook(config: &Config) -> Result<Phrasebook, ConfigError> {
    crate::announce::section::phrasebook(config.language.as_deref(), &config.announce)
        .map_err(|e| config.error(KeyProblem::at(&["language"], e.0)))
}

/// The game's settings: `[debounce]`, `[tracker]`, `[clock]`, `[game]`,
/// and what the spoken menu starts from.
pub fn settings(config: &Config) -> Settings {
    let mut settings = crate::core::sections::settings(
        &config.debounce,
        &config.tracker,
        &config.clock,
        &config.game,
    );
    settings.preferences = choices(config, &settings);
    let seats = &settings.seats;
    let online = [&seats.white, &seats.black].contains(&&Seat::Lichess);
    let offered =
        online || !config.lichess.friends.is_empty() || crate::runtime::lichess::token_kept(config);
    settings.online_friends = offered.then(|| config.lichess.friends.clone());
    settings
}

/// The opponent on lichess `[lichess]` finds.
fn online_way(l: &crate::lichess::section::LichessConfig) -> OnlineWay {
    use crate::lichess::section::Find;
    match l.find {
        Find::Seek => OnlineWay::Seek { rated: l.rated },
        Find::Ai => OnlineWay::Ai { level: l.level },
        Find::Challenge => OnlineWay::Friend {
            name: l.opponent.clone().unwrap_or_default(),
            rated: l.rated,
        },
        Find::Accept => OnlineWay::Accept,
    }
}

/// What the configuration says of the spoken menu's items: the opponent
/// (the engine at `[engine]`'s strength when a seat is the engine's), the
/// time control, the blind player's colour (the engine's other, else
/// `[buttons] player`), the voice's rate and volume, the language.
fn choices(config: &Config, settings: &Settings) -> Choices {
    let seats = &settings.seats;
    let engine = |c: Color| *seats.of(c) == Seat::Engine;
    let lichess = |c: Color| *seats.of(c) == Seat::Lichess;
    let opponent = if engine(Color::White) || engine(Color::Black) {
        Opponent::Engine(Strength::configured(
            config.engine.step,
            config.engine.elo,
            config.engine.level,
        ))
    } else if lichess(Color::White) || lichess(Color::Black) {
        Opponent::Lichess(online_way(&config.lichess))
    } else {
        Opponent::Person
    };
    let other = |c: Color| engine(c) || lichess(c);
    let color = match (other(Color::White), other(Color::Black)) {
        (true, false) => Color::Black,
        (false, true) => Color::White,
        _ => config.buttons.player.into(),
    };
    Choices {
        opponent,
        control: settings.clock.control.clone(),
        color,
        rate: config.speech.speech_dispatcher.rate,
        volume: (config.speech.clips.volume * 100.0)
            .round()
            .clamp(0.0, 100.0) as u32,
        language: config
            .language
            .clone()
            .unwrap_or_else(|| "fide".to_string()),
    }
}

/// The configuration as the spoken menu's `choices` make it: the seats,
/// the engine's strength, the time control, the keys' owner's colour, the
/// voice's rate and volume (speech-dispatcher's from -100 to 100, the
/// clips' from 0 to 1), and the language. Everything made from the
/// configuration then follows the choices.
pub fn with_choices(config: &Config, choices: &Choices) -> Config {
    let mut c = config.clone();
    let seats = choices.seats(&settings(config).seats);
    let written = |seat: &Seat| seat.written().unwrap_or_else(|| BLIND_BOARD.to_string());
    c.game.white_moves_on = written(&seats.white);
    c.game.black_moves_on = written(&seats.black);
    match &choices.opponent {
        Opponent::Engine(strength) => {
            (c.engine.step, c.engine.elo, c.engine.level) = strength.keys();
        }
        Opponent::Lichess(way) => {
            use crate::lichess::section::Find;
            let l = &mut c.lichess;
            l.find = match way {
                OnlineWay::Seek { .. } => Find::Seek,
                OnlineWay::Ai { .. } => Find::Ai,
                OnlineWay::Friend { .. } => Find::Challenge,
                OnlineWay::Accept => Find::Accept,
            };
            l.rated = way.rated();
            if let OnlineWay::Ai { level } = way {
                l.level = *level;
            }
            if let OnlineWay::Friend { name, .. } = way {
                l.opponent = Some(name.clone());
            }
            // The menu's clock (sudden death, an increment); a game by
            // days is the configuration's alone.
            if let Some((initial, increment)) = choices.control.as_ref().and_then(|t| t.fischer()) {
                l.time = (initial / 60_000) as u32;
                l.increment = (increment / 1000) as u32;
                l.days = None;
            }
            l.color = match choices.color {
                Color::White => crate::lichess::section::AskedColor::White,
                Color::Black => crate::lichess::section::AskedColor::Black,
            };
        }
        Opponent::Person => {}
    }
    c.clock.control = None;
    c.clock.pgn_control = choices.control.clone().map(PgnControl);
    c.buttons.player = match choices.color {
        Color::White => PlayerColor::White,
        Color::Black => PlayerColor::Black,
    };
    let rate = choices.rate.clamp(-100, 100);
    if rate != c.speech.speech_dispatcher.rate {
        // The clips were recorded at one tempo; a tempo the player chose
        // is speech-dispatcher's to give, so it speaks before them.
        let at = |v: VoiceName| c.speech.voices.iter().position(|x| *x == v);
        if let (Some(clips), Some(synthesizer)) =
            (at(VoiceName::Clips), at(VoiceName::SpeechDispatcher))
            && clips < synthesizer
        {
            c.speech.voices.swap(clips, synthesizer);
        }
    }
    c.speech.speech_dispatcher.rate = rate;
    let volume = choices.volume.min(100);
    c.speech.speech_dispatcher.volume = volume as i32 * 2 - 100;
    c.speech.clips.volume = volume as f32 / 100.0;
    c.language = Some(choices.language.clone());
    c
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
    // The console cites the Laws in the numbers of the game's edition.
    let mut cited = words.clone();
    cited.console = words.console.cited(config.game.laws.0);
    View::new(blind, config.mirror.orientation.seen_by(blind), &cited)
        .with_console(&crate::console::page(practice), &cited)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::TimeControl;

    #[test]
    fn the_menus_choices_make_the_configuration_they_stand_for() {
        let config = Config::parse(
            "language = \"de\"\n[game]\nwhite = \"Anna\"\n[engine]\nelo = 2000\n",
            "c.toml",
        )
        .expect("config");
        // What the configuration says, as the menu starts from it.
        let said = settings(&config).preferences;
        assert_eq!(said.opponent, Opponent::Person);
        assert_eq!((said.rate, said.volume), (40, 100));
        assert_eq!(said.language, "de");
        let chosen = Choices {
            opponent: Opponent::Engine(Strength::Step(2)),
            control: TimeControl::parse_pgn("900+10").ok(),
            color: Color::Black,
            rate: -20,
            volume: 70,
            language: "en".into(),
        };
        let c = with_choices(&config, &chosen);
        assert_eq!(c.game.white_moves_on, "engine");
        assert_eq!(c.game.black_moves_on, BLIND_BOARD);
        assert_eq!(
            (c.engine.step, c.engine.elo, c.engine.level),
            (Some(2), None, None)
        );
        assert_eq!(c.buttons.player, PlayerColor::Black);
        assert_eq!(c.speech.speech_dispatcher.rate, -20);
        // A tempo of the player's own: speech-dispatcher speaks first.
        assert_eq!(
            c.speech.voices,
            [
                VoiceName::SpeechDispatcher,
                VoiceName::Clips,
                VoiceName::Text
            ]
        );
        // The configuration's own tempo: the clips first, as by default.
        let same = with_choices(
            &config,
            &Choices {
                rate: 40,
                ..chosen.clone()
            },
        );
        assert_eq!(
            same.speech.voices,
            crate::speech::SpeechConfig::default().voices
        );
        // 70 % of the way from silent: speech-dispatcher's -100 … 100, the
        // clips' 0 … 1.
        assert_eq!(c.speech.speech_dispatcher.volume, 40);
        assert!((c.speech.clips.volume - 0.7).abs() < 1e-6);
        assert_eq!(c.language.as_deref(), Some("en"));
        // The configuration made from the choices says them back.
        assert_eq!(settings(&c).preferences, chosen);
        assert_eq!(
            settings(&c).clock.control.map(|t| t.to_pgn()).as_deref(),
            Some("900+10")
        );
        // And against a person again, the engine's seat is the board's.
        let person = Choices {
            opponent: Opponent::Person,
            ..chosen
        };
        let back = with_choices(&c, &person);
        assert_eq!(back.game.white_moves_on, BLIND_BOARD);
        assert_eq!(settings(&back).preferences, person);
    }
}
