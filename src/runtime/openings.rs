//! Debian's classification of openings for the `opening` question: read
//! the first time the player asks (most games never do), in a thread of
//! its own, so that neither a start nor the scan loop waits for it (a
//! tenth of a second of one core on a Pi); the question is answered once
//! it is read.

use std::thread::JoinHandle;

use crate::openings::Classification;

/// The classification: not yet asked for, being read, or read (none when
/// it could not be: the log says why, and the answer is that no opening
/// is known).
#[derive(Default)]
pub(crate) enum Openings {
    #[default]
    Unread,
    Reading(JoinHandle<Result<Classification, String>>),
    Read(Option<Classification>),
}

impl Openings {
    /// The reading begins when `wanted` (the player asked) and it has
    /// not; once over, the classification is kept, or the failure goes to
    /// `notes` once.
    pub(crate) fn settle(&mut self, wanted: bool, notes: &mut Vec<String>) {
        if wanted && matches!(self, Openings::Unread) {
            *self = Openings::Reading(std::thread::spawn(|| {
                Classification::debian().map_err(|e| e.to_string())
            }));
        }
        if let Openings::Reading(handle) = self
            && handle.is_finished()
        {
            let Openings::Reading(handle) = std::mem::replace(self, Openings::Read(None)) else {
                return;
            };
            match handle.join() {
                Ok(Ok(c)) => *self = Openings::Read(Some(c)),
                Ok(Err(e)) => notes.push(format!("{e}; the opening's name cannot be said")),
                Err(_) => notes.push("the openings' classification could not be read".into()),
            }
        }
    }

    /// Whether the reading is over (well or not).
    pub(crate) fn read_yet(&self) -> bool {
        matches!(self, Openings::Read(_))
    }

    /// The classification, once read well.
    pub(crate) fn get(&self) -> Option<&Classification> {
        match self {
            Openings::Read(c) => c.as_ref(),
            _ => None,
        }
    }
}
