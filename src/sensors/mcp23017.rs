//! Four MCP23017 16-bit I/O expanders on I²C: 64 inputs with pull-ups, one
//! reed switch from each input to ground (no matrix, so no diodes and no
//! ghosting).
//!
//! Chip k (in the configured address order) reads matrix rows 2k (its port
//! A, GPA0–7 = columns 0–7) and 2k + 1 (port B). Each scan is one burst
//! read per chip: the register pointer is set to GPIOA and both ports come
//! back in the same transaction (IOCON.SEQOP = 0).
//!
//! The inputs are set inverted (IPOL), so a closed switch reads 1. A chip
//! that stops answering is reported by its address and set up again when
//! it answers; every `verify_every` scans the set-up registers are read
//! back, so a chip that lost its settings in a brown-out (and would read
//! every square occupied) is set up again before its readings are used.

use embedded_hal::i2c::{Error as _, I2c};

use super::{RawScan, SensorSource, SourceError};

/// Register addresses with IOCON.BANK = 0.
const IODIRA: u8 = 0x00;
const GPPUA: u8 = 0x0C;
const IOCON: u8 = 0x0A;
const GPIOA: u8 = 0x12;
/// IOCON's address with IOCON.BANK = 1 (GPINTENB with BANK = 0, where
/// writing 0 is harmless): writing 0 there first brings a chip left in
/// BANK = 1 back to BANK = 0.
const IOCON_BANK1: u8 = 0x05;

/// The default addresses: A2 A1 A0 strapped 000 to 011.
pub const DEFAULT_ADDRESSES: [u8; 4] = [0x20, 0x21, 0x22, 0x23];

pub struct Mcp23017Bank<B> {
    bus: B,
    addresses: [u8; 4],
    /// Chips to set up before their next read.
    needs_setup: [bool; 4],
    verify_every: u32,
    scans: u32,
    /// How many times a chip had to be set up again.
    resets: u32,
}

impl<B: I2c> Mcp23017Bank<B> {
    /// Sets up the four chips. A chip that does not answer is an error
    /// naming its address.
    pub fn new(bus: B, addresses: [u8; 4], verify_every: u32) -> Result<Self, SourceError> {
        let mut bank = Mcp23017Bank {
            bus,
            addresses,
            needs_setup: [true; 4],
            verify_every,
            scans: 0,
            resets: 0,
        };
        for k in 0..4 {
            bank.setup(k)?;
        }
        bank.resets = 0;
        Ok(bank)
    }

    /// Chip `k` failed a transfer: its address, its rows, and the bus's
    /// own error kind.
    fn no_answer(&self, k: usize, e: B::Error) -> SourceError {
        SourceError::Bus {
            chip: "MCP23017",
            address: self.addresses[k],
            first_row: 2 * k as u8,
            kind: e.kind(),
        }
    }

    /// All inputs, inverted, pulled up; sequential register access.
    fn setup(&mut self, k: usize) -> Result<(), SourceError> {
        let a = self.addresses[k];
        let steps: [&[u8]; 4] = [
            &[IOCON_BANK1, 0x00],
            &[IOCON, 0x00],
            &[IODIRA, 0xFF, 0xFF, 0xFF, 0xFF],
            &[GPPUA, 0xFF, 0xFF],
        ];
        for bytes in steps {
            if let Err(e) = self.bus.write(a, bytes) {
                self.needs_setup[k] = true;
                return Err(self.no_answer(k, e));
            }
        }
        self.needs_setup[k] = false;
        self.resets += 1;
        Ok(())
    }

    /// Reads the set-up registers back; false if the chip lost them.
    fn verify(&mut self, k: usize) -> Result<bool, SourceError> {
        let a = self.addresses[k];
        let mut dir_pol = [0u8; 4];
        let mut pull = [0u8; 2];
        let mut iocon = [0u8; 1];
        let ok = self
            .bus
            .write_read(a, &[IODIRA], &mut dir_pol)
            .and_then(|_| self.bus.write_read(a, &[GPPUA], &mut pull))
            .and_then(|_| self.bus.write_read(a, &[IOCON], &mut iocon));
        if let Err(e) = ok {
            self.needs_setup[k] = true;
            return Err(self.no_answer(k, e));
        }
        Ok(dir_pol == [0xFF; 4] && pull == [0xFF; 2] && iocon[0] & 0xA0 == 0)
    }

    /// How many times a chip was set up again after losing its settings
    /// or not answering.
    pub fn resets(&self) -> u32 {
        self.resets
    }

    /// One scan: a burst read of both ports of each chip.
    pub fn read(&mut self) -> Result<u64, SourceError> {
        self.scans = self.scans.wrapping_add(1);
        let verify = self.verify_every > 0 && self.scans.is_multiple_of(self.verify_every);
        let mut occ = 0u64;
        for k in 0..4 {
            if !self.needs_setup[k] && verify && !self.verify(k)? {
                self.needs_setup[k] = true;
            }
            if self.needs_setup[k] {
                self.setup(k)?;
            }
            let mut ports = [0u8; 2];
            if let Err(e) = self.bus.write_read(self.addresses[k], &[GPIOA], &mut ports) {
                self.needs_setup[k] = true;
                return Err(self.no_answer(k, e));
            }
            occ |= u64::from(u16::from_le_bytes(ports)) << (16 * k);
        }
        Ok(occ)
    }
}

impl<B: I2c> SensorSource for Mcp23017Bank<B> {
    fn scan(&mut self, _now_ms: u64) -> Result<RawScan, SourceError> {
        Ok(RawScan {
            occ: self.read()?,
            buttons: None,
            missed: 0,
        })
    }

    fn describe(&self) -> String {
        format!(
            "MCP23017 expanders at {}",
            self.addresses
                .iter()
                .map(|a| format!("{a:#04x}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}
