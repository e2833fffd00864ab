//! The serial scanner's wire format (`hardware/serial-protocol.md`):
//! frames, CRC, and a parser that finds frames again after garbage.
//!
//! ```text
//! 0xA5 0x5A | type | length | payload (length bytes, ≤ 64) | CRC-16 (LE)
//! ```
//!
//! The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over
//! type, length and payload.

/// The two bytes that open every frame.
pub const SYNC: [u8; 2] = [0xA5, 0x5A];
/// The longest payload a frame may carry.
pub const MAX_PAYLOAD: usize = 64;
/// The protocol versions this host speaks.
pub const VERSIONS: (u8, u8) = (1, 1);

pub const HELLO: u8 = 0x01;
pub const WELCOME: u8 = 0x02;
pub const SCAN: u8 = 0x10;
pub const HEARTBEAT: u8 = 0x11;
pub const ERROR: u8 = 0x7F;

/// A message, either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Host → scanner: the versions the host speaks; starts (or restarts)
    /// the stream.
    Hello { min_version: u8, max_version: u8 },
    /// Scanner → host: the version chosen, the scan rate, and a name.
    Welcome {
        version: u8,
        scan_hz: u16,
        name: String,
    },
    /// Scanner → host: the whole board and the buttons. Sent at each change
    /// and at least every 100 ms.
    Scan { seq: u16, occ: u64, buttons: u16 },
    /// Scanner → host: alive, nothing changed since scan `seq`.
    Heartbeat { seq: u16, uptime_ms: u32 },
    /// Scanner → host: something is wrong (code 1: no common version).
    Error { code: u8, text: String },
    /// A type this host does not know (a newer scanner); skipped.
    Unknown { kind: u8 },
}

/// CRC-16/CCITT-FALSE.
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &b in bytes {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// A message as a frame on the wire.
pub fn encode(message: &Message) -> Vec<u8> {
    let (kind, payload): (u8, Vec<u8>) = match message {
        Message::Hello {
            min_version,
            max_version,
        } => (HELLO, vec![*min_version, *max_version]),
        Message::Welcome {
            version,
            scan_hz,
            name,
        } => {
            let mut p = vec![*version];
            p.extend_from_slice(&scan_hz.to_le_bytes());
            p.extend(name.bytes().take(MAX_PAYLOAD - 3));
            (WELCOME, p)
        }
        Message::Scan { seq, occ, buttons } => {
            let mut p = Vec::with_capacity(12);
            p.extend_from_slice(&seq.to_le_bytes());
            p.extend_from_slice(&occ.to_le_bytes());
            p.extend_from_slice(&buttons.to_le_bytes());
            (SCAN, p)
        }
        Message::Heartbeat { seq, uptime_ms } => {
            let mut p = Vec::with_capacity(6);
            p.extend_from_slice(&seq.to_le_bytes());
            p.extend_from_slice(&uptime_ms.to_le_bytes());
            (HEARTBEAT, p)
        }
        Message::Error { code, text } => {
            let mut p = vec![*code];
            p.extend(text.bytes().take(MAX_PAYLOAD - 1));
            (ERROR, p)
        }
        Message::Unknown { kind } => (*kind, Vec::new()),
    };
    let mut frame = Vec::with_capacity(payload.len() + 6);
    frame.extend_from_slice(&SYNC);
    frame.push(kind);
    frame.push(payload.len() as u8);
    frame.extend_from_slice(&payload);
    let crc = crc16(&frame[2..]);
    frame.extend_from_slice(&crc.to_le_bytes());
    frame
}

fn decode(kind: u8, p: &[u8]) -> Option<Message> {
    let u16_at = |i: usize| u16::from_le_bytes([p[i], p[i + 1]]);
    Some(match kind {
        HELLO if p.len() == 2 => Message::Hello {
            min_version: p[0],
            max_version: p[1],
        },
        WELCOME if p.len() >= 3 => Message::Welcome {
            version: p[0],
            scan_hz: u16_at(1),
            name: String::from_utf8_lossy(&p[3..]).into_owned(),
        },
        SCAN if p.len() == 12 => {
            let mut occ = [0u8; 8];
            occ.copy_from_slice(&p[2..10]);
            Message::Scan {
                seq: u16_at(0),
                occ: u64::from_le_bytes(occ),
                buttons: u16_at(10),
            }
        }
        HEARTBEAT if p.len() == 6 => Message::Heartbeat {
            seq: u16_at(0),
            uptime_ms: u32::from_le_bytes([p[2], p[3], p[4], p[5]]),
        },
        ERROR if !p.is_empty() => Message::Error {
            code: p[0],
            text: String::from_utf8_lossy(&p[1..]).into_owned(),
        },
        HELLO | WELCOME | SCAN | HEARTBEAT | ERROR => return None,
        other => Message::Unknown { kind: other },
    })
}

/// What the parser threw away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ParseStats {
    /// Bytes skipped while looking for the next frame.
    pub garbage_bytes: u64,
    /// Frames whose CRC did not match.
    pub crc_errors: u64,
    /// Frames with a good CRC but a payload of the wrong length for their type.
    pub malformed: u64,
}

/// Turns a byte stream into messages, finding the frames again after noise,
/// a cut-off frame or a corrupt one: whatever is not a whole frame with a
/// good CRC is skipped a byte at a time, never taken for data.
#[derive(Debug, Default)]
pub struct FrameParser {
    buffer: Vec<u8>,
    pub stats: ParseStats,
}

impl FrameParser {
    pub fn new() -> FrameParser {
        FrameParser::default()
    }

    /// Forgets a partial frame (after a reconnect).
    pub fn clear(&mut self) {
        self.buffer.clear();
    }

    /// Adds bytes and returns the messages now complete.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Message>) {
        self.buffer.extend_from_slice(bytes);
        let mut start = 0;
        loop {
            let rest = &self.buffer[start..];
            // Find the sync pair.
            let Some(at) = rest.windows(2).position(|w| w == SYNC) else {
                // Keep a trailing 0xA5: it may open the next frame.
                let keep = usize::from(rest.last() == Some(&SYNC[0]));
                self.stats.garbage_bytes += (rest.len() - keep) as u64;
                start = self.buffer.len() - keep;
                break;
            };
            self.stats.garbage_bytes += at as u64;
            start += at;
            let rest = &self.buffer[start..];
            if rest.len() < 4 {
                break;
            }
            let kind = rest[2];
            let len = rest[3] as usize;
            if len > MAX_PAYLOAD {
                self.stats.garbage_bytes += 1;
                start += 1;
                continue;
            }
            if rest.len() < 6 + len {
                break;
            }
            let crc = u16::from_le_bytes([rest[4 + len], rest[5 + len]]);
            if crc != crc16(&rest[2..4 + len]) {
                self.stats.crc_errors += 1;
                self.stats.garbage_bytes += 1;
                start += 1;
                continue;
            }
            match decode(kind, &rest[4..4 + len]) {
                Some(m) => out.push(m),
                None => self.stats.malformed += 1,
            }
            start += 6 + len;
        }
        self.buffer.drain(..start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_is_ccitt_false() {
        // The catalogue check value of CRC-16/CCITT-FALSE.
        assert_eq!(crc16(b"123456789"), 0x29B1);
    }

    #[test]
    fn scan_frame_bytes() {
        let f = encode(&Message::Scan {
            seq: 0x0102,
            occ: 0xFFFF_0000_0000_FFFF,
            buttons: 0x0004,
        });
        assert_eq!(
            &f[..16],
            &[
                0xA5, 0x5A, 0x10, 12, 0x02, 0x01, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0x04, 0
            ]
        );
        assert_eq!(f.len(), 18);
    }

    fn parse(bytes: &[u8]) -> (Vec<Message>, ParseStats) {
        let mut p = FrameParser::new();
        let mut out = Vec::new();
        p.push(bytes, &mut out);
        (out, p.stats)
    }

    #[test]
    fn every_message_round_trips() {
        let messages = [
            Message::Hello {
                min_version: 1,
                max_version: 1,
            },
            Message::Welcome {
                version: 1,
                scan_hz: 200,
                name: "pegboard-scanner rp2040".into(),
            },
            Message::Scan {
                seq: 65535,
                occ: 0x8000_0000_0000_0001,
                buttons: 0xFFFF,
            },
            Message::Heartbeat {
                seq: 7,
                uptime_ms: 123_456,
            },
            Message::Error {
                code: 1,
                text: "no common version".into(),
            },
        ];
        let bytes: Vec<u8> = messages.iter().flat_map(encode).collect();
        let (out, stats) = parse(&bytes);
        assert_eq!(out, messages);
        assert_eq!(stats, ParseStats::default());
    }

    #[test]
    fn resyncs_after_garbage_and_a_corrupt_frame() {
        let good = Message::Scan {
            seq: 1,
            occ: 0xFF,
            buttons: 0,
        };
        let mut corrupt = encode(&Message::Scan {
            seq: 2,
            occ: 0xF0,
            buttons: 0,
        });
        corrupt[8] ^= 0x10; // a bit flipped in the occupancy
        let mut bytes = vec![0x00, 0xA5, 0x13, 0x5A, 0xA5];
        bytes.extend(&corrupt);
        bytes.extend(encode(&good));
        let (out, stats) = parse(&bytes);
        assert_eq!(out, vec![good]);
        assert_eq!(stats.crc_errors, 1);
        assert!(stats.garbage_bytes >= 5);
    }

    #[test]
    fn a_frame_split_across_reads_is_joined() {
        let m = Message::Heartbeat {
            seq: 3,
            uptime_ms: 99,
        };
        let f = encode(&m);
        let mut p = FrameParser::new();
        let mut out = Vec::new();
        for b in &f {
            p.push(std::slice::from_ref(b), &mut out);
        }
        assert_eq!(out, vec![m]);
        assert_eq!(p.stats, ParseStats::default());
    }

    #[test]
    fn a_sync_pair_inside_garbage_with_a_huge_length_is_skipped() {
        let m = Message::Heartbeat {
            seq: 1,
            uptime_ms: 1,
        };
        let mut bytes = vec![0xA5, 0x5A, 0x10, 200];
        bytes.extend(encode(&m));
        let (out, _) = parse(&bytes);
        assert_eq!(out, vec![m]);
    }

    #[test]
    fn wrong_length_for_its_type_is_malformed_not_data() {
        let mut frame = vec![0xA5, 0x5A, SCAN, 3, 1, 2, 3];
        let crc = crc16(&frame[2..]);
        frame.extend(crc.to_le_bytes());
        let (out, stats) = parse(&frame);
        assert!(out.is_empty());
        assert_eq!(stats.malformed, 1);
    }

    #[test]
    fn unknown_types_are_passed_over() {
        let mut frame = vec![0xA5, 0x5A, 0x42, 1, 9];
        let crc = crc16(&frame[2..]);
        frame.extend(crc.to_le_bytes());
        let (out, _) = parse(&frame);
        assert_eq!(out, vec![Message::Unknown { kind: 0x42 }]);
    }
}
