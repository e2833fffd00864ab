//! One journal record as a line of text, and reading a journal's records
//! back: pure, no files.
//!
//! A journal is a first line, [`MAGIC`], then one record per line:
//!
//! ```text
//! 0000003a 00000007 9f1c0b2e {"t":1200,"board":"blind","occ":"ffff00001000efff"}
//! ```
//!
//! the payload's length in bytes, the record's sequence number (1, 2, 3 …),
//! and the CRC-32 (IEEE) of the sequence number's eight digits, a space and
//! the payload, each as eight lowercase hexadecimal digits; then the
//! payload, a trace line (`docs/trace-format.md`). `cut -d' ' -f4-` turns a
//! journal into a trace.

/// The first line of every journal (without its newline).
pub const MAGIC: &str = "pegboard-journal 1";

/// The characters before a record's payload: three words of eight hex
/// digits, each followed by a space.
const PREFIX: usize = 27;

/// A record's line, with its newline.
pub fn encode(seq: u64, payload: &str) -> String {
    let seq = format!("{:08x}", seq as u32);
    let crc = crc(&seq, payload);
    format!("{:08x} {seq} {crc:08x} {payload}\n", payload.len())
}

fn crc(seq: &str, payload: &str) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(seq.as_bytes());
    h.update(b" ");
    h.update(payload.as_bytes());
    h.finalize()
}

/// One whole record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub seq: u64,
    pub payload: String,
}

/// Why the bytes at a record's place are no record.
fn decode(line: &[u8], expected_seq: u64) -> Result<Record, String> {
    if line.len() < PREFIX {
        return Err("the record is cut short".into());
    }
    let hex = |at: usize, what: &str| -> Result<u32, String> {
        let word = std::str::from_utf8(&line[at..at + 8])
            .ok()
            .filter(|w| w.bytes().all(|b| b.is_ascii_hexdigit()));
        let sep = line[at + 8] == b' ';
        match word {
            Some(w) if sep => u32::from_str_radix(w, 16).map_err(|e| format!("{what}: {e}")),
            _ => Err(format!("the record's {what} is not eight hex digits")),
        }
    };
    let len = hex(0, "length")? as usize;
    let seq = hex(9, "sequence number")?;
    let crc_read = hex(18, "checksum")?;
    let payload = &line[PREFIX..];
    if payload.len() != len {
        return Err(format!(
            "the record's payload is {} bytes, its length says {len}",
            payload.len()
        ));
    }
    let payload = std::str::from_utf8(payload).map_err(|_| "the payload is not UTF-8")?;
    let seq_text = std::str::from_utf8(&line[9..17]).unwrap_or_default();
    if crc(seq_text, payload) != crc_read {
        return Err("the record's checksum does not match (CRC-32)".into());
    }
    if u64::from(seq) != expected_seq & 0xffff_ffff {
        return Err(format!(
            "record {seq} where record {expected_seq} should be"
        ));
    }
    Ok(Record {
        seq: expected_seq,
        payload: payload.to_string(),
    })
}

/// How a journal's records end short of its last byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// The last record is cut or damaged, and nothing whole follows it:
    /// what a power cut in the middle of a write leaves. Cut at `offset`,
    /// the journal is whole.
    Torn { offset: u64, why: String },
    /// A record in the middle is damaged: records follow that cannot be
    /// trusted. The records before it are good.
    Corrupt { offset: u64, seq: u64, why: String },
}

/// What a journal's bytes hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Records {
    pub records: Vec<Record>,
    /// The length of the good part: the magic line and the whole records.
    pub good_len: u64,
    pub damage: Option<Damage>,
}

/// Why bytes are no journal at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAJournal;

/// Reads a journal's records from its bytes. Never panics, whatever the
/// bytes; stops at the first record that is not whole and good.
pub fn records(bytes: &[u8]) -> Result<Records, NotAJournal> {
    let magic = format!("{MAGIC}\n");
    if !bytes.starts_with(magic.as_bytes()) {
        // A journal whose first line is being written when the power goes.
        if bytes.len() < magic.len() && magic.as_bytes().starts_with(bytes) {
            return Ok(Records {
                records: Vec::new(),
                good_len: 0,
                damage: Some(Damage::Torn {
                    offset: 0,
                    why: "the journal's first line is cut short".into(),
                }),
            });
        }
        return Err(NotAJournal);
    }
    let mut at = magic.len();
    let mut records = Vec::new();
    while at < bytes.len() {
        let rest = &bytes[at..];
        let seq = records.len() as u64 + 1;
        let (line, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], at + i + 1),
            None => (rest, bytes.len()),
        };
        let whole = next <= bytes.len() && rest.len() > line.len();
        let decoded = if whole {
            decode(line, seq)
        } else {
            Err("the last record has no end of line".into())
        };
        match decoded {
            Ok(r) => {
                records.push(r);
                at = next;
            }
            Err(why) => {
                let damage = if good_record_after(&bytes[next.min(bytes.len())..], seq) {
                    Damage::Corrupt {
                        offset: at as u64,
                        seq,
                        why,
                    }
                } else {
                    Damage::Torn {
                        offset: at as u64,
                        why,
                    }
                };
                return Ok(Records {
                    records,
                    good_len: at as u64,
                    damage: Some(damage),
                });
            }
        }
    }
    Ok(Records {
        records,
        good_len: at as u64,
        damage: None,
    })
}

/// Whether a whole, good record of a later number follows: then the damage
/// is in the middle, not a torn end.
fn good_record_after(bytes: &[u8], seq: u64) -> bool {
    bytes.split(|&b| b == b'\n').any(|line| {
        line.len() > PREFIX
            && std::str::from_utf8(&line[9..17])
                .ok()
                .and_then(|s| u64::from_str_radix(s, 16).ok())
                .is_some_and(|n| n > seq & 0xffff_ffff && decode(line, n).is_ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal(payloads: &[&str]) -> Vec<u8> {
        let mut text = format!("{MAGIC}\n");
        for (i, p) in payloads.iter().enumerate() {
            text.push_str(&encode(i as u64 + 1, p));
        }
        text.into_bytes()
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let bytes = journal(&[
            r#"{"t":0,"trace":1,"start":"startpos"}"#,
            r#"{"t":5,"lift":"e2"}"#,
        ]);
        let r = records(&bytes).expect("a journal");
        assert_eq!(r.damage, None);
        assert_eq!(r.records.len(), 2);
        assert_eq!(r.records[1].payload, r#"{"t":5,"lift":"e2"}"#);
        assert_eq!(r.good_len, bytes.len() as u64);
    }

    #[test]
    fn the_checksum_is_crc_32_ieee_over_the_number_and_the_payload() {
        // The CRC-32 of "00000001 {}" as zlib computes it (python3 -c
        // 'import zlib; print(hex(zlib.crc32(b"00000001 {}")))').
        let line = encode(1, "{}");
        assert_eq!(line, "00000002 00000001 1f7f8586 {}\n");
    }

    #[test]
    fn a_foreign_file_is_not_a_journal() {
        assert_eq!(records(b"[Event \"?\"]\n"), Err(NotAJournal));
        assert_eq!(
            records(b""),
            Ok(Records {
                records: Vec::new(),
                good_len: 0,
                damage: Some(Damage::Torn {
                    offset: 0,
                    why: "the journal's first line is cut short".into()
                }),
            })
        );
    }
}
