//! The speaker: a thread that owns the voices and the queue, speaks one
//! utterance at a time, and reports when each starts, so that a move counts
//! as announced (E2.3c) at the right instant. Nothing the voices do can
//! block the caller: `say` only sends on a channel.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

use super::chain::{Chain, Failure};
use super::queue::Queue;
use super::utterance::{Kind, Utterance};
use super::voice::Progress;

/// How long a voice that reports its start may take to start before the
/// utterance is counted as started anyway.
pub const START_TIMEOUT: Duration = Duration::from_millis(1500);
/// Polling while a voice is about to start, and while it speaks.
const START_POLL: Duration = Duration::from_millis(1);
const SPEAK_POLL: Duration = Duration::from_millis(10);

/// The longest an utterance may take before the speaker stops waiting for
/// its end (the end report of some speech-dispatcher setups never comes).
pub fn end_timeout(u: &Utterance) -> Duration {
    Duration::from_millis(2000 + 120 * u.text.chars().count() as u64)
}

/// What the speaker tells its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The utterance began to be heard at `at`, or was handed at `at` to a
    /// voice that cannot tell (text, file, null), or its voice did not
    /// report a start within [`START_TIMEOUT`] (`confirmed` false).
    Started {
        kind: Kind,
        ply: Option<u32>,
        voice: &'static str,
        at: Instant,
        confirmed: bool,
    },
    /// A voice failed; the next one in the chain was tried.
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

fn run(mut chain: Chain, inbox: Receiver<Command>, reports: Sender<Report>) {
    let mut queue = Queue::new();
    let mut current: Option<Current> = None;
    let mut idle = true;
    let mut waiting: Vec<Sender<()>> = Vec::new();
    for f in chain.open(Instant::now()) {
        let _ = reports.send(Report::VoiceFailed(f));
    }
    loop {
        let command = match &current {
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
                }
                Command::WhenIdle(tx) => waiting.push(tx),
                Command::Quit => {
                    if let Some(c) = current.take() {
                        chain.stop(c.voice);
                    }
                    return;
                }
            }
        }
        if let Some(c) = current.as_mut() {
            let now = Instant::now();
            let progress = chain.progress(c.voice);
            if !c.started {
                let start = match progress {
                    Progress::Speaking(at) => Some((at, true)),
                    // Finished without a start report: it was heard, or the
                    // voice ended it; count it from the hand-over.
                    Progress::Finished => Some((c.handed_at, false)),
                    Progress::Waiting if now - c.handed_at > START_TIMEOUT => {
                        Some((c.handed_at, false))
                    }
                    Progress::Waiting => None,
                };
                if let Some((at, confirmed)) = start {
                    c.started = true;
                    let _ = reports.send(Report::Started {
                        kind: c.utterance.kind,
                        ply: c.utterance.ply,
                        voice: chain.name(c.voice),
                        at,
                        confirmed,
                    });
                }
            }
            let overdue = now - c.handed_at > end_timeout(&c.utterance);
            if progress == Progress::Finished || overdue {
                if overdue {
                    chain.stop(c.voice);
                }
                current = None;
            }
        }
        while current.is_none() {
            match queue.pop() {
                Some(u) => {
                    current = begin(&mut chain, u, &reports);
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

fn begin(chain: &mut Chain, u: Utterance, reports: &Sender<Report>) -> Option<Current> {
    let now = Instant::now();
    let (used, failures) = chain.start(&u, now);
    for f in failures {
        let _ = reports.send(Report::VoiceFailed(f));
    }
    let Some(voice) = used else {
        let _ = reports.send(Report::Unsaid(u));
        return None;
    };
    let handed_at = Instant::now();
    if !chain.reports_start(voice) {
        let _ = reports.send(Report::Started {
            kind: u.kind,
            ply: u.ply,
            voice: chain.name(voice),
            at: handed_at,
            confirmed: true,
        });
        return match chain.progress(voice) {
            Progress::Finished => None,
            _ => Some(Current {
                utterance: u,
                voice,
                handed_at,
                started: true,
            }),
        };
    }
    Some(Current {
        utterance: u,
        voice,
        handed_at,
        started: false,
    })
}
