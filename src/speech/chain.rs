//! The voice chain: the first voice that works speaks. A voice that fails
//! is skipped, the failure is reported, and it is tried again later (a
//! speech-dispatcher restarted, a sound card plugged back in).

use std::time::{Duration, Instant};

use super::utterance::Utterance;
use super::voice::{Progress, Voice, VoiceError};

/// How long a broken voice is left alone before it is opened again.
pub const RETRY_AFTER: Duration = Duration::from_secs(10);

type Opener = Box<dyn FnMut() -> Result<Box<dyn Voice>, VoiceError>>;

struct Slot {
    name: &'static str,
    open: Opener,
    voice: Option<Box<dyn Voice>>,
    retry_at: Option<Instant>,
}

/// A voice failure, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub voice: &'static str,
    pub error: VoiceError,
}

pub struct Chain {
    slots: Vec<Slot>,
}

impl Chain {
    pub fn new() -> Chain {
        Chain { slots: Vec::new() }
    }

    /// Adds a voice, opened now and again after it breaks.
    pub fn push(
        &mut self,
        name: &'static str,
        open: impl FnMut() -> Result<Box<dyn Voice>, VoiceError> + 'static,
    ) {
        self.slots.push(Slot {
            name,
            open: Box::new(open),
            voice: None,
            retry_at: None,
        });
    }

    /// Adds a voice that is already open.
    pub fn push_voice(&mut self, voice: Box<dyn Voice>) {
        let name = voice.name();
        self.slots.push(Slot {
            name,
            open: Box::new(move || Err(VoiceError::Broken(format!("{name} cannot be reopened")))),
            voice: Some(voice),
            retry_at: None,
        });
    }

    /// Opens every voice that is not open and not waiting for a retry.
    /// Failures are returned for the log.
    pub fn open(&mut self, now: Instant) -> Vec<Failure> {
        let mut failures = Vec::new();
        for slot in &mut self.slots {
            if slot.voice.is_some() || slot.retry_at.is_some_and(|t| now < t) {
                continue;
            }
            match (slot.open)() {
                Ok(v) => {
                    slot.voice = Some(v);
                    slot.retry_at = None;
                }
                Err(error) => {
                    slot.retry_at = Some(now + RETRY_AFTER);
                    failures.push(Failure {
                        voice: slot.name,
                        error,
                    });
                }
            }
        }
        failures
    }

    /// Starts `u` on the first voice that takes it, and says which one
    /// (its index), with the failures on the way. `None`: no voice spoke.
    pub fn start(&mut self, u: &Utterance, now: Instant) -> (Option<usize>, Vec<Failure>) {
        let mut failures = self.open(now);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(voice) = slot.voice.as_mut() else {
                continue;
            };
            match voice.start(u) {
                Ok(()) => return (Some(i), failures),
                Err(error) => {
                    if matches!(error, VoiceError::Broken(_)) {
                        slot.voice = None;
                        slot.retry_at = Some(now + RETRY_AFTER);
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

    pub fn name(&self, i: usize) -> &'static str {
        self.slots[i].name
    }

    pub fn reports_start(&self, i: usize) -> bool {
        self.slots[i]
            .voice
            .as_ref()
            .is_some_and(|v| v.reports_start())
    }

    pub fn progress(&mut self, i: usize) -> Progress {
        match self.slots[i].voice.as_mut() {
            Some(v) => v.progress(),
            None => Progress::Finished,
        }
    }

    pub fn stop(&mut self, i: usize) {
        if let Some(v) = self.slots[i].voice.as_mut() {
            v.stop();
        }
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
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A voice that records what it was given and fails as told.
    struct Fake {
        said: Rc<RefCell<Vec<String>>>,
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
                    self.said.borrow_mut().push(u.text.clone());
                    Ok(())
                }
            }
        }
    }

    #[test]
    fn the_first_working_voice_speaks_and_failures_are_reported() {
        let first = Rc::new(RefCell::new(Vec::new()));
        let second = Rc::new(RefCell::new(Vec::new()));
        let mut chain = Chain::new();
        let f = Rc::clone(&first);
        chain.push("clips", move || {
            Ok(Box::new(Fake {
                said: Rc::clone(&f),
                fail: Some(VoiceError::CannotSay("no clip for \"x\"".into())),
            }) as Box<dyn Voice>)
        });
        chain.push("broken", || Err(VoiceError::Broken("no daemon".into())));
        let s = Rc::clone(&second);
        chain.push("text", move || {
            Ok(Box::new(Fake {
                said: Rc::clone(&s),
                fail: None,
            }) as Box<dyn Voice>)
        });
        let now = Instant::now();
        let (used, failures) = chain.start(&Utterance::words(Kind::Move, "x"), now);
        assert_eq!(used, Some(2));
        assert_eq!(chain.name(2), "text");
        assert_eq!(second.borrow().as_slice(), ["x"]);
        let names: Vec<_> = failures.iter().map(|f| f.voice).collect();
        assert_eq!(names, ["broken", "clips"]);
        // A voice that cannot say one utterance stays in the chain; a broken
        // one is not retried before RETRY_AFTER.
        let (_, failures) = chain.start(&Utterance::words(Kind::Move, "y"), now);
        let names: Vec<_> = failures.iter().map(|f| f.voice).collect();
        assert_eq!(names, ["clips"]);
        let (_, failures) = chain.start(&Utterance::words(Kind::Move, "z"), now + RETRY_AFTER);
        let names: Vec<_> = failures.iter().map(|f| f.voice).collect();
        assert_eq!(names, ["broken", "clips"]);
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
