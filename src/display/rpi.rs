//! The TM1637 modules on the Raspberry Pi's GPIO, through `rppal`
//! (feature `rpi`). The driver itself is the generic one, tested on
//! simulated pins.

use std::convert::Infallible;

use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use rppal::gpio::{Bias, Gpio, IoPin, Mode};
use rppal::hal::Delay;

use super::{ClockDisplay, Tm1637, Tm1637Pair};
use crate::config::Tm1637Config;

/// A data line as the TM1637 wants it, open drain, on a push-pull GPIO
/// pin: high is the pin let go (an input, pulled up), low is driven low.
/// The chip pulls the line low to acknowledge a byte; a pin driving it high
/// meanwhile would fight the chip.
pub struct OpenDrain(IoPin);

impl ErrorType for OpenDrain {
    type Error = Infallible;
}

impl OutputPin for OpenDrain {
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.0.set_mode(Mode::Input);
        Ok(())
    }

    fn set_low(&mut self) -> Result<(), Infallible> {
        self.0.set_low();
        self.0.set_mode(Mode::Output);
        Ok(())
    }
}

impl InputPin for OpenDrain {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(self.0.is_high())
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(self.0.is_low())
    }
}

/// The two modules on the configured BCM pins.
pub fn open_tm1637(config: &Tm1637Config) -> Result<Box<dyn ClockDisplay>, String> {
    let gpio = Gpio::new().map_err(|e| format!("the GPIO cannot be opened: {e}"))?;
    let pin = |n: u8| {
        gpio.get(n)
            .map_err(|e| format!("[display.tm1637] BCM pin {n}: {e}"))
    };
    let data = |n: u8| -> Result<OpenDrain, String> {
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
