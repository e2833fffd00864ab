//! The TM1637 clock display driver against simulated pins: a recorder
//! decodes the two-wire protocol back into what the module would show.

mod common;

use std::cell::RefCell;
use std::convert::Infallible;
use std::rc::Rc;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use pegboard::config::Config;
use pegboard::core::StartPosition;
use pegboard::core::clock::{Clock, TimeControl};
use pegboard::display::{ClockDisplay, Faces, Tm1637, Tm1637Pair};
use pegboard::runtime::play::play;
use pegboard::runtime::station::Stop;
use shakmaty::Color;

/// The bus as the chip sees it, decoded edge by edge.
#[derive(Default)]
struct Wire {
    clk: bool,
    dio: bool,
    /// Whether a chip is connected (it acknowledges bytes).
    present: bool,
    in_frame: bool,
    bits: u32,
    byte: u8,
    acking: bool,
    frame: Vec<u8>,
    frames: Vec<Vec<u8>>,
    registers: [u8; 4],
    display_on: bool,
    brightness: u8,
}

impl Wire {
    fn set_clk(&mut self, high: bool) {
        if high && !self.clk && self.in_frame {
            if self.bits < 8 {
                self.byte |= u8::from(self.dio) << self.bits;
                self.bits += 1;
                self.acking = self.bits == 8 && self.present;
            } else {
                // The ninth clock: the byte is complete.
                self.frame.push(self.byte);
                self.bits = 9;
            }
        }
        if !high && self.clk && self.bits == 9 {
            self.acking = false;
            self.bits = 0;
            self.byte = 0;
        }
        self.clk = high;
    }

    fn set_dio(&mut self, high: bool) {
        if self.clk && self.dio && !high {
            // Start condition.
            self.in_frame = true;
            self.bits = 0;
            self.byte = 0;
            self.frame.clear();
        } else if self.clk && !self.dio && high && self.in_frame {
            // Stop condition: the frame takes effect.
            self.in_frame = false;
            let frame = std::mem::take(&mut self.frame);
            match frame.first() {
                Some(&c) if c & 0xC0 == 0xC0 => {
                    let at = usize::from(c & 0x03);
                    for (i, &b) in frame[1..].iter().enumerate() {
                        if let Some(r) = self.registers.get_mut(at + i) {
                            *r = b;
                        }
                    }
                }
                Some(&c) if c & 0xF0 == 0x80 => {
                    self.display_on = c & 0x08 != 0;
                    self.brightness = c & 0x07;
                }
                _ => {}
            }
            if !frame.is_empty() {
                self.frames.push(frame);
            }
        }
        self.dio = high;
    }

    /// What the module shows, from the datasheet's segment patterns.
    fn shown(&self) -> String {
        let mut s = String::new();
        for (i, &r) in self.registers.iter().enumerate() {
            s.push(match r & 0x7F {
                0x3F => '0',
                0x06 => '1',
                0x5B => '2',
                0x4F => '3',
                0x66 => '4',
                0x6D => '5',
                0x7D => '6',
                0x07 => '7',
                0x7F => '8',
                0x6F => '9',
                0x40 => '-',
                0x00 => ' ',
                _ => '?',
            });
            if i == 1 && r & 0x80 != 0 {
                s.push(':');
            }
        }
        s
    }
}

struct Pin {
    wire: Rc<RefCell<Wire>>,
    clk: bool,
}

impl ErrorType for Pin {
    type Error = Infallible;
}

impl OutputPin for Pin {
    fn set_low(&mut self) -> Result<(), Infallible> {
        let mut w = self.wire.borrow_mut();
        if self.clk {
            w.set_clk(false)
        } else {
            w.set_dio(false)
        }
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        let mut w = self.wire.borrow_mut();
        if self.clk {
            w.set_clk(true)
        } else {
            w.set_dio(true)
        }
        Ok(())
    }
}

impl InputPin for Pin {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        let w = self.wire.borrow();
        // Open drain: the chip's acknowledgement pulls the line low.
        Ok(if self.clk { w.clk } else { w.dio && !w.acking })
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        self.is_high().map(|h| !h)
    }
}

struct NoDelay;

impl DelayNs for NoDelay {
    fn delay_ns(&mut self, _ns: u32) {}
}

type Module = Tm1637<Pin, Pin, NoDelay>;

fn module(present: bool) -> (Module, Rc<RefCell<Wire>>) {
    let wire = Rc::new(RefCell::new(Wire {
        present,
        ..Wire::default()
    }));
    let clk = Pin {
        wire: Rc::clone(&wire),
        clk: true,
    };
    let dio = Pin {
        wire: Rc::clone(&wire),
        clk: false,
    };
    (Tm1637::new(clk, dio, NoDelay, 4), wire)
}

#[test]
fn two_modules_show_both_times_and_the_running_sides_colon() {
    let (w, white) = module(true);
    let (b, black) = module(true);
    let mut pair = Tm1637Pair { white: w, black: b };
    let mut clock = Clock::new(TimeControl::parse_human("90").expect("control"));
    clock.start(0, Color::White);
    pair.show(1_001, &clock.face(1_001)).expect("shown");
    assert_eq!(white.borrow().shown(), " 1:29");
    assert_eq!(black.borrow().shown(), " 130");
    assert!(white.borrow().display_on);
    assert_eq!(white.borrow().brightness, 4);
    // The same picture again sends nothing.
    let frames = white.borrow().frames.len();
    pair.show(1_500, &clock.face(1_500)).expect("shown");
    assert_eq!(white.borrow().frames.len(), frames);
    // Under an hour: minutes and seconds.
    clock.set_time(2_000, Color::White, 545_000);
    pair.show(2_000, &clock.face(2_000)).expect("shown");
    assert_eq!(white.borrow().shown(), " 9:05");
    // The flag: dashes.
    let _ = clock.fire(2_000 + 545_000);
    pair.show(600_000, &clock.face(600_000)).expect("shown");
    assert_eq!(white.borrow().shown(), "----");
}

#[test]
fn an_unplugged_module_is_reported_and_the_other_still_shows() {
    let (w, _) = module(false);
    let (b, black) = module(true);
    let mut pair = Tm1637Pair { white: w, black: b };
    let mut clock = Clock::new(TimeControl::parse_human("5").expect("control"));
    clock.start(0, Color::Black);
    let err = pair.show(0, &clock.face(0)).expect_err("white is missing");
    assert!(err.0.contains("no acknowledgement"), "{err}");
    assert_eq!(black.borrow().shown(), " 5:00");
}

/// `pegboard play` (in this process) on a recorded 1. Nf3 with a 5+3 clock,
/// its faces the two modules; returns what play printed.
fn play_with_modules(name: &str, white: Module, black: Module) -> String {
    let dir = std::env::temp_dir().join(format!("pegboard-tm1637-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = common::nf3_play_config(&dir, "[clock]\ncontrol = \"5+3\"\n");
    let mut config = Config::load(&path).expect("config");
    // A journal of its own: no other run's game is taken up.
    config.journal.dir = Some(dir.join("journal"));
    let mut faces = Faces::default();
    faces.add("tm1637", Box::new(Tm1637Pair { white, black }));
    let mut out = Vec::new();
    play(
        &config,
        &StartPosition::default(),
        false,
        false,
        &Stop::new(Some(2.0), false),
        faces,
        &mut out,
    )
    .expect("play");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn a_running_play_drives_the_two_modules_as_the_clock_runs() {
    let (w, white) = module(true);
    let (b, black) = module(true);
    let out = play_with_modules("drives", w, b);
    assert!(out.contains("1. Nf3"), "{out}");
    // White moved at 0.7 s and got his 3 s: 5:05 left, his colon off
    // (his clock stands). Black's clock runs from 5:03: at 2 s it shows
    // 5:01 or 5:02, with the colon of the running side.
    assert_eq!(white.borrow().shown(), " 505");
    let shown = black.borrow().shown();
    assert!(shown == " 5:01" || shown == " 5:02", "{shown}");
    assert!(white.borrow().display_on && black.borrow().display_on);
    // Each change of the second was one write, not one per scan.
    let frames = black.borrow().frames.len();
    assert!(frames < 40, "{frames} frames for two seconds");
}

#[test]
fn a_missing_module_is_told_once_and_the_game_goes_on() {
    let (w, _) = module(false);
    let (b, _) = module(true);
    let out = play_with_modules("missing", w, b);
    assert!(out.contains("1. Nf3"), "{out}");
    assert_eq!(
        out.matches("clock face tm1637:").count(),
        1,
        "told once: {out}"
    );
}
