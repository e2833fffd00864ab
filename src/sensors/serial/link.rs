//! The host's side of a scanner connection, without the port: the
//! handshake, the sequence numbers, and whether the data is fresh. Time is
//! a value passed in, so every rule here is tested without a device.

use super::protocol::{self, FrameParser, Message, ParseStats};
use crate::sensors::{RawScan, SourceError};

/// Timing of the link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkTiming {
    /// Data older than this (no scan or heartbeat) is stale (ms).
    pub stale_ms: u64,
    /// Send HELLO again after this long without an answer (ms).
    pub hello_retry_ms: u64,
}

impl Default for LinkTiming {
    fn default() -> LinkTiming {
        LinkTiming {
            stale_ms: 500,
            hello_retry_ms: 1000,
        }
    }
}

/// Where the link is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkState {
    /// HELLO sent, no WELCOME yet.
    Handshaking,
    /// The scanner streams scans.
    Streaming {
        version: u8,
        scan_hz: u16,
        name: String,
    },
    /// The scanner speaks no version this host speaks.
    Refused(String),
}

/// What the link counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinkStats {
    pub frames: ParseStats,
    /// Scans the sequence numbers show were lost.
    pub lost_scans: u64,
    /// Handshakes completed (1 + reconnections and scanner restarts).
    pub handshakes: u64,
}

pub struct Link {
    timing: LinkTiming,
    parser: FrameParser,
    state: LinkState,
    /// When a frame last arrived from a streaming scanner.
    last_heard_ms: u64,
    hello_sent_ms: u64,
    latest: Option<(u16, RawScan)>,
    /// The buttons of the last scan taken in.
    frame_buttons: u16,
    /// Buttons down in two scans in a row since the last poll.
    held: u16,
    /// Buttons a poll has given down, once…
    seen_once: u16,
    /// …and twice or more: enough for the host's own debounce to time.
    seen_twice: u16,
    lost_scans: u64,
    handshakes: u64,
    /// Messages the scanner sent in its ERROR frames, not yet collected.
    device_errors: Vec<String>,
}

fn hello() -> Vec<u8> {
    protocol::encode(&Message::Hello {
        min_version: protocol::VERSIONS.0,
        max_version: protocol::VERSIONS.1,
    })
}

impl Link {
    pub fn new(timing: LinkTiming) -> Link {
        Link {
            timing,
            parser: FrameParser::new(),
            state: LinkState::Handshaking,
            last_heard_ms: 0,
            hello_sent_ms: 0,
            latest: None,
            frame_buttons: 0,
            held: 0,
            seen_once: 0,
            seen_twice: 0,
            lost_scans: 0,
            handshakes: 0,
            device_errors: Vec::new(),
        }
    }

    pub fn state(&self) -> &LinkState {
        &self.state
    }

    pub fn stats(&self) -> LinkStats {
        LinkStats {
            frames: self.parser.stats,
            lost_scans: self.lost_scans,
            handshakes: self.handshakes,
        }
    }

    /// The scanner's ERROR messages since the last call.
    pub fn take_device_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.device_errors)
    }

    /// The port was (re)opened: start the handshake. Returns the bytes to
    /// send. Nothing is handed out until the scanner sends a scan after
    /// its WELCOME.
    pub fn connected(&mut self, now_ms: u64) -> Vec<u8> {
        self.parser.clear();
        self.state = LinkState::Handshaking;
        self.hello_sent_ms = now_ms;
        hello()
    }

    /// Bytes from the scanner.
    pub fn receive(&mut self, now_ms: u64, bytes: &[u8]) {
        let mut messages = Vec::new();
        self.parser.push(bytes, &mut messages);
        for m in messages {
            match m {
                Message::Welcome {
                    version,
                    scan_hz,
                    name,
                } => {
                    if (protocol::VERSIONS.0..=protocol::VERSIONS.1).contains(&version) {
                        self.state = LinkState::Streaming {
                            version,
                            scan_hz,
                            name,
                        };
                        self.handshakes += 1;
                        self.last_heard_ms = now_ms;
                        // Only a SCAN after the handshake says where the
                        // pegs are now: the board from before the silence
                        // is not handed out again on the WELCOME alone.
                        // Sequence numbers start afresh with the next scan.
                        self.latest = None;
                        self.frame_buttons = 0;
                        self.held = 0;
                        self.seen_once = 0;
                        self.seen_twice = 0;
                    } else {
                        self.state = LinkState::Refused(format!(
                            "the scanner speaks protocol version {version}; this pegboard speaks {}–{}",
                            protocol::VERSIONS.0,
                            protocol::VERSIONS.1
                        ));
                    }
                }
                Message::Error { code, text } => {
                    if code == 1 {
                        self.state = LinkState::Refused(format!(
                            "the scanner has no protocol version in common with this pegboard ({}–{}): {text}",
                            protocol::VERSIONS.0,
                            protocol::VERSIONS.1
                        ));
                    }
                    self.device_errors.push(format!("error {code}: {text}"));
                }
                Message::Scan { seq, occ, buttons } => {
                    if !matches!(self.state, LinkState::Streaming { .. }) {
                        continue;
                    }
                    self.last_heard_ms = now_ms;
                    if let Some((last, _)) = self.latest {
                        if seq == last {
                            continue; // a repeat of what we have
                        }
                        self.lost_scans += u64::from(seq.wrapping_sub(last).wrapping_sub(1));
                    }
                    // A button down in this scan and the one before was
                    // held, not bounced: a press, even should the host
                    // look only after it was let go.
                    self.held |= buttons & self.frame_buttons;
                    self.frame_buttons = buttons;
                    self.latest = Some((
                        seq,
                        RawScan {
                            occ,
                            buttons: Some(buttons),
                            missed: 0,
                        },
                    ));
                }
                Message::Heartbeat { .. } => {
                    if matches!(self.state, LinkState::Streaming { .. }) {
                        self.last_heard_ms = now_ms;
                        // Nothing changed for 100 ms: the buttons down are
                        // held.
                        self.held |= self.frame_buttons;
                    }
                }
                Message::Hello { .. } | Message::Unknown { .. } => {}
            }
        }
    }

    /// The board as the scanner last reported it, if that is current; and
    /// bytes to send, if the handshake must be (re)started.
    pub fn poll(&mut self, now_ms: u64) -> (Result<RawScan, SourceError>, Option<Vec<u8>>) {
        match &self.state {
            LinkState::Refused(why) => {
                let why = why.clone();
                let again = now_ms.saturating_sub(self.hello_sent_ms) >= self.timing.hello_retry_ms;
                if again {
                    self.hello_sent_ms = now_ms;
                }
                (Err(SourceError::Device(why)), again.then(hello))
            }
            LinkState::Handshaking => {
                let again = now_ms.saturating_sub(self.hello_sent_ms) >= self.timing.hello_retry_ms;
                if again {
                    self.hello_sent_ms = now_ms;
                }
                (
                    Err(SourceError::Disconnected(
                        "waiting for the scanner to answer the handshake".to_string(),
                    )),
                    again.then(hello),
                )
            }
            LinkState::Streaming { .. } => {
                let silent_ms = now_ms.saturating_sub(self.last_heard_ms);
                if silent_ms > self.timing.stale_ms {
                    // A scanner that restarted waits for a HELLO: ask again.
                    self.state = LinkState::Handshaking;
                    self.hello_sent_ms = now_ms;
                    return (Err(SourceError::Stale { silent_ms }), Some(hello()));
                }
                match self.latest {
                    Some((_, scan)) => {
                        // Held, let go again, and given down to no more
                        // than one poll: a press a busy host could not
                        // time (its debounce needs two looks).
                        let now = scan.buttons.unwrap_or(0);
                        let missed = self.held & !now & !self.seen_twice;
                        self.seen_twice |= self.seen_once & now;
                        self.seen_once |= now;
                        self.seen_once &= now;
                        self.seen_twice &= now;
                        self.held &= now;
                        (Ok(RawScan { missed, ..scan }), None)
                    }
                    None => (
                        Err(SourceError::Disconnected(
                            "the scanner has not sent a scan yet".to_string(),
                        )),
                        None,
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensors::serial::protocol::encode;

    fn welcome(version: u8) -> Vec<u8> {
        encode(&Message::Welcome {
            version,
            scan_hz: 100,
            name: "test".into(),
        })
    }

    fn scan(seq: u16, occ: u64) -> Vec<u8> {
        encode(&Message::Scan {
            seq,
            occ,
            buttons: 0,
        })
    }

    fn buttons(seq: u16, buttons: u16) -> Vec<u8> {
        encode(&Message::Scan {
            seq,
            occ: 0xFF,
            buttons,
        })
    }

    #[test]
    fn a_press_held_across_scans_and_let_go_before_the_host_looked_is_given_once_as_missed() {
        let mut link = Link::new(LinkTiming::default());
        link.connected(0);
        link.receive(1, &welcome(1));
        link.receive(2, &buttons(0, 0));
        assert_eq!(
            link.poll(3).0.map(|s| (s.buttons, s.missed)),
            Ok((Some(0), 0))
        );
        // A busy host: the press (two scans) and its release come at once.
        let mut burst = buttons(1, 0b100);
        burst.extend(buttons(2, 0b100));
        burst.extend(buttons(3, 0));
        link.receive(400, &burst);
        assert_eq!(
            link.poll(401).0.map(|s| (s.buttons, s.missed)),
            Ok((Some(0), 0b100))
        );
        // Given once.
        assert_eq!(link.poll(402).0.map(|s| s.missed), Ok(0));
        // Down in one scan, then a heartbeat (nothing changed for 100 ms):
        // held too.
        let mut beat = buttons(4, 0b1000);
        beat.extend(encode(&Message::Heartbeat {
            seq: 4,
            uptime_ms: 5000,
        }));
        beat.extend(buttons(5, 0));
        link.receive(402, &beat);
        assert_eq!(link.poll(402).0.map(|s| s.missed), Ok(0b1000));
        // A bounce (one scan down) is no press.
        let mut bounce = buttons(6, 0b1);
        bounce.extend(buttons(7, 0));
        link.receive(403, &bounce);
        assert_eq!(link.poll(404).0.map(|s| s.missed), Ok(0));
        // A press the host looked at twice is its own to time, not missed.
        let mut held = buttons(8, 0b10);
        held.extend(buttons(9, 0b10));
        link.receive(405, &held);
        let looked = |link: &mut Link, t| link.poll(t).0.map(|s| (s.buttons, s.missed));
        assert_eq!(looked(&mut link, 406), Ok((Some(0b10), 0)));
        assert_eq!(looked(&mut link, 430), Ok((Some(0b10), 0)));
        link.receive(431, &buttons(10, 0));
        assert_eq!(looked(&mut link, 432), Ok((Some(0), 0)));
        // Looked at once only (a busy host), then let go: missed.
        let mut once = buttons(11, 0b10);
        once.extend(buttons(12, 0b10));
        link.receive(433, &once);
        assert_eq!(looked(&mut link, 434), Ok((Some(0b10), 0)));
        link.receive(900, &buttons(13, 0));
        assert_eq!(looked(&mut link, 901), Ok((Some(0), 0b10)));
    }

    #[test]
    fn handshake_then_scans() {
        let mut link = Link::new(LinkTiming::default());
        let hello = link.connected(0);
        assert_eq!(&hello[..3], &[0xA5, 0x5A, protocol::HELLO]);
        assert!(link.poll(1).0.is_err());
        link.receive(2, &welcome(1));
        link.receive(3, &scan(0, 0xFF));
        assert_eq!(link.poll(4).0.map(|s| s.occ), Ok(0xFF));
        assert_eq!(link.stats().handshakes, 1);
    }

    #[test]
    fn scans_before_the_handshake_are_not_trusted() {
        let mut link = Link::new(LinkTiming::default());
        link.connected(0);
        link.receive(1, &scan(5, 0xFF));
        link.receive(2, &welcome(1));
        assert!(matches!(link.poll(3).0, Err(SourceError::Disconnected(_))));
    }

    #[test]
    fn lost_scans_are_counted_from_the_sequence() {
        let mut link = Link::new(LinkTiming::default());
        link.connected(0);
        link.receive(1, &welcome(1));
        link.receive(2, &scan(65534, 1));
        link.receive(3, &scan(65534, 1));
        link.receive(4, &scan(2, 3)); // 65535, 0, 1 lost
        assert_eq!(link.stats().lost_scans, 3);
        assert_eq!(link.poll(5).0.map(|s| s.occ), Ok(3));
    }

    #[test]
    fn silence_makes_the_data_stale_and_restarts_the_handshake() {
        let timing = LinkTiming {
            stale_ms: 500,
            hello_retry_ms: 1000,
        };
        let mut link = Link::new(timing);
        link.connected(0);
        link.receive(10, &welcome(1));
        link.receive(20, &scan(0, 0xFF));
        link.receive(
            300,
            &encode(&Message::Heartbeat {
                seq: 0,
                uptime_ms: 1,
            }),
        );
        assert!(link.poll(800).0.is_ok(), "heard at 300: fresh until 800");
        let (result, send) = link.poll(801);
        assert_eq!(result, Err(SourceError::Stale { silent_ms: 501 }));
        assert!(send.is_some(), "HELLO again");
        // The scanner answers, and sends the board at once.
        link.receive(900, &welcome(1));
        link.receive(901, &scan(0, 0xF0));
        assert_eq!(link.poll(902).0.map(|s| s.occ), Ok(0xF0));
        assert_eq!(
            link.stats().lost_scans,
            0,
            "a new handshake restarts the sequence"
        );
    }

    #[test]
    fn a_scanner_that_answers_hello_but_sends_no_scan_is_not_back() {
        let mut link = Link::new(LinkTiming::default());
        link.connected(0);
        link.receive(10, &welcome(1));
        link.receive(20, &scan(7, 0xFF));
        assert_eq!(link.poll(30).0.map(|s| s.occ), Ok(0xFF));
        // Silence: stale, HELLO again; the scanner answers with a WELCOME
        // and nothing more, over and over.
        let mut t = 30;
        for _ in 0..20 {
            t += 501;
            assert!(link.poll(t).0.is_err());
            link.receive(t + 1, &welcome(1));
            assert!(
                link.poll(t + 2).0.is_err(),
                "the old board is not handed out on a WELCOME"
            );
        }
        // A scan brings it back, with the sequence started afresh.
        link.receive(t + 3, &scan(0, 0xF0));
        assert_eq!(link.poll(t + 4).0.map(|s| s.occ), Ok(0xF0));
        link.receive(t + 5, &scan(1, 0xF0));
        assert_eq!(link.stats().lost_scans, 0);
    }

    #[test]
    fn a_scanner_with_another_version_is_refused_plainly() {
        let mut link = Link::new(LinkTiming::default());
        link.connected(0);
        link.receive(1, &welcome(9));
        let (result, _) = link.poll(2);
        let Err(SourceError::Device(why)) = result else {
            panic!("{result:?}")
        };
        assert!(why.contains("version 9"), "{why}");
        link.receive(
            3,
            &encode(&Message::Error {
                code: 1,
                text: "I speak 2 only".into(),
            }),
        );
        assert_eq!(link.take_device_errors(), vec!["error 1: I speak 2 only"]);
    }

    #[test]
    fn no_answer_to_hello_sends_it_again() {
        let mut link = Link::new(LinkTiming::default());
        link.connected(0);
        assert!(link.poll(999).1.is_none());
        assert!(link.poll(1000).1.is_some());
        assert!(link.poll(1001).1.is_none());
    }
}
