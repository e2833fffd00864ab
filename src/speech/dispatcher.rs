//! The speech-dispatcher voice: espeak-ng or any synthesizer installed
//! behind speech-dispatcher, through libspeechd (the `speech-dispatcher`
//! crate).
//!
//! The language is chosen with speech-dispatcher's own language setting,
//! which picks the synthesizer's voice for it. The list of voices is asked
//! for only when a voice is named in the configuration: libspeechd reads
//! that list (thousands of entries with espeak-ng) in quadratic time, about
//! a second on a desktop and many on a Pi, and a voice must be ready at
//! once when pegboard starts or reconnects.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Deserialize;
use speech_dispatcher::{Connection, Mode, Priority};

use super::clips::ClipSet;
use super::utterance::Utterance;
use super::voice::{Progress, Voice, VoiceError};
use crate::announce::Pronunciation;

/// `[speech.speech_dispatcher]` in the configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DispatcherSettings {
    /// -100 (slowest) … 0 (the synthesizer's normal) … 100 (fastest).
    #[serde(deserialize_with = "crate::text::bounded::i32_in::<_, -100, 100>")]
    pub rate: i32,
    /// -100 … 100; 0 is the voice's normal pitch.
    #[serde(deserialize_with = "crate::text::bounded::i32_in::<_, -100, 100>")]
    pub pitch: i32,
    /// -100 … 100.
    #[serde(deserialize_with = "crate::text::bounded::i32_in::<_, -100, 100>")]
    pub volume: i32,
    /// A synthesizer voice by name; empty: the first voice of the language.
    pub voice: String,
}

impl Default for DispatcherSettings {
    fn default() -> Self {
        DispatcherSettings {
            rate: 40,
            pitch: 0,
            volume: 100,
            voice: String::new(),
        }
    }
}

/// The latest begin and end speech-dispatcher reported, by message id. Its
/// event thread writes them; they may arrive before `say` has returned the
/// id they belong to, and a late end of a stopped message must not end the
/// next one, so they are matched by id when read.
#[derive(Debug, Default)]
struct Reports {
    begun: Option<(u64, Instant)>,
    ended: Option<u64>,
}

/// The utterance in hand.
#[derive(Debug, Default)]
struct Current {
    /// The id speech-dispatcher gave its words; None until they are sent,
    /// and for an utterance without words (it ends with its earcon).
    message: Option<u64>,
    /// When it began to be heard before any word: its earcon started, or
    /// it had nothing to say.
    began_at: Option<Instant>,
}

/// Plays earcons for a voice that cannot: rodio on the default output.
struct EarconPlayer {
    player: rodio::Player,
    _sink: rodio::MixerDeviceSink,
    clips: Arc<ClipSet>,
}

impl EarconPlayer {
    fn open(clips: Arc<ClipSet>) -> Option<EarconPlayer> {
        let sink = super::clips::open_output().ok()?;
        let player = rodio::Player::connect_new(sink.mixer());
        Some(EarconPlayer {
            player,
            _sink: sink,
            clips,
        })
    }

    fn play(&self, u: &Utterance) -> bool {
        let only_earcon = Utterance {
            text: String::new(),
            ..u.clone()
        };
        let samples = match self.clips.render(&only_earcon) {
            Ok(samples) if !samples.is_empty() => samples,
            _ => return false,
        };
        self.player.clear();
        self.player.append(self.clips.buffer(samples));
        self.player.play();
        true
    }
}

pub struct DispatcherVoice {
    connection: Connection,
    /// The configured volume (-100 to 100), scaled per utterance.
    volume: f32,
    /// The volume in force: the configured one, or the last utterance's.
    volume_now: i32,
    reports: Arc<Mutex<Reports>>,
    current: Current,
    earcons: Option<EarconPlayer>,
    /// Text waiting for its earcon to finish.
    pending: Option<String>,
    /// How words the synthesizer misreads are to be said.
    spoken: Pronunciation,
}

fn broken(what: &str, e: speech_dispatcher::Error) -> VoiceError {
    VoiceError::Broken(format!("speech-dispatcher: {what}: {e}"))
}

/// The names of the voices speech-dispatcher offers (`spd-say -L`).
pub fn voice_names() -> Result<Vec<String>, VoiceError> {
    let connection = Connection::open("pegboard", "check", "pegboard", Mode::Threaded)
        .map_err(|e| broken("connect", e))?;
    let voices = connection
        .list_synthesis_voices()
        .map_err(|e| broken("list of voices", e))?;
    Ok(voices.into_iter().map(|v| v.name).collect())
}

impl DispatcherVoice {
    /// Connects to speech-dispatcher (started on demand by its client
    /// library, at `SPEECHD_ADDRESS` if set). `language` is the
    /// synthesizer language code ("de", "en" …); `spoken` says how words
    /// it misreads are to be said. Earcons are played from `clips` when a
    /// sound output can be opened.
    pub fn open(
        settings: &DispatcherSettings,
        language: &str,
        spoken: Pronunciation,
        clips: Option<Arc<ClipSet>>,
    ) -> Result<DispatcherVoice, VoiceError> {
        // libspeechd takes C strings (the crate panics on a NUL in one).
        if language.contains('\0') {
            return Err(VoiceError::Broken(format!(
                "speech-dispatcher: language code {language:?} is not a language code"
            )));
        }
        let connection = Connection::open("pegboard", "announcer", "pegboard", Mode::Threaded)
            .map_err(|e| broken("connect", e))?;
        let clamp = |v: i32| v.clamp(-100, 100);
        connection
            .set_voice_rate(clamp(settings.rate))
            .map_err(|e| broken("rate", e))?;
        connection
            .set_voice_pitch(clamp(settings.pitch))
            .map_err(|e| broken("pitch", e))?;
        connection
            .set_volume(clamp(settings.volume))
            .map_err(|e| broken("volume", e))?;
        connection
            .set_language(language)
            .map_err(|e| broken("language", e))?;
        if !settings.voice.is_empty() {
            let voices = connection
                .list_synthesis_voices()
                .map_err(|e| broken("list of voices", e))?;
            let Some(voice) = voices.iter().find(|v| v.name == settings.voice) else {
                return Err(VoiceError::Broken(format!(
                    "speech-dispatcher has no voice named \"{}\" (`spd-say -L` lists them)",
                    settings.voice
                )));
            };
            connection
                .set_synthesis_voice(voice)
                .map_err(|e| broken("voice", e))?;
        }
        let reports = Arc::new(Mutex::new(Reports::default()));
        let begin = Arc::clone(&reports);
        connection.on_begin(Some(Box::new(move |message, _client| {
            if let Ok(mut r) = begin.lock() {
                r.begun = Some((message as u64, Instant::now()));
            }
        })));
        for end in [true, false] {
            let done = Arc::clone(&reports);
            let callback: Box<dyn FnMut(usize, usize)> = Box::new(move |message, _client| {
                if let Ok(mut r) = done.lock() {
                    r.ended = Some(message as u64);
                }
            });
            if end {
                connection.on_end(Some(callback));
            } else {
                connection.on_cancel(Some(callback));
            }
        }
        Ok(DispatcherVoice {
            connection,
            volume: clamp(settings.volume) as f32,
            volume_now: clamp(settings.volume),
            reports,
            current: Current::default(),
            earcons: clips.and_then(EarconPlayer::open),
            pending: None,
            spoken,
        })
    }

    fn speak(&mut self, text: &str) -> Result<(), VoiceError> {
        // libspeechd takes C strings: a NUL would end the text.
        let text = self.spoken.apply(text).replace('\0', " ");
        let message = self
            .connection
            .say(Priority::Important, text)
            .ok_or_else(|| VoiceError::Broken("speech-dispatcher: speak: refused".into()))?;
        self.current.message = Some(message);
        Ok(())
    }
}

impl Voice for DispatcherVoice {
    fn name(&self) -> &'static str {
        "speech-dispatcher"
    }

    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
        self.pending = None;
        self.current = Current::default();
        // speech-dispatcher's volume runs from -100 (silent) to 100.
        let volume = -100.0 + (self.volume + 100.0) * u.gain();
        self.volume_now = volume.round() as i32;
        self.connection
            .set_volume(self.volume_now)
            .map_err(|e| broken("volume", e))?;
        let earcon_playing =
            u.earcon.is_some() && self.earcons.as_ref().is_some_and(|player| player.play(u));
        if earcon_playing || u.text.is_empty() {
            // Words follow the earcon; an earcon alone ends with its sound.
            self.current.began_at = Some(Instant::now());
            if !u.text.is_empty() {
                self.pending = Some(u.text.clone());
            }
            return Ok(());
        }
        self.speak(&u.text)
    }

    fn reports_start(&self) -> bool {
        true
    }

    fn progress(&mut self) -> Progress {
        let earcon_done = self.earcons.as_ref().is_none_or(|e| e.player.empty());
        if let Some(text) = self.pending.take() {
            if !earcon_done {
                self.pending = Some(text);
                return Progress::Waiting;
            }
            if self.speak(&text).is_err() {
                return Progress::Finished;
            }
        }
        let (begun, ended) = match (self.current.message, self.reports.lock()) {
            (Some(m), Ok(r)) => (
                r.begun.filter(|(id, _)| *id == m).map(|(_, at)| at),
                r.ended == Some(m),
            ),
            (None, Ok(_)) => (None, false),
            (_, Err(_)) => return Progress::Finished,
        };
        // No pending words here: without a message there are none to wait for.
        let finished = ended || self.current.message.is_none();
        match self.current.began_at.or(begun) {
            _ if finished && earcon_done => Progress::Finished,
            Some(at) => Progress::Speaking(at),
            None => Progress::Waiting,
        }
    }

    /// One question and its answer: a daemon that is frozen (stopped,
    /// hung on its sound server) keeps its socket open but answers nothing.
    ///
    /// The question is a setting that changes nothing (the volume in force
    /// set again): libspeechd's "get" calls read a reply that a dead
    /// connection does not have and crash, its "set" calls report the error.
    fn check(&mut self) -> Result<(), VoiceError> {
        self.connection
            .set_volume(self.volume_now)
            .map_err(|e| broken("check", e))
    }

    fn stop(&mut self) {
        self.pending = None;
        if let Some(e) = &self.earcons {
            e.player.clear();
        }
        // Stopping a dead connection changes nothing; the next start reports it.
        let _ = self.connection.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_code_with_a_nul_is_refused_before_connecting() {
        match DispatcherVoice::open(
            &DispatcherSettings::default(),
            "de\0x",
            Pronunciation::default(),
            None,
        ) {
            Err(VoiceError::Broken(message)) => {
                assert!(message.contains("not a language code"), "{message}")
            }
            Err(other) => panic!("wrong error: {other:?}"),
            Ok(_) => panic!("a NUL in the language code was taken"),
        }
    }
}
