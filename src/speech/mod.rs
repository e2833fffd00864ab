//! Speech: every move heard at once, in the configured words.
//!
//! Events become [`Utterance`]s; the [`Speaker`] thread orders them by the
//! [`queue`] rules and hands each to the first working voice of the
//! [`Chain`]: speech-dispatcher, recorded clips, a WAV file, printed text,
//! or silence. The speaker reports when each utterance starts, and the
//! owner feeds the start of a move's announcement back to the core as an
//! `announced` input (E2.3c).

pub mod chain;
pub mod clips;
pub mod dispatcher;
pub mod queue;
pub mod speaker;
pub mod utterance;
pub mod voice;

use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;

pub use chain::Chain;
pub use clips::ClipSet;
pub use dispatcher::DispatcherSettings;
pub use speaker::{Report, Speaker};
pub use utterance::{Delivery, Earcon, EarconSwitches, Kind, Utterance};
pub use voice::{NullVoice, TextVoice, Voice, VoiceError};

/// A voice as named in the configuration's chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum VoiceName {
    #[serde(rename = "speech-dispatcher")]
    SpeechDispatcher,
    #[serde(rename = "clips")]
    Clips,
    #[serde(rename = "file")]
    File,
    #[serde(rename = "text")]
    Text,
    #[serde(rename = "null")]
    Null,
}

impl VoiceName {
    pub fn as_str(self) -> &'static str {
        match self {
            VoiceName::SpeechDispatcher => "speech-dispatcher",
            VoiceName::Clips => "clips",
            VoiceName::File => "file",
            VoiceName::Text => "text",
            VoiceName::Null => "null",
        }
    }

    pub fn parse(s: &str) -> Option<VoiceName> {
        [
            VoiceName::SpeechDispatcher,
            VoiceName::Clips,
            VoiceName::File,
            VoiceName::Text,
            VoiceName::Null,
        ]
        .into_iter()
        .find(|v| v.as_str() == s)
    }
}

/// `[speech]` in the configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SpeechConfig {
    /// The voice chain: the first voice that works speaks.
    pub voices: Vec<VoiceName>,
    /// Say nothing at all (moves still count as announced when handed over).
    pub muted: bool,
    pub speech_dispatcher: DispatcherSettings,
    pub clips: ClipsConfig,
    pub file: FileConfig,
}

impl Default for SpeechConfig {
    fn default() -> Self {
        SpeechConfig {
            voices: vec![
                VoiceName::SpeechDispatcher,
                VoiceName::Clips,
                VoiceName::Text,
            ],
            muted: false,
            speech_dispatcher: DispatcherSettings::default(),
            clips: ClipsConfig::default(),
            file: FileConfig::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClipsConfig {
    /// The folder holding `<language>/manifest.toml` and `earcons/`; empty:
    /// `./sounds`, then `/usr/share/pegboard/sounds`.
    pub directory: Option<PathBuf>,
    /// 0.0 (silent) … 1.0 (as recorded).
    #[serde(deserialize_with = "crate::bounded::fraction")]
    pub volume: f32,
}

impl Default for ClipsConfig {
    fn default() -> Self {
        ClipsConfig {
            directory: None,
            volume: 1.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FileConfig {
    /// Where the file voice writes its WAV files.
    pub directory: PathBuf,
}

impl Default for FileConfig {
    fn default() -> Self {
        FileConfig {
            directory: PathBuf::from("speech-out"),
        }
    }
}

/// What the voices need to know about the language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoiceLanguage {
    /// The clip folder's name (`sounds/<clips>/`): the configured language.
    pub clips: String,
    /// The synthesizer language code ("de", "en" …).
    pub synthesizer: String,
    /// How the synthesizer is to say words it misreads (the language
    /// file's `[spoken]` table).
    pub spoken: crate::announce::Pronunciation,
}

/// The clip set, loaded once on first use and shared by the clip, file and
/// speech-dispatcher (earcons) voices.
struct ClipCache {
    dir: PathBuf,
    language: String,
    loaded: Option<Result<Arc<ClipSet>, String>>,
}

impl ClipCache {
    fn get(&mut self) -> Result<Arc<ClipSet>, VoiceError> {
        let dir = &self.dir;
        let language = &self.language;
        self.loaded
            .get_or_insert_with(|| ClipSet::load(dir, language).map(Arc::new))
            .clone()
            .map_err(|e| VoiceError::Broken(format!("clip set: {e}")))
    }
}

/// Builds the configured chain. Call it on the thread that will speak.
/// When muted, the chain is the null voice alone. With `text_fallback`, a
/// `text` voice is always last unless the chain already ends in `text` or
/// `null`, so that no word is ever lost.
pub fn build_chain(config: &SpeechConfig, language: &VoiceLanguage, text_fallback: bool) -> Chain {
    let mut chain = Chain::new();
    if config.muted {
        chain.push_voice(Box::new(NullVoice));
        return chain;
    }
    let cache = std::rc::Rc::new(std::cell::RefCell::new(ClipCache {
        dir: clips::sounds_dir(config.clips.directory.as_deref()),
        language: language.clips.clone(),
        loaded: None,
    }));
    let mut voices = config.voices.clone();
    if text_fallback && !matches!(voices.last(), Some(VoiceName::Text | VoiceName::Null)) {
        voices.push(VoiceName::Text);
    }
    for name in voices {
        let cache = std::rc::Rc::clone(&cache);
        match name {
            VoiceName::SpeechDispatcher => {
                let settings = config.speech_dispatcher.clone();
                let code = language.synthesizer.clone();
                let spoken = language.spoken.clone();
                chain.push(name.as_str(), move || {
                    let clips = cache.borrow_mut().get().ok();
                    dispatcher::DispatcherVoice::open(&settings, &code, spoken.clone(), clips)
                        .map(|v| Box::new(v) as Box<dyn Voice>)
                });
            }
            VoiceName::Clips => {
                let volume = config.clips.volume;
                chain.push(name.as_str(), move || {
                    let clips = cache.borrow_mut().get()?;
                    clips::ClipVoice::open(clips, volume).map(|v| Box::new(v) as Box<dyn Voice>)
                });
            }
            VoiceName::File => {
                let dir = config.file.directory.clone();
                chain.push(name.as_str(), move || {
                    let clips = cache.borrow_mut().get()?;
                    clips::FileVoice::open(clips, &dir).map(|v| Box::new(v) as Box<dyn Voice>)
                });
            }
            VoiceName::Text => chain.push(name.as_str(), || {
                Ok(Box::new(TextVoice::stdout()) as Box<dyn Voice>)
            }),
            VoiceName::Null => {
                chain.push(name.as_str(), || Ok(Box::new(NullVoice) as Box<dyn Voice>))
            }
        }
    }
    chain
}
