//! The refreshable Braille display in `play`: a thread of its own holds
//! the connection to brltty, shows the game as the events (in words) come,
//! and reads the display's keys; the scan loop hands it events and takes
//! its reports, never waiting for it.
//!
//! The thread waits on two things at once: brltty's socket (a key) and a
//! socket pair the owner writes a byte to with every batch of events. A
//! display that cannot be reached (unplugged, brltty stopped or not yet
//! started) is reported once, and tried again with a growing pause (half a
//! second, doubling up to five); when it answers again it is reported, and
//! shows the game as it stands.

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use shakmaty::Color;

use crate::braille::Brailler;
use crate::braille::brlapi::{Display, Key};
use crate::braille::cell::Cell;
use crate::braille::keys::{DisplayKeys, Local};
use crate::braille::screen::{Render, Screen, ScreenWords, Table};
use crate::config::Config;
use crate::core::{Event, Input, Stamped};
use crate::keys::{Keypad, Press};

/// What the display's thread tells the scan loop.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// The display cannot be reached (said once until it is back).
    Lost(String),
    /// It answers again, and shows the game.
    Back,
    /// A key of the display's that the game has something to do with: its
    /// number in the display's keypad.
    Press(u8),
    /// An input made on the display (a routing key on a move).
    Input(Input),
    /// The move of this ply was handed to the display (shown, or not when
    /// the display is away).
    Shown(u32),
}

/// The scan loop's end of the display.
pub struct BrailleDisplay {
    events: Sender<Vec<Stamped>>,
    waker: UnixStream,
    reports: Receiver<Report>,
    keypad: Keypad,
    /// Braille alone: the display's showing a move is its announcement.
    alone: bool,
    /// With Braille alone, the moves handed to the display and not yet
    /// shown, and when.
    handed: std::cell::RefCell<Vec<(u32, Instant)>>,
}

/// With Braille alone, how long a move waits for the display before it
/// counts as announced all the same (a display thread held up by brltty
/// must not hold the clock).
pub const SHOWN_WITHIN: Duration = Duration::from_millis(300);

impl BrailleDisplay {
    /// The display `[braille]` asks for, started in the language of
    /// `words`, the keys' owner playing `player`: None when none is asked
    /// for. The connection is made on the display's thread: nothing here
    /// waits for brltty.
    pub fn start(
        config: &Config,
        words: &crate::announce::Phrasebook,
        player: Color,
    ) -> crate::runtime::error::Result<Option<BrailleDisplay>> {
        let section = &config.braille;
        if !section.display {
            return Ok(None);
        }
        let brailler = crate::runtime::scoresheets::brailler(config)?;
        let w = &words.words;
        let screen = Screen::new(ScreenWords {
            to_move: w.phrases.to_move.clone(),
            white: w.colors.white.clone(),
            black: w.colors.black.clone(),
        });
        let keys = DisplayKeys::new(&section.key);
        let keypad = Keypad::new(keys.keypad(), player);
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        let (reports_tx, reports_rx) = crossbeam_channel::unbounded();
        let (waker, woken) = UnixStream::pair()?;
        waker.set_nonblocking(true)?;
        woken.set_nonblocking(true)?;
        let thread = Thread {
            host: section.host.clone(),
            auth: section.auth.clone(),
            screen,
            keys,
            render: Louis(brailler),
            events: events_rx,
            woken,
            reports: reports_tx,
            told_lost: false,
            back_since: None,
        };
        std::thread::Builder::new()
            .name("braille".into())
            .spawn(move || thread.run())?;
        Ok(Some(BrailleDisplay {
            events: events_tx,
            waker,
            reports: reports_rx,
            keypad,
            alone: !section.speech,
            handed: std::cell::RefCell::new(Vec::new()),
        }))
    }

    /// Hands events (in words) to the display.
    pub fn show(&self, events: &[Stamped]) {
        if events.is_empty() {
            return;
        }
        if self.alone {
            let now = Instant::now();
            self.handed
                .borrow_mut()
                .extend(events.iter().filter_map(|e| match e.event {
                    Event::Move { ply, .. } => Some((ply, now)),
                    _ => None,
                }));
        }
        if self.events.send(events.to_vec()).is_err() {
            return;
        }
        // A full pipe is a thread that has a byte to wake on already.
        let _ = (&self.waker).write(&[1]);
    }

    /// Whether a move counts as announced when the display has it (Braille
    /// alone), not when the voices begin it.
    pub fn announces(&self) -> bool {
        self.alone
    }

    /// The keys' owner plays `player` from now on.
    pub fn set_player(&mut self, player: Color) {
        self.keypad.set_player(player);
    }

    /// What the display reported since the last call, as the inputs it
    /// makes, and its notes for the log. A shown move is the `announced`
    /// input with Braille alone.
    pub fn inputs(&mut self, inputs: &mut Vec<Input>, notes: &mut Vec<String>) {
        for report in self.reports.try_iter() {
            match report {
                Report::Lost(why) => {
                    notes.push(format!(
                        "{why}; the game goes on, the display is tried again"
                    ));
                    inputs.push(Input::BrailleLost);
                }
                Report::Back => {
                    notes.push("the Braille display answers again".into());
                    inputs.push(Input::BrailleBack);
                }
                Report::Press(key) => inputs.extend(self.keypad.press(Press::Short(key))),
                Report::Input(input) => inputs.push(input),
                Report::Shown(ply) => {
                    let mut handed = self.handed.borrow_mut();
                    if let Some(i) = handed.iter().position(|(p, _)| *p == ply) {
                        handed.remove(i);
                        inputs.push(Input::Announced(ply));
                    }
                }
            }
        }
        // A move the display has not shown in time is announced all the
        // same.
        let mut handed = self.handed.borrow_mut();
        handed.retain(|&(ply, at)| {
            let waited = at.elapsed() >= SHOWN_WITHIN;
            if waited {
                notes.push(format!(
                    "the Braille display did not show ply {ply} within {} ms: it counts as \
                     announced",
                    SHOWN_WITHIN.as_millis()
                ));
                inputs.push(Input::Announced(ply));
            }
            !waited
        });
    }
}

/// Text in Braille through liblouis: a text the tables cannot take is
/// shown as blanks (it never stops the display).
struct Louis(Brailler);

impl Render for Louis {
    fn cells(&mut self, text: &str, table: Table) -> Vec<Cell> {
        let cells = match table {
            Table::Text => self.0.text(text),
            Table::Moves => self.0.moves(text),
        };
        cells.unwrap_or_else(|_| vec![Cell::BLANK; text.chars().count()])
    }
}

/// The display's thread.
struct Thread {
    host: String,
    auth: String,
    screen: Screen,
    keys: DisplayKeys,
    render: Louis,
    events: Receiver<Vec<Stamped>>,
    woken: UnixStream,
    reports: Sender<Report>,
    /// The loss was reported and not yet the return.
    told_lost: bool,
    /// brltty said the display is back, at this instant: believed once it
    /// has not gone away again for [`SETTLED`] (brltty says so more than
    /// once while a display goes).
    back_since: Option<Instant>,
}

/// How long a display brltty says is back must stay so to count as back.
const SETTLED: Duration = Duration::from_millis(500);

const FIRST_PAUSE: Duration = Duration::from_millis(500);
const LONGEST_PAUSE: Duration = Duration::from_secs(5);
/// How long brltty may take to name the display's size once connected.
const SIZE_WITHIN: Duration = Duration::from_secs(2);

impl Thread {
    fn run(mut self) {
        let mut display: Option<Display> = None;
        let mut pause = FIRST_PAUSE;
        let mut next_try = Instant::now();
        loop {
            if display.is_none() && Instant::now() >= next_try {
                match Display::open(&self.host, &self.auth, SIZE_WITHIN) {
                    Ok(d) => {
                        display = Some(d);
                        pause = FIRST_PAUSE;
                        self.back_since = None;
                        self.back();
                        // Shown as the game stands now.
                        self.redraw(&mut display);
                        self.take_keys(&mut display);
                    }
                    Err(e) => {
                        // The error names the display itself.
                        if !self.told_lost {
                            self.told_lost = true;
                            let _ = self.reports.send(Report::Lost(e.to_string()));
                        }
                        next_try = Instant::now() + pause;
                        pause = (pause * 2).min(LONGEST_PAUSE);
                    }
                }
            }
            if let Some(since) = self.back_since
                && since.elapsed() >= SETTLED
                && display.is_some()
            {
                self.back_since = None;
                self.back();
                self.redraw(&mut display);
            }
            let wait = match (&display, self.back_since) {
                (Some(_), Some(since)) => SETTLED.saturating_sub(since.elapsed()),
                (Some(_), None) => Duration::from_millis(500),
                (None, _) => next_try.saturating_duration_since(Instant::now()),
            };
            let fds = [
                Some(self.woken.as_raw_fd()),
                display.as_mut().map(Display::fd),
            ];
            if !wait_for(&fds, wait) {
                // The owner is gone: the run is over.
                if self.events.is_empty() && self.owner_gone() {
                    return;
                }
            }
            if !self.take_events(&mut display) {
                return;
            }
            self.take_keys(&mut display);
            if display.is_none() && !self.told_lost {
                self.lost("brltty stopped answering".into());
                next_try = Instant::now() + pause;
            }
        }
    }

    /// The display cannot be read: said once, until it is back.
    fn lost(&mut self, why: String) {
        if !self.told_lost {
            self.told_lost = true;
            let _ = self
                .reports
                .send(Report::Lost(format!("the Braille display: {why}")));
        }
    }

    /// The display can be read again: said, if its loss was.
    fn back(&mut self) {
        if std::mem::take(&mut self.told_lost) {
            let _ = self.reports.send(Report::Back);
        }
    }

    /// Whether the owner's end of the socket pair is closed.
    fn owner_gone(&mut self) -> bool {
        let mut buf = [0u8; 64];
        matches!((&self.woken).read(&mut buf), Ok(0))
    }

    /// The events that came: taken into the screen, shown, and each move
    /// reported as handed over. False when the owner is gone.
    fn take_events(&mut self, display: &mut Option<Display>) -> bool {
        let mut buf = [0u8; 64];
        loop {
            match (&self.woken).read(&mut buf) {
                Ok(0) => {
                    if self.events.is_empty() {
                        return false;
                    }
                    break;
                }
                Ok(_) => continue,
                Err(_) => break,
            }
        }
        let mut changed = false;
        let mut moves = Vec::new();
        for batch in self.events.try_iter() {
            for e in &batch {
                changed |= self.screen.event(e);
                if let Event::Move { ply, .. } = e.event {
                    moves.push(ply);
                }
            }
        }
        if changed {
            self.redraw(display);
        }
        for ply in moves {
            let _ = self.reports.send(Report::Shown(ply));
        }
        true
    }

    /// Shows the screen; a display that fails is dropped (lost).
    fn redraw(&mut self, display: &mut Option<Display>) {
        let Some(d) = display else {
            return;
        };
        let window = self.screen.window(&mut self.render, d.cells());
        if d.show(&window.cells).is_err() {
            *display = None;
        }
    }

    /// The keys pressed: routing keys and the display's own moves are the
    /// display's; the rest go to the scan loop.
    fn take_keys(&mut self, display: &mut Option<Display>) {
        loop {
            let Some(d) = display else {
                return;
            };
            let key = match d.key(0) {
                Ok(Some(key)) => key,
                Ok(None) => return,
                Err(_) => {
                    *display = None;
                    return;
                }
            };
            let width = d.cells();
            match key {
                // brltty goes on, the display is gone (unplugged): it is
                // followed again when brltty says it is back.
                Key::OFFLINE => {
                    self.back_since = None;
                    self.lost("the display went away (unplugged?)".into());
                }
                Key::ONLINE => {
                    if self.told_lost {
                        self.back_since = Some(Instant::now());
                    }
                }
                Key::Route(cell) => {
                    if let Some(ply) = self.screen.routed(&mut self.render, width, cell.into()) {
                        let _ = self.reports.send(Report::Input(Input::RepeatPly(ply)));
                    }
                }
                other => {
                    let Some(pressed) = self.keys.pressed(other) else {
                        continue;
                    };
                    if let Some(local) = pressed.local {
                        self.local(local, width, display);
                    }
                    if let Some(key) = pressed.keypad {
                        let _ = self.reports.send(Report::Press(key));
                    }
                }
            }
        }
    }

    fn local(&mut self, local: Local, width: usize, display: &mut Option<Display>) {
        self.screen.local(local, &mut self.render, width);
        self.redraw(display);
    }
}

/// Waits until one of `fds` is readable, at most `wait`; false when the
/// first (the owner's) is closed or in error.
fn wait_for(fds: &[Option<std::os::fd::RawFd>], wait: Duration) -> bool {
    let mut polled: Vec<libc::pollfd> = fds
        .iter()
        .flatten()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: `polled` is a live array of `polled.len()` pollfd structures
    // of ours, which poll only reads and whose `revents` it writes.
    let n = unsafe { libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, ms) };
    if n <= 0 {
        return true;
    }
    polled
        .first()
        .is_none_or(|p| p.revents & (libc::POLLHUP | libc::POLLERR) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::said::Said;

    /// The scan loop's end of a display whose thread never answers, and
    /// the thread's end of the reports.
    fn held_up(alone: bool) -> (BrailleDisplay, Sender<Report>, Receiver<Vec<Stamped>>) {
        let (events, shown) = crossbeam_channel::unbounded();
        let (told, reports) = crossbeam_channel::unbounded();
        let (waker, _woken) = UnixStream::pair().expect("a socket pair");
        waker.set_nonblocking(true).expect("nonblocking");
        let display = BrailleDisplay {
            events,
            waker,
            reports,
            keypad: Keypad::new(Vec::new(), Color::White),
            alone,
            handed: std::cell::RefCell::new(Vec::new()),
        };
        (display, told, shown)
    }

    fn moved(ply: u32) -> Stamped {
        Stamped {
            t: 0,
            event: Event::Move {
                board: "blind".into(),
                ply,
                color: crate::core::event::Side(Color::White),
                uci: "e2e4".into(),
                san: "e4".into(),
                say: Said::Text("e4".into()),
                fen: String::new(),
                made: None,
            },
        }
    }

    #[test]
    fn e2_3_with_braille_alone_a_move_shown_is_announced_once() {
        let (mut display, told, _shown) = held_up(true);
        display.show(&[moved(1)]);
        told.send(Report::Shown(1)).expect("told");
        let (mut inputs, mut notes) = (Vec::new(), Vec::new());
        display.inputs(&mut inputs, &mut notes);
        assert_eq!(inputs, [Input::Announced(1)]);
        // A second word of the same move announces nothing more.
        told.send(Report::Shown(1)).expect("told");
        inputs.clear();
        display.inputs(&mut inputs, &mut notes);
        assert!(inputs.is_empty(), "{inputs:?}");
    }

    #[test]
    fn e2_3_with_braille_alone_a_display_held_up_never_holds_the_clock() {
        let (mut display, _told, _shown) = held_up(true);
        display.show(&[moved(1)]);
        std::thread::sleep(SHOWN_WITHIN + Duration::from_millis(50));
        let (mut inputs, mut notes) = (Vec::new(), Vec::new());
        display.inputs(&mut inputs, &mut notes);
        assert_eq!(inputs, [Input::Announced(1)]);
        assert!(notes[0].contains("within 300 ms"), "{notes:?}");
    }

    #[test]
    fn with_the_voices_the_display_announces_nothing() {
        let (mut display, told, _shown) = held_up(false);
        display.show(&[moved(1)]);
        told.send(Report::Shown(1)).expect("told");
        std::thread::sleep(SHOWN_WITHIN + Duration::from_millis(50));
        let (mut inputs, mut notes) = (Vec::new(), Vec::new());
        display.inputs(&mut inputs, &mut notes);
        assert!(inputs.is_empty(), "{inputs:?}");
    }
}
