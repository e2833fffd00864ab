//! A source and keys from the configuration.

use crate::config::hardware::{ButtonsConfig, SensorsConfig, SourceKind};
use crate::keys::KeySource;
use crate::runtime::error::{Error, Result};
use crate::sensors::SensorSource;
use crate::sensors::serial::SerialScanner;
use crate::sensors::trace_source::TraceSource;

#[cfg(not(feature = "rpi"))]
const NO_RPI: &str = "this pegboard was built without Raspberry Pi support; build it with `cargo build --release --features rpi` (the install script does), or use a serial scanner (source = \"serial\")";

/// Opens the configured sensor source. A serial scanner that is not
/// plugged in yet is not an error: it is looked for at every scan.
pub fn open_source(config: &SensorsConfig) -> Result<Box<dyn SensorSource>> {
    match config.source {
        SourceKind::Serial => {
            let s = &config.serial;
            Ok(Box::new(SerialScanner::new(
                &s.port,
                s.baud,
                s.timing(),
                s.reconnect_ms,
            )))
        }
        SourceKind::Trace => {
            let Some(file) = &config.trace.file else {
                return Err(Error::Hardware(
                    "[sensors] source = \"trace\" needs [sensors.trace] file".to_string(),
                ));
            };
            let reader = std::fs::File::open(file)
                .map(std::io::BufReader::new)
                .map_err(|error| Error::File {
                    path: file.clone(),
                    error,
                })?;
            let entries = crate::trace::read(reader, file)?;
            Ok(Box::new(
                TraceSource::new(file, entries).map_err(Error::Game)?,
            ))
        }
        #[cfg(feature = "rpi")]
        SourceKind::Matrix => crate::runtime::rpi::open_matrix(&config.matrix),
        #[cfg(feature = "rpi")]
        SourceKind::Mcp23017 => crate::runtime::rpi::open_mcp23017(&config.mcp23017),
        #[cfg(not(feature = "rpi"))]
        SourceKind::Matrix | SourceKind::Mcp23017 => Err(Error::Hardware(NO_RPI.to_string())),
    }
}

/// Opens the configured keys: GPIO buttons (on a Pi) and the serial
/// scanner's button bits.
pub fn open_keys(config: &ButtonsConfig) -> Result<KeySource> {
    let scanner_bits: Vec<(u8, u8)> = config
        .key
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.bit.map(|b| (i as u8, b)))
        .collect();
    #[cfg(feature = "rpi")]
    let gpio = crate::runtime::rpi::open_buttons(config)?;
    #[cfg(not(feature = "rpi"))]
    let gpio = if config.key.iter().any(|k| k.pin.is_some()) {
        return Err(Error::Hardware(format!(
            "[[buttons.key]] with `pin`: {NO_RPI}"
        )));
    } else {
        None
    };
    Ok(KeySource::new(gpio, scanner_bits))
}
