//! The scan loop's station: the configured source, its layout and the
//! keys, read at the scan rate; and when a command stops.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Bitboard;

use crate::config::Config;
use crate::core::Input;
use crate::keys::{ButtonDebouncer, KeySource, Keypad, Press};
use crate::runtime::error::Result;
use crate::runtime::open::{open_keys, open_source};
use crate::sensors::poller::Poller;
use crate::sensors::{Layout, LossReport, SensorSource, SourceError};

/// When a command stops: after so many seconds (counted from when it is
/// ready, [`Stop::count_from_now`]), when `q` and Enter are typed (if
/// standard input is a terminal or a pipe that says so), or at SIGTERM or
/// SIGINT (`systemctl stop`, Ctrl-C). A second signal while it is stopping
/// ends the process at once.
#[derive(Clone)]
pub struct Stop {
    seconds: Option<Duration>,
    born: Instant,
    /// When to stop, as time since `born`; `None` for no time limit.
    deadline: Arc<std::sync::Mutex<Option<Duration>>>,
    quit: Arc<AtomicBool>,
}

impl Stop {
    /// Stops after `seconds` (if given) or at a `q` line on standard input.
    pub fn new(seconds: Option<f64>, watch_stdin: bool) -> Stop {
        let quit = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
            // Registration fails only for a signal that cannot be caught;
            // these two can. Without it the default (ending) still applies.
            let _ = signal_hook::flag::register_conditional_shutdown(signal, 1, Arc::clone(&quit));
            let _ = signal_hook::flag::register(signal, Arc::clone(&quit));
        }
        if watch_stdin {
            let flag = quit.clone();
            std::thread::spawn(move || {
                // The end of standard input (none, or a closed pipe) is not a quit.
                for line in std::io::stdin().lock().lines() {
                    match line {
                        Ok(l) if l.trim() == "q" => {
                            flag.store(true, Ordering::SeqCst);
                            return;
                        }
                        Ok(_) => {}
                        Err(_) => return,
                    }
                }
            });
        }
        // Too many seconds to count (or infinitely many) is no limit.
        let seconds = seconds.and_then(|s| Duration::try_from_secs_f64(s.max(0.0)).ok());
        Stop {
            seconds,
            born: Instant::now(),
            deadline: Arc::new(std::sync::Mutex::new(seconds)),
            quit,
        }
    }

    /// The seconds count from now: the command has set itself up (its
    /// parts opened), and what it was given the seconds for begins.
    /// Starting up on a slow machine takes none of them.
    pub fn count_from_now(&self) {
        self.count_from(self.born.elapsed());
    }

    /// The seconds count from `from` (time since this was made).
    fn count_from(&self, from: Duration) {
        let mut deadline = match self.deadline.lock() {
            Ok(d) => d,
            Err(poisoned) => poisoned.into_inner(),
        };
        *deadline = self.seconds.and_then(|s| from.checked_add(s));
    }

    pub fn now(&self) -> bool {
        self.at(self.born.elapsed())
    }

    /// Whether to stop at `elapsed` (time since this was made).
    fn at(&self, elapsed: Duration) -> bool {
        if self.quit.load(Ordering::SeqCst) {
            return true;
        }
        let deadline = match self.deadline.lock() {
            Ok(d) => *d,
            Err(poisoned) => *poisoned.into_inner(),
        };
        deadline.is_some_and(|d| elapsed >= d)
    }

    /// Stops as soon as possible (from another part of the command).
    pub(crate) fn set(&self) {
        self.quit.store(true, Ordering::SeqCst);
    }
}

/// One turn of the scan loop.
pub(crate) struct Tick {
    pub t: u64,
    /// The board by square, or why there is none this time.
    pub board: std::result::Result<Bitboard, SourceError>,
    /// The other boards (`[[boards]]`), in their order: each by square,
    /// or why there is none.
    pub others: Vec<std::result::Result<Bitboard, SourceError>>,
    /// Key presses completed in this turn, as inputs.
    pub inputs: Vec<Input>,
    /// The console's secret was asked for with a key (said, never an input).
    pub token_asked: bool,
    /// What the source lost since the last such report (frames with a bad
    /// checksum, noise, scans that never came), at most every ten seconds.
    pub losses: Option<String>,
}

/// The source, its layout and the keys, run at the scan rate.
pub(crate) struct Station {
    pub(crate) source: Box<dyn SensorSource>,
    pub(crate) layout: Layout,
    /// The other boards' sources and layouts, in `[[boards]]` order.
    others: Vec<(Box<dyn SensorSource>, Layout)>,
    keys: KeySource,
    debouncer: ButtonDebouncer,
    keypad: Keypad,
    poller: Poller,
    presses: Vec<Press>,
    loss_report: LossReport,
    /// Whether the scan loop asks for a real-time place.
    realtime: bool,
    /// Whether every board and key is read from recorded time (traces):
    /// then each is read at its own instants. A board or key read now is
    /// never dated before the instant it was read.
    recorded: bool,
    /// The instant of the scan taken last from the poller, while the
    /// traces are read at their own instants before it.
    behind: Option<u64>,
}

impl Station {
    pub fn open(config: &Config) -> Result<Station> {
        // What `pegboard check-config` checks of the parts: the same
        // verdict here (`play` checks the engine itself).
        crate::runtime::open::usable_parts_of(config)?;
        let source = open_source(&config.sensors)?;
        let others: Vec<(Box<dyn SensorSource>, Layout)> = config
            .boards
            .iter()
            .map(|b| Ok((open_source(&b.sensors)?, b.board.layout.clone())))
            .collect::<Result<_>>()?;
        let keys = open_keys(&config.buttons)?;
        let recorded = source.recorded()
            && others.iter().all(|(other, _)| other.recorded())
            && !keys.reads_pins();
        Ok(Station {
            source,
            layout: config.board.layout.clone(),
            others,
            keys,
            debouncer: ButtonDebouncer::new(config.buttons.timing()),
            keypad: Keypad::new(config.buttons.keymaps(), config.buttons.player.into()),
            poller: Poller::new(config.sensors.scan_hz),
            presses: Vec::new(),
            loss_report: LossReport::default(),
            realtime: config.sensors.realtime,
            recorded,
            behind: None,
        })
    }

    /// The keys' owner plays `player` from now on.
    pub fn set_player(&mut self, player: shakmaty::Color) {
        self.keypad.set_player(player);
    }

    /// The command has set itself up after its first scan: the next scan is
    /// due now, and the setting up is no scan taken late. From here this
    /// thread is the scan loop: it asks for its real-time place when
    /// `[sensors] realtime` says so (what it starts runs at the ordinary
    /// priority), and says where it runs.
    pub fn begin(&mut self) -> crate::runtime::priority::Place {
        let place = if self.realtime {
            crate::runtime::priority::raise_scan_loop()
        } else {
            crate::runtime::priority::Place::NotAsked
        };
        // Asked for and refused: said once, where a service's log keeps it.
        if let crate::runtime::priority::Place::Ordinary(_) = &place {
            eprintln!("pegboard: the scan loop runs at {place}");
        }
        self.poller.restart();
        place
    }

    /// How late the scans so far were taken.
    pub fn lateness(&self) -> &crate::sensors::poller::Lateness {
        self.poller.lateness()
    }

    /// The next turn: the boards read at the scan rate, or, when they are
    /// all traces and have lines this loop has not yet taken, at the
    /// earliest of those lines' instants first.
    pub fn tick(&mut self) -> Tick {
        let polled = match self.behind.take() {
            Some(t) => t,
            None => self.poller.wait(),
        };
        let t = match self.due_before(polled) {
            Some(at) => {
                self.behind = Some(polled);
                at
            }
            None => polled,
        };
        let scan = self.source.scan(t);
        let word = self.keys.read(scan.as_ref().ok().and_then(|s| s.buttons));
        self.presses.clear();
        // A press the scanner saw held while this loop was kept from
        // looking: short, and before whatever the keys show now.
        let missed = scan
            .as_ref()
            .map_or(0, |s| self.keys.scanner_keys(s.missed));
        self.presses.extend(
            (0..16u8)
                .filter(|k| missed & (1 << k) != 0)
                .map(Press::Short),
        );
        self.debouncer.sample(t, word, &mut self.presses);
        let inputs = self
            .presses
            .iter()
            .filter_map(|&p| self.keypad.press(p))
            .collect();
        let losses = self
            .loss_report
            .update(t, self.source.losses())
            .map(|what| format!("{}: {what}", self.source.describe()));
        let others = self
            .others
            .iter_mut()
            .map(|(source, layout)| source.scan(t).map(|s| layout.to_board(s.occ)))
            .collect();
        Tick {
            t,
            board: scan.map(|s| self.layout.to_board(s.occ)),
            others,
            token_asked: self.keypad.take_token_request(),
            inputs,
            losses,
        }
    }

    /// The earliest instant before `t` at which a trace has a line not yet
    /// taken, when every board and key is read from traces.
    fn due_before(&self, t: u64) -> Option<u64> {
        if !self.recorded {
            return None;
        }
        std::iter::once(&self.source)
            .chain(self.others.iter().map(|(source, _)| source))
            .filter_map(|source| source.due(t))
            .filter(|&at| at < t)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// A station on a trace with d4 placed at 100 ms and lifted at 110 ms
    /// (a glitch) and e2 lifted at 120 ms, with `boards` beside it; the
    /// trace is written in a directory of its own, named `name`.
    fn station(name: &str, boards: Vec<crate::sensors::OtherBoard>) -> Station {
        let dir =
            std::env::temp_dir().join(format!("pegboard-station-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let file = dir.join("glitch.jsonl");
        std::fs::write(
            &file,
            "{\"t\":100,\"place\":\"d4\"}\n{\"t\":110,\"lift\":\"d4\"}\n{\"t\":120,\"lift\":\"e2\"}\n",
        )
        .expect("the trace written");
        let mut config = Config::default();
        config.sensors.source = crate::sensors::SourceKind::Trace;
        config.sensors.trace.file = Some(file.display().to_string());
        config.boards = boards;
        let station = Station::open(&config).expect("the station opened");
        // The trace is read into memory when it is opened.
        std::fs::remove_dir_all(&dir).ok();
        station
    }

    /// The turns up to 300 ms, each as (instant, d4 occupied, e2 occupied),
    /// after the loop was held back past every line of the trace.
    fn turns_held_back(station: &mut Station) -> Vec<(u64, bool, bool)> {
        std::thread::sleep(Duration::from_millis(300));
        let mut seen = Vec::new();
        loop {
            let tick = station.tick();
            let board = tick.board.expect("a trace always reads");
            seen.push((
                tick.t,
                board.contains(Square::D4),
                board.contains(Square::E2),
            ));
            if tick.t >= 300 {
                return seen;
            }
        }
    }

    /// `--seconds` counts from when the command is ready: the time it took
    /// to start is not taken from them.
    #[test]
    fn the_seconds_count_from_when_the_command_is_ready() {
        let s = |x: f64| Duration::from_secs_f64(x);
        let stop = Stop::new(Some(1.0), false);
        assert!(
            !stop.at(s(0.9)) && stop.at(s(1.0)),
            "from the start at first"
        );
        // Ready after 1.5 s of starting up: a second from then.
        stop.count_from(s(1.5));
        assert!(!stop.at(s(2.4)), "start-up is not counted");
        assert!(stop.at(s(2.5)), "a second after it was ready");
        let endless = Stop::new(None, false);
        endless.count_from(s(1.0));
        assert!(!endless.at(s(1e6)), "no seconds, no end");
        let too_many = Stop::new(Some(f64::INFINITY), false);
        too_many.count_from(s(1.0));
        assert!(!too_many.at(s(1e9)), "infinitely many seconds, no end");
        let none = Stop::new(Some(f64::NAN), false);
        none.count_from(s(1.0));
        assert!(none.at(s(1.0)), "not a number of seconds: none at all");
    }

    /// A loop held back past a glitch's end still reads the trace at the
    /// glitch's own instants: d4 placed at 100 ms and lifted at 110 ms is
    /// read as placed at 100 and gone at 110, whenever the loop wakes.
    #[test]
    fn a_trace_is_read_at_its_own_instants_however_late_the_loop() {
        let seen = turns_held_back(&mut station("alone", Vec::new()));
        let at = |t: u64| seen.iter().find(|s| s.0 == t).copied();
        assert_eq!(
            at(100),
            Some((100, true, true)),
            "d4 placed at 100: {seen:?}"
        );
        assert_eq!(
            at(110),
            Some((110, false, true)),
            "d4 gone at 110: {seen:?}"
        );
        assert_eq!(
            at(120),
            Some((120, false, false)),
            "e2 lifted at 120: {seen:?}"
        );
        assert!(
            seen.windows(2).all(|w| w[0].0 < w[1].0),
            "the turns' instants only go forward: {seen:?}"
        );
    }

    /// A board read now (here a serial scanner that is not plugged in) is
    /// never dated before it was read: beside it, the trace is read when
    /// the loop wakes, as every board is.
    #[test]
    fn beside_a_board_read_now_a_trace_is_read_when_the_loop_wakes() {
        let mut sensors = crate::sensors::SensorsConfig::default();
        sensors.source = crate::sensors::SourceKind::Serial;
        sensors.serial.port = "/dev/pegboard-no-such-scanner".to_string();
        let other = crate::sensors::OtherBoard {
            name: "sighted".to_string(),
            sensors,
            board: Default::default(),
        };
        let seen = turns_held_back(&mut station("beside", vec![other]));
        assert!(
            seen[0].0 >= 300,
            "the first turn is when the loop woke: {seen:?}"
        );
        assert_eq!(
            (seen[0].1, seen[0].2),
            (false, false),
            "every line read by then: {seen:?}"
        );
    }
}
