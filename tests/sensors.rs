//! The sensor sources against simulated hardware: the GPIO diode matrix
//! (with and without diodes, stuck lines) and the MCP23017 expanders on a
//! simulated I²C bus that speaks the chip's register protocol.

use pegboard::sensors::matrix::{MatrixScanner, MatrixTiming};
use pegboard::sensors::mcp23017::{DEFAULT_ADDRESSES, Mcp23017Bank};
use pegboard::sensors::{Layout, SensorSource, SourceError};
use pegboard::sim::hardware::{SimDelay, SimI2cBus, SimMatrix, reg};
use shakmaty::{Bitboard, Square};

fn scanner(
    matrix: &SimMatrix,
    timing: MatrixTiming,
) -> MatrixScanner<
    pegboard::sim::hardware::SimDrivePin,
    pegboard::sim::hardware::SimSensePin,
    SimDelay,
> {
    MatrixScanner::new(
        matrix.drive_pins(),
        matrix.sense_pins(),
        SimDelay::default(),
        timing,
    )
    .expect("simulated pins cannot fail")
}

fn pos(row: u8, col: u8) -> u64 {
    1 << (row * 8 + col)
}

#[test]
fn matrix_reads_every_position_exactly() {
    let m = SimMatrix::new(true);
    let mut s = scanner(&m, MatrixTiming::default());
    // The start position: rows 0, 1, 6, 7 full.
    let start = 0xFFFF_0000_0000_FFFFu64;
    m.set_closed(start);
    assert_eq!(s.read().unwrap(), start);
    // Each single position alone.
    for p in 0..64 {
        m.set_closed(1 << p);
        assert_eq!(s.read().unwrap(), 1 << p, "position {p}");
    }
    assert_eq!(m.driven(), 0, "every drive line is released after the scan");
}

#[test]
fn matrix_waits_the_settle_time_for_each_row() {
    let m = SimMatrix::new(true);
    let delay = SimDelay::default();
    let timing = MatrixTiming {
        settle_us: 25,
        check_every: 0,
    };
    let mut s = MatrixScanner::new(m.drive_pins(), m.sense_pins(), delay.clone(), timing).unwrap();
    let before = delay.waited_ns();
    s.read().unwrap();
    assert_eq!(delay.waited_ns() - before, 8 * 25_000);
}

#[test]
fn without_diodes_three_closed_corners_show_a_ghost_at_the_fourth() {
    // Pegs at (0,0), (0,3) and (5,0): the rectangle's fourth corner (5,3)
    // is empty. Driving row 5 reaches column 3 backwards through
    // (5,0) → column 0 → (0,0) → row 0 → (0,3).
    let closed = pos(0, 0) | pos(0, 3) | pos(5, 0);
    let bare = SimMatrix::new(false);
    bare.set_closed(closed);
    let read = scanner(&bare, MatrixTiming::default()).read().unwrap();
    assert_eq!(read, closed | pos(5, 3), "the ghost at (5,3) is visible");

    let with_diodes = SimMatrix::new(true);
    with_diodes.set_closed(closed);
    let read = scanner(&with_diodes, MatrixTiming::default())
        .read()
        .unwrap();
    assert_eq!(read, closed, "the diodes block the sneak path");
}

#[test]
fn without_diodes_after_1_e4_the_whole_fourth_rank_reads_occupied() {
    // The start position alone has no ghosts (the empty rows have no closed
    // switch). After 1. e4, driving row 3 reaches column 4 through e4, and
    // from there e1, which joins all of row 0, so every column answers.
    let after_e4 = (0xFFFF_0000_0000_FFFFu64 & !pos(1, 4)) | pos(3, 4);
    let bare = SimMatrix::new(false);
    bare.set_closed(after_e4);
    let read = scanner(&bare, MatrixTiming::default()).read().unwrap();
    assert_eq!(
        read,
        after_e4 | 0xFF << 24 | pos(1, 4),
        "rank 4 and e2 read full"
    );
    let with_diodes = SimMatrix::new(true);
    with_diodes.set_closed(after_e4);
    assert_eq!(
        scanner(&with_diodes, MatrixTiming::default())
            .read()
            .unwrap(),
        after_e4
    );
}

#[test]
fn a_shorted_sense_line_is_reported_by_its_squares() {
    let m = SimMatrix::new(true);
    m.short_sense(4);
    let s = scanner(&m, MatrixTiming::default());
    let faults = s.faults();
    assert_eq!(faults.len(), 1);
    assert_eq!(faults[0].sense_line, 4);
    // With the default layout column 4 is the e-file.
    let text = faults[0].describe(&Layout::default());
    assert!(text.contains("e1 e2 e3 e4 e5 e6 e7 e8"), "{text}");
}

#[test]
fn a_stuck_drive_line_is_found_by_the_periodic_check() {
    let m = SimMatrix::new(true);
    let mut s = scanner(
        &m,
        MatrixTiming {
            settle_us: 10,
            check_every: 3,
        },
    );
    assert!(s.faults().is_empty());
    // Row 2 stuck low with a peg at (2,6): column 6 reads closed even when
    // nothing is driven.
    m.set_closed(pos(2, 6));
    m.stick_drive(2);
    s.read().unwrap();
    s.read().unwrap();
    assert!(s.faults().is_empty(), "not checked yet");
    s.read().unwrap();
    let faults = s.faults();
    assert_eq!(
        faults.iter().map(|f| f.sense_line).collect::<Vec<_>>(),
        vec![6]
    );
    // The same scanner, once the line is repaired: the next check clears
    // the fault, and not before.
    m.free_drive(2);
    s.read().unwrap();
    s.read().unwrap();
    assert_eq!(s.faults().len(), 1, "not checked again yet");
    s.read().unwrap();
    assert!(s.faults().is_empty(), "{:?}", s.faults());
}

#[test]
fn matrix_with_a_layout_gives_squares() {
    // The board turned round: a1 at (7,7).
    let layout = Layout::new(
        (7, 7),
        (7, 0),
        (0, 0),
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0, 1, 2, 3, 4, 5, 6, 7],
    )
    .unwrap();
    let m = SimMatrix::new(true);
    m.set_closed(pos(7, 7) | pos(0, 0));
    let raw = scanner(&m, MatrixTiming::default()).scan(0).unwrap().occ;
    assert_eq!(
        layout.to_board(raw),
        Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::H8)
    );
}

fn bus_with_chips() -> SimI2cBus {
    let bus = SimI2cBus::new();
    for a in DEFAULT_ADDRESSES {
        bus.add_chip(a);
    }
    bus
}

#[test]
fn mcp23017_setup_makes_inverted_pulled_up_inputs() {
    let bus = bus_with_chips();
    Mcp23017Bank::new(bus.clone(), DEFAULT_ADDRESSES, 0).unwrap();
    for a in DEFAULT_ADDRESSES {
        for port in 0..2 {
            assert_eq!(bus.register(a, reg::IODIR, port), Some(0xFF));
            assert_eq!(bus.register(a, reg::IPOL, port), Some(0xFF));
            assert_eq!(bus.register(a, reg::GPPU, port), Some(0xFF));
        }
        assert_eq!(bus.register(a, reg::IOCON, 0), Some(0x00));
    }
}

#[test]
fn mcp23017_reads_each_chip_as_two_rows_in_one_burst() {
    let bus = bus_with_chips();
    let mut bank = Mcp23017Bank::new(bus.clone(), DEFAULT_ADDRESSES, 0).unwrap();
    // Chip 0x21 (rows 2 and 3): GPA5 and GPB0 closed; chip 0x23: GPB7.
    bus.set_grounded(0x21, 1 << 5 | 1 << 8);
    bus.set_grounded(0x23, 1 << 15);
    let before: Vec<u32> = DEFAULT_ADDRESSES
        .iter()
        .map(|&a| bus.transactions(a))
        .collect();
    let occ = bank.read().unwrap();
    assert_eq!(occ, pos(2, 5) | pos(3, 0) | pos(7, 7));
    for (i, &a) in DEFAULT_ADDRESSES.iter().enumerate() {
        assert_eq!(
            bus.transactions(a) - before[i],
            1,
            "one transaction for chip {a:#x}"
        );
    }
}

#[test]
fn mcp23017_left_in_bank1_byte_mode_is_brought_back() {
    // Another program left chip 0x20 with BANK = 1 and SEQOP = 1.
    let bus = bus_with_chips();
    bus.poke(0x20, reg::IOCON, [reg::BANK | reg::SEQOP; 2]);
    let mut bank = Mcp23017Bank::new(bus.clone(), DEFAULT_ADDRESSES, 0).unwrap();
    bus.set_grounded(0x20, 0x0101);
    assert_eq!(bank.read().unwrap(), pos(0, 0) | pos(1, 0));
}

#[test]
fn mcp23017_absent_chip_is_named_by_address() {
    let bus = SimI2cBus::new();
    for a in [0x20, 0x21, 0x23] {
        bus.add_chip(a);
    }
    let Err(e) = Mcp23017Bank::new(bus, DEFAULT_ADDRESSES, 0) else {
        panic!("a missing chip must be an error");
    };
    // The bus's own error kind is kept: no acknowledge is a missing chip.
    assert!(
        matches!(
            e,
            SourceError::Bus {
                address: 0x22,
                first_row: 4,
                kind: embedded_hal::i2c::ErrorKind::NoAcknowledge(_),
                ..
            }
        ),
        "{e:?}"
    );
    let why = e.to_string();
    assert!(
        why.contains("0x22") && why.contains("rows 4 and 5") && why.contains("does not answer"),
        "{why}"
    );
}

#[test]
fn mcp23017_chip_that_drops_off_and_returns_is_set_up_again() {
    let bus = bus_with_chips();
    let mut bank = Mcp23017Bank::new(bus.clone(), DEFAULT_ADDRESSES, 0).unwrap();
    bus.set_grounded(0x22, 1);
    bus.remove_chip(0x22);
    let err = bank.read().unwrap_err();
    assert!(err.to_string().contains("0x22"), "{err}");
    // It comes back after a power cycle: registers at their defaults.
    bus.add_chip(0x22);
    bus.set_grounded(0x22, 1);
    assert_eq!(bank.read().unwrap(), pos(4, 0));
    assert_eq!(bus.register(0x22, reg::IPOL, 0), Some(0xFF));
}

#[test]
fn mcp23017_brown_out_is_caught_by_the_periodic_check() {
    let bus = bus_with_chips();
    let mut bank = Mcp23017Bank::new(bus.clone(), DEFAULT_ADDRESSES, 4).unwrap();
    bus.set_grounded(0x20, 1);
    assert_eq!(bank.read().unwrap(), pos(0, 0));
    // The chip resets silently: without pull-ups and inversion its
    // readings are wrong until it is set up again.
    bus.reset_chip(0x20);
    let wrong = bank.read().unwrap();
    assert_ne!(wrong & 0xFFFF, 1, "the reset chip reads wrongly");
    // By the 4th scan the check has found it and set it up again.
    bank.read().unwrap();
    let fixed = bank.read().unwrap();
    assert_eq!(fixed & 0xFFFF, 1);
    assert_eq!(bank.resets(), 1);
}
