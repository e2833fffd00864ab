//! The speech-dispatcher voice, through the `tts` crate: espeak-ng or any
//! synthesizer installed behind speech-dispatcher.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Deserialize;
use tts::{Backends, Tts};

use super::clips::ClipSet;
use super::utterance::Utterance;
use super::voice::{Progress, Voice, VoiceError};

/// `[speech.speech_dispatcher]` in the configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DispatcherSettings {
    /// -100 (slowest) … 0 (the synthesizer's normal) … 100 (fastest).
    pub rate: i32,
    /// -100 … 100; 0 is the voice's normal pitch.
    pub pitch: i32,
    /// -100 … 100.
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

#[derive(Debug, Default)]
struct State {
    started: Option<Instant>,
    finished: bool,
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
    tts: Tts,
    /// The configured volume (-100 to 100), scaled per utterance.
    volume: f32,
    state: Arc<Mutex<State>>,
    earcons: Option<EarconPlayer>,
    /// Text waiting for its earcon to finish.
    pending: Option<String>,
}

fn broken(what: &str, e: tts::Error) -> VoiceError {
    VoiceError::Broken(format!("speech-dispatcher: {what}: {e}"))
}

impl DispatcherVoice {
    /// Connects to speech-dispatcher (started on demand by its client
    /// library, at `SPEECHD_ADDRESS` if set). `language` is the
    /// synthesizer language code ("de", "en" …). Earcons are played from
    /// `clips` when a sound output can be opened.
    pub fn open(
        settings: &DispatcherSettings,
        language: &str,
        clips: Option<Arc<ClipSet>>,
    ) -> Result<DispatcherVoice, VoiceError> {
        let mut tts = Tts::new(Backends::SpeechDispatcher).map_err(|e| broken("connect", e))?;
        let clamp = |v: i32| v.clamp(-100, 100) as f32;
        tts.set_rate(clamp(settings.rate))
            .map_err(|e| broken("rate", e))?;
        tts.set_pitch(clamp(settings.pitch))
            .map_err(|e| broken("pitch", e))?;
        tts.set_volume(clamp(settings.volume))
            .map_err(|e| broken("volume", e))?;
        if let Ok(voices) = tts.voices() {
            let chosen = if settings.voice.is_empty() {
                voices.iter().find(|v| {
                    v.language().primary_language() == language && !v.name().contains('+')
                })
            } else {
                voices.iter().find(|v| v.name() == settings.voice)
            };
            match chosen {
                Some(v) => tts.set_voice(v).map_err(|e| broken("voice", e))?,
                None if !settings.voice.is_empty() => {
                    return Err(VoiceError::Broken(format!(
                        "speech-dispatcher has no voice named \"{}\"",
                        settings.voice
                    )));
                }
                None => {}
            }
        }
        let state = Arc::new(Mutex::new(State::default()));
        let begin = Arc::clone(&state);
        tts.on_utterance_begin(Some(Box::new(move |_| {
            if let Ok(mut s) = begin.lock() {
                s.started = Some(Instant::now());
            }
        })))
        .map_err(|e| broken("callbacks", e))?;
        for end in [true, false] {
            let done = Arc::clone(&state);
            let callback: Box<dyn FnMut(tts::UtteranceId)> = Box::new(move |_| {
                if let Ok(mut s) = done.lock() {
                    s.finished = true;
                }
            });
            if end {
                tts.on_utterance_end(Some(callback))
            } else {
                tts.on_utterance_stop(Some(callback))
            }
            .map_err(|e| broken("callbacks", e))?;
        }
        Ok(DispatcherVoice {
            tts,
            volume: clamp(settings.volume),
            state,
            earcons: clips.and_then(EarconPlayer::open),
            pending: None,
        })
    }

    fn set_state(&self, started: Option<Instant>, finished: bool) {
        if let Ok(mut s) = self.state.lock() {
            *s = State { started, finished };
        }
    }

    fn speak(&mut self, text: &str) -> Result<(), VoiceError> {
        self.set_state(None, false);
        self.tts
            .speak(text, false)
            .map(|_| ())
            .map_err(|e| broken("speak", e))
    }
}

impl Voice for DispatcherVoice {
    fn name(&self) -> &'static str {
        "speech-dispatcher"
    }

    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
        self.pending = None;
        // speech-dispatcher's volume runs from -100 (silent) to 100.
        let volume = -100.0 + (self.volume + 100.0) * u.gain();
        self.tts
            .set_volume(volume)
            .map_err(|e| broken("volume", e))?;
        let earcon_playing =
            u.earcon.is_some() && self.earcons.as_ref().is_some_and(|player| player.play(u));
        if earcon_playing {
            // Words follow the earcon; an earcon alone ends with its sound.
            self.set_state(Some(Instant::now()), u.text.is_empty());
            if !u.text.is_empty() {
                self.pending = Some(u.text.clone());
            }
            return Ok(());
        }
        if u.text.is_empty() {
            self.set_state(Some(Instant::now()), true);
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
        let s = match self.state.lock() {
            Ok(s) => (s.started, s.finished),
            Err(_) => return Progress::Finished,
        };
        match s {
            (_, true) if earcon_done => Progress::Finished,
            (Some(at), _) => Progress::Speaking(at),
            (None, _) => Progress::Waiting,
        }
    }

    fn stop(&mut self) {
        self.pending = None;
        if let Some(e) = &self.earcons {
            e.player.clear();
        }
        // Stopping a dead connection changes nothing; the next start reports it.
        let _ = self.tts.stop();
    }
}
