//! A source and keys from the configuration, and whether this pegboard
//! can open what the configuration names.

use crate::config::{Config, ConfigError};
use crate::display::DisplayConfig;
use crate::keys::{ButtonsConfig, KeySource};
use crate::runtime::error::{Error, Result};
use crate::sensors::serial::SerialScanner;
use crate::sensors::trace_source::TraceSource;
use crate::sensors::{SensorSource, SensorsConfig, SourceKind};
use crate::text::key::KeyProblem;

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

/// Whether everything `config` names can be opened by this pegboard: the
/// parts ([`usable_parts_of`]) and the engine ([`usable_engine`]).
/// `pegboard check-config` asks this, so that it agrees with `play`.
pub fn usable(config: &Config) -> std::result::Result<(), ConfigError> {
    usable_parts_of(config)?;
    usable_engine(config).map(drop)
}

/// Whether the sensors, keys and clock modules `config` names can be
/// opened by this pegboard: a source it was built for, a trace file that
/// exists, GPIO pins only with Raspberry Pi support. `pegboard play`,
/// `record`, `hw-test` and `calibrate` ask this before they open anything.
pub fn usable_parts_of(config: &Config) -> std::result::Result<(), ConfigError> {
    usable_parts(&config.sensors, &config.buttons, &config.display).map_err(|p| config.error(p))?;
    for (i, b) in config.boards.iter().enumerate() {
        usable_parts(
            &b.sensors,
            &ButtonsConfig::default(),
            &DisplayConfig::default(),
        )
        .map_err(|p| {
            config.error(p.within(
                &["boards", &i.to_string()],
                &format!("[[boards]] \"{}\": ", b.name),
            ))
        })?;
    }
    Ok(())
}

/// Where a player's moves are the engine's, whether its program starts and
/// speaks UCI: the engine, started, for the seat to take over. `play` asks
/// before it opens the sensors, whose first scan is due once they are
/// open: starting an engine takes a while.
pub fn usable_engine(
    config: &Config,
) -> std::result::Result<Option<crate::engine::Engine>, ConfigError> {
    let engine_plays = [&config.game.white_moves_on, &config.game.black_moves_on]
        .iter()
        .any(|m| m.as_str() == "engine");
    if !engine_plays {
        return Ok(None);
    }
    crate::engine::Engine::start(&config.engine, false)
        .map(Some)
        .map_err(|e| {
            let key = if config.engine.program().is_none() {
                "command"
            } else {
                "args"
            };
            config.error(KeyProblem::at(
                &["engine", key],
                format!("[engine] command \"{}\": {e}", config.engine.command),
            ))
        })
}

/// Whether this pegboard can open the sensors and keys as configured:
/// the source is built in, a trace source names a file that can be read,
/// and GPIO keys have Raspberry Pi support.
fn usable_parts(
    sensors: &SensorsConfig,
    buttons: &ButtonsConfig,
    display: &DisplayConfig,
) -> std::result::Result<(), KeyProblem> {
    match sensors.source {
        SourceKind::Trace => match &sensors.trace.file {
            None => {
                return Err(KeyProblem::at(
                    &["sensors", "source"],
                    "[sensors] source = \"trace\" needs [sensors.trace] file, the trace to play"
                        .to_string(),
                ));
            }
            Some(file) => {
                if let Err(e) = std::fs::File::open(file) {
                    return Err(KeyProblem::at(
                        &["sensors", "trace", "file"],
                        format!(
                            "[sensors.trace] file \"{}\" cannot be read: {e}",
                            crate::text::quote::short(file)
                        ),
                    ));
                }
            }
        },
        #[cfg(not(feature = "rpi"))]
        SourceKind::Matrix | SourceKind::Mcp23017 => {
            let name = if sensors.source == SourceKind::Matrix {
                "matrix"
            } else {
                "mcp23017"
            };
            return Err(KeyProblem::at(
                &["sensors", "source"],
                format!("[sensors] source = \"{name}\": {NO_RPI}"),
            ));
        }
        _ => {}
    }
    #[cfg(not(feature = "rpi"))]
    if let Some(i) = buttons.key.iter().position(|k| k.pin.is_some()) {
        return Err(KeyProblem::at(
            &["buttons", "key", &i.to_string(), "pin"],
            format!(
                "[[buttons.key]] number {} has a GPIO `pin`: {NO_RPI}",
                i + 1
            ),
        ));
    }
    #[cfg(not(feature = "rpi"))]
    if let Some(i) = display
        .faces
        .iter()
        .position(|f| *f == crate::display::FaceKind::Tm1637)
    {
        return Err(KeyProblem::at(
            &["display", "faces", &i.to_string()],
            format!("[display] faces: \"tm1637\" drives GPIO pins: {NO_RPI}"),
        ));
    }
    #[cfg(feature = "rpi")]
    let _ = (buttons, display);
    Ok(())
}
