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
pub mod guard;
pub mod noise;
pub mod queue;
pub mod speaker;
pub mod utterance;
pub mod voice;
pub mod warnings;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;

pub use chain::Chain;
pub use clips::ClipSet;
pub use dispatcher::DispatcherSettings;
pub use speaker::{READY_WITHIN, Report, Speaker};
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
    /// How long a voice may take to begin to sound (and to answer any call)
    /// before it has failed for the utterance and the next voice says it.
    #[serde(deserialize_with = "crate::text::bounded::u64_in::<_, 50, 10_000>")]
    pub start_within_ms: u64,
    /// How long a voice may take to open (speech-dispatcher started on
    /// demand, a named voice looked up) before it is abandoned as hanging
    /// and tried again later; meanwhile the next voice speaks.
    #[serde(deserialize_with = "crate::text::bounded::u64_in::<_, 1_000, 600_000>")]
    pub open_within_ms: u64,
    pub speech_dispatcher: DispatcherSettings,
    pub clips: ClipsConfig,
    pub file: FileConfig,
}

impl Default for SpeechConfig {
    fn default() -> Self {
        SpeechConfig {
            // The clips first: they say the FIDE words as the dictionaries
            // do (Rochade, Schachmatt, en passant), which espeak-ng behind
            // speech-dispatcher cannot be made to; what they have no clip
            // for, speech-dispatcher says.
            voices: vec![
                VoiceName::Clips,
                VoiceName::SpeechDispatcher,
                VoiceName::Text,
            ],
            muted: false,
            start_within_ms: chain::START_BOUND.as_millis() as u64,
            open_within_ms: chain::OPEN_DEADLINE.as_millis() as u64,
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
    #[serde(deserialize_with = "crate::text::bounded::fraction")]
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
/// speech-dispatcher (earcons) voices, each on its own worker thread.
struct ClipCache {
    dir: PathBuf,
    language: String,
    loaded: Option<Result<Arc<ClipSet>, clips::ClipError>>,
}

impl ClipCache {
    fn get(cache: &Mutex<ClipCache>) -> Result<Arc<ClipSet>, VoiceError> {
        let mut guard = cache
            .lock()
            .map_err(|_| VoiceError::Broken("clip set: a voice failed while loading it".into()))?;
        let ClipCache {
            dir,
            language,
            loaded,
        } = &mut *guard;
        loaded
            .get_or_insert_with(|| ClipSet::load(dir, language).map(Arc::new))
            .clone()
            .map_err(|e| VoiceError::Broken(format!("clip set: {e}")))
    }
}

/// Where the `text` voice's words go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOutput {
    /// Printed on standard output.
    Stdout,
    /// The caller prints every event already (`demo`, `play`): the printed
    /// line is the text voice's announcement, and it prints nothing more.
    PrintedByCaller,
}

/// Builds the configured chain. When muted, the chain is the null voice
/// alone. Otherwise a `text` voice is always last unless the chain already
/// ends in `text` or `null`, so that no word is ever lost.
pub fn build_chain(config: &SpeechConfig, language: &VoiceLanguage, text: TextOutput) -> Chain {
    let mut chain = Chain::new()
        .with_start_bound(Duration::from_millis(config.start_within_ms))
        .with_open_deadline(Duration::from_millis(config.open_within_ms));
    if config.muted {
        chain.push_voice(Box::new(NullVoice));
        return chain;
    }
    let cache = Arc::new(Mutex::new(ClipCache {
        dir: clips::sounds_dir(config.clips.directory.as_deref()),
        language: language.clips.clone(),
        loaded: None,
    }));
    let mut voices = config.voices.clone();
    if !matches!(voices.last(), Some(VoiceName::Text | VoiceName::Null)) {
        voices.push(VoiceName::Text);
    }
    // A language without a clip set (none is shipped but `fide`'s) is
    // spoken by speech-dispatcher whole: the clips, first by default, stand
    // aside without a word, unless no synthesizer follows them. `fide`'s
    // are shipped: if they are not found, that is told.
    let no_set = cache.lock().is_ok_and(|c| {
        c.language != clips::SHIPPED && !c.dir.join(&c.language).join(clips::MANIFEST).exists()
    });
    if no_set && voices.contains(&VoiceName::SpeechDispatcher) {
        voices.retain(|v| *v != VoiceName::Clips);
    }
    for name in voices {
        let cache = Arc::clone(&cache);
        match name {
            VoiceName::SpeechDispatcher => {
                let settings = config.speech_dispatcher.clone();
                let code = language.synthesizer.clone();
                let spoken = language.spoken.clone();
                chain.push(name.as_str(), move || {
                    let clips = ClipCache::get(&cache).ok();
                    dispatcher::DispatcherVoice::open(&settings, &code, spoken.clone(), clips)
                        .map(|v| Box::new(v) as Box<dyn Voice>)
                });
            }
            VoiceName::Clips => {
                let volume = config.clips.volume;
                chain.push(name.as_str(), move || {
                    let clips = ClipCache::get(&cache)?;
                    clips::ClipVoice::open(clips, volume).map(|v| Box::new(v) as Box<dyn Voice>)
                });
            }
            VoiceName::File => {
                let dir = config.file.directory.clone();
                chain.push(name.as_str(), move || {
                    let clips = ClipCache::get(&cache)?;
                    clips::FileVoice::open(clips, &dir).map(|v| Box::new(v) as Box<dyn Voice>)
                });
            }
            VoiceName::Text => chain.push(name.as_str(), move || {
                Ok(Box::new(match text {
                    TextOutput::Stdout => TextVoice::stdout(),
                    TextOutput::PrintedByCaller => TextVoice::to(Box::new(std::io::sink())),
                }) as Box<dyn Voice>)
            }),
            VoiceName::Null => {
                chain.push(name.as_str(), || Ok(Box::new(NullVoice) as Box<dyn Voice>))
            }
        }
    }
    chain
}
