//! Simulated hardware for tests, benchmarks and trying things without a
//! board: a reed-switch matrix behind embedded-hal pins (with or without
//! diodes), and MCP23017 expanders behind an embedded-hal I²C bus that
//! speak the chip's register protocol.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::rc::Rc;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use embedded_hal::i2c::{self, ErrorKind, I2c, NoAcknowledgeSource, Operation};

/// The switches and lines of a simulated 8 × 8 matrix.
#[derive(Debug, Default)]
struct MatrixState {
    /// Closed switches by position (row = drive line × 8 + sense line).
    closed: u64,
    /// Drive lines currently driven low.
    driven: u8,
    /// Sense lines shorted to ground.
    shorted: u8,
    /// Drive lines stuck low whatever the scanner does.
    stuck_drive: u8,
    diodes: bool,
}

impl MatrixState {
    fn sense_low(&self, line: u8) -> bool {
        if self.shorted & (1 << line) != 0 {
            return true;
        }
        let rows_driven = self.driven | self.stuck_drive;
        let row_bits = |row: u8| ((self.closed >> (row * 8)) & 0xFF) as u8;
        if self.diodes {
            // Current flows only from the sense line into a driven line.
            return (0..8)
                .any(|row| rows_driven & (1 << row) != 0 && row_bits(row) & (1 << line) != 0);
        }
        // Without diodes every closed switch conducts both ways: the sense
        // line is low if any path of closed switches reaches a driven line.
        let mut rows = rows_driven;
        let mut cols = 0u8;
        loop {
            let mut new_cols = cols;
            for row in 0..8 {
                if rows & (1 << row) != 0 {
                    new_cols |= row_bits(row);
                }
            }
            let mut new_rows = rows;
            for row in 0..8 {
                if row_bits(row) & new_cols != 0 {
                    new_rows |= 1 << row;
                }
            }
            if new_cols == cols && new_rows == rows {
                break;
            }
            cols = new_cols;
            rows = new_rows;
        }
        cols & (1 << line) != 0
    }
}

/// A simulated switch matrix; hand its pins to a
/// [`MatrixScanner`](crate::sensors::matrix::MatrixScanner).
#[derive(Clone)]
pub struct SimMatrix {
    state: Rc<RefCell<MatrixState>>,
}

impl SimMatrix {
    /// A matrix with (or without) one diode per switch.
    pub fn new(diodes: bool) -> SimMatrix {
        SimMatrix {
            state: Rc::new(RefCell::new(MatrixState {
                diodes,
                ..MatrixState::default()
            })),
        }
    }

    /// Closes exactly these switches (bit = position).
    pub fn set_closed(&self, positions: u64) {
        self.state.borrow_mut().closed = positions;
    }

    /// Shorts a sense line to ground.
    pub fn short_sense(&self, line: u8) {
        self.state.borrow_mut().shorted |= 1 << line;
    }

    /// Leaves a drive line stuck low.
    pub fn stick_drive(&self, line: u8) {
        self.state.borrow_mut().stuck_drive |= 1 << line;
    }

    /// Repairs a stuck drive line.
    pub fn free_drive(&self, line: u8) {
        self.state.borrow_mut().stuck_drive &= !(1 << line);
    }

    /// The drive lines driven low now (all released between scans).
    pub fn driven(&self) -> u8 {
        self.state.borrow().driven
    }

    pub fn drive_pins(&self) -> [SimDrivePin; 8] {
        std::array::from_fn(|line| SimDrivePin {
            state: self.state.clone(),
            line: line as u8,
        })
    }

    pub fn sense_pins(&self) -> [SimSensePin; 8] {
        std::array::from_fn(|line| SimSensePin {
            state: self.state.clone(),
            line: line as u8,
        })
    }
}

pub struct SimDrivePin {
    state: Rc<RefCell<MatrixState>>,
    line: u8,
}

impl ErrorType for SimDrivePin {
    type Error = Infallible;
}

impl OutputPin for SimDrivePin {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.state.borrow_mut().driven |= 1 << self.line;
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.state.borrow_mut().driven &= !(1 << self.line);
        Ok(())
    }
}

pub struct SimSensePin {
    state: Rc<RefCell<MatrixState>>,
    line: u8,
}

impl ErrorType for SimSensePin {
    type Error = Infallible;
}

impl InputPin for SimSensePin {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(!self.state.borrow().sense_low(self.line))
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(self.state.borrow().sense_low(self.line))
    }
}

/// A delay that does not wait but adds up what it was asked to wait.
#[derive(Clone, Default)]
pub struct SimDelay {
    waited_ns: Rc<Cell<u64>>,
}

impl SimDelay {
    pub fn waited_ns(&self) -> u64 {
        self.waited_ns.get()
    }
}

impl DelayNs for SimDelay {
    fn delay_ns(&mut self, ns: u32) {
        self.waited_ns.set(self.waited_ns.get() + u64::from(ns));
    }
}

/// MCP23017 registers, in the order of their addresses with IOCON.BANK = 0
/// (each has an A and a B half).
pub mod reg {
    pub const IODIR: u8 = 0;
    pub const IPOL: u8 = 1;
    pub const GPINTEN: u8 = 2;
    pub const IOCON: u8 = 5;
    pub const GPPU: u8 = 6;
    pub const GPIO: u8 = 9;
    pub const OLAT: u8 = 10;
    /// IOCON bits.
    pub const BANK: u8 = 0x80;
    pub const SEQOP: u8 = 0x20;
}

/// One simulated MCP23017: its registers and what the switches do to its
/// input pins.
#[derive(Debug, Clone)]
struct SimChip {
    /// `regs[kind][port]`, kind as in [`reg`].
    regs: [[u8; 2]; 11],
    /// The register address pointer.
    pointer: u8,
    /// Pins pulled to ground by closed switches (bit 0–7 port A, 8–15 B).
    grounded: u16,
    transactions: u32,
}

impl SimChip {
    /// The power-on state: all inputs, no pull-ups, no inversion.
    fn new() -> SimChip {
        let mut regs = [[0u8; 2]; 11];
        regs[reg::IODIR as usize] = [0xFF, 0xFF];
        SimChip {
            regs,
            pointer: 0,
            grounded: 0,
            transactions: 0,
        }
    }

    fn iocon(&self) -> u8 {
        self.regs[reg::IOCON as usize][0]
    }

    /// Which register (kind, port) an address names in the current bank mode.
    fn decode(&self, address: u8) -> Option<(usize, usize)> {
        if self.iocon() & reg::BANK == 0 {
            (address < 22).then_some(((address / 2) as usize, (address % 2) as usize))
        } else {
            let (port, kind) = ((address >> 4) as usize, (address & 0x0F) as usize);
            (port < 2 && kind < 11).then_some((kind, port))
        }
    }

    fn advance(&mut self) {
        let iocon = self.iocon();
        self.pointer = match (iocon & reg::BANK != 0, iocon & reg::SEQOP != 0) {
            // Byte mode: BANK = 0 toggles between the A/B pair; BANK = 1 stays.
            (false, true) => self.pointer ^ 1,
            (true, true) => self.pointer,
            (false, false) => (self.pointer + 1) % 22,
            (true, false) => match self.pointer {
                0x0A => 0x10,
                0x1A => 0x00,
                p => p + 1,
            },
        };
    }

    fn read_byte(&mut self) -> u8 {
        let value = match self.decode(self.pointer) {
            Some((kind, port)) if kind == reg::GPIO as usize => {
                let iodir = self.regs[reg::IODIR as usize][port];
                let ipol = self.regs[reg::IPOL as usize][port];
                let pullup = self.regs[reg::GPPU as usize][port];
                let grounded = (self.grounded >> (8 * port)) as u8;
                // An open input reads high only if pulled up (floating reads low).
                let level = pullup & !grounded;
                let olat = self.regs[reg::OLAT as usize][port];
                ((level ^ ipol) & iodir) | (olat & !iodir)
            }
            Some((kind, port)) => self.regs[kind][port],
            None => 0,
        };
        self.advance();
        value
    }

    fn write_byte(&mut self, value: u8) {
        match self.decode(self.pointer) {
            Some((kind, _)) if kind == reg::IOCON as usize => {
                self.regs[kind] = [value, value];
            }
            Some((kind, port)) if kind == reg::GPIO as usize => {
                self.regs[reg::OLAT as usize][port] = value;
            }
            Some((kind, port)) => self.regs[kind][port] = value,
            None => {}
        }
        self.advance();
    }
}

/// A simulated I²C bus with MCP23017s on it.
#[derive(Clone, Default)]
pub struct SimI2cBus {
    chips: Rc<RefCell<BTreeMap<u8, SimChip>>>,
}

/// What the simulated bus reports when no chip answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimI2cError(pub ErrorKind);

impl i2c::Error for SimI2cError {
    fn kind(&self) -> ErrorKind {
        self.0
    }
}

impl SimI2cBus {
    pub fn new() -> SimI2cBus {
        SimI2cBus::default()
    }

    /// Connects a chip at this address, in its power-on state.
    pub fn add_chip(&self, address: u8) {
        self.chips.borrow_mut().insert(address, SimChip::new());
    }

    /// Disconnects the chip (it stops answering).
    pub fn remove_chip(&self, address: u8) {
        self.chips.borrow_mut().remove(&address);
    }

    /// Power-cycles the chip: its registers return to the power-on state.
    pub fn reset_chip(&self, address: u8) {
        if let Some(chip) = self.chips.borrow_mut().get_mut(&address) {
            let grounded = chip.grounded;
            let transactions = chip.transactions;
            *chip = SimChip::new();
            chip.grounded = grounded;
            chip.transactions = transactions;
        }
    }

    /// Grounds these input pins (closed switches): bit 0–7 GPA0–7, 8–15 GPB0–7.
    pub fn set_grounded(&self, address: u8, pins: u16) {
        if let Some(chip) = self.chips.borrow_mut().get_mut(&address) {
            chip.grounded = pins;
        }
    }

    /// The chip's register, as (kind, port), for checks.
    pub fn register(&self, address: u8, kind: u8, port: usize) -> Option<u8> {
        self.chips
            .borrow()
            .get(&address)
            .map(|c| c.regs[kind as usize][port])
    }

    /// Writes a register directly, as another program on the bus might.
    pub fn poke(&self, address: u8, kind: u8, value: [u8; 2]) {
        if let Some(chip) = self.chips.borrow_mut().get_mut(&address) {
            chip.regs[kind as usize] = value;
        }
    }

    /// I²C transactions (start to stop) addressed to the chip so far.
    pub fn transactions(&self, address: u8) -> u32 {
        self.chips
            .borrow()
            .get(&address)
            .map_or(0, |c| c.transactions)
    }
}

impl i2c::ErrorType for SimI2cBus {
    type Error = SimI2cError;
}

impl I2c for SimI2cBus {
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [Operation<'_>],
    ) -> Result<(), SimI2cError> {
        let mut chips = self.chips.borrow_mut();
        let chip = chips
            .get_mut(&address)
            .ok_or(SimI2cError(ErrorKind::NoAcknowledge(
                NoAcknowledgeSource::Address,
            )))?;
        chip.transactions += 1;
        for op in operations {
            match op {
                Operation::Write(bytes) => {
                    // The first byte written after the address sets the pointer.
                    if let Some((&first, rest)) = bytes.split_first() {
                        chip.pointer = first;
                        for &b in rest {
                            chip.write_byte(b);
                        }
                    }
                }
                Operation::Read(buffer) => {
                    for b in buffer.iter_mut() {
                        *b = chip.read_byte();
                    }
                }
            }
        }
        Ok(())
    }
}

/// Pins that cost what the Pi's GPIO registers cost the CPU: one memory
/// store per write and one load per read, nothing simulated behind them.
/// For measuring the scanner's own CPU time per scan (`cargo bench --bench
/// sensors`, `tools/callgrind-scan.sh`).
#[derive(Clone, Default)]
pub struct RegisterPins {
    /// The "output register": the row driven low, 8 when none.
    driven: Rc<Cell<u8>>,
    /// The switches, as the "level register" would show them.
    closed: Rc<Cell<u64>>,
}

impl RegisterPins {
    pub fn new(closed: u64) -> RegisterPins {
        let p = RegisterPins::default();
        p.driven.set(8);
        p.closed.set(closed);
        p
    }

    pub fn drive_pins(&self) -> [RegisterDrivePin; 8] {
        std::array::from_fn(|line| RegisterDrivePin {
            driven: self.driven.clone(),
            line: line as u8,
        })
    }

    pub fn sense_pins(&self) -> [RegisterSensePin; 8] {
        std::array::from_fn(|line| RegisterSensePin {
            pins: self.clone(),
            line: line as u8,
        })
    }
}

pub struct RegisterDrivePin {
    driven: Rc<Cell<u8>>,
    line: u8,
}

impl ErrorType for RegisterDrivePin {
    type Error = Infallible;
}

impl OutputPin for RegisterDrivePin {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.driven.set(self.line);
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.driven.set(8);
        Ok(())
    }
}

pub struct RegisterSensePin {
    pins: RegisterPins,
    line: u8,
}

impl ErrorType for RegisterSensePin {
    type Error = Infallible;
}

impl InputPin for RegisterSensePin {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        self.is_low().map(|low| !low)
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        let row = self.pins.driven.get();
        let closed = self.pins.closed.get();
        Ok(row < 8 && closed >> (row * 8 + self.line) & 1 != 0)
    }
}

/// A delay that returns at once: the settle waits are not CPU time.
#[derive(Clone, Copy, Default)]
pub struct NoDelay;

impl DelayNs for NoDelay {
    fn delay_ns(&mut self, _ns: u32) {}
}
