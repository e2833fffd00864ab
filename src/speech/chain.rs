//! The voice chain: the first voice that works speaks. A voice that fails
//! is skipped, the failure is reported, and it is tried again later (a
//! speech-dispatcher restarted, a sound card plugged back in).
//!
//! Every voice opened by the chain lives behind a [`guard`](super::guard):
//! on its own thread, every call under the start bound. Opening runs in the
//! background; an utterance waits for a voice still opening only the first
//! time, at most the start bound, and meanwhile the next voice speaks.

use std::time::{Duration, Instant};

use super::guard::{Opened, Opener, Opening, Worker};
use super::utterance::Utterance;
use super::voice::{Progress, Voice, VoiceError};

/// How long a broken voice is left alone before it is opened again.
pub const RETRY_AFTER: Duration = Duration::from_secs(10);
/// The default of how long a voice may take to open (speech-dispatcher
/// started on demand, a named voice looked up in its list: seconds on a
/// Pi) before it is abandoned as hanging.
pub const OPEN_DEADLINE: Duration = Duration::from_secs(20);
/// The default bound on the start of an utterance: a voice that has not
/// begun to sound by then has failed for it, and the next voice says it.
pub const START_BOUND: Duration = Duration::from_millis(500);

enum State {
    /// Not open; opened again from `retry_at` on (at once if `None`), once
    /// the worker of its last try (`stuck`), if any, has let go.
    Closed {
        retry_at: Option<Instant>,
        stuck: Option<Worker>,
    },
    /// Being opened on its worker since `since`. `waited`: an utterance has
    /// already waited for it once.
    Opening {
        opening: Opening,
        since: Instant,
        waited: bool,
    },
    Open {
        voice: Box<dyn Voice>,
        worker: Option<Worker>,
    },
}

struct Slot {
    name: &'static str,
    /// `None`: a voice handed over open, which cannot be opened again.
    open: Option<Opener>,
    state: State,
}

/// A voice failure, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub voice: &'static str,
    pub error: VoiceError,
}

pub struct Chain {
    slots: Vec<Slot>,
    start_bound: Duration,
    open_deadline: Duration,
}

impl Chain {
    pub fn new() -> Chain {
        Chain {
            slots: Vec::new(),
            start_bound: START_BOUND,
            open_deadline: OPEN_DEADLINE,
        }
    }

    /// Sets the start bound: how long a voice may take to begin to sound
    /// (and to answer any call) before it has failed for the utterance.
    pub fn with_start_bound(mut self, bound: Duration) -> Chain {
        self.start_bound = bound;
        self
    }

    pub fn start_bound(&self) -> Duration {
        self.start_bound
    }

    /// Sets how long a voice may take to open before it is abandoned.
    pub fn with_open_deadline(mut self, deadline: Duration) -> Chain {
        self.open_deadline = deadline;
        self
    }

    /// Adds a voice, opened on a worker thread of its own, now and again
    /// after it breaks.
    pub fn push(
        &mut self,
        name: &'static str,
        open: impl Fn() -> Result<Box<dyn Voice>, VoiceError> + Send + Sync + 'static,
    ) {
        self.slots.push(Slot {
            name,
            open: Some(std::sync::Arc::new(open)),
            state: State::Closed {
                retry_at: None,
                stuck: None,
            },
        });
    }

    /// Adds a voice that is already open. It runs on the speaker's thread
    /// and is not guarded: for voices that cannot block (null, test voices).
    pub fn push_voice(&mut self, voice: Box<dyn Voice>) {
        self.slots.push(Slot {
            name: voice.name(),
            open: None,
            state: State::Open {
                voice,
                worker: None,
            },
        });
    }

    /// Starts opening every voice that is closed and due, and notes the
    /// openings that ended or took too long. Failures are returned for the
    /// log.
    pub fn open(&mut self, now: Instant) -> Vec<Failure> {
        let limits = (self.start_bound, self.open_deadline);
        let mut failures = Vec::new();
        for slot in &mut self.slots {
            if let Some(error) = slot.tend(now, limits, Duration::ZERO) {
                failures.push(Failure {
                    voice: slot.name,
                    error,
                });
            }
        }
        failures
    }

    /// Starts `u` on the first voice from `first` on that takes it, and
    /// says which one (its index), with the failures on the way. `None`: no
    /// voice spoke.
    pub fn start_from(
        &mut self,
        u: &Utterance,
        now: Instant,
        first: usize,
    ) -> (Option<usize>, Vec<Failure>) {
        let bound = self.start_bound;
        let limits = (self.start_bound, self.open_deadline);
        let mut failures = Vec::new();
        for (i, slot) in self.slots.iter_mut().enumerate().skip(first) {
            let mut error = slot.tend(now, limits, Duration::ZERO);
            // A voice still opening is waited for once, at most the bound.
            if error.is_none() && matches!(slot.state, State::Opening { waited: false, .. }) {
                error = slot.tend(now, limits, bound);
                if let State::Opening { waited, .. } = &mut slot.state {
                    *waited = true;
                    error = Some(VoiceError::Opening(format!(
                        "still connecting after {} ms; the next voice speaks meanwhile",
                        bound.as_millis()
                    )));
                }
            }
            if let Some(error) = error {
                failures.push(Failure {
                    voice: slot.name,
                    error,
                });
            }
            let State::Open { voice, .. } = &mut slot.state else {
                continue;
            };
            match voice.start(u) {
                Ok(()) => return (Some(i), failures),
                Err(error) => {
                    if matches!(error, VoiceError::Broken(_)) {
                        slot.close(now);
                    }
                    failures.push(Failure {
                        voice: slot.name,
                        error,
                    });
                }
            }
        }
        (None, failures)
    }

    /// Whether a voice is being opened.
    pub fn opening(&self) -> bool {
        self.slots
            .iter()
            .any(|s| matches!(s.state, State::Opening { .. }))
    }

    /// [`Chain::start_from`] the first voice.
    pub fn start(&mut self, u: &Utterance, now: Instant) -> (Option<usize>, Vec<Failure>) {
        self.start_from(u, now, 0)
    }

    pub fn name(&self, i: usize) -> &'static str {
        self.slots[i].name
    }

    /// The voices' names, in the chain's order.
    pub fn names(&self) -> Vec<&'static str> {
        self.slots.iter().map(|s| s.name).collect()
    }

    pub fn reports_start(&self, i: usize) -> bool {
        match &self.slots[i].state {
            State::Open { voice, .. } => voice.reports_start(),
            _ => false,
        }
    }

    /// How far voice `i` has got; a voice that broke on the way is closed,
    /// to be opened again later.
    pub fn progress(&mut self, i: usize) -> Progress {
        let slot = &mut self.slots[i];
        let progress = match &mut slot.state {
            State::Open { voice, .. } => voice.progress(),
            _ => Progress::Finished,
        };
        if progress == Progress::Broken {
            slot.close(Instant::now());
        }
        progress
    }

    /// Whether voice `i`'s backend still answers; one that does not is
    /// closed, to be opened again later.
    pub fn check(&mut self, i: usize, now: Instant) -> Result<(), VoiceError> {
        let slot = &mut self.slots[i];
        let result = match &mut slot.state {
            State::Open { voice, .. } => voice.check(),
            _ => Ok(()),
        };
        if result.is_err() {
            slot.close(now);
        }
        result
    }

    /// Stops voice `i`'s utterance (without waiting for it to stop).
    pub fn stop(&mut self, i: usize) {
        if let State::Open { voice, .. } = &mut self.slots[i].state {
            voice.stop();
        }
    }

    /// Voice `i` failed an utterance (it did not begin to sound within the
    /// bound): stop it, and leave it alone until it is due to be retried.
    pub fn fail(&mut self, i: usize, now: Instant) {
        self.stop(i);
        self.slots[i].close(now);
    }
}

impl Slot {
    /// Moves the slot on: a due voice is opened, an opening is looked at
    /// (waiting at most `wait`). Returns the failure to log, if any.
    fn tend(
        &mut self,
        now: Instant,
        (bound, deadline): (Duration, Duration),
        wait: Duration,
    ) -> Option<VoiceError> {
        match &self.state {
            State::Closed { retry_at, stuck } => {
                let due = retry_at.is_none_or(|t| now >= t);
                let free = stuck.as_ref().is_none_or(|w| !w.hangs());
                let open = self.open.as_ref()?;
                if !(due && free) {
                    return None;
                }
                match Opening::spawn(self.name, std::sync::Arc::clone(open), bound) {
                    Ok(opening) => {
                        self.state = State::Opening {
                            opening,
                            since: now,
                            waited: false,
                        }
                    }
                    Err(e) => {
                        self.close(now);
                        return Some(e);
                    }
                }
                // Look at it now: most voices open in a few milliseconds.
                self.tend(now, (bound, deadline), wait)
            }
            State::Opening { opening, since, .. } => match opening.poll(wait) {
                Opened::Ready(voice) => {
                    let worker = Some(voice.worker());
                    self.state = State::Open {
                        voice: Box::new(voice),
                        worker,
                    };
                    None
                }
                Opened::Failed(e) => {
                    self.close(now);
                    Some(e)
                }
                Opened::Pending if now.saturating_duration_since(*since) > deadline => {
                    opening.worker().abandon();
                    self.close(now);
                    Some(VoiceError::Broken(format!(
                        "did not open within {} s; left alone, to be tried again later",
                        deadline.as_secs()
                    )))
                }
                Opened::Pending => None,
            },
            State::Open { .. } => None,
        }
    }

    /// Closes the voice until [`RETRY_AFTER`] from `now`, or until its
    /// worker, if it was abandoned in a call, has let go.
    fn close(&mut self, now: Instant) {
        let stuck = match &self.state {
            State::Open { worker, .. } => worker.clone(),
            State::Opening { opening, .. } => Some(opening.worker()),
            State::Closed { stuck, .. } => stuck.clone(),
        };
        self.state = State::Closed {
            retry_at: Some(now + RETRY_AFTER),
            stuck,
        };
    }
}

impl Default for Chain {
    fn default() -> Self {
        Chain::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::utterance::Kind;
    use std::sync::{Arc, Mutex};

    /// A voice that records what it was given and fails as told.
    struct Fake {
        said: Arc<Mutex<Vec<String>>>,
        fail: Option<VoiceError>,
    }

    impl Voice for Fake {
        fn name(&self) -> &'static str {
            "fake"
        }
        fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
            match &self.fail {
                Some(e) => Err(e.clone()),
                None => {
                    self.said.lock().expect("said").push(u.text.clone());
                    Ok(())
                }
            }
        }
    }

    #[test]
    fn the_first_working_voice_speaks_and_failures_are_reported() {
        let first = Arc::new(Mutex::new(Vec::new()));
        let second = Arc::new(Mutex::new(Vec::new()));
        let mut chain = Chain::new();
        let f = Arc::clone(&first);
        chain.push("clips", move || {
            Ok(Box::new(Fake {
                said: Arc::clone(&f),
                fail: Some(VoiceError::CannotSay("no clip for \"x\"".into())),
            }) as Box<dyn Voice>)
        });
        chain.push("broken", || Err(VoiceError::Broken("no daemon".into())));
        let s = Arc::clone(&second);
        chain.push("text", move || {
            Ok(Box::new(Fake {
                said: Arc::clone(&s),
                fail: None,
            }) as Box<dyn Voice>)
        });
        let now = Instant::now();
        let (used, failures) = chain.start(&Utterance::words(Kind::Move, "x"), now);
        assert_eq!(used, Some(2), "{failures:?}");
        assert_eq!(chain.name(2), "text");
        assert_eq!(second.lock().expect("said").as_slice(), ["x"]);
        let names: Vec<_> = failures.iter().map(|f| f.voice).collect();
        assert_eq!(names, ["clips", "broken"]);
        // A voice that cannot say one utterance stays in the chain; a broken
        // one is not retried before RETRY_AFTER.
        let (_, failures) = chain.start(&Utterance::words(Kind::Move, "y"), now);
        let names: Vec<_> = failures.iter().map(|f| f.voice).collect();
        assert_eq!(names, ["clips"]);
        let (_, failures) = chain.start(&Utterance::words(Kind::Move, "z"), now + RETRY_AFTER);
        let names: Vec<_> = failures.iter().map(|f| f.voice).collect();
        assert_eq!(names, ["clips", "broken"]);
    }

    #[test]
    fn no_voice_at_all_says_so() {
        let mut chain = Chain::new();
        chain.push("broken", || Err(VoiceError::Broken("gone".into())));
        let (used, failures) = chain.start(&Utterance::words(Kind::Move, "x"), Instant::now());
        assert_eq!(used, None);
        assert_eq!(failures.len(), 1);
    }
}
