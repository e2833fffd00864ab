//! The speaker: a thread that owns the voices and the queue, speaks one
//! utterance at a time, and reports when each starts, so that a move counts
//! as announced (E2.3c) at the right instant. Nothing the voices do can
//! block the caller: `say` only sends on a channel. Nothing they do can
//! block the speaker either: each voice answers on its own thread within the
//! chain's start bound, and a voice that has not begun to sound by then has
//! failed for the utterance, which the next voice says.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

use super::chain::{Chain, Failure};
use super::queue::Queue;
use super::utterance::{Kind, Utterance};
use super::voice::{Progress, VoiceError};

/// Polling while a voice is about to start, while it speaks, and while a
/// voice is being opened.
const START_POLL: Duration = Duration::from_millis(1);
const SPEAK_POLL: Duration = Duration::from_millis(10);
const OPEN_POLL: Duration = Duration::from_millis(10);
/// How long the commands that speak at once wait for their voices to open
/// (a fresh sound output is primed; a named speech-dispatcher voice is
/// looked up in its list).
pub const READY_WITHIN: Duration = Duration::from_secs(3);

/// The longest an utterance may take before the speaker stops waiting for
/// its end (the end report of some speech-dispatcher setups never comes).
pub fn end_timeout(u: &Utterance) -> Duration {
    Duration::from_millis(2000 + 120 * u.text.chars().count() as u64)
}

/// What the speaker tells its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The utterance began to be heard at `at`, or was handed at `at` to a
    /// voice that cannot tell (text, file, null), or its voice finished it
    /// without reporting a start (`confirmed` false: counted from the
    /// hand-over).
    Started {
        kind: Kind,
        ply: Option<u32>,
        voice: &'static str,
        at: Instant,
        confirmed: bool,
    },
    /// A voice failed; the next one in the chain was tried. Said once per
    /// voice (and once that it is still opening), until it speaks again.
    VoiceFailed(Failure),
    /// No voice could say this utterance.
    Unsaid(Utterance),
    /// Everything queued has been said.
    Idle,
}

enum Command {
    Say(Utterance),
    /// Answer on the sender once nothing is playing or queued.
    WhenIdle(Sender<()>),
    /// Answer on the sender once no voice is being opened.
    WhenReady(Sender<()>),
    Quit,
}

pub struct Speaker {
    commands: Sender<Command>,
    thread: Option<JoinHandle<()>>,
}

struct Current {
    utterance: Utterance,
    voice: usize,
    handed_at: Instant,
    started: bool,
    /// When its voice was last asked whether it still answers.
    checked_at: Option<Instant>,
}

impl Speaker {
    /// Starts the speaker thread. `make_chain` builds the voices on that
    /// thread (audio handles stay where they were made).
    pub fn spawn(
        make_chain: impl FnOnce() -> Chain + Send + 'static,
        reports: Sender<Report>,
    ) -> Speaker {
        let (commands, inbox) = unbounded();
        let thread = std::thread::Builder::new()
            .name("pegboard-speaker".into())
            .spawn(move || run(make_chain(), inbox, reports))
            .ok();
        Speaker { commands, thread }
    }

    /// Queues an utterance; returns at once.
    pub fn say(&self, u: Utterance) {
        // If the thread is gone there is no one left to speak; the caller's
        // text fallback (the event stream) still has every word.
        let _ = self.commands.send(Command::Say(u));
    }

    /// Waits until everything queued has been said, at most `timeout`.
    /// Whether it was.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let (tx, rx) = crossbeam_channel::bounded(1);
        if self.commands.send(Command::WhenIdle(tx)).is_err() {
            return false;
        }
        rx.recv_timeout(timeout).is_ok()
    }

    /// Waits until every voice has opened or failed to, at most `timeout`.
    /// Whether they have.
    pub fn wait_ready(&self, timeout: Duration) -> bool {
        let (tx, rx) = crossbeam_channel::bounded(1);
        if self.commands.send(Command::WhenReady(tx)).is_err() {
            return false;
        }
        rx.recv_timeout(timeout).is_ok()
    }

    /// Stops the thread at once, dropping the queue.
    pub fn quit(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        let _ = self.commands.send(Command::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Speaker {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// What a voice's failure was, for telling each kind once: that it cannot
/// say some words, once for each reason (each word it lacks).
#[derive(Debug, Clone, PartialEq, Eq)]
enum FailureKind {
    Broken,
    Opening,
    CannotSay(String),
}

/// The failures told so far: a voice's failure once, until that voice
/// speaks again. That it is still being opened is told apart, so that why
/// it then failed to open is told as well. That a voice cannot say some
/// words (a word without a clip) is told once only: with the clips first,
/// the next voice saying what they lack is the chain's order at work, and
/// the clips speak again between such words all the time; each word they
/// lack is named once.
#[derive(Default)]
struct Told(Vec<(&'static str, FailureKind)>);

impl Told {
    fn failure(&mut self, f: Failure, reports: &Sender<Report>) {
        let kind = match &f.error {
            VoiceError::Broken(_) => FailureKind::Broken,
            VoiceError::Opening(_) => FailureKind::Opening,
            VoiceError::CannotSay(why) => FailureKind::CannotSay(why.clone()),
        };
        let key = (f.voice, kind);
        if !self.0.contains(&key) {
            self.0.push(key);
            let _ = reports.send(Report::VoiceFailed(f));
        }
    }

    fn spoke(&mut self, voice: &'static str) {
        self.0
            .retain(|(v, kind)| *v != voice || matches!(kind, FailureKind::CannotSay(_)));
    }
}

fn run(mut chain: Chain, inbox: Receiver<Command>, reports: Sender<Report>) {
    let mut queue = Queue::new();
    let mut current: Option<Current> = None;
    let mut idle = true;
    let mut waiting: Vec<Sender<()>> = Vec::new();
    let mut readying: Vec<Sender<()>> = Vec::new();
    let mut told = Told::default();
    loop {
        // Openings in the background are looked at on every round, and
        // voices due for a retry are opened again.
        for f in chain.open(Instant::now()) {
            told.failure(f, &reports);
        }
        if !chain.opening() {
            for tx in readying.drain(..) {
                let _ = tx.send(());
            }
        }
        let command = match &current {
            None if queue.is_empty() && chain.opening() => inbox.recv_timeout(OPEN_POLL),
            None if queue.is_empty() => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
            None => Err(RecvTimeoutError::Timeout),
            Some(c) if !c.started => inbox.recv_timeout(START_POLL),
            Some(_) => inbox.recv_timeout(SPEAK_POLL),
        };
        let mut next = match command {
            Ok(c) => Some(c),
            Err(RecvTimeoutError::Disconnected) => Some(Command::Quit),
            Err(RecvTimeoutError::Timeout) => None,
        };
        // Take every command already waiting before speaking: a burst of
        // events is sorted by the queue's rules first.
        while let Some(command) = next.take().or_else(|| inbox.try_recv().ok()) {
            match command {
                Command::Say(u) => {
                    idle = false;
                    let playing = current.as_ref().map(|c| c.utterance.kind);
                    if queue.push(u, playing)
                        && let Some(c) = current.take()
                    {
                        chain.stop(c.voice);
                    }
                    // New words wait behind the voice speaking: ask it at
                    // once whether it still answers, so that a frozen
                    // voice costs them one deadline, not a wait for the
                    // next question as well.
                    if let Some(c) = current.as_mut() {
                        c.checked_at = None;
                    }
                }
                Command::WhenIdle(tx) => waiting.push(tx),
                Command::WhenReady(tx) => readying.push(tx),
                Command::Quit => {
                    if let Some(c) = current.take() {
                        chain.stop(c.voice);
                    }
                    return;
                }
            }
        }
        if let Some(mut c) = current.take() {
            let now = Instant::now();
            let progress = chain.progress(c.voice);
            let mut failed = None;
            if !c.started {
                let start = match progress {
                    Progress::Speaking(at) => Some((at, true)),
                    // Finished without a start report: it was heard, or the
                    // voice ended it; count it from the hand-over.
                    Progress::Finished => Some((c.handed_at, false)),
                    Progress::Broken => {
                        failed = Some("stopped answering before it began to speak".to_string());
                        None
                    }
                    Progress::Waiting if now - c.handed_at > chain.start_bound() => {
                        failed = Some(format!(
                            "did not begin to speak within {} ms",
                            chain.start_bound().as_millis()
                        ));
                        None
                    }
                    Progress::Waiting => None,
                };
                if let Some((at, confirmed)) = start {
                    c.started = true;
                    told.spoke(chain.name(c.voice));
                    let _ = reports.send(Report::Started {
                        kind: c.utterance.kind,
                        ply: c.utterance.ply,
                        voice: chain.name(c.voice),
                        at,
                        confirmed,
                    });
                }
            }
            if let Some(why) = failed {
                // Failed for this utterance: the next voice says it.
                let voice = chain.name(c.voice);
                chain.fail(c.voice, now);
                told.failure(
                    Failure {
                        voice,
                        error: VoiceError::Broken(why),
                    },
                    &reports,
                );
                current = begin(&mut chain, c.utterance, c.voice + 1, &reports, &mut told);
            } else if c.started
                && !queue.is_empty()
                && c.checked_at
                    .is_none_or(|t| now.saturating_duration_since(t) >= chain.start_bound())
                && let Err(error) = {
                    // Words are waiting: a voice frozen in the middle of its
                    // utterance must not hold them until its end timeout.
                    c.checked_at = Some(now);
                    chain.check(c.voice, now)
                }
            {
                told.failure(
                    Failure {
                        voice: chain.name(c.voice),
                        error,
                    },
                    &reports,
                );
            } else {
                let overdue = now - c.handed_at > end_timeout(&c.utterance);
                if overdue {
                    chain.stop(c.voice);
                }
                let done = matches!(progress, Progress::Finished | Progress::Broken) || overdue;
                if !done {
                    current = Some(c);
                }
            }
        }
        while current.is_none() {
            match queue.pop() {
                Some(u) => {
                    current = begin(&mut chain, u, 0, &reports, &mut told);
                    idle = false;
                }
                None => {
                    if !idle {
                        idle = true;
                        let _ = reports.send(Report::Idle);
                    }
                    for tx in waiting.drain(..) {
                        let _ = tx.send(());
                    }
                    break;
                }
            }
        }
    }
}

/// Hands `u` to the first voice from `first` on that takes it.
fn begin(
    chain: &mut Chain,
    u: Utterance,
    first: usize,
    reports: &Sender<Report>,
    told: &mut Told,
) -> Option<Current> {
    let now = Instant::now();
    let (used, failures) = chain.start_from(&u, now, first);
    for mut f in failures {
        if u.private && matches!(f.error, VoiceError::CannotSay(_)) {
            // Why a voice cannot say private words would name them.
            f.error = VoiceError::CannotSay("words it has no clip for (not written down)".into());
        }
        told.failure(f, reports);
    }
    let Some(voice) = used else {
        let _ = reports.send(Report::Unsaid(u));
        return None;
    };
    let handed_at = Instant::now();
    if !chain.reports_start(voice) {
        told.spoke(chain.name(voice));
        let _ = reports.send(Report::Started {
            kind: u.kind,
            ply: u.ply,
            voice: chain.name(voice),
            at: handed_at,
            confirmed: true,
        });
        return match chain.progress(voice) {
            Progress::Finished | Progress::Broken => None,
            _ => Some(Current {
                utterance: u,
                voice,
                handed_at,
                started: true,
                checked_at: None,
            }),
        };
    }
    Some(Current {
        utterance: u,
        voice,
        handed_at,
        started: false,
        checked_at: None,
    })
}
