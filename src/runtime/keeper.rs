//! The game's keeper: the controller, the journal of what it is fed, and
//! the scoresheet of what it concluded, kept together so that nothing
//! reaches the controller without reaching the journal.
//!
//! `play` feeds the keeper, never the controller. Each record goes to the
//! journal's writer thread; when a tick changed the game (a move, a clock
//! press, any input, the end), the keeper asks the scan loop to hold the
//! next tick until that record is on the disk ([`Keeper::ready`]). While the
//! clock runs, a heartbeat record keeps its time on the disk within a
//! second, and the beat file (unsynced) within a scan or two. After a
//! `new_game` event the keeper closes the game's journal and opens the next
//! one: game after game, each in its own file.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Position as _};

use crate::announce::{Narrator, Phrasebook};
use crate::braille::Brailler;
use crate::config::Config;
use crate::core::settings::Opponent;
use crate::core::{Controller, Event, Input, Seat, Settings, Stamped, StartPosition};
use crate::record::journal::ResumeClocks;
use crate::record::journal::{Companion, GameFiles, Loaded, Store, Writer, store};
use crate::record::scoresheet::Scoresheet;
use crate::runtime::error::{Error, Result};
use crate::runtime::outputs::Door;
use crate::runtime::parts;
use crate::runtime::replay::{Until, stream};
use crate::trace::{Header, Reading};
use shakmaty::Color;

/// While a clock runs, a record at least this often (ms).
const HEARTBEAT_MS: u64 = 800;

/// The longest the scan loop holds a tick for a record to reach the disk:
/// a card that stalls longer delays the game no further (the records still
/// go to the disk, and the player is told nothing is lost).
const SYNC_WAIT: Duration = Duration::from_secs(1);

/// What a game's journal and scoresheet need besides the controller.
struct Keeping {
    store: Store,
    writer: Writer,
}

pub(crate) struct Keeper {
    c: Controller,
    /// Who puts the game's events in words.
    narrator: Narrator,
    /// The start position every game of this session begins from.
    start: StartPosition,
    keeping: Option<Keeping>,
    /// Finished games' journals still writing their last records, each
    /// in a thread of its own, so that a new game never waits on the disk.
    closing: Vec<std::thread::JoinHandle<Option<String>>>,
    sheet: Scoresheet,
    tags: BTreeMap<String, String>,
    /// The raw reading last journaled, per board.
    journaled: Vec<Bitboard>,
    last_record_t: u64,
    /// The game changed since the tick began.
    changed: bool,
    /// A record the next tick waits for, and since when.
    barrier: Option<(u64, Instant)>,
    slow_told: bool,
    /// The scoresheet changed since it was last asked for.
    sheet_changed: bool,
    /// Notes for the log (journal trouble, files left alone).
    notes: Vec<String>,
    /// A resumed game's events before the restart, for the mirror, until
    /// taken.
    history: Vec<Stamped>,
    /// `[game]`'s tags, and the engine's program, for the next game's
    /// tags.
    base_tags: BTreeMap<String, String>,
    engine_command: String,
    /// With `[journal] brf`: the scoresheet's Braille, kept beside its PGN.
    brailler: Option<Arc<Brailler>>,
}

/// The day, as PGN writes a date (`2026.11.22`), from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date (proleptic Gregorian).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The journal directory the configuration names, or the default one.
pub(crate) fn journal_dir(config: &Config) -> Option<std::path::PathBuf> {
    config.journal.dir.clone().or_else(store::default_dir)
}

/// The scoresheet's tags: `[game]`'s, and a player the engine is named
/// with its strength, unless `[game]` names him.
fn seat_tags(
    base: &BTreeMap<String, String>,
    command: &str,
    settings: &Settings,
) -> BTreeMap<String, String> {
    let mut tags = base.clone();
    let strength = match settings.preferences.opponent {
        Opponent::Engine(strength) => {
            let (step, elo, level) = strength.keys();
            crate::engine::EngineConfig {
                step,
                elo,
                level,
                ..Default::default()
            }
            .strength()
        }
        Opponent::Person | Opponent::Lichess(_) => {
            crate::engine::EngineConfig::default().strength()
        }
    };
    // The program's name, not where it lies ("/usr/games/stockfish").
    let program = command.rsplit('/').next().unwrap_or(command);
    for (name, color) in [("White", Color::White), ("Black", Color::Black)] {
        if *settings.seats.of(color) == Seat::Engine {
            tags.entry(name.to_string())
                .or_insert_with(|| format!("{program} ({strength})"));
        }
    }
    tags
}

/// A journal read back, fed through a fresh controller: where its game
/// stands, and its scoresheet.
pub(crate) struct Rebuilt {
    pub controller: Controller,
    /// Who put its events in words, in the language of its last game.
    pub narrator: Narrator,
    pub sheet: Scoresheet,
    pub header: Header,
    /// The game's events as the replay made them again: what the mirror
    /// showed before pegboard stopped.
    pub events: Vec<Stamped>,
}

/// Feeds a journal's records through the core, as they were fed when it
/// was written. Fails on a record the core refuses.
pub(crate) fn rebuild(
    loaded: &Loaded,
    settings: Settings,
    words: Phrasebook,
    boards: &[&str],
) -> std::result::Result<Rebuilt, String> {
    let header = match loaded.entries.first().map(|e| &e.reading) {
        Some(Reading::Header(h)) => h.clone(),
        _ => return Err("the journal has no header".into()),
    };
    let control = header
        .time_control
        .as_ref()
        .or(settings.clock.control.as_ref())
        .map(|c| c.to_pgn());
    let mut sheet = Scoresheet::new(&header.tags, control);
    let mut history = Vec::new();
    let file = loaded.files.journal.display().to_string();
    let replayed = stream(
        loaded.entries.iter().map(Ok),
        &file,
        settings,
        words,
        boards,
        Until::LastLine,
        |events: &[Stamped]| {
            for e in events {
                sheet.observe(e);
            }
            history.extend_from_slice(events);
            Ok(())
        },
    )
    .map_err(|e| e.to_string())?;
    Ok(Rebuilt {
        controller: replayed.controller,
        narrator: replayed.narrator,
        sheet,
        header,
        events: history,
    })
}

/// With `[journal] brf`, what puts the scoresheet into Braille; a code
/// that cannot be had is noted, and the game is kept in PGN alone.
fn brailler(config: &Config, notes: &mut Vec<String>) -> Option<Arc<Brailler>> {
    if !config.journal.brf {
        return None;
    }
    match crate::runtime::scoresheets::brailler(config) {
        Ok(b) => Some(Arc::new(b)),
        Err(e) => {
            notes.push(format!(
                "journal: {e}; the scoresheet is not kept in Braille"
            ));
            None
        }
    }
}

/// Has the journal's thread keep the scoresheet in Braille too, as a
/// `.brf` beside its `.pgn`; a game taken up again (its scoresheet `now`)
/// has it written at once, not at its next move: its file may be older
/// than the game, or missing.
fn braille_beside(brailler: Option<&Arc<Brailler>>, writer: &Writer, now: Option<&Scoresheet>) {
    if let Some(b) = brailler {
        let b = Arc::clone(b);
        writer.companion(Companion {
            path: writer.files().pgn.with_extension("brf"),
            make: Box::new(move |pgn| {
                crate::runtime::scoresheets::brf_of(&b, pgn, "the scoresheet", &mut std::io::sink())
                    .map_err(|e| e.to_string())
            }),
        });
        if let Some(sheet) = now {
            writer.scoresheet(sheet.pgn());
        }
    }
}

impl Keeper {
    /// The game to play: the newest game in the journal directory if it is
    /// unfinished (fed through the core again, then told `restarted`), or a
    /// new one from `start`. `t` is the scan loop's first instant; the
    /// returned instant is the game time it stands for (the game's clock
    /// goes on from where the journal ends: time pegboard was off is
    /// nobody's). The events to hand on go to `out`.
    pub fn open(
        config: &Config,
        start: &StartPosition,
        boards: &[&str],
        t: u64,
        out: &mut Vec<Stamped>,
    ) -> Result<(Keeper, u64)> {
        let words = parts::phrasebook(config)?;
        let settings = parts::settings(config);
        let mut notes = Vec::new();
        let mut tags = seat_tags(&config.game.tags(), &config.engine.command, &settings);
        let store = match journal_dir(config) {
            Some(dir) => match Store::open(&dir) {
                Ok(s) => Some(s),
                Err(e) => {
                    notes.push(format!("journal: {e}; the game is not kept on disk"));
                    None
                }
            },
            None => {
                notes.push(
                    "journal: no directory (set [journal] dir); the game is not kept on disk"
                        .into(),
                );
                None
            }
        };
        // The newest game, when it is finished: its review can still be
        // asked for in the new game.
        let mut past = None;
        if let Some(store) = &store
            && let Some(resumed) =
                Keeper::resume(config, store, boards, &mut notes, &mut past, out)?
        {
            return Ok(resumed);
        }
        tags.insert("Date".into(), today());
        let narrator = Narrator::new(words, &settings.preferences.language);
        let mut c = Controller::new(start, settings.clone(), boards)
            .map_err(|e| Error::Game(e.to_string()))?;
        let control = settings.clock.control.as_ref().map(|c| c.to_pgn());
        let mut sheet = Scoresheet::new(&tags, control);
        let n = out.len();
        c.start(t, out);
        for e in &out[n..] {
            sheet.observe(e);
        }
        let brailler = brailler(config, &mut notes);
        let mut keeper = Keeper {
            journaled: (0..boards.len()).map(|i| c.raw(i)).collect(),
            c,
            narrator,
            start: start.clone(),
            keeping: None,
            closing: Vec::new(),
            sheet,
            tags,
            last_record_t: t,
            changed: false,
            barrier: None,
            slow_told: false,
            sheet_changed: true,
            notes,
            history: Vec::new(),
            base_tags: config.game.tags(),
            engine_command: config.engine.command.clone(),
            brailler,
        };
        if let Some(store) = store {
            keeper.begin_journal(store, t, start);
        }
        if let Some(past) = past {
            keeper.input(t, Input::past_game(past), out);
        }
        Ok((keeper, t))
    }

    /// The newest game, if it is unfinished: rebuilt and restarted. If it
    /// is finished, what it hands the next game for its review goes to
    /// `past`.
    fn resume(
        config: &Config,
        store: &Store,
        boards: &[&str],
        notes: &mut Vec<String>,
        past: &mut Option<crate::core::review::Review>,
        out: &mut Vec<Stamped>,
    ) -> Result<Option<(Keeper, u64)>> {
        let numbers = match store.numbers() {
            Ok(n) => n,
            Err(e) => {
                notes.push(format!("journal: {e}"));
                return Ok(None);
            }
        };
        let Some(&newest) = numbers.last() else {
            return Ok(None);
        };
        let loaded = match store.load(newest) {
            Ok(l) => l,
            Err(e) => {
                notes.push(format!("journal: {e}"));
                return Ok(None);
            }
        };
        if let Some(e) = loaded.corruption() {
            notes.push(format!("journal: {e}"));
            return Ok(None);
        }
        let words = parts::phrasebook(config)?;
        let rebuilt = match rebuild(&loaded, parts::settings(config), words, boards) {
            Ok(r) => r,
            Err(e) => {
                notes.push(format!("journal: {e}; a new game begins"));
                return Ok(None);
            }
        };
        let c = rebuilt.controller;
        let narrator = rebuilt.narrator;
        if c.game().is_over() || c.new_game_given() || loaded.entries.is_empty() {
            *past = c.review_to_keep();
            return Ok(None);
        }
        if loaded.damage.is_some() {
            notes.push(format!(
                "journal: {}: its torn last record was cut off",
                loaded.files.journal.display()
            ));
        }
        let writer = match Writer::resume(&loaded) {
            Ok(w) => w,
            Err(e) => {
                notes.push(format!("journal: {e}; the game goes on without it"));
                return Ok(None);
            }
        };
        // Where the game stood when pegboard stopped: the last record, or
        // the beat file if it is later (a crash of pegboard alone).
        let beat = store::read_beat(&loaded.files.beat).unwrap_or(0);
        let at = loaded.last_t().max(beat);
        let brailler = brailler(config, notes);
        braille_beside(brailler.as_ref(), &writer, Some(&rebuilt.sheet));
        let mut keeper = Keeper {
            journaled: (0..boards.len()).map(|i| c.raw(i)).collect(),
            c,
            narrator,
            // A mistake's position set up from the review is its game's
            // start alone: the games after it begin from `after`.
            start: rebuilt
                .header
                .after
                .clone()
                .map(|start| StartPosition {
                    start,
                    chess960: rebuilt.header.start.chess960,
                })
                .unwrap_or_else(|| rebuilt.header.start.clone()),
            keeping: Some(Keeping {
                store: store.clone(),
                writer,
            }),
            closing: Vec::new(),
            sheet: rebuilt.sheet,
            tags: rebuilt.header.tags.clone(),
            last_record_t: loaded.last_t(),
            changed: false,
            barrier: None,
            slow_told: false,
            sheet_changed: true,
            notes: std::mem::take(notes),
            history: rebuilt.events,
            base_tags: config.game.tags(),
            engine_command: config.engine.command.clone(),
            brailler,
        };
        out.push(keeper.c.ready(at));
        let hold = config.journal.resume == ResumeClocks::Held;
        keeper.input(at, Input::Restarted { hold }, out);
        Ok(Some((keeper, at)))
    }

    /// A resumed game's events before the restart (once; empty for a new
    /// game): the mirror shows the game as it was, not from its restart.
    pub fn take_history(&mut self) -> Vec<Stamped> {
        std::mem::take(&mut self.history)
    }

    /// Opens the journal of the game the controller is playing, from
    /// `start`, with the readings it believes the boards show.
    fn begin_journal(&mut self, store: Store, t: u64, start: &StartPosition) {
        let files = match store.next() {
            Ok(f) => f,
            Err(e) => {
                self.notes.push(format!("journal: {e}"));
                return;
            }
        };
        let header = Reading::Header(Header {
            start: start.clone(),
            time_control: self.c.settings().clock.control.clone(),
            tags: self.tags.clone(),
            white_moves_on: self.c.settings().seats.white.written(),
            black_moves_on: self.c.settings().seats.black.written(),
            laws: Some(self.c.settings().laws),
            after: self.c.after_start().map(|s| s.start),
        });
        match Writer::create(files, t, &header) {
            Ok(mut writer) => {
                braille_beside(self.brailler.as_ref(), &writer, None);
                for (i, name) in self.c.board_names().enumerate() {
                    let occ = self.c.raw(i);
                    if occ != self.c.game().start_position().board().occupied() {
                        writer.record(
                            t,
                            &Reading::Scan {
                                board: name.to_string(),
                                occ,
                            },
                        );
                    }
                }
                writer.scoresheet(self.sheet.pgn());
                self.last_record_t = t;
                self.keeping = Some(Keeping { store, writer });
            }
            Err(e) => self
                .notes
                .push(format!("journal: {e}; the game is not kept on disk")),
        }
    }

    pub fn controller(&self) -> &Controller {
        &self.c
    }

    /// The files of the game being played, if it is journaled.
    pub fn files(&self) -> Option<&GameFiles> {
        self.keeping.as_ref().map(|k| k.writer.files())
    }

    fn record(&mut self, t: u64, reading: &Reading) {
        if let Some(k) = &mut self.keeping {
            k.writer.record(t, reading);
            self.last_record_t = t;
        }
    }

    /// Takes in the events the controller just concluded: the scoresheet,
    /// whether the game changed, and the next game after a `new_game`.
    fn took(&mut self, from: usize, out: &mut Vec<Stamped>) {
        // In words at once: the console's answer is made of these.
        self.narrator.tell(&mut out[from..]);
        let mut sheet_changed = false;
        for e in &out[from..] {
            sheet_changed |= self.sheet.observe(e);
            self.changed |= matches!(
                e.event,
                Event::Move { .. }
                    | Event::Clock { .. }
                    | Event::GameOver { .. }
                    | Event::Illegal { .. }
                    | Event::Flag { .. }
                    | Event::DrawOffer { .. }
                    | Event::NewGame { .. }
                    | Event::Announced { .. }
            );
        }
        self.sheet_changed |= sheet_changed;
        if sheet_changed && let Some(k) = &self.keeping {
            k.writer.scoresheet(self.sheet.pgn());
        }
        if self.c.new_game_given() {
            let at = out[from..]
                .iter()
                .find(|e| matches!(e.event, Event::NewGame { .. }))
                .map_or(self.last_record_t, |e| e.t);
            self.next_game(at, out);
            // The next game's first events, in its own language.
            self.narrator.tell(&mut out[from..]);
        }
    }

    /// The game is finished with: its journal is closed, and the next game
    /// begins at `t` in a journal of its own.
    fn next_game(&mut self, t: u64, out: &mut Vec<Stamped>) {
        // The record that ended the game reaches the disk first.
        let at = t.max(self.last_record_t);
        let store = self.keeping.take().map(|k| {
            let writer = k.writer;
            // Its last records and its scoresheet are written in the
            // background; should no thread start, the writer is finished
            // here (dropped with the refused closure).
            if let Ok(closing) = std::thread::Builder::new()
                .name("journal-close".into())
                .spawn(move || writer.finish())
            {
                self.closing.push(closing);
            }
            k.store
        });
        let n = out.len();
        // A position the arbiter set up is this game's start and the next's;
        // a mistake's position from the review is this game's alone.
        let mut start = self.start.clone();
        if let Some(set_up) = self.c.next_start() {
            start = set_up.clone();
            if !self.c.next_start_once() {
                self.start = set_up.clone();
            }
        }
        // The game just finished, for its review in the next.
        let past = self.c.review_to_keep();
        self.c = self.c.next_game(at, out);
        // In words at once, its `ready` first: what follows is said in
        // the next game's language.
        self.narrator.tell(&mut out[n..]);
        // The spoken menu may have changed who plays whom.
        self.tags = seat_tags(&self.base_tags, &self.engine_command, self.c.settings());
        self.tags.insert("Date".into(), today());
        let control = self.c.settings().clock.control.as_ref().map(|c| c.to_pgn());
        self.sheet = Scoresheet::new(&self.tags, control);
        self.sheet_changed = true;
        for e in &out[n..] {
            self.sheet.observe(e);
        }
        self.journaled = (0..self.journaled.len()).map(|i| self.c.raw(i)).collect();
        if let Some(store) = store {
            self.begin_journal(store, at, &start);
        }
        if let Some(past) = past {
            self.input(at, Input::past_game(past), out);
        }
        self.changed = true;
    }

    /// A raw reading of `board` at `t`; journaled when it changed.
    pub fn scan(&mut self, t: u64, board: usize, occ: Bitboard, out: &mut Vec<Stamped>) {
        if occ != self.journaled[board] {
            self.journaled[board] = occ;
            let name = self
                .c
                .board_names()
                .nth(board)
                .unwrap_or_default()
                .to_string();
            self.record(t, &Reading::Scan { board: name, occ });
        }
        let n = out.len();
        self.c.scan(t, board, occ, out);
        self.took(n, out);
    }

    /// Fires the controller's timers due by `t`.
    pub fn advance(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let n = out.len();
        self.c.advance(t, out);
        self.took(n, out);
    }

    /// Ends a tick at `t`: a game that changed has its last record synced
    /// before the next tick is handled; a running clock has a record at
    /// least every [`HEARTBEAT_MS`]; the beat file hears `t`.
    pub fn end_tick(&mut self, t: u64) {
        let clock_runs = self
            .c
            .clock()
            .is_some_and(|c| c.running().is_some() && !c.is_paused());
        if (self.changed && self.last_record_t < t)
            || (clock_runs && t >= self.last_record_t + HEARTBEAT_MS)
        {
            self.heartbeat(t);
        }
        if let Some(k) = &self.keeping {
            if self.changed {
                self.barrier = Some((k.writer.last(), Instant::now()));
            }
            k.writer.beat(t);
            if let Some(trouble) = k.writer.trouble() {
                self.notes.push(format!("journal: {trouble}"));
            }
        }
        if self.closing.iter().any(|c| c.is_finished()) {
            let (done, going): (Vec<_>, Vec<_>) =
                self.closing.drain(..).partition(|c| c.is_finished());
            self.closing = going;
            self.closed(done);
        }
        self.changed = false;
    }

    /// A record that only says the time: the board as last fed.
    fn heartbeat(&mut self, t: u64) {
        let name = self.c.board_names().next().unwrap_or_default().to_string();
        let occ = self.journaled[0];
        self.record(t, &Reading::Scan { board: name, occ });
    }

    /// Whether the next tick may be handled: the last record that changed
    /// the game is on the disk (or has been waited for long enough).
    pub fn ready(&mut self) -> bool {
        let Some((seq, since)) = self.barrier else {
            return true;
        };
        let synced = self.keeping.as_ref().is_none_or(|k| k.writer.synced(seq));
        if synced {
            self.barrier = None;
            return true;
        }
        if since.elapsed() >= SYNC_WAIT {
            if !self.slow_told {
                self.slow_told = true;
                self.notes.push(format!(
                    "journal: the disk took over {} ms to sync a record; the game goes on \
                     meanwhile",
                    SYNC_WAIT.as_millis()
                ));
            }
            self.barrier = None;
            return true;
        }
        false
    }

    /// The scoresheet, if it changed since the last call (for the mirror).
    pub fn changed_scoresheet(&mut self) -> Option<String> {
        std::mem::take(&mut self.sheet_changed).then(|| self.sheet.pgn())
    }

    /// Notes for the log since the last call.
    pub fn notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The end of the session at `t`: the time on the disk, every record
    /// synced.
    pub fn finish(mut self, t: u64) -> Vec<String> {
        if self.keeping.is_some() && t > self.last_record_t {
            self.heartbeat(t);
        }
        if let Some(k) = self.keeping.take() {
            k.writer.beat(t);
            if let Some(trouble) = k.writer.finish() {
                self.notes.push(format!("journal: {trouble}"));
            }
        }
        let closing = std::mem::take(&mut self.closing);
        self.closed(closing);
        self.notes
    }

    /// Waits for finished games' journals to be closed, and notes any
    /// trouble they had.
    fn closed(&mut self, closing: Vec<std::thread::JoinHandle<Option<String>>>) {
        for c in closing {
            match c.join() {
                Ok(Some(trouble)) => self.notes.push(format!("journal: {trouble}")),
                Ok(None) => {}
                Err(_) => self
                    .notes
                    .push("journal: a finished game's journal could not be closed".into()),
            }
        }
    }
}

impl Door for Keeper {
    /// An input at `t`: journaled, then fed.
    fn input(&mut self, t: u64, input: Input, out: &mut Vec<Stamped>) {
        self.record(t, &Reading::Input(input.clone()));
        self.changed = true;
        let n = out.len();
        self.c.input(t, input, out);
        self.took(n, out);
    }

    fn tell(&mut self, events: &mut [Stamped]) {
        self.narrator.tell(events);
    }
}
