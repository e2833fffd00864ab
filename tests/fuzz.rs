//! Random input, run as ordinary tests on stable Rust: the trace reader,
//! the configuration loader, the serial frame parser and the clock each
//! get at least 100,000 random or mutated inputs. None may panic, abort,
//! or allocate without bound: a counting allocator holds every target to
//! a ceiling far below what its input could make it take.
//!
//! The inputs come from a small deterministic generator (xorshift), seeded
//! per target, so a failure is reproduced by running the test again; the
//! failing case is printed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use pegboard::config::Config;
use pegboard::core::clock::{Clock, IncrementTiming, TimeControl};
use pegboard::sensors::serial::protocol::{FrameParser, Message, encode};
use pegboard::trace::{self, Reader};

/// Counts the bytes the measuring thread allocates, now and at most at
/// once, so that a test can hold its target to a ceiling. Only the thread
/// inside [`peak_during`] is counted: what the test harness or another
/// test allocates meanwhile is not the target's.
struct Counting;

thread_local! {
    // Const-initialised cells: reading them never allocates, so the
    // allocator may use them.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static NOW: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// `delta` bytes more (or fewer) held by this thread, if it is measured.
fn count(delta: isize) {
    let _ = MEASURING.try_with(|m| {
        if m.get() {
            let now = NOW.get() + delta;
            NOW.set(now);
            PEAK.set(PEAK.get().max(now));
        }
    });
}

// SAFETY: every call is passed on unchanged to the system allocator, which
// upholds GlobalAlloc's contract; the wrapper only adds to and subtracts
// from counters of its thread's, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's layout is passed on as it came.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` on this thread and returns how many bytes it held at most
/// beyond what was held when it began.
fn peak_during(f: impl FnOnce()) -> usize {
    NOW.set(0);
    PEAK.set(0);
    MEASURING.set(true);
    f();
    MEASURING.set(false);
    PEAK.get().max(0) as usize
}

const CASES: usize = 100_000;

/// xorshift64*: small, fast and repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Pieces that make up trace lines and configuration files: field names,
/// values at and beyond their ranges, and the punctuation between them.
const TRACE_PIECES: &[&str] = &[
    "{",
    "}",
    "\"t\":",
    "\"lift\":",
    "\"place\":",
    "\"occ\":",
    "\"input\":",
    "\"trace\":1",
    "\"start\":",
    "\"time_control\":",
    "\"white_ms\":",
    "\"count\":",
    "\"rank\":",
    "\"ply\":",
    "\"e2\"",
    "\"e4\"",
    "\"z9\"",
    "\"ffff00000000ffff\"",
    "\"clock\"",
    "\"set_clock\"",
    "\"repeat\"",
    "\"promote\"",
    "\"color\":\"white\"",
    "\"piece\":\"q\"",
    "\"board_back\"",
    "0",
    "1",
    "-1",
    "1.5",
    "18446744073709551615",
    "18446744073709551616",
    "1e400",
    "null",
    "true",
    "[]",
    "\"\\ud800\"",
    "\"\\u0065\"",
    ",",
    ":",
    "\"",
    "\n",
    "\u{feff}",
    "\0",
    "\"40/5400+30:1800+30\"",
    "\"99999999999999\"",
    "\"startpos\"",
    "\"8/8/8/8 w\"",
];

const CONFIG_PIECES: &[&str] = &[
    "[tracker]\n",
    "[clock]\n",
    "[sensors]\n",
    "[sensors.serial]\n",
    "[board]\n",
    "[[buttons.key]]\n",
    "[speech.clips]\n",
    "[debounce]\n",
    "[speech.speech_dispatcher]\n",
    "settle_ms = ",
    "window_ms = ",
    "control = ",
    "pgn_control = ",
    "warnings = ",
    "warning_volume = ",
    "volume = ",
    "rate = ",
    "baud = ",
    "scan_hz = ",
    "a1 = ",
    "rows = ",
    "pin = ",
    "bit = ",
    "press = ",
    "source = ",
    "language = ",
    "increment = ",
    "stale_ms = ",
    "0",
    "1",
    "-1",
    "20",
    "1000",
    "9223372036854775807",
    "18446744073709551616",
    "nan",
    "inf",
    "-3.5",
    "2.0",
    "\"90+30\"",
    "\"ninety\"",
    "\"1441+0\"",
    "\"60d18446744073709551\"",
    "\"serial\"",
    "\"trace\"",
    "\"matrix\"",
    "\"fide\"",
    "\"klingon\"",
    "\"before\"",
    "[0, 7]",
    "[3, 3]",
    "[1, 0, 2, 3, 4, 5, 6, 7]",
    "[600, 0]",
    "\"repeat\"",
    "\"hint\"",
    "\n",
    " ",
    "=",
    "[",
    "]",
    "\"",
    "#",
    "{",
    "}",
];

fn assemble(rng: &mut Rng, pieces: &[&str], count: usize) -> String {
    (0..count).map(|_| *rng.pick(pieces)).collect()
}

/// A valid text with a few random bytes changed, put in or taken out.
fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(3) {
            0 if at < bytes.len() => bytes[at] = rng.next() as u8,
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, rng.next() as u8),
        }
    }
    bytes
}

const GOOD_TRACE: &str = "{\"t\":0,\"trace\":1,\"start\":\"startpos\",\"time_control\":\"300+2\"}\n\
    {\"t\":900,\"lift\":\"g1\"}\n{\"t\":1500,\"place\":\"f3\"}\n\
    {\"t\":2000,\"input\":\"set_clock\",\"white_ms\":60000}\n";

#[test]
fn the_trace_reader_survives_random_lines() {
    let mut rng = Rng(0x7ace_0001);
    let peak = peak_during(|| {
        for case in 0..CASES {
            let input: Vec<u8> = match case % 3 {
                0 => {
                    let n = 1 + rng.below(40);
                    assemble(&mut rng, TRACE_PIECES, n)
                }
                .into_bytes(),
                1 => mutate(&mut rng, GOOD_TRACE),
                _ => {
                    let n = rng.below(200);
                    rng.bytes(n)
                }
            };
            let read: Vec<_> = Reader::new(&input[..], "fuzz").collect();
            // Every error names the file and a line within the input.
            for item in &read {
                if let Err(e) = item {
                    let lines = input.split(|&b| b == b'\n').count();
                    assert!(e.line <= lines, "case {case}: line {} of {lines}", e.line);
                    assert!(e.to_string().starts_with("fuzz"), "case {case}: {e}");
                }
            }
        }
    });
    // Inputs are small: the reader never holds more than a few lines.
    assert!(peak < 1 << 20, "the reader held {peak} bytes");
    // One endless line is refused at the bound, holding about that much.
    let peak = peak_during(|| {
        let endless = std::io::BufReader::new(std::io::repeat(b'x'));
        let first = Reader::new(endless, "endless").next();
        assert!(matches!(first, Some(Err(_))));
    });
    assert!(peak < 4 * trace::MAX_LINE_BYTES, "held {peak} bytes");
}

#[test]
fn the_configuration_loader_survives_random_files() {
    let mut rng = Rng(0xc0f1_6002);
    let example = include_str!("../config/serial-laptop.toml");
    let small = "[tracker]\nsettle_ms = 1000\n[clock]\ncontrol = \"90+30\"\nwarnings = [60, 10]\n\
                 [sensors]\nsource = \"serial\"\n[[buttons.key]]\nbit = 3\npress = \"times\"\n";
    let peak = peak_during(|| {
        for case in 0..CASES {
            let text: Vec<u8> = match case % 4 {
                0 => {
                    let n = 1 + rng.below(30);
                    assemble(&mut rng, CONFIG_PIECES, n)
                }
                .into_bytes(),
                1 => mutate(&mut rng, small),
                2 if case % 40 == 2 => mutate(&mut rng, example),
                _ => {
                    let n = rng.below(120);
                    rng.bytes(n)
                }
            };
            let text = String::from_utf8_lossy(&text);
            if let Err(e) = Config::parse(&text, "fuzz.toml") {
                let message = e.to_string();
                assert!(message.starts_with("fuzz.toml"), "case {case}: {message}");
                if let Some(line) = e.line {
                    let lines = text.matches('\n').count() + 1;
                    assert!(line <= lines, "case {case}: {message}");
                }
            }
        }
    });
    assert!(peak < 8 << 20, "the loader held {peak} bytes");
}

#[test]
fn the_serial_frame_parser_survives_noise_and_broken_frames() {
    let mut rng = Rng(0x5e71_a003);
    let frames: Vec<Vec<u8>> = vec![
        encode(&Message::Scan {
            seq: 7,
            occ: 0xffff_0000_0000_ffff,
            buttons: 3,
        }),
        encode(&Message::Welcome {
            version: 1,
            scan_hz: 200,
            name: "scanner".into(),
        }),
        encode(&Message::Heartbeat {
            seq: 9,
            uptime_ms: 12345,
        }),
        encode(&Message::Error {
            code: 2,
            text: "row 3 stuck".into(),
        }),
    ];
    let mut parser = FrameParser::new();
    let mut out = Vec::new();
    let mut delivered = 0usize;
    let peak = peak_during(|| {
        for case in 0..CASES {
            let chunk: Vec<u8> = match case % 3 {
                0 => rng.pick(&frames).clone(),
                1 => {
                    let mut f = rng.pick(&frames).clone();
                    let at = rng.below(f.len());
                    f[at] ^= 1 << rng.below(8);
                    f.truncate(rng.below(f.len() + 1));
                    f
                }
                _ => {
                    let n = rng.below(64);
                    rng.bytes(n)
                }
            };
            parser.push(&chunk, &mut out);
            delivered += out.len();
            out.clear();
        }
    });
    // The parser's buffer does not grow with what it has been fed.
    assert!(peak < 64 << 10, "the parser held {peak} bytes");
    // Whole frames among the noise still come through.
    assert!(delivered > CASES / 10, "only {delivered} messages");
}

#[test]
fn the_clock_survives_extreme_values() {
    let mut rng = Rng(0xc10c_4004);
    let controls: Vec<TimeControl> = [
        "1440+3600",
        "1000/1440,1440+3600",
        "1d3600",
        "1b3600",
        "0.001+0.001",
        "1/1,1/1,1",
    ]
    .iter()
    .map(|c| TimeControl::parse_human(c).expect("control"))
    .collect();
    let extremes = [
        0,
        1,
        u64::MAX,
        u64::MAX / 2,
        1 << 40,
        1 << 63,
        999,
        360_000_000,
    ];
    let peak = peak_during(|| clock_cases(&mut rng, &controls, &extremes));
    // A clock is a few words: whatever it is told, it holds no more.
    assert!(peak < 4 << 10, "the clock held {peak} bytes");
}

fn clock_cases(rng: &mut Rng, controls: &[TimeControl], extremes: &[u64]) {
    for case in 0..CASES {
        let timing = if case % 2 == 0 {
            IncrementTiming::Before
        } else {
            IncrementTiming::After
        };
        let mut c = Clock::new(rng.pick(controls).clone()).with_increment(timing);
        let mut now = 0u64;
        for _ in 0..8 {
            now = now.saturating_add(rng.next() >> rng.below(64));
            let value = if rng.below(2) == 0 {
                *rng.pick(extremes)
            } else {
                rng.next()
            };
            let color = if value & 1 == 0 {
                shakmaty::Color::White
            } else {
                shakmaty::Color::Black
            };
            match rng.below(7) {
                0 => c.start(now, color),
                1 => {
                    c.press(now, color, shakmaty::Color::White);
                }
                2 => {
                    c.pause(now);
                }
                3 => {
                    c.resume(now);
                }
                4 => c.set_time(now, color, value),
                5 => c.add(now, color, value),
                _ => {
                    while let Some(d) = c.next_deadline().filter(|&d| d <= now) {
                        assert!(c.fire(d).is_some(), "case {case}: a due timer fires");
                    }
                }
            }
            for side in [shakmaty::Color::White, shakmaty::Color::Black] {
                assert!(
                    c.remaining(now, side) <= pegboard::core::clock::MAX_TIME_MS,
                    "case {case}"
                );
            }
        }
    }
}
