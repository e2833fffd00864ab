//! The Raspberry Pi's pins and bus, through `rppal` (feature `rpi`), as
//! the configuration names them: the GPIO matrix, the MCP23017 expanders,
//! the GPIO buttons and the TM1637 clock modules. Everything else about
//! them is the generic code, tested on simulated hardware.

use std::convert::Infallible;

use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use rppal::gpio::{Bias, Gpio, IoPin, Mode};
use rppal::hal::Delay;
use rppal::i2c::I2c;

use crate::display::Tm1637Config;
use crate::display::{ClockDisplay, Tm1637, Tm1637Pair};
use crate::keys::ButtonsConfig;
use crate::keys::GpioButtons;
use crate::runtime::error::{Error, Result};
use crate::sensors::SensorSource;
use crate::sensors::matrix::MatrixScanner;
use crate::sensors::mcp23017::Mcp23017Bank;
use crate::sensors::section::{MatrixConfig, Mcp23017Config};

/// The diode matrix on the configured BCM pins: drive lines as outputs
/// (released high), sense lines as inputs with pull-ups.
pub fn open_matrix(config: &MatrixConfig) -> Result<Box<dyn SensorSource>> {
    let gpio =
        Gpio::new().map_err(|e| Error::Hardware(format!("the GPIO cannot be opened: {e}")))?;
    let pin = |n: u8| {
        gpio.get(n)
            .map_err(|e| Error::Hardware(format!("[sensors.matrix] BCM pin {n}: {e}")))
    };
    let mut drive = Vec::with_capacity(8);
    for &n in &config.drive {
        drive.push(pin(n)?.into_output_high());
    }
    let mut sense = Vec::with_capacity(8);
    for &n in &config.sense {
        sense.push(pin(n)?.into_input_pullup());
    }
    let (Ok(drive), Ok(sense)) = (drive.try_into(), sense.try_into()) else {
        return Err(Error::Hardware(
            "[sensors.matrix] needs 8 drive and 8 sense pins".to_string(),
        ));
    };
    let scanner = MatrixScanner::new(drive, sense, Delay::new(), config.timing())?;
    Ok(Box::new(scanner))
}

/// The four expanders on the configured I²C bus.
pub fn open_mcp23017(config: &Mcp23017Config) -> Result<Box<dyn SensorSource>> {
    let bus = I2c::with_bus(config.bus).map_err(|e| {
        Error::Hardware(format!(
            "I2C bus {} cannot be opened (is I2C enabled in raspi-config?): {e}",
            config.bus
        ))
    })?;
    let bank = Mcp23017Bank::new(bus, config.addresses, config.verify_every)?;
    Ok(Box::new(bank))
}

/// The GPIO buttons, as a function that reads them.
pub fn open_buttons(config: &ButtonsConfig) -> Result<Option<Box<dyn FnMut() -> u16>>> {
    let pins: Vec<(u8, u8)> = config
        .key
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.pin.map(|p| (i as u8, p)))
        .collect();
    if pins.is_empty() {
        return Ok(None);
    }
    let gpio =
        Gpio::new().map_err(|e| Error::Hardware(format!("the GPIO cannot be opened: {e}")))?;
    let mut inputs = Vec::with_capacity(pins.len());
    for (key, n) in pins {
        let pin = gpio
            .get(n)
            .map_err(|e| Error::Hardware(format!("[[buttons.key]] BCM pin {n}: {e}")))?;
        inputs.push((key, pin.into_input_pullup()));
    }
    let mut buttons = GpioButtons::new(inputs);
    Ok(Some(Box::new(move || buttons.read())))
}

/// A data line as the TM1637 wants it, open drain, on a push-pull GPIO
/// pin: high is the pin let go (an input, pulled up), low is driven low.
/// The chip pulls the line low to acknowledge a byte; a pin driving it high
/// meanwhile would fight the chip.
pub struct OpenDrain(IoPin);

impl ErrorType for OpenDrain {
    type Error = Infallible;
}

impl OutputPin for OpenDrain {
    fn set_high(&mut self) -> std::result::Result<(), Infallible> {
        self.0.set_mode(Mode::Input);
        Ok(())
    }

    fn set_low(&mut self) -> std::result::Result<(), Infallible> {
        self.0.set_low();
        self.0.set_mode(Mode::Output);
        Ok(())
    }
}

impl InputPin for OpenDrain {
    fn is_high(&mut self) -> std::result::Result<bool, Infallible> {
        Ok(self.0.is_high())
    }

    fn is_low(&mut self) -> std::result::Result<bool, Infallible> {
        Ok(self.0.is_low())
    }
}

/// The two modules on the configured BCM pins.
pub fn open_tm1637(config: &Tm1637Config) -> Result<Box<dyn ClockDisplay>> {
    let gpio =
        Gpio::new().map_err(|e| Error::Hardware(format!("the GPIO cannot be opened: {e}")))?;
    let pin = |n: u8| {
        gpio.get(n)
            .map_err(|e| Error::Hardware(format!("[display.tm1637] BCM pin {n}: {e}")))
    };
    let data = |n: u8| -> Result<OpenDrain> {
        let mut p = pin(n)?.into_io(Mode::Input);
        p.set_bias(Bias::PullUp);
        Ok(OpenDrain(p))
    };
    let white = Tm1637::new(
        pin(config.white_clk)?.into_output_high(),
        data(config.white_dio)?,
        Delay::new(),
        config.brightness,
    );
    let black = Tm1637::new(
        pin(config.black_clk)?.into_output_high(),
        data(config.black_dio)?,
        Delay::new(),
        config.brightness,
    );
    Ok(Box::new(Tm1637Pair { white, black }))
}
