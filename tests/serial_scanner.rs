//! The serial scanner's host side over a real pseudo-terminal pair made by
//! socat, with a simulated scanner on the other end that sends garbage and
//! corrupt frames, goes silent, is unplugged (socat killed) and plugged in
//! again (socat restarted on the same names) in the middle of a move.

mod common;
#[path = "support/scanner.rs"]
mod scanner;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Controller, Event, Settings, StartPosition};
use pegboard::sensors::serial::protocol::{Message, encode};
use pegboard::sensors::serial::{LinkState, LinkTiming, SerialScanner};
use pegboard::sensors::{SensorSource, SourceError};
use scanner::{Cable, Device};
use shakmaty::{Bitboard, Square};

/// Polls the host scanner in real time (times from `t0`) until `done`.
fn poll_until(
    host: &mut SerialScanner,
    t0: &Instant,
    offset_ms: u64,
    mut done: impl FnMut(&Result<pegboard::sensors::RawScan, SourceError>) -> bool,
) -> Result<pegboard::sensors::RawScan, SourceError> {
    let start = Instant::now();
    loop {
        let now = offset_ms + t0.elapsed().as_millis() as u64;
        let r = host.scan(now);
        if done(&r) {
            return r;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "gave up waiting; last: {r:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

const START: u64 = 0xFFFF_0000_0000_FFFF;

fn scan(seq: u16, occ: u64) -> Message {
    Message::Scan {
        seq,
        occ,
        buttons: 0,
    }
}

#[test]
fn handshake_garbage_corruption_staleness_and_unplug_without_losing_the_move() {
    let dir = tempfile_dir();
    let cable = Cable::plug(&dir);
    let mut device = Device::open(&dir);
    let timing = LinkTiming {
        stale_ms: 300,
        hello_retry_ms: 200,
    };
    let mut host = SerialScanner::new(&dir.join("host").to_string_lossy(), 115_200, timing, 50);
    let t0 = Instant::now();

    // The game, fed with whatever the scanner delivers.
    let mut game = Controller::new(
        &StartPosition::default(),
        Settings::default(),
        &[BLIND_BOARD],
    )
    .expect("start position");
    let mut events = Vec::new();
    game.start(0, &mut events);

    // Handshake: the host opens the port and says HELLO.
    assert!(matches!(host.scan(0), Err(SourceError::Disconnected(_))));
    assert_eq!(device.answer_hello(), (1, 1));

    // Noise, the start position, a corrupt frame (e2 missing: must never be
    // taken), then e2 really lifted.
    device.send(&[0x00, 0xFF, 0xA5, 0x13, 0x37]);
    device.send_message(&scan(0, START));
    let mut corrupt = encode(&scan(1, START & !(1 << 12) & !1));
    corrupt[9] ^= 0x01;
    device.send(&corrupt);
    let lifted = START & !(1 << Square::E2 as u32);
    device.send_message(&scan(2, lifted));
    let mut seen = Vec::new();
    let got = poll_until(&mut host, &t0, 0, |r| {
        if let Ok(s) = r {
            seen.push(s.occ);
        }
        matches!(r, Ok(s) if s.occ == lifted)
    });
    let now = t0.elapsed().as_millis() as u64;
    game.scan(now, 0, Bitboard(got.unwrap().occ), &mut events);
    assert!(seen.iter().all(|&o| o == START || o == lifted), "{seen:x?}");
    let stats = host.stats();
    assert_eq!(stats.frames.crc_errors, 1);
    assert!(stats.frames.garbage_bytes >= 5, "{stats:?}");
    assert_eq!(stats.lost_scans, 1, "seq 1 never arrived intact");

    // Silence: the data goes stale, and the host asks again.
    let stale = poll_until(&mut host, &t0, 1_000, |r| {
        matches!(r, Err(SourceError::Stale { .. }))
    });
    assert!(matches!(stale, Err(SourceError::Stale { silent_ms }) if silent_ms > 300));

    // The cable is pulled with the pawn in the hand.
    cable.unplug();
    drop(device);
    let start = Instant::now();
    while host.is_open() {
        let r = host.scan(1_000 + t0.elapsed().as_millis() as u64);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "unplug not seen: {r:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let gone = host.scan(1_000 + t0.elapsed().as_millis() as u64);
    assert!(
        matches!(gone, Err(SourceError::Disconnected(_))),
        "{gone:?}"
    );

    // Plugged in again: the host finds the port, shakes hands, and the
    // pawn arrives on e4.
    let _cable = Cable::plug(&dir);
    let mut device = Device::open(&dir);
    let placed = lifted | 1 << Square::E4 as u32;
    let start = Instant::now();
    let mut hello_answered = false;
    let got = loop {
        let now = 2_000 + t0.elapsed().as_millis() as u64;
        let r = host.scan(now);
        if let Ok(s) = r
            && s.occ == placed
        {
            break s;
        }
        if host.is_open() && !hello_answered {
            device.answer_hello();
            device.send_message(&scan(0, placed));
            hello_answered = true;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "no reconnect: {r:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(host.connections() >= 2, "the port was reopened");
    assert_eq!(host.stats().handshakes, 2);
    assert!(matches!(
        host.state(),
        LinkState::Streaming { version: 1, .. }
    ));

    let now = 2_000 + t0.elapsed().as_millis() as u64;
    game.scan(now, 0, Bitboard(got.occ), &mut events);
    game.advance(now + 5_000, &mut events);
    let moves: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Move { san, .. } => Some(san.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, vec!["e4"], "the move made across the unplug counts");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Streams `occ` as a scanner does (a frame every 20 ms) for `ms`.
fn stream(device: &mut Device, seq: &mut u16, occ: u64, ms: u64) {
    let until = Instant::now() + Duration::from_millis(ms);
    while Instant::now() < until {
        device.send_message(&scan(*seq, occ));
        *seq = seq.wrapping_add(1);
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn play_over_the_serial_scanner_says_the_board_is_lost_and_back_and_keeps_the_move() {
    let dir = tempfile_dir();
    let cable = Cable::plug(&dir);
    let mut device = Device::open(&dir);
    let mut player = start_play(&dir, "play", "5");

    // The start position, then e2 lifted; the cable is pulled with the
    // pawn in the hand, and plugged in again with the pawn on e4.
    device.answer_hello();
    let mut seq = 0;
    stream(&mut device, &mut seq, START, 600);
    let lifted = START & !(1 << Square::E2 as u32);
    stream(&mut device, &mut seq, lifted, 400);
    cable.unplug();
    drop(device);
    std::thread::sleep(Duration::from_millis(1_000));
    let _cable = Cable::plug(&dir);
    let mut device = Device::open(&dir);
    device.answer_hello();
    let placed = lifted | 1 << Square::E4 as u32;
    let mut seq = 0;
    // The scanner goes on streaming until pegboard stops.
    while player.try_wait().ok().flatten().is_none() {
        stream(&mut device, &mut seq, placed, 100);
    }

    let out = player.wait_with_output().expect("pegboard play ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = Phrasebook::default().words.phrases;
    let at = |what: &str| {
        stdout
            .find(what)
            .unwrap_or_else(|| panic!("\"{what}\" never came:\n{stdout}"))
    };
    let lost = at(&words.board_lost);
    let back = at(&words.board_back);
    let e4 = at(" e4 ");
    assert!(lost < back && back < e4, "{stdout}");
    assert_eq!(
        stdout.matches(&words.board_lost).count(),
        1,
        "said once: {stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_over_a_scanner_that_answers_but_sends_no_scan_says_lost_once_and_reports_the_noise() {
    let dir = tempfile_dir();
    let _cable = Cable::plug(&dir);
    let mut device = Device::open(&dir);
    let mut player = start_play(&dir, "silent", "6");
    device.answer_hello();
    let mut seq = 0;
    stream(&mut device, &mut seq, START, 600);
    // Noise on the line and a frame with a wrong checksum.
    device.send(b"line noise \x00\xff\x13");
    let mut corrupt = encode(&scan(seq, START));
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0x5a;
    device.send(&corrupt);
    // Then silence: every HELLO is answered with a WELCOME, and no scan
    // ever follows, until pegboard stops.
    let mut welcomes = 0;
    let mut buffer = [0u8; 256];
    while player.try_wait().ok().flatten().is_none() {
        let n = device.port.read(&mut buffer).unwrap_or(0);
        let mut got = Vec::new();
        device.parser.push(&buffer[..n], &mut got);
        for m in got {
            if matches!(m, Message::Hello { .. }) {
                device.send_message(&Message::Welcome {
                    version: 1,
                    scan_hz: 100,
                    name: "silent scanner".into(),
                });
                welcomes += 1;
            }
        }
    }
    let out = player.wait_with_output().expect("pegboard play ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        welcomes >= 3,
        "the scanner was asked again and again: {welcomes}"
    );
    let words = Phrasebook::default().words.phrases;
    assert_eq!(stdout.matches(&words.board_lost).count(), 1, "{stdout}");
    assert_eq!(
        stdout.matches(&words.board_back).count(),
        0,
        "a WELCOME alone is not the board back: {stdout}"
    );
    let report = stdout
        .lines()
        .find(|l| l.contains("bad frame"))
        .unwrap_or_else(|| panic!("the losses were never reported:\n{stdout}"));
    assert!(report.contains("1 bad frame,"), "{report}");
    assert!(report.contains("bytes of noise"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `pegboard play` for `seconds` on the scanner at `dir`/host,
/// with short staleness and reconnect times.
fn start_play(dir: &Path, name: &str, seconds: &str) -> Child {
    let config = dir.join(format!("{name}.toml"));
    std::fs::write(
        &config,
        format!(
            "[sensors]\nsource = \"serial\"\n[sensors.serial]\nport = \"{}\"\n\
             stale_ms = 300\nreconnect_ms = 100\n",
            dir.join("host").display()
        ),
    )
    .expect("config");
    common::pegboard_command()
        .args(["play", "--silent", "--seconds", seconds, "--config"])
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pegboard play starts")
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pegboard-serial-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
