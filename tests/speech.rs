//! The speech output without a sound card: the clip set, the file voice,
//! the speaker thread's reports and its fallback when a voice fails.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use pegboard::announce::{Phrasebook, Vocabulary};
use pegboard::core::{BLIND_BOARD, Settings};
use pegboard::runtime::replay::{Until, replay};
use pegboard::speech::clips::{ClipSet, FileVoice, Token, tokens};
use pegboard::speech::voice::Progress;
use pegboard::speech::{
    Chain, Delivery, EarconSwitches, Kind, Report, Speaker, Utterance, Voice, VoiceError,
};
use pegboard::trace;

fn sounds() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sounds")
}

fn clips() -> Arc<ClipSet> {
    Arc::new(ClipSet::load(&sounds(), "fide").unwrap_or_else(|e| panic!("{e}")))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pegboard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A speaker thread whose chain is `voices`, made on it, in order; its
/// reports to read.
fn speaker_of(
    voices: impl FnOnce() -> Vec<Box<dyn Voice>> + Send + 'static,
) -> (Speaker, crossbeam_channel::Receiver<Report>) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let speaker = Speaker::spawn(
        move || {
            let mut chain = Chain::new();
            for voice in voices() {
                chain.push_voice(voice);
            }
            chain
        },
        tx,
    );
    (speaker, rx)
}

#[test]
fn the_shipped_clip_set_covers_every_word_of_the_fide_vocabulary() {
    let set = clips();
    let words = Vocabulary::fide();
    // Every value in the language file, placeholders removed; not the
    // [spoken] forms, which are what a clip says, not words it is for.
    let text = pegboard::announce::vocabulary::FIDE;
    let table: toml::Table = toml::from_str(text).expect("fide.toml");
    let mut missing = Vec::new();
    let mut stack: Vec<(String, toml::Value)> = table
        .into_iter()
        // The pages' tables are never spoken; [spoken] and [phonemes] say
        // how words are said.
        .filter(|(k, _)| {
            !["language", "spoken", "phonemes", "written"].contains(&k.as_str())
                && !pegboard::announce::vocabulary::PAGE_TABLES.contains(&k.as_str())
        })
        .collect();
    while let Some((key, value)) = stack.pop() {
        match value {
            toml::Value::Table(t) => {
                stack.extend(t.into_iter().map(|(k, v)| (format!("{key}.{k}"), v)))
            }
            toml::Value::String(s) => {
                let cleaned: String = s
                    .split('{')
                    .map(|part| part.split_once('}').map_or(part, |(_, rest)| rest))
                    .collect::<Vec<_>>()
                    .join(" ");
                for token in tokens(&cleaned) {
                    if let Token::Word(w) = token
                        && !set.has_word(&w)
                    {
                        missing.push(format!("{key}: {w}"));
                    }
                }
            }
            _ => {}
        }
    }
    for n in 0..=100 {
        if !set.has_word(&n.to_string()) {
            missing.push(format!("number {n}"));
        }
    }
    assert!(missing.is_empty(), "words without a clip: {missing:?}");
    assert_eq!(words.language.synthesizer, "de");
}

#[test]
fn the_file_voice_writes_each_utterance_with_its_earcon_and_words() {
    let set = clips();
    let dir = temp("file-voice");
    let mut voice = FileVoice::open(Arc::clone(&set), &dir).expect("file voice");
    let u = Utterance::words(Kind::Move, "Springer Felix drei");
    voice.start(&u).expect("says it");
    let with_earcon = Utterance {
        earcon: Some(pegboard::speech::Earcon::Illegal),
        ..u.clone()
    };
    voice.start(&with_earcon).expect("says it");
    assert_eq!(voice.progress(), Progress::Finished);
    let plain = hound::WavReader::open(dir.join("0001.wav"))
        .expect("wav")
        .duration();
    let earcon = hound::WavReader::open(dir.join("0002.wav"))
        .expect("wav")
        .duration();
    let expected = set.render(&u).expect("renders").len() as u32;
    assert_eq!(plain, expected, "the WAV holds exactly the rendered clips");
    assert!(
        earcon > plain + set.sample_rate.get() / 10,
        "the earcon comes first"
    );
    let index = std::fs::read_to_string(dir.join("utterances.tsv")).expect("index");
    assert_eq!(
        index,
        "0001.wav\tSpringer Felix drei\n0002.wav\tSpringer Felix drei\n"
    );
    // A word without a clip: this voice cannot say it, the chain moves on.
    let err = voice
        .start(&Utterance::words(Kind::Answer, "Quatsch"))
        .unwrap_err();
    assert!(
        matches!(err, VoiceError::CannotSay(ref w) if w.contains("quatsch")),
        "{err}"
    );
    // A second run into the same folder goes on numbering: the first
    // run's files stay, and utterances.tsv stays true.
    let before = std::fs::read(dir.join("0001.wav")).expect("wav");
    let mut again = FileVoice::open(Arc::clone(&set), &dir).expect("file voice");
    again
        .start(&Utterance::words(Kind::Move, "Dame Eva fünf"))
        .expect("says it");
    assert_eq!(std::fs::read(dir.join("0001.wav")).expect("wav"), before);
    let index = std::fs::read_to_string(dir.join("utterances.tsv")).expect("index");
    assert_eq!(
        index,
        "0001.wav\tSpringer Felix drei\n0002.wav\tSpringer Felix drei\n0003.wav\tDame Eva fünf\n"
    );
    assert!(dir.join("0003.wav").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn style_changes_the_spoken_length() {
    let set = clips();
    let words = Phrasebook::default();
    let long = Phrasebook::default().with_styles(pegboard::announce::phrases::Styles::both(
        pegboard::announce::phrases::Style::Long,
    ));
    let short_text = pegboard::announce::phrases::announce_uci(&words, None, "g1f3").expect("move");
    let long_text = pegboard::announce::phrases::announce_uci(&long, None, "g1f3").expect("move");
    let len = |t: &str| set.duration(&set.render(&Utterance::words(Kind::Move, t)).expect("clips"));
    assert!(len(&long_text) > len(&short_text) + Duration::from_millis(500));
}

/// A voice that breaks on its first utterance.
struct Breaks;

impl Voice for Breaks {
    fn name(&self) -> &'static str {
        "speech-dispatcher"
    }
    fn start(&mut self, _: &Utterance) -> Result<(), VoiceError> {
        Err(VoiceError::Broken("connection lost".into()))
    }
    fn reports_start(&self) -> bool {
        true
    }
}

#[test]
fn a_voice_failing_mid_game_loses_no_move_and_every_move_is_reported_announced() {
    // 1. e4 e5 2. Nf3 through the controller; the events go to a speaker
    // whose first voice breaks; the file voice takes over.
    let entries = trace::read(
        &br#"{"t":100,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1100,"place":"e5"}
{"t":2000,"lift":"g1"}
{"t":2100,"place":"f3"}"#[..],
        "t",
    )
    .expect("trace");
    let events = replay(
        &entries,
        "t",
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replay");
    let dir = temp("speaker");
    let out = dir.clone();
    let set = clips();
    let (speaker, rx) = speaker_of(move || {
        vec![
            Box::new(Breaks),
            Box::new(FileVoice::open(set, &out).expect("file voice")),
        ]
    });
    let delivery = Delivery {
        earcons: EarconSwitches::all_off(),
        warning_volume: 100,
    };
    // Only the moves are said: whether a greeting queued before them is
    // still spoken or already overtaken depends on how soon the speaker's
    // thread is ready, and this test is about the moves. So the first move
    // is what meets the broken voice.
    for e in &events {
        if let Some(u) = Utterance::of(e, &delivery).filter(|u| u.kind == Kind::Move) {
            speaker.say(u);
        }
    }
    assert!(speaker.wait_idle(Duration::from_secs(10)));
    speaker.quit();
    let reports: Vec<Report> = rx.try_iter().collect();
    let announced: Vec<(u32, &str)> = reports
        .iter()
        .filter_map(|r| match r {
            Report::Started {
                ply: Some(p),
                voice,
                ..
            } => Some((*p, *voice)),
            _ => None,
        })
        .collect();
    assert_eq!(announced, [(1, "file"), (2, "file"), (3, "file")]);
    let failures = reports
        .iter()
        .filter(|r| matches!(r, Report::VoiceFailed(f) if f.voice == "speech-dispatcher"))
        .count();
    assert_eq!(
        failures, 1,
        "the broken voice is reported once, then left alone"
    );
    let index = std::fs::read_to_string(dir.join("utterances.tsv")).expect("index");
    assert_eq!(
        index,
        "0001.wav\tBauer Eva vier\n0002.wav\tBauer Eva fünf\n0003.wav\tSpringer Felix drei\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn peak(path: &std::path::Path) -> i32 {
    hound::WavReader::open(path)
        .expect("wav")
        .samples::<i16>()
        .map(|s| i32::from(s.expect("sample")).abs())
        .max()
        .unwrap_or(0)
}

#[test]
fn art_12_6_clock_warnings_are_spoken_at_their_own_lower_volume() {
    // A low-time warning from a replayed clock, then the same words as an
    // answer, both through the file voice.
    let entries =
        trace::read(&br#"{"t":0,"trace":1,"time_control":"90"}"#[..], "warning").expect("trace");
    let events = replay(
        &entries,
        "warning",
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replay");
    let warning = events
        .iter()
        .find(|e| e.event.name() == "time_warning")
        .expect("a warning at one minute");
    let delivery = Delivery {
        earcons: EarconSwitches::all_off(),
        warning_volume: 50,
    };
    let quiet = Utterance::of(warning, &delivery).expect("spoken");
    assert_eq!(quiet.kind, Kind::Time);
    assert_eq!(quiet.text, "Weiß noch eine Minute.");
    assert_eq!(quiet.volume, 50);
    let loud = Utterance::words(Kind::Answer, quiet.text.clone());
    let dir = temp("warning-volume");
    let mut voice = FileVoice::open(clips(), &dir).expect("file voice");
    voice.start(&loud).expect("says it");
    voice.start(&quiet).expect("says it");
    let (full, half) = (peak(&dir.join("0001.wav")), peak(&dir.join("0002.wav")));
    assert!(full > 3000, "the words are audible: {full}");
    assert!(
        (half - full / 2).abs() <= full / 50 + 1,
        "{half} ≈ {full} / 2"
    );
    // A fallen flag is game talk with its own earcon.
    let flag = events
        .iter()
        .find(|e| e.event.name() == "flag")
        .expect("the flag falls");
    let u = Utterance::of(flag, &Delivery::default()).expect("spoken");
    assert_eq!(
        (u.kind, u.earcon),
        (Kind::Game, Some(pegboard::speech::Earcon::Flag))
    );
}

#[test]
fn the_clips_first_leave_what_they_lack_to_the_next_voice_and_name_each_word_once() {
    // The default order puts the clips first: words without a clip (an
    // opening's code, a name) go to the next voice, and that the clips lack
    // some words is told once, however often they speak between.
    let dir = temp("clips-first");
    let out = dir.clone();
    let set = clips();
    let (speaker, rx) = speaker_of(move || {
        vec![
            Box::new(FileVoice::open(set, &out).expect("file voice")),
            Box::new(pegboard::speech::TextVoice::to(Box::new(std::io::sink()))),
        ]
    });
    for text in [
        "Kurze Rochade",
        "Sizilianische Verteidigung, B50.",
        "Springer Felix drei",
        "Eröffnung B07.",
        "Lange Rochade",
        "Sizilianische Verteidigung, B50.",
    ] {
        speaker.say(Utterance::words(Kind::Game, text));
    }
    assert!(speaker.wait_idle(Duration::from_secs(10)));
    speaker.quit();
    let reports: Vec<Report> = rx.try_iter().collect();
    let voices: Vec<&str> = reports
        .iter()
        .filter_map(|r| match r {
            Report::Started { voice, .. } => Some(*voice),
            _ => None,
        })
        .collect();
    assert_eq!(voices, ["file", "text", "file", "text", "file", "text"]);
    let told: Vec<String> = reports
        .iter()
        .filter_map(|r| match r {
            Report::VoiceFailed(f) => Some(format!("{}: {}", f.voice, f.error)),
            _ => None,
        })
        .collect();
    // Each word they lack named once, however often it comes.
    assert_eq!(
        told,
        [
            "file: cannot say this: no clip for \"b50\"",
            "file: cannot say this: no clip for \"b07\""
        ],
        "{reports:?}"
    );
    let index = std::fs::read_to_string(dir.join("utterances.tsv")).expect("index");
    assert_eq!(
        index,
        "0001.wav\tKurze Rochade\n0002.wav\tSpringer Felix drei\n0003.wav\tLange Rochade\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_language_without_a_clip_set_is_spoken_by_speech_dispatcher_whole_but_fides_missing_clips_are_told()
 {
    use pegboard::speech::{SpeechConfig, TextOutput, VoiceLanguage, VoiceName, build_chain};
    let config = |voices: Vec<VoiceName>| SpeechConfig {
        voices,
        clips: pegboard::speech::ClipsConfig {
            directory: Some(sounds()),
            volume: 1.0,
        },
        ..SpeechConfig::default()
    };
    let language = |clips: &str| VoiceLanguage {
        clips: clips.into(),
        synthesizer: "de".into(),
        spoken: Default::default(),
    };
    let names = |voices: Vec<VoiceName>, clips: &str| {
        build_chain(
            &config(voices),
            &language(clips),
            TextOutput::PrintedByCaller,
        )
        .names()
    };
    let default = SpeechConfig::default().voices;
    // fide has its clips (shipped), first by default.
    assert_eq!(
        names(default.clone(), "fide"),
        ["clips", "speech-dispatcher", "text"]
    );
    // en has none: the clips stand aside.
    assert_eq!(names(default.clone(), "en"), ["speech-dispatcher", "text"]);
    // fide's are shipped: not found (a wrong folder), they stay, and their
    // failure will be told.
    let nowhere = temp("no-clips");
    let missing = SpeechConfig {
        voices: default,
        clips: pegboard::speech::ClipsConfig {
            directory: Some(nowhere),
            volume: 1.0,
        },
        ..SpeechConfig::default()
    };
    assert_eq!(
        build_chain(&missing, &language("fide"), TextOutput::PrintedByCaller).names(),
        ["clips", "speech-dispatcher", "text"]
    );
    // Asked for alone, they stay, and their failure will be told.
    assert_eq!(
        names(vec![VoiceName::Clips, VoiceName::Text], "en"),
        ["clips", "text"]
    );
}
