//! Voices behind a deadline. A voice backend can block for ever: a
//! speech-dispatcher stopped with SIGSTOP, one that accepts the connection
//! and never answers, a sound server that hangs while a device is opened.
//! So each voice lives on a worker thread of its own, which opens it, makes
//! every call on it and finally drops it. The speaker talks to the worker
//! over channels and waits for each answer at most a deadline; a worker that
//! misses it is abandoned where it hangs (its voice counts as broken) and
//! the speaker, and with it the game, goes on.
//!
//! An abandoned worker ends by itself if its call ever returns. The chain
//! opens a new one only after the old one has ended, so a backend that stays
//! frozen costs one thread, not one per retry.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError, unbounded};

use super::utterance::Utterance;
use super::voice::{Progress, Voice, VoiceError};

/// Opens a voice; called on the voice's own worker thread, again after each
/// break.
pub type Opener = Arc<dyn Fn() -> Result<Box<dyn Voice>, VoiceError> + Send + Sync>;

enum Call {
    Start(Utterance),
    Progress,
    Check,
    Stop,
}

enum Answer {
    /// The voice opened (and whether it reports the start of its sound), or
    /// why not.
    Opened(Result<bool, VoiceError>),
    Started(Result<(), VoiceError>),
    Progress(Progress),
    Checked(Result<(), VoiceError>),
}

/// A voice's worker thread, as its guard sees it.
#[derive(Debug, Clone)]
pub struct Worker(Arc<WorkerState>);

#[derive(Debug)]
struct WorkerState {
    running: AtomicBool,
    abandoned: AtomicBool,
}

impl Worker {
    /// Whether the worker was abandoned in a call and is still in it.
    pub fn hangs(&self) -> bool {
        self.0.abandoned.load(Ordering::Acquire) && self.0.running.load(Ordering::Acquire)
    }

    /// Whether the thread still runs.
    pub fn running(&self) -> bool {
        self.0.running.load(Ordering::Acquire)
    }

    /// Leaves the worker where it hangs.
    pub fn abandon(&self) {
        self.0.abandoned.store(true, Ordering::Release);
    }
}

/// Marks the worker ended when its thread leaves, by return or by panic.
struct Ending(Arc<WorkerState>);

impl Drop for Ending {
    fn drop(&mut self) {
        self.0.running.store(false, Ordering::Release);
    }
}

/// A voice being opened on its worker.
pub struct Opening {
    name: &'static str,
    calls: Sender<Call>,
    answers: Receiver<Answer>,
    worker: Worker,
    deadline: Duration,
}

/// What an opening has come to.
pub enum Opened {
    Ready(Guarded),
    Failed(VoiceError),
    /// Not yet.
    Pending,
}

impl Opening {
    /// Starts a worker thread that opens the voice. Calls on the voice,
    /// once open, wait at most `deadline` for their answer.
    pub fn spawn(
        name: &'static str,
        open: Opener,
        deadline: Duration,
    ) -> Result<Opening, VoiceError> {
        let (calls, inbox) = unbounded();
        let (outbox, answers) = unbounded();
        let state = Arc::new(WorkerState {
            running: AtomicBool::new(true),
            abandoned: AtomicBool::new(false),
        });
        let ending = Ending(Arc::clone(&state));
        std::thread::Builder::new()
            .name(format!("pegboard-voice-{name}"))
            .spawn(move || {
                let _ending = ending;
                work(&*open, &inbox, &outbox);
            })
            .map_err(|e| VoiceError::Broken(format!("cannot start its thread: {e}")))?;
        Ok(Opening {
            name,
            calls,
            answers,
            worker: Worker(state),
            deadline,
        })
    }

    /// Whether the voice has opened, waiting at most `wait` for it.
    pub fn poll(&self, wait: Duration) -> Opened {
        let answer = if wait.is_zero() {
            self.answers.try_recv().map_err(|e| match e {
                TryRecvError::Empty => RecvTimeoutError::Timeout,
                TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        } else {
            self.answers.recv_timeout(wait)
        };
        match answer {
            Ok(Answer::Opened(Ok(reports_start))) => Opened::Ready(Guarded {
                name: self.name,
                calls: self.calls.clone(),
                answers: self.answers.clone(),
                worker: self.worker.clone(),
                deadline: self.deadline,
                reports_start,
                abandoned: false,
            }),
            Ok(Answer::Opened(Err(e))) => Opened::Failed(e),
            Ok(_) | Err(RecvTimeoutError::Disconnected) => {
                Opened::Failed(VoiceError::Broken("its thread ended while opening".into()))
            }
            Err(RecvTimeoutError::Timeout) => Opened::Pending,
        }
    }

    /// The worker, to tell when an abandoned opening has let go.
    pub fn worker(&self) -> Worker {
        self.worker.clone()
    }
}

fn work(
    open: &dyn Fn() -> Result<Box<dyn Voice>, VoiceError>,
    inbox: &Receiver<Call>,
    outbox: &Sender<Answer>,
) {
    let mut voice = match open() {
        Ok(v) => {
            if outbox.send(Answer::Opened(Ok(v.reports_start()))).is_err() {
                return;
            }
            v
        }
        Err(e) => {
            let _ = outbox.send(Answer::Opened(Err(e)));
            return;
        }
    };
    // Ends when the guard is dropped (the channel closes); the voice is
    // dropped here, on the thread that made it.
    for call in inbox {
        let answer = match call {
            Call::Start(u) => Answer::Started(voice.start(&u)),
            Call::Progress => Answer::Progress(voice.progress()),
            Call::Check => Answer::Checked(voice.check()),
            Call::Stop => {
                voice.stop();
                continue;
            }
        };
        if outbox.send(answer).is_err() {
            return;
        }
    }
}

/// An open voice on its worker thread, every call under the deadline.
pub struct Guarded {
    name: &'static str,
    calls: Sender<Call>,
    answers: Receiver<Answer>,
    worker: Worker,
    deadline: Duration,
    reports_start: bool,
    /// A call missed its deadline: the worker is left where it hangs and
    /// this voice is not called again.
    abandoned: bool,
}

impl Guarded {
    pub fn worker(&self) -> Worker {
        self.worker.clone()
    }

    fn call(&mut self, call: Call) -> Option<Answer> {
        if self.abandoned {
            return None;
        }
        let answer = self
            .calls
            .send(call)
            .ok()
            .and_then(|()| self.answers.recv_timeout(self.deadline).ok());
        if answer.is_none() {
            self.abandoned = true;
            self.worker.abandon();
        }
        answer
    }

    fn silent(&self) -> VoiceError {
        VoiceError::Broken(format!(
            "did not answer within {} ms; left alone, to be tried again later",
            self.deadline.as_millis()
        ))
    }
}

impl Voice for Guarded {
    fn name(&self) -> &'static str {
        self.name
    }

    fn start(&mut self, u: &Utterance) -> Result<(), VoiceError> {
        match self.call(Call::Start(u.clone())) {
            Some(Answer::Started(result)) => result,
            _ => Err(self.silent()),
        }
    }

    fn reports_start(&self) -> bool {
        self.reports_start
    }

    fn progress(&mut self) -> Progress {
        match self.call(Call::Progress) {
            Some(Answer::Progress(p)) => p,
            _ => Progress::Broken,
        }
    }

    fn check(&mut self) -> Result<(), VoiceError> {
        match self.call(Call::Check) {
            Some(Answer::Checked(result)) => result,
            _ => Err(self.silent()),
        }
    }

    /// Asks the worker to stop and does not wait: a cancel that hangs
    /// shows as the next call missing its deadline.
    fn stop(&mut self) {
        if !self.abandoned {
            let _ = self.calls.send(Call::Stop);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::utterance::Kind;
    use std::sync::Mutex;
    use std::time::Instant;

    /// A voice whose `start` blocks until the test lets it go.
    struct Hangs(Arc<Mutex<()>>);

    impl Voice for Hangs {
        fn name(&self) -> &'static str {
            "hangs"
        }
        fn start(&mut self, _u: &Utterance) -> Result<(), VoiceError> {
            let _held = self.0.lock();
            Ok(())
        }
    }

    fn open(opening: &Opening) -> Guarded {
        match opening.poll(Duration::from_secs(5)) {
            Opened::Ready(g) => g,
            Opened::Failed(e) => panic!("did not open: {e}"),
            Opened::Pending => panic!("did not open within 5 s"),
        }
    }

    #[test]
    fn a_voice_that_blocks_is_abandoned_at_the_deadline_and_its_worker_ends_when_let_go() {
        let gate = Arc::new(Mutex::new(()));
        let held = gate.lock().expect("gate");
        let g2 = Arc::clone(&gate);
        let opening = Opening::spawn(
            "hangs",
            Arc::new(move || Ok(Box::new(Hangs(Arc::clone(&g2))) as Box<dyn Voice>)),
            Duration::from_millis(100),
        )
        .expect("worker");
        let mut voice = open(&opening);
        let worker = voice.worker();
        let began = Instant::now();
        let result = voice.start(&Utterance::words(Kind::Move, "e4"));
        let waited = began.elapsed();
        assert!(matches!(result, Err(VoiceError::Broken(_))), "{result:?}");
        assert!(
            waited >= Duration::from_millis(100) && waited < Duration::from_millis(250),
            "waited {waited:?}"
        );
        // Abandoned: later calls do not wait again.
        let began = Instant::now();
        assert_eq!(voice.progress(), Progress::Broken);
        assert!(began.elapsed() < Duration::from_millis(50));
        assert!(worker.hangs(), "still stuck in the call");
        drop(voice);
        drop(opening);
        drop(held);
        let deadline = Instant::now() + Duration::from_secs(5);
        while worker.hangs() {
            assert!(Instant::now() < deadline, "the worker never ended");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn an_opener_that_blocks_stays_pending_and_one_that_fails_says_why() {
        let gate = Arc::new(Mutex::new(()));
        let held = gate.lock().expect("gate");
        let g2 = Arc::clone(&gate);
        let slow = Opening::spawn(
            "slow",
            Arc::new(move || {
                let _held = g2.lock();
                Err(VoiceError::Broken("no daemon".into()))
            }),
            Duration::from_millis(100),
        )
        .expect("worker");
        assert!(matches!(
            slow.poll(Duration::from_millis(50)),
            Opened::Pending
        ));
        drop(held);
        match slow.poll(Duration::from_secs(5)) {
            Opened::Failed(VoiceError::Broken(why)) => assert_eq!(why, "no daemon"),
            _ => panic!("the opener's error was not passed on"),
        }
    }
}
