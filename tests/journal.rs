//! The journal against what a power cut and a bad SD card do to a file:
//! cut at every byte of its last records, bytes flipped anywhere, a file
//! that is no journal at all. Nothing before the damage is lost, nothing
//! damaged is taken for a record, and the daemon starts a new game beside
//! a file it cannot use, leaving that file as it was.

mod common;

use std::path::{Path, PathBuf};

use pegboard::record::journal::record::{self, Damage};
use pegboard::record::journal::store::load_file;
use pegboard::record::journal::{Store, Writer};
use pegboard::record::pgn::read_games;
use pegboard::sim::{Style, simulate};
use pegboard::trace::{Entry, Reading};
use proptest::prelude::*;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pegboard-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A real game's trace (Morphy - Duke of Brunswick by simulated hands).
fn game() -> Vec<Entry> {
    let path = format!(
        "{}/tests/games/immortal-games.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    simulate(&games[17].record, 3, Style::default()).expect("simulated")
}

/// The game written as a journal through the writer thread, as `play`
/// writes one; returns its path.
fn written(dir: &Path) -> PathBuf {
    let store = Store::open(dir).expect("store");
    let files = store.next().expect("numbered");
    let entries = game();
    let mut w = Writer::create(files.clone(), entries[0].t, &entries[0].reading).expect("created");
    for e in &entries[1..] {
        w.record(e.t, &e.reading);
    }
    assert_eq!(w.finish(), None, "no trouble writing");
    files.journal
}

fn payloads(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| pegboard::trace::write_line(e.t, &e.reading))
        .collect()
}

#[test]
fn a_journal_is_a_trace_of_what_was_fed() {
    let dir = temp("whole");
    let path = written(&dir);
    let loaded = load_file(&path).expect("reads");
    assert_eq!(loaded.damage, None);
    assert_eq!(payloads(&loaded.entries), payloads(&game()));
    // `pegboard replay` plays it exactly as it plays the same trace.
    let trace = dir.join("game.jsonl");
    let text: String = payloads(&game()).iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&trace, text).expect("trace");
    let replay = |file: &Path| {
        let out = common::pegboard_command()
            .args(["replay", "--until", "100000000"])
            .arg(file)
            .output()
            .expect("replay runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let from_journal = replay(&path);
    assert_eq!(from_journal, replay(&trace));
    // The game's 33 moves, mate at the end.
    assert_eq!(from_journal.matches("\"event\":\"move\"").count(), 33);
    assert!(from_journal.contains("\"reason\":\"checkmate\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_journal_cut_at_any_byte_of_its_last_records_recovers_to_the_last_whole_record() {
    let dir = temp("torn");
    let path = written(&dir);
    let bytes = std::fs::read(&path).expect("bytes");
    let whole = record::records(&bytes).expect("a journal");
    let n = whole.records.len();
    // Where each record ends, in bytes.
    let mut ends = vec![(record::MAGIC.len() + 1) as u64];
    for r in &whole.records {
        let line = record::encode(r.seq, &r.payload);
        ends.push(ends.last().copied().unwrap_or(0) + line.len() as u64);
    }
    assert_eq!(*ends.last().expect("ends"), bytes.len() as u64);
    let from = ends[n - 4] as usize;
    for cut in from..bytes.len() {
        let part = &bytes[..cut];
        let r = record::records(part).expect("still a journal");
        let kept = ends.iter().filter(|&&e| e as usize <= cut).count() - 1;
        assert_eq!(r.records.len(), kept, "cut at byte {cut}");
        assert_eq!(r.records[..], whole.records[..kept], "cut at byte {cut}");
        assert_eq!(r.good_len, ends[kept], "cut at byte {cut}");
        let boundary = ends.contains(&(cut as u64));
        match &r.damage {
            None => assert!(boundary, "cut at byte {cut} inside a record, unseen"),
            Some(Damage::Torn { offset, .. }) => {
                assert!(!boundary, "cut at byte {cut} is a whole journal");
                assert_eq!(*offset, ends[kept]);
            }
            Some(other) => panic!("cut at byte {cut}: {other:?}"),
        }
    }
    // Resumed, the torn end is cut off and the next records follow whole.
    let cut = (ends[n - 1] + 7) as usize;
    std::fs::write(&path, &bytes[..cut]).expect("torn");
    let loaded = load_file(&path).expect("reads");
    assert!(matches!(loaded.damage, Some(Damage::Torn { .. })));
    let mut w = Writer::resume(&loaded).expect("resumed");
    w.record(999_999, &Reading::Input(pegboard::core::Input::Times));
    assert_eq!(w.finish(), None);
    let again = load_file(&path).expect("reads");
    assert_eq!(again.damage, None);
    assert_eq!(again.entries.len(), n - 1 + 1);
    assert_eq!(again.entries.last().map(|e| e.t), Some(999_999));
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Bytes flipped anywhere are refused by the CRC: no panic, no record
    /// that differs from the one written, and every record before the
    /// first damaged one kept.
    #[test]
    fn flipped_bytes_are_refused_and_lose_nothing_before_them(
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4)
    ) {
        let bytes = journal_bytes();
        let whole = record::records(&bytes).expect("a journal");
        let mut bad = bytes.clone();
        let mut first = usize::MAX;
        for (at, x) in &flips {
            let i = at.index(bad.len());
            bad[i] ^= x;
            first = first.min(i);
        }
        match record::records(&bad) {
            Err(_) => prop_assert!(first < record::MAGIC.len() + 1, "only a damaged first line is no journal"),
            Ok(r) => {
                prop_assert!(r.records.len() <= whole.records.len());
                prop_assert_eq!(&r.records[..], &whole.records[..r.records.len()]);
                // The records wholly before the first flipped byte are kept.
                let mut end = record::MAGIC.len() + 1;
                let mut before = 0;
                for rec in &whole.records {
                    end += record::encode(rec.seq, &rec.payload).len();
                    if end <= first { before += 1; }
                }
                prop_assert!(r.records.len() >= before);
            }
        }
    }
}

fn journal_bytes() -> Vec<u8> {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES
        .get_or_init(|| {
            let dir = temp("flips");
            let bytes = std::fs::read(written(&dir)).expect("bytes");
            let _ = std::fs::remove_dir_all(&dir);
            bytes
        })
        .clone()
}

/// `pegboard play` on a trace of one move, with the journal in `dir`.
fn play(dir: &Path) -> String {
    common::play_nf3_journaled(dir, "", "")
}

#[test]
fn a_damaged_or_foreign_file_is_named_left_alone_and_a_new_game_begins() {
    let dir = temp("daemon");
    let journals = dir.join("journal");
    std::fs::create_dir_all(&journals).expect("dir");
    // Game 1: a journal damaged in the middle; game 2: not a journal.
    let good = std::fs::read(written(&temp("daemon-src"))).expect("bytes");
    let mut damaged = good.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x20;
    std::fs::write(journals.join("game-0001.journal"), &damaged).expect("written");
    std::fs::write(journals.join("game-0002.journal"), "[Event \"?\"]\n").expect("written");

    let out = play(&dir);
    assert!(
        out.contains("game-0002.journal: not a pegboard journal"),
        "the foreign file is named:\n{out}"
    );
    assert!(
        out.contains("game 3 is kept in"),
        "a new game, numbered after both:\n{out}"
    );
    assert!(out.contains("1. Nf3"), "and it is played:\n{out}");
    // Both left exactly as they were.
    assert_eq!(
        std::fs::read(journals.join("game-0001.journal")).expect("kept"),
        damaged
    );
    assert_eq!(
        std::fs::read_to_string(journals.join("game-0002.journal")).expect("kept"),
        "[Event \"?\"]\n"
    );
    // The damaged journal's good records still replay, and the damage is
    // named with its record.
    let replay = common::pegboard_command()
        .arg("replay")
        .arg(journals.join("game-0001.journal"))
        .output()
        .expect("replay runs");
    assert_eq!(replay.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&replay.stderr).contains("is damaged"));
    assert!(String::from_utf8_lossy(&replay.stdout).contains("\"event\":\"move\""));

    // Game 1 damaged in the middle is reported by `play` too, once it is
    // the newest.
    std::fs::remove_file(journals.join("game-0002.journal")).expect("removed");
    for ext in ["journal", "pgn", "beat"] {
        let _ = std::fs::remove_file(journals.join(format!("game-0003.{ext}")));
    }
    let out = play(&dir);
    assert!(out.contains("game-0001.journal: record"), "{out}");
    assert!(out.contains("is damaged"), "{out}");
    assert!(out.contains("game 2 is kept in"), "{out}");
    assert_eq!(
        std::fs::read(journals.join("game-0001.journal")).expect("kept"),
        damaged
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unfinished_game_is_resumed_where_it_stood_and_the_pgn_command_prints_it() {
    let dir = temp("resume");
    let first = play(&dir);
    assert!(first.contains("game 1 is kept in"), "{first}");
    // The same trace again: the board starts from the start position, so
    // the resumed game (1. Nf3 played) sees the knight back on g1 first.
    let second = play(&dir);
    assert!(second.contains("game 1 is kept in"), "{second}");
    assert!(
        second.contains("resumed") && second.contains("Partie fortgesetzt. Zug 1, Schwarz am Zug."),
        "{second}"
    );
    let config = dir.join("nf3.toml");
    let pgn = common::pegboard_command()
        .args(["pgn", "--config"])
        .arg(&config)
        .output()
        .expect("pgn runs");
    assert!(
        pgn.status.success(),
        "{}",
        String::from_utf8_lossy(&pgn.stderr)
    );
    let text = String::from_utf8_lossy(&pgn.stdout);
    assert!(text.contains("1. Nf3"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    // --game names a game that is not there: an error that lists them.
    let none = common::pegboard_command()
        .args(["pgn", "--game", "7", "--config"])
        .arg(&config)
        .output()
        .expect("pgn runs");
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("there is no game 7"));
    let _ = std::fs::remove_dir_all(&dir);
}
