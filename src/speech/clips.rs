//! Recorded word clips: phrases put together from one clip per word, played
//! gaplessly through rodio (the `clips` voice) or written as a WAV file (the
//! `file` voice).
//!
//! A clip set is a folder `sounds/<language>/` with a `manifest.toml` that
//! maps each word (lowercase) to a sound file in that folder:
//!
//! ```toml
//! [words]
//! anna = "anna.flac"
//! "schlägt" = "schlaegt.flac"
//! ```
//!
//! Earcons are `sounds/earcons/<name>.wav`. All clips and earcons of a set
//! must have the same sample rate and channel count.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rodio::Source;
use serde::Deserialize;

use super::utterance::{Earcon, Utterance};
use super::voice::{Progress, Voice, VoiceError};

/// Silence between two words, after a comma, and after a full stop.
const WORD_GAP_MS: u32 = 30;
const COMMA_MS: u32 = 150;
const STOP_MS: u32 = 280;
/// Silence between an earcon and the first word.
const EARCON_GAP_MS: u32 = 60;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    words: HashMap<String, String>,
}

/// Decoded clips, ready to be put together.
#[derive(Debug, Clone)]
pub struct ClipSet {
    pub sample_rate: rodio::SampleRate,
    pub channels: rodio::ChannelCount,
    words: HashMap<String, Arc<[f32]>>,
    earcons: HashMap<Earcon, Arc<[f32]>>,
}

/// A piece of text as the clip voice sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A word, lowercased: the manifest key.
    Word(String),
    /// Silence after punctuation, in milliseconds.
    Pause(u32),
}

/// Splits text into words (lowercased) and the pauses punctuation makes.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if !word.is_empty() {
            out.push(Token::Word(word.to_lowercase()));
            word.clear();
        }
    };
    for c in text.chars() {
        if c.is_alphanumeric() || matches!(c, '-' | '\'' | '·') {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out);
        match c {
            ',' => out.push(Token::Pause(COMMA_MS)),
            '.' | ':' | ';' | '!' | '?' => out.push(Token::Pause(STOP_MS)),
            _ => {}
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Why a clip set cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClipError {
    /// The manifest is missing or malformed.
    Manifest { path: PathBuf, why: String },
    /// A clip is missing or not a sound file.
    Clip { path: PathBuf, why: String },
    /// A clip's sample rate or channels differ from the set's first clip.
    Mismatch {
        path: PathBuf,
        found: (u32, u16),
        first: PathBuf,
        expected: (u32, u16),
    },
    /// The manifest names no clip.
    Empty { path: PathBuf },
}

impl std::fmt::Display for ClipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClipError::Manifest { path, why } | ClipError::Clip { path, why } => {
                write!(f, "{}: {why}", path.display())
            }
            ClipError::Mismatch {
                path,
                found,
                first,
                expected,
            } => write!(
                f,
                "{}: {} Hz, {} channel(s), but {} is {} Hz, {} channel(s); all clips of a set \
                 must match",
                path.display(),
                found.0,
                found.1,
                first.display(),
                expected.0,
                expected.1
            ),
            ClipError::Empty { path } => write!(f, "{}: no clips", path.display()),
        }
    }
}

impl std::error::Error for ClipError {}

fn decode(path: &Path) -> Result<(rodio::SampleRate, rodio::ChannelCount, Vec<f32>), ClipError> {
    let clip = |why: String| ClipError::Clip {
        path: path.to_path_buf(),
        why,
    };
    let file = File::open(path).map_err(|e| clip(e.to_string()))?;
    let decoder = rodio::Decoder::new(BufReader::new(file))
        .map_err(|e| clip(format!("not a sound file rodio can read: {e}")))?;
    let rate = decoder.sample_rate();
    let channels = decoder.channels();
    Ok((rate, channels, decoder.collect()))
}

/// The file of a clip set that names its words' clips.
pub const MANIFEST: &str = "manifest.toml";

/// The language whose clip set ships with pegboard.
pub const SHIPPED: &str = "fide";

impl ClipSet {
    /// Loads `dir/<language>/manifest.toml`, every clip it names, and the
    /// earcons in `dir/earcons/`. Errors name the file.
    pub fn load(dir: &Path, language: &str) -> Result<ClipSet, ClipError> {
        let folder = dir.join(language);
        let manifest_path = folder.join(MANIFEST);
        let manifest_error = |why: String| ClipError::Manifest {
            path: manifest_path.clone(),
            why,
        };
        let text =
            std::fs::read_to_string(&manifest_path).map_err(|e| manifest_error(e.to_string()))?;
        let manifest: Manifest =
            toml::from_str(&text).map_err(|e| manifest_error(e.to_string().trim_end().into()))?;
        let mut format: Option<(rodio::SampleRate, rodio::ChannelCount, PathBuf)> = None;
        let mut check = |rate: rodio::SampleRate,
                         channels: rodio::ChannelCount,
                         path: &Path|
         -> Result<(), ClipError> {
            match &format {
                None => {
                    format = Some((rate, channels, path.to_path_buf()));
                    Ok(())
                }
                Some((r, c, first)) if (*r, *c) != (rate, channels) => Err(ClipError::Mismatch {
                    path: path.to_path_buf(),
                    found: (rate.get(), channels.get()),
                    first: first.clone(),
                    expected: (r.get(), c.get()),
                }),
                Some(_) => Ok(()),
            }
        };
        let mut words = HashMap::new();
        let mut names: Vec<_> = manifest.words.into_iter().collect();
        names.sort();
        for (word, file) in names {
            let path = folder.join(&file);
            let (rate, channels, samples) = decode(&path)?;
            check(rate, channels, &path)?;
            words.insert(word.to_lowercase(), Arc::from(samples));
        }
        let mut earcons = HashMap::new();
        for e in Earcon::ALL {
            let path = dir.join("earcons").join(format!("{}.wav", e.name()));
            let (rate, channels, samples) = decode(&path)?;
            check(rate, channels, &path)?;
            earcons.insert(e, Arc::from(samples));
        }
        let (sample_rate, channels) =
            format
                .map(|(r, c, _)| (r, c))
                .ok_or_else(|| ClipError::Empty {
                    path: manifest_path.clone(),
                })?;
        Ok(ClipSet {
            sample_rate,
            channels,
            words,
            earcons,
        })
    }

    pub fn has_word(&self, word: &str) -> bool {
        self.words.contains_key(word)
    }

    fn silence(&self, ms: u32, out: &mut Vec<f32>) {
        let n = (self.sample_rate.get() as u64 * ms as u64 / 1000) as usize
            * self.channels.get() as usize;
        out.resize(out.len() + n, 0.0);
    }

    /// The samples of `u`: its earcon, then its words with their pauses.
    /// A word without a clip means this set cannot say `u`.
    pub fn render(&self, u: &Utterance) -> Result<Vec<f32>, VoiceError> {
        let mut out = Vec::new();
        if let Some(e) = u.earcon
            && let Some(samples) = self.earcons.get(&e)
        {
            out.extend_from_slice(samples);
            if !u.text.is_empty() {
                self.silence(EARCON_GAP_MS, &mut out);
            }
        }
        let mut pending_pause = 0;
        let mut first = true;
        for token in tokens(&u.text) {
            match token {
                Token::Pause(ms) => pending_pause = pending_pause.max(ms),
                Token::Word(w) => {
                    let clip = self
                        .words
                        .get(&w)
                        .ok_or_else(|| VoiceError::CannotSay(format!("no clip for \"{w}\"")))?;
                    if !first {
                        self.silence(pending_pause.max(WORD_GAP_MS), &mut out);
                    }
                    out.extend_from_slice(clip);
                    pending_pause = 0;
                    first = false;
                }
            }
        }
        if u.volume < 100 {
            let gain = u.gain();
            out.iter_mut().for_each(|s| *s *= gain);
        }
        Ok(out)
    }

    /// How long `samples` last.
    pub fn duration(&self, samples: &[f32]) -> Duration {
        let frames = samples.len() as f64 / self.channels.get() as f64;
        Duration::from_secs_f64(frames / self.sample_rate.get() as f64)
    }

    /// `samples` (from [`ClipSet::render`]) as a source rodio can play.
    pub fn buffer(&self, samples: Vec<f32>) -> rodio::buffer::SamplesBuffer {
        rodio::buffer::SamplesBuffer::new(self.channels, self.sample_rate, samples)
    }
}

/// The places the sounds are looked for, when no folder is configured,
/// in order: beside where pegboard is run, where `hardware/install.sh`
/// installs them, and where a distribution package would. Then
/// [`sounds_dir`] looks beside the program itself, so that it finds its
/// sounds from any folder: `<prefix>/bin/pegboard` finds
/// `<prefix>/share/pegboard/sounds`, and a program built in its source
/// folder (anywhere under its `target/`: `target/release/pegboard`, or
/// `target/aarch64-unknown-linux-gnu/release/pegboard` when built for
/// another machine) finds that folder's `sounds`. A program copied
/// elsewhere without its sounds finds none, and says so.
pub const SOUNDS_SEARCHED: [&str; 3] = [
    "sounds",
    "/usr/local/share/pegboard/sounds",
    "/usr/share/pegboard/sounds",
];

/// The place beside the program looked for after [`SOUNDS_SEARCHED`],
/// from the folder the program is in.
pub const SOUNDS_BESIDE: &str = "../share/pegboard/sounds";

/// The sounds of the source folder a program in `bin` was built in: the
/// folder holding the nearest `target` above it, if there is one.
fn source_sounds(bin: &Path) -> Option<PathBuf> {
    bin.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "target"))?
        .parent()
        .map(|source| source.join("sounds"))
}

/// Where the sounds are: the configured folder, or the first that exists
/// of [`SOUNDS_SEARCHED`], [`SOUNDS_BESIDE`] and the source folder's; the
/// first, if none does (opening the clips there then fails with a message
/// naming it).
pub fn sounds_dir(configured: Option<&Path>) -> PathBuf {
    let bin = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf));
    let mut beside: Vec<PathBuf> = Vec::new();
    if let Some(bin) = &bin {
        beside.push(bin.join(SOUNDS_BESIDE));
        beside.extend(source_sounds(bin));
    }
    let mut searched: Vec<&Path> = SOUNDS_SEARCHED.iter().map(Path::new).collect();
    searched.extend(beside.iter().map(PathBuf::as_path));
    sounds_dir_among(configured, &searched)
}

/// [`sounds_dir`] over the places `searched`.
fn sounds_dir_among(configured: Option<&Path>, searched: &[&Path]) -> PathBuf {
    if let Some(dir) = configured {
        return dir.to_path_buf();
    }
    searched
        .iter()
        .find(|d| d.is_dir())
        .or(searched.first())
        .map_or_else(PathBuf::new, |d| d.to_path_buf())
}

/// Frames per audio callback: 256 frames is under 6 ms at 44.1 kHz, so a
/// new phrase reaches the output within one short period.
pub const OUTPUT_FRAMES: u32 = 256;

/// Opens the default audio output with a short buffer, or with the
/// device's own buffer if it refuses a short one.
///
/// ALSA's library prints its complaints (dozens of `ALSA lib conf.c:…`
/// lines on a machine without a sound card) straight onto standard error.
/// They are caught on this thread instead, and the last one is named in the
/// error if no output opens. libjack's lines are caught as well.
pub(crate) fn open_output() -> Result<rodio::MixerDeviceSink, String> {
    let alsa_said = alsa_messages();
    // libjack's lines (ALSA's JACK plugin, on a machine without a JACK
    // server) are caught too; see `noise`.
    let (opened, jack) = super::noise::catching(|| {
        rodio::DeviceSinkBuilder::from_default_device()
            .map(|b| b.with_buffer_size(cpal::BufferSize::Fixed(OUTPUT_FRAMES)))
            .and_then(|b| b.open_stream())
            .or_else(|_| rodio::DeviceSinkBuilder::open_default_sink())
    });
    let mut sink =
        opened.map_err(
            |e| match (alsa_said.as_ref().and_then(last_line), jack.last()) {
                (Some(line), _) => format!("{e} (ALSA: {line})"),
                (None, Some(line)) => format!("{e} (JACK: {line})"),
                (None, None) => e.to_string(),
            },
        )?;
    sink.log_on_drop(false);
    prime(&sink);
    Ok(sink)
}

/// How long priming a new output may take.
pub const PRIME_WITHIN: Duration = Duration::from_secs(3);
/// A player whose first sample is taken within this is primed.
const PRIMED_WITHIN: Duration = Duration::from_millis(50);

/// Gets a new output going before it is used. The first sound given to a
/// fresh PulseAudio stream is taken late (a quarter of a second to nearly
/// two, measured on a null sink), and the words of the first move would
/// come that late. A short silence is played the way utterances are
/// (a new player), again and again, until one is taken at once.
fn prime(sink: &rodio::MixerDeviceSink) {
    let (Some(channels), Some(rate)) =
        (rodio::ChannelCount::new(1), rodio::SampleRate::new(48_000))
    else {
        return;
    };
    let deadline = Instant::now() + PRIME_WITHIN;
    while Instant::now() < deadline {
        let taken = Arc::new(Mutex::new(None));
        let player = rodio::Player::connect_new(sink.mixer());
        let given = Instant::now();
        player.append(FirstSample {
            inner: rodio::buffer::SamplesBuffer::new(channels, rate, vec![0.0; 48]),
            started: Arc::clone(&taken),
            seen: false,
        });
        while taken.lock().ok().is_some_and(|t| t.is_none()) {
            if Instant::now() > deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if given.elapsed() < PRIMED_WITHIN {
            return;
        }
    }
}

/// Sends ALSA's messages on this thread into a buffer, from now on.
#[cfg(target_os = "linux")]
fn alsa_messages() -> Option<std::rc::Rc<std::cell::RefCell<alsa::Output>>> {
    alsa::Output::local_error_handler().ok()
}

#[cfg(not(target_os = "linux"))]
fn alsa_messages() -> Option<std::rc::Rc<std::cell::RefCell<String>>> {
    None
}

/// The last message in the buffer, without ALSA's own prefix.
fn last_line(messages: &std::rc::Rc<std::cell::RefCell<impl std::fmt::Display>>) -> Option<String> {
    let text = messages.try_borrow().ok()?.to_string();
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
}

/// A source that notes the instant its first sample is taken by the audio
/// output: that is when the utterance starts playing.
struct FirstSample<S> {
    inner: S,
    started: Arc<Mutex<Option<Instant>>>,
    seen: bool,
}

impl<S: Source> Iterator for FirstSample<S> {
    type Item = rodio::Sample;

    fn next(&mut self) -> Option<Self::Item> {
        if !self.seen {
            self.seen = true;
            if let Ok(mut s) = self.started.lock() {
                *s = Some(Instant::now());
            }
        }
        self.inner.next()
    }
}

impl<S: Source> Source for FirstSample<S> {
    fn current_span_len(&self) -> Option<usize> {
        self.inner.current_span_len()
    }
    fn channels(&self) -> rodio::ChannelCount {
        self.inner.channels()
    }
    fn sample_rate(&self) -> rodio::SampleRate {
        self.inner.sample_rate()
    }
    fn total_duration(&self) -> Option<Duration> {
        self.inner.total_duration()
    }
}

/// Plays clip phrases on the default audio output (PulseAudio when a
/// server runs, else ALSA).
pub struct ClipVoice {
    clips: Arc<ClipSet>,
    // Keeps the audio stream open; dropped last.
    player: rodio::Player,
    sink: rodio::MixerDeviceSink,
    volume: f32,
    started: Arc<Mutex<Option<Instant>>>,
}

impl ClipVoice {
    pub fn open(clips: Arc<ClipSet>, volume: f32) -> Result<ClipVoice, VoiceError> {
        let sink =
            open_output().map_err(|e| VoiceError::Broken(format!("no audio output: {e}")))?;
        let player = rodio::Player::connect_new(sink.mixer());
        player.set_volume(volume);
        Ok(ClipVoice {
            clips,
            player,
            sink,
            volume,
            started: Arc::new(Mutex::new(None)),
        })
    }
}

impl Voice for ClipVoice {
    fn name(&self) -> &'static str {
        "clips"
    }

    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
        let samples = self.clips.render(u)?;
        // A fresh player per phrase: its first sample goes out on the next
        // audio callback, with nothing to resume.
        self.player.stop();
        self.player = rodio::Player::connect_new(self.sink.mixer());
        self.player.set_volume(self.volume);
        self.started = Arc::new(Mutex::new(None));
        self.player.append(FirstSample {
            inner: self.clips.buffer(samples),
            started: Arc::clone(&self.started),
            seen: false,
        });
        Ok(())
    }

    fn reports_start(&self) -> bool {
        true
    }

    fn progress(&mut self) -> Progress {
        let started = self.started.lock().ok().and_then(|s| *s);
        match (started, self.player.empty()) {
            (_, true) => Progress::Finished,
            (Some(at), false) => Progress::Speaking(at),
            (None, false) => Progress::Waiting,
        }
    }

    fn stop(&mut self) {
        self.player.clear();
    }
}

/// Writes each utterance as a WAV file (`0001.wav`, `0002.wav` …) in a
/// folder, and its text on a line of `utterances.tsv` there.
pub struct FileVoice {
    clips: Arc<ClipSet>,
    dir: PathBuf,
    count: u32,
}

impl FileVoice {
    /// Writes into `dir`. The numbering goes on after the highest
    /// `NNNN.wav` already there, so a second run adds files and rows to
    /// `utterances.tsv` instead of overwriting the first run's files.
    pub fn open(clips: Arc<ClipSet>, dir: &Path) -> Result<FileVoice, VoiceError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| VoiceError::Broken(format!("{}: {e}", dir.display())))?;
        let count = std::fs::read_dir(dir)
            .map_err(|e| VoiceError::Broken(format!("{}: {e}", dir.display())))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name();
                let stem = name.to_str()?.strip_suffix(".wav")?;
                stem.bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| stem.parse::<u32>().ok())
                    .flatten()
            })
            .max()
            .unwrap_or(0);
        Ok(FileVoice {
            clips,
            dir: dir.to_path_buf(),
            count,
        })
    }

    fn write(&self, path: &Path, samples: &[f32]) -> Result<(), String> {
        let spec = hound::WavSpec {
            channels: self.clips.channels.get(),
            sample_rate: self.clips.sample_rate.get(),
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut w = hound::WavWriter::create(path, spec).map_err(|e| e.to_string())?;
        for &s in samples {
            let v = (s.clamp(-1.0, 1.0) * i16::MAX as f32) as i16;
            w.write_sample(v).map_err(|e| e.to_string())?;
        }
        w.finalize().map_err(|e| e.to_string())
    }
}

impl Voice for FileVoice {
    fn name(&self) -> &'static str {
        "file"
    }

    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
        let samples = self.clips.render(u)?;
        let name = format!("{:04}.wav", self.count + 1);
        let path = self.dir.join(&name);
        self.write(&path, &samples)
            .map_err(|e| VoiceError::Broken(format!("{}: {e}", path.display())))?;
        let index = self.dir.join("utterances.tsv");
        let line = format!("{name}\t{}\n", u.text.replace(['\t', '\n'], " "));
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&index)
            .and_then(|mut f| std::io::Write::write_all(&mut f, line.as_bytes()))
            .map_err(|e| VoiceError::Broken(format!("{}: {e}", index.display())))?;
        self.count += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_lowercase_words_and_pauses() {
        assert_eq!(
            tokens("Turm Anna acht, Schach"),
            [
                Token::Word("turm".into()),
                Token::Word("anna".into()),
                Token::Word("acht".into()),
                Token::Pause(COMMA_MS),
                Token::Word("schach".into()),
            ]
        );
        assert_eq!(
            tokens("12. Weiß: xeque-mate"),
            [
                Token::Word("12".into()),
                Token::Pause(STOP_MS),
                Token::Word("weiß".into()),
                Token::Pause(STOP_MS),
                Token::Word("xeque-mate".into()),
            ]
        );
    }
    #[test]
    fn sounds_are_looked_for_in_the_configured_folder_else_the_first_searched_that_exists() {
        let root = std::env::temp_dir().join(format!("pegboard-sounds-{}", std::process::id()));
        let (here, local, system) = (root.join("sounds"), root.join("local"), root.join("usr"));
        let searched = [here.as_path(), local.as_path(), system.as_path()];
        let _ = std::fs::remove_dir_all(&root);
        // None exists: the first, whose opening then fails naming it.
        assert_eq!(sounds_dir_among(None, &searched), here);
        std::fs::create_dir_all(&system).expect("dir");
        assert_eq!(sounds_dir_among(None, &searched), system);
        std::fs::create_dir_all(&local).expect("dir");
        assert_eq!(sounds_dir_among(None, &searched), local);
        std::fs::create_dir_all(&here).expect("dir");
        assert_eq!(sounds_dir_among(None, &searched), here);
        // A configured folder is taken as it is, existing or not.
        let mine = root.join("mine");
        assert_eq!(sounds_dir_among(Some(&mine), &searched), mine);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_program_built_in_its_source_folder_finds_that_folders_sounds() {
        for bin in [
            "/src/pegboard/target/release",
            "/src/pegboard/target/debug",
            "/src/pegboard/target/aarch64-unknown-linux-gnu/release",
        ] {
            assert_eq!(
                source_sounds(Path::new(bin)),
                Some(PathBuf::from("/src/pegboard/sounds")),
                "{bin}"
            );
        }
        assert_eq!(source_sounds(Path::new("/usr/local/bin")), None);
    }
}
