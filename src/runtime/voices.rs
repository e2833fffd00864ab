//! The voices of a run: the speaker thread started from the
//! configuration, events handed to it as utterances, and its reports turned
//! into what they mean for the game. A move's announcement that has begun
//! is the `announced` input (E2.3c); that conversion is written here once.

use std::time::Duration;

use crossbeam_channel::Receiver;

use crate::announce::Phrasebook;
use crate::config::Config;
use crate::core::{Input, Stamped};
use crate::runtime::parts;
use crate::speech::{
    Delivery, Kind, READY_WITHIN, Report, Speaker, SpeechConfig, TextOutput, Utterance,
    VoiceLanguage, build_chain,
};

/// How long the last words may go on when a run ends (the service stops
/// within 2 s of SIGTERM).
pub const FINAL_WORDS_WITHIN: Duration = Duration::from_millis(1500);

/// What a run speaks with.
#[derive(Debug, Clone)]
pub struct SpeechSetup {
    pub config: SpeechConfig,
    pub language: VoiceLanguage,
    pub delivery: Delivery,
}

impl SpeechSetup {
    /// The voices the configuration names, in its language.
    pub fn of(config: &Config, words: &Phrasebook) -> SpeechSetup {
        SpeechSetup {
            config: config.speech.clone(),
            language: parts::voice_language(config, words),
            delivery: parts::delivery(config),
        }
    }

    /// Starts the speaker thread on these voices, and waits (at most
    /// [`READY_WITHIN`]) for them to open. The caller prints every line: the
    /// printed line is the text voice's announcement.
    pub fn spawn(self) -> Voices {
        let voices = self.spawn_in_background();
        voices.speaker.wait_ready(READY_WITHIN);
        voices
    }

    /// Starts the speaker thread on these voices without waiting for them
    /// to open (a running game's scan loop must not wait): the first words
    /// wait for their voice as any words do, at most the start bound.
    pub fn spawn_in_background(self) -> Voices {
        let (speaker, reports) = start(self.config, self.language, TextOutput::PrintedByCaller);
        Voices {
            speaker,
            reports,
            delivery: self.delivery,
        }
    }
}

/// Starts the speaker thread on these voices (they open on it).
fn start(
    speech: SpeechConfig,
    language: VoiceLanguage,
    text: TextOutput,
) -> (Speaker, Receiver<Report>) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let speaker = Speaker::spawn(move || build_chain(&speech, &language, text), tx);
    (speaker, rx)
}

/// A run's speaker, its reports, and how events become utterances.
pub struct Voices {
    speaker: Speaker,
    reports: Receiver<Report>,
    delivery: Delivery,
}

impl Voices {
    /// Says what the event gives the speech output, if anything.
    pub fn say(&self, e: &Stamped) {
        if let Some(u) = Utterance::of(e, &self.delivery) {
            self.speaker.say(u);
        }
    }

    /// Says `text` as an answer, outside the event stream (the console's
    /// secret: no event, log or journal may hold it).
    pub fn say_words(&self, text: &str) {
        self.speaker.say(crate::speech::Utterance::private(
            crate::speech::Kind::Answer,
            text,
        ));
    }

    /// The reports that have come, without waiting.
    pub fn reports(&self) -> impl Iterator<Item = Report> + '_ {
        self.reports.try_iter()
    }

    /// The next report, waiting at most `timeout`; `Err` when the speaker
    /// is gone (disconnected) or nothing came.
    pub fn next_report(
        &self,
        timeout: Duration,
    ) -> Result<Report, crossbeam_channel::RecvTimeoutError> {
        self.reports.recv_timeout(timeout)
    }

    /// Lets the last words be heard, at most `within`, and stops the
    /// speaker.
    pub fn finish(self, within: Duration) {
        self.speaker.wait_idle(within);
        self.speaker.quit();
    }
}

/// What a speaker report means for the game: the start of a move's
/// announcement is the `announced` input (E2.3c).
pub fn announced(report: &Report) -> Option<Input> {
    match report {
        Report::Started {
            kind: Kind::Move,
            ply: Some(ply),
            ..
        } => Some(Input::Announced(*ply)),
        _ => None,
    }
}

/// A speaker for the hardware tools and `say`, with its reports.
pub fn speaker_with_reports(
    config: &Config,
    words: &Phrasebook,
    text: TextOutput,
) -> (Speaker, Receiver<Report>) {
    let (speaker, reports) = start(
        config.speech.clone(),
        parts::voice_language(config, words),
        text,
    );
    speaker.wait_ready(READY_WITHIN);
    (speaker, reports)
}

/// A speaker whose reports are not read: the commands that use it print
/// everything they say.
pub fn speaker(config: &Config, words: &Phrasebook, text: TextOutput) -> Speaker {
    speaker_with_reports(config, words, text).0
}

/// Lets a tool's last words be heard (at most 5 s) and stops its speaker.
pub fn finish(speaker: Speaker) {
    speaker.wait_idle(Duration::from_secs(5));
    speaker.quit();
}
