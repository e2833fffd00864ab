//! The journal's writer: a thread of its own that appends records, syncs
//! them (fdatasync) and rewrites the scoresheet atomically, with a second
//! thread that keeps the beat
//! file, so that the scan loop never waits on the SD card. The scan loop
//! asks [`Writer::synced`] whether a record has reached the disk.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::record::{MAGIC, encode};
use super::store::{GameFiles, Loaded, write_beat};
use super::{Result, io_error, replace_file, sync_dir};
use crate::trace::{Reading, write_line};

/// How often the beat file is brought up to date, and the writer wakes.
const BEAT_EVERY: Duration = Duration::from_millis(10);

enum Message {
    Line(String, u64),
    Scoresheet(String),
    Companion(Companion),
}

/// A file kept beside the scoresheet and made from it, written with it
/// (the scoresheet in Braille): its path, and how its text is made from
/// the PGN.
pub struct Companion {
    pub path: std::path::PathBuf,
    pub make: MakeCompanion,
}

/// How a companion's text is made from the scoresheet's PGN (or why not).
pub type MakeCompanion = Box<dyn Fn(&str) -> std::result::Result<String, String> + Send>;

#[derive(Default)]
struct Shared {
    /// The highest sequence number on disk.
    synced: AtomicU64,
    /// The latest instant the game was seen alive (`u64::MAX`: none yet).
    beat: AtomicU64,
    /// Why writing failed, until the scan loop has told it.
    trouble: Mutex<Option<String>>,
    /// The records are all written: the beat is written a last time.
    done: std::sync::atomic::AtomicBool,
}

/// The open journal of the game being played.
pub struct Writer {
    tx: Option<Sender<Message>>,
    shared: Arc<Shared>,
    next_seq: u64,
    thread: Option<JoinHandle<()>>,
    /// Keeps the beat file apart from the records, so that a slow sync
    /// never leaves the beat behind.
    beat_thread: Option<JoinHandle<()>>,
    files: GameFiles,
}

impl Writer {
    /// Starts a new game's journal with its header: created (never over an
    /// existing file) and written here; synced, with its directory, by the
    /// writer's thread before anything else, so that the scan loop does not
    /// wait for the disk when a game begins. A cut before that leaves an
    /// empty or headless file, which is no game to resume: a new one begins.
    pub fn create(files: GameFiles, t: u64, header: &Reading) -> Result<Writer> {
        let path = &files.journal;
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(io_error(path))?;
        let text = format!("{MAGIC}\n{}", encode(1, &write_line(t, header)));
        f.write_all(text.as_bytes()).map_err(io_error(path))?;
        Ok(Writer::spawn(f, files, 2, 0))
    }

    /// Goes on with a journal read back: a torn end is cut off at the last
    /// whole record first (the cut synced by the writer's thread before any
    /// new record).
    pub fn resume(loaded: &Loaded) -> Result<Writer> {
        let path = &loaded.files.journal;
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_error(path))?;
        f.set_len(loaded.good_len).map_err(io_error(path))?;
        let mut f = f;
        std::io::Seek::seek(&mut f, std::io::SeekFrom::End(0)).map_err(io_error(path))?;
        let last = loaded.entries.len() as u64;
        Ok(Writer::spawn(f, loaded.files.clone(), last + 1, last))
    }

    /// The writer's threads for `file`, whose records up to `next_seq - 1`
    /// are written, up to `synced` of them known to be on the disk.
    fn spawn(file: File, files: GameFiles, next_seq: u64, synced: u64) -> Writer {
        let shared = Arc::new(Shared::default());
        shared.synced.store(synced, Ordering::SeqCst);
        shared.beat.store(u64::MAX, Ordering::SeqCst);
        let (tx, rx) = crossbeam_channel::unbounded();
        let thread = {
            let shared = Arc::clone(&shared);
            let files = files.clone();
            std::thread::Builder::new()
                .name("journal".into())
                .spawn(move || run(file, &files, next_seq - 1, &rx, &shared))
                .ok()
        };
        let beat_thread = {
            let shared = Arc::clone(&shared);
            let path = files.beat.clone();
            std::thread::Builder::new()
                .name("journal-beat".into())
                .spawn(move || beat(&path, &shared))
                .ok()
        };
        if thread.is_none() {
            shared.synced.store(u64::MAX, Ordering::SeqCst);
            *lock(&shared.trouble) = Some("the journal's thread cannot start".into());
        }
        Writer {
            tx: Some(tx),
            shared,
            next_seq,
            thread,
            beat_thread,
            files,
        }
    }

    pub fn files(&self) -> &GameFiles {
        &self.files
    }

    /// Appends what the core was fed at `t`; returns the record's number.
    pub fn record(&mut self, t: u64, reading: &Reading) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let line = encode(seq, &write_line(t, reading));
        if let Some(tx) = &self.tx {
            let _ = tx.send(Message::Line(line, seq));
        }
        seq
    }

    /// The number of the last record handed in (0: none).
    pub fn last(&self) -> u64 {
        self.next_seq - 1
    }

    /// Whether record `seq` is on the disk (or writing has failed, and
    /// nothing is to be waited for).
    pub fn synced(&self, seq: u64) -> bool {
        self.shared.synced.load(Ordering::SeqCst) >= seq
    }

    /// The game was alive at `t`.
    pub fn beat(&self, t: u64) {
        self.shared.beat.store(t, Ordering::SeqCst);
    }

    /// The scoresheet as it now stands, to be written atomically.
    pub fn scoresheet(&self, pgn: String) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Message::Scoresheet(pgn));
        }
    }

    /// Keeps `companion` beside the scoresheet from its next writing on.
    pub fn companion(&self, companion: Companion) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Message::Companion(companion));
        }
    }

    /// Why writing failed, once.
    pub fn trouble(&self) -> Option<String> {
        lock(&self.shared.trouble).take()
    }

    /// Writes and syncs everything handed in, and ends the thread.
    pub fn finish(mut self) -> Option<String> {
        self.end();
        self.trouble()
    }

    fn end(&mut self) {
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.shared.done.store(true, Ordering::SeqCst);
        if let Some(t) = self.beat_thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.end();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn run(mut file: File, files: &GameFiles, written: u64, rx: &Receiver<Message>, shared: &Shared) {
    let mut failed = false;
    let fail = |what: String, failed: &mut bool| {
        if !*failed {
            *failed = true;
            *lock(&shared.trouble) = Some(what);
            // Nothing more will reach the disk: nobody is to wait for it.
            shared.synced.store(u64::MAX, Ordering::SeqCst);
        }
    };
    // What was written before the thread began (a new game's header, a
    // resumed journal's cut), and the file's name in its directory.
    match file.sync_all().and_then(|()| sync_dir(&files.journal)) {
        Ok(()) => {
            let _ = shared.synced.fetch_max(written, Ordering::SeqCst);
        }
        Err(e) => fail(
            format!("{}: cannot be written: {e}", files.journal.display()),
            &mut failed,
        ),
    }
    // Each with whether its failure was told: once is enough.
    let mut companions: Vec<(Companion, bool)> = Vec::new();
    loop {
        let mut batch = Vec::new();
        let open = match rx.recv_timeout(BEAT_EVERY) {
            Ok(m) => {
                batch.push(m);
                batch.extend(rx.try_iter());
                true
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => false,
        };
        let mut text = String::new();
        let mut last = None;
        let mut sheet = None;
        for m in batch {
            match m {
                Message::Line(line, seq) => {
                    text.push_str(&line);
                    last = Some(seq);
                }
                Message::Scoresheet(pgn) => sheet = Some(pgn),
                Message::Companion(c) => companions.push((c, false)),
            }
        }
        if let Some(seq) = last
            && !failed
        {
            let written = file
                .write_all(text.as_bytes())
                .and_then(|()| file.sync_data());
            match written {
                Ok(()) => shared.synced.store(seq, Ordering::SeqCst),
                Err(e) => fail(
                    format!("{}: cannot be written: {e}", files.journal.display()),
                    &mut failed,
                ),
            }
        }
        if let Some(pgn) = sheet {
            if let Err(e) = replace_file(&files.pgn, &pgn) {
                *lock(&shared.trouble) =
                    Some(format!("{}: cannot be written: {e}", files.pgn.display()));
            }
            for (c, told) in &mut companions {
                let made = (c.make)(&pgn).and_then(|text| {
                    replace_file(&c.path, &text).map_err(|e| format!("cannot be written: {e}"))
                });
                if let Err(e) = made
                    && !std::mem::replace(told, true)
                {
                    // The journal's own trouble, if any, is told first.
                    lock(&shared.trouble).get_or_insert(format!("{}: {e}", c.path.display()));
                }
            }
        }
        if !open {
            return;
        }
    }
}

/// Rewrites the beat file whenever the game's instant moved on, every
/// [`BEAT_EVERY`], until the records are all written; then once more, and
/// syncs it.
fn beat(path: &std::path::Path, shared: &Shared) {
    let Ok(file) = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
    else {
        return;
    };
    let mut written = u64::MAX;
    loop {
        let done = shared.done.load(Ordering::SeqCst);
        let t = shared.beat.load(Ordering::SeqCst);
        if t != written && t != u64::MAX {
            let _ = write_beat(&file, t);
            written = t;
        }
        if done {
            let _ = file.sync_data();
            return;
        }
        std::thread::sleep(BEAT_EVERY);
    }
}
