//! Two TM1637 four-digit seven-segment modules, one per player: the cheap
//! clock display common on the Raspberry Pi.
//!
//! The driver speaks the chip's two-wire protocol (CLK and DIO, not I2C:
//! bits go out least significant first, the chip acknowledges each byte by
//! pulling DIO low on the ninth clock) through the embedded-hal 1.0 traits,
//! so the same code drives the Pi's GPIO (rppal) and the simulated pins of
//! the tests. DIO must be readable as well as writable (an open-drain pin
//! with a pull-up, as the module has).

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{InputPin, OutputPin};

use super::{ClockDisplay, DisplayError, Face, FourDigits};

/// Data command: write to the display registers, address auto-increment.
const DATA_WRITE: u8 = 0x40;
/// Address command: start at the first digit.
const ADDRESS_0: u8 = 0xC0;
/// Display control: display on, with brightness 0–7 in the low bits.
const DISPLAY_ON: u8 = 0x88;
/// Half a bit period; the chip is specified to 250 kHz, 5 µs is ample.
const HALF_BIT_US: u32 = 5;

/// The segments (bit 0 = a … bit 6 = g) of a character; bit 7 is the colon
/// on the second digit.
pub fn segments(c: char) -> u8 {
    match c {
        '0' => 0x3F,
        '1' => 0x06,
        '2' => 0x5B,
        '3' => 0x4F,
        '4' => 0x66,
        '5' => 0x6D,
        '6' => 0x7D,
        '7' => 0x07,
        '8' => 0x7F,
        '9' => 0x6F,
        '-' => 0x40,
        _ => 0x00,
    }
}

/// One TM1637 module.
pub struct Tm1637<CLK, DIO, D> {
    clk: CLK,
    dio: DIO,
    delay: D,
    /// Brightness 0–7.
    brightness: u8,
    /// What the module shows now, to skip writes that change nothing.
    shown: Option<[u8; 4]>,
}

impl<CLK, DIO, D> Tm1637<CLK, DIO, D>
where
    CLK: OutputPin,
    DIO: OutputPin + InputPin,
    D: DelayNs,
{
    pub fn new(clk: CLK, dio: DIO, delay: D, brightness: u8) -> Self {
        Tm1637 {
            clk,
            dio,
            delay,
            brightness: brightness.min(7),
            shown: None,
        }
    }

    fn pin<E: core::fmt::Debug>(what: &str) -> impl Fn(E) -> DisplayError + '_ {
        move |e| DisplayError(format!("TM1637: {what} pin: {e:?}"))
    }

    fn wait(&mut self) {
        self.delay.delay_us(HALF_BIT_US);
    }

    fn clk(&mut self, high: bool) -> Result<(), DisplayError> {
        if high {
            self.clk.set_high()
        } else {
            self.clk.set_low()
        }
        .map_err(Self::pin("CLK"))
    }

    fn dio(&mut self, high: bool) -> Result<(), DisplayError> {
        if high {
            self.dio.set_high()
        } else {
            self.dio.set_low()
        }
        .map_err(Self::pin("DIO"))
    }

    /// Start condition: DIO falls while CLK is high.
    fn start(&mut self) -> Result<(), DisplayError> {
        self.clk(true)?;
        self.dio(true)?;
        self.wait();
        self.dio(false)?;
        self.wait();
        Ok(())
    }

    /// Stop condition: DIO rises while CLK is high.
    fn stop(&mut self) -> Result<(), DisplayError> {
        self.clk(false)?;
        self.wait();
        self.dio(false)?;
        self.wait();
        self.clk(true)?;
        self.wait();
        self.dio(true)?;
        self.wait();
        Ok(())
    }

    /// One byte, least significant bit first, then the chip's
    /// acknowledgement. No acknowledgement: the module is not there.
    fn byte(&mut self, b: u8) -> Result<(), DisplayError> {
        for i in 0..8 {
            self.clk(false)?;
            self.dio(b >> i & 1 == 1)?;
            self.wait();
            self.clk(true)?;
            self.wait();
        }
        self.clk(false)?;
        self.dio(true)?; // release DIO for the chip
        self.wait();
        self.clk(true)?;
        self.wait();
        let acked = self.dio.is_low().map_err(Self::pin("DIO"))?;
        self.clk(false)?;
        self.wait();
        if acked {
            Ok(())
        } else {
            Err(DisplayError(
                "TM1637: no acknowledgement (is the module connected?)".into(),
            ))
        }
    }

    fn command(&mut self, bytes: &[u8]) -> Result<(), DisplayError> {
        self.start()?;
        let sent = bytes.iter().try_for_each(|&b| self.byte(b));
        // Always end the frame, so the bus is idle for the next one.
        self.stop()?;
        sent
    }

    /// Shows four characters, with or without the colon.
    pub fn write(&mut self, digits: FourDigits) -> Result<(), DisplayError> {
        let mut data = digits.digits.map(segments);
        if digits.colon {
            data[1] |= 0x80;
        }
        if self.shown == Some(data) {
            return Ok(());
        }
        // Forget what is shown until the whole frame is acknowledged.
        self.shown = None;
        self.command(&[DATA_WRITE])?;
        self.command(&[ADDRESS_0, data[0], data[1], data[2], data[3]])?;
        self.command(&[DISPLAY_ON | self.brightness])?;
        self.shown = Some(data);
        Ok(())
    }
}

/// Two modules: White's time on one, Black's on the other. The running
/// side's colon is lit, the standing side's is dark.
pub struct Tm1637Pair<W, B> {
    pub white: W,
    pub black: B,
}

/// Anything that shows four digits.
pub trait FourDigitDisplay {
    fn write(&mut self, digits: FourDigits) -> Result<(), DisplayError>;
}

impl<CLK, DIO, D> FourDigitDisplay for Tm1637<CLK, DIO, D>
where
    CLK: OutputPin,
    DIO: OutputPin + InputPin,
    D: DelayNs,
{
    fn write(&mut self, digits: FourDigits) -> Result<(), DisplayError> {
        Tm1637::write(self, digits)
    }
}

impl<W: FourDigitDisplay, B: FourDigitDisplay> ClockDisplay for Tm1637Pair<W, B> {
    fn show(&mut self, _t: u64, face: &Face) -> Result<(), DisplayError> {
        let digits = |color: shakmaty::Color| {
            let mut d = FourDigits::of(face.remaining(color), face.flag(color));
            d.colon &= face.running == Some(color) || face.running.is_none();
            d
        };
        // Both are tried, so one unplugged module does not blank the other.
        let white = self.white.write(digits(shakmaty::Color::White));
        let black = self.black.write(digits(shakmaty::Color::Black));
        white.and(black)
    }
}
