//! A stream kept open whatever the network does: a thread opens it, hands
//! on each line, and when it breaks (cut, refused, or silent past its
//! limit: lichess sends a keep-alive line every few seconds) opens it
//! again with backoff. A 429 waits a full minute, as lichess asks. The
//! owner is told once that the link is lost and once that it is back. A
//! game's stream that lichess closes cleanly is opened again without a
//! word: lila closes one when a newer stream opens for the same game, and
//! for other reasons, not only at the game's end; only the game's state
//! says it is over, and the owner stops the link then. A stream closed
//! cleanly before it said anything but its first line (two pegboards on
//! one token close each other's) is opened again with backoff. A refused
//! token ends the link, as does an answer that will never change (a 400
//! or a 404: no such game): asking again would not help.
//!
//! Each connection's lines are read on a thread of its own, so that a
//! silent one can be left where it hangs: its lines, should any still
//! come, are dropped, since only the newest connection speaks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::client::{ApiError, Client, EVENT_STREAM, Lines, game_stream};

/// What a link reports to its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The stream opened (each time it does): its first lines follow.
    Opened,
    /// A line of the stream (a keep-alive line is not handed on).
    Line(String),
    /// The stream broke (why); it is being opened again. Told once until
    /// it is back.
    Lost(String),
    /// Open again after being lost. The stream starts anew: a game's
    /// stream with its whole game.
    Back,
    /// lichess refused the token: the link has ended.
    Refused(String),
    /// lichess answered that the stream is not there, and will not be
    /// (a 400 or a 404, with its words): the link has ended.
    Gone(String),
}

/// How long a link waits before asking again, and for what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The first wait after a failure; each next one doubles…
    pub first: Duration,
    /// …up to this.
    pub most: Duration,
    /// After a 429: a full minute, as lichess asks.
    pub too_many: Duration,
    /// A stream that says nothing (not even a keep-alive line) this long
    /// is taken as broken.
    pub silence: Duration,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            first: Duration::from_secs(1),
            most: Duration::from_secs(30),
            too_many: Duration::from_secs(60),
            silence: Duration::from_secs(20),
        }
    }
}

/// A stream kept open by a thread of its own; it stops when dropped.
pub struct Link {
    reports: Receiver<Report>,
    stop: Arc<AtomicBool>,
}

impl Link {
    /// Keeps the account's event stream open on `client`.
    pub fn events(client: Arc<Client>, timing: Timing) -> Link {
        Link::open(client, EVENT_STREAM.into(), (timing, false))
    }

    /// Keeps game `id`'s stream open on `client` until the link is
    /// stopped: a clean end is opened again (the stream starts anew with
    /// the whole game).
    pub fn game(client: Arc<Client>, id: &str, timing: Timing) -> Link {
        Link::open(client, game_stream(id), (timing, true))
    }

    fn open(client: Arc<Client>, path: String, how: (Timing, bool)) -> Link {
        let (tx, reports) = crossbeam_channel::unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || keep(&client, &path, how, &tx, &stopped));
        Link { reports, stop }
    }

    /// What the link has to report, without waiting.
    pub fn reports(&self) -> impl Iterator<Item = Report> + '_ {
        self.reports.try_iter()
    }

    /// The next report, waiting at most `within`.
    pub fn next(&self, within: Duration) -> Option<Report> {
        self.reports.recv_timeout(within).ok()
    }

    /// Opens the stream no more (as when dropped).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What one connection's reader says.
enum Read {
    Line(String),
    Broken(String),
    Ended,
}

/// Reads `lines` on a thread of its own, each line to `tx`.
fn read(mut lines: Lines, tx: Sender<Read>) {
    std::thread::spawn(move || {
        for line in lines.by_ref() {
            let read = match line {
                Ok(line) => Read::Line(line),
                Err(e) => Read::Broken(e.to_string()),
            };
            let broken = matches!(read, Read::Broken(_));
            if tx.send(read).is_err() || broken {
                return;
            }
        }
        let _ = tx.send(Read::Ended);
    });
}

/// The link's thread: open, read, and open again.
fn keep(
    client: &Client,
    path: &str,
    (timing, reopen_quietly): (Timing, bool),
    tx: &Sender<Report>,
    stop: &AtomicBool,
) {
    let mut wait = timing.first;
    let mut lost = false;
    let pause = |d: Duration| {
        // Waits in short steps, so that a stop is seen.
        let until = std::time::Instant::now() + d;
        while std::time::Instant::now() < until && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20).min(d));
        }
    };
    let lose = |why: String, lost: &mut bool| {
        if !*lost {
            *lost = true;
            let _ = tx.send(Report::Lost(why));
        }
    };
    while !stop.load(Ordering::Relaxed) {
        let lines = match client.stream(path) {
            Ok(lines) => lines,
            Err(ApiError::Unauthorized) => {
                let _ = tx.send(Report::Refused(ApiError::Unauthorized.to_string()));
                return;
            }
            Err(
                e @ ApiError::Refused {
                    status: 400 | 404, ..
                },
            ) => {
                let _ = tx.send(Report::Gone(e.to_string()));
                return;
            }
            Err(ApiError::TooManyRequests) => {
                lose(ApiError::TooManyRequests.to_string(), &mut lost);
                pause(timing.too_many);
                continue;
            }
            Err(e) => {
                lose(e.to_string(), &mut lost);
                pause(wait);
                wait = (wait * 2).min(timing.most);
                continue;
            }
        };
        if tx.send(Report::Opened).is_err()
            || (std::mem::take(&mut lost) && tx.send(Report::Back).is_err())
        {
            return;
        }
        let (read_tx, from) = crossbeam_channel::unbounded();
        read(lines, read_tx);
        let mut closed_cleanly = false;
        // Lines other than keep-alives this connection gave.
        let mut said = 0;
        let opened = std::time::Instant::now();
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            match from.recv_timeout(timing.silence) {
                Ok(Read::Line(line)) if line.trim().is_empty() => {}
                Ok(Read::Line(line)) => {
                    said += 1;
                    if said > 1 && reopen_quietly {
                        // A game's stream that goes on past its first
                        // line: the next failure waits the least again.
                        // (The event stream's first lines are many: the
                        // games under way, the challenges; it must last.)
                        wait = timing.first;
                    }
                    if tx.send(Report::Line(line)).is_err() {
                        return;
                    }
                }
                // A game's stream closed cleanly is opened again without
                // a word; the event stream does not end, so its end is a
                // break like any other.
                Ok(Read::Ended) if reopen_quietly => {
                    closed_cleanly = true;
                    break;
                }
                Ok(Read::Ended) => {
                    lose("lichess closed the stream".into(), &mut lost);
                    break;
                }
                Ok(Read::Broken(why)) => {
                    lose(why, &mut lost);
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    lose("the stream's reader stopped".into(), &mut lost);
                    break;
                }
                Err(RecvTimeoutError::Timeout) => {
                    // Silent past the limit: this connection is left where
                    // it hangs, and a new one opened.
                    lose(
                        format!(
                            "the stream said nothing for {} ms",
                            timing.silence.as_millis()
                        ),
                        &mut lost,
                    );
                    break;
                }
            }
        }
        if closed_cleanly && said > 1 {
            pause(timing.first);
            continue;
        }
        // Broken, or closed before it said more than its first line (a
        // newer stream elsewhere closes this one at once): backoff, unless
        // the connection lasted.
        if opened.elapsed() >= timing.silence {
            wait = timing.first;
        }
        pause(wait);
        wait = (wait * 2).min(timing.most);
    }
}
