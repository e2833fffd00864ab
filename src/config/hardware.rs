//! The hardware sections of the configuration: `[sensors]` (where the
//! readings come from), `[board]` (orientation and wiring) and `[buttons]`
//! (the keys and what they do).

use serde::Deserialize;

use crate::text::bounded;
use shakmaty::Color;

use crate::keys::{Action, ButtonTiming, KeyMap};
use crate::sensors::Layout;
use crate::sensors::matrix::MatrixTiming;
use crate::sensors::mcp23017::DEFAULT_ADDRESSES;
use crate::sensors::serial::LinkTiming;

/// Where the board's readings come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// A reed-switch diode matrix on the Pi's GPIO pins.
    #[default]
    Matrix,
    /// Four MCP23017 expanders on the Pi's I²C bus.
    Mcp23017,
    /// A microcontroller streaming scans over USB serial.
    Serial,
    /// A recorded trace, played in real time (no hardware).
    Trace,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SensorsConfig {
    pub source: SourceKind,
    /// Scans a second.
    #[serde(deserialize_with = "bounded::u32_in::<_, 1, 1000>")]
    pub scan_hz: u32,
    pub matrix: MatrixConfig,
    pub mcp23017: Mcp23017Config,
    pub serial: SerialConfig,
    pub trace: TraceConfig,
}

impl Default for SensorsConfig {
    fn default() -> Self {
        SensorsConfig {
            source: SourceKind::Matrix,
            scan_hz: 200,
            matrix: MatrixConfig::default(),
            mcp23017: Mcp23017Config::default(),
            serial: SerialConfig::default(),
            trace: TraceConfig::default(),
        }
    }
}

/// A clock face `play` drives besides its printed events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaceKind {
    /// A status line with both times, updated in place, when standard
    /// output is a terminal.
    Terminal,
    /// Two TM1637 four-digit modules on the Pi's GPIO, one per player.
    Tm1637,
}

/// `[display]`: where the clock is shown.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DisplayConfig {
    pub faces: Vec<FaceKind>,
    pub tm1637: Tm1637Config,
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig {
            faces: vec![FaceKind::Terminal],
            tm1637: Tm1637Config::default(),
        }
    }
}

/// `[display.tm1637]`: the BCM pins of the two modules' CLK and DIO lines.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Tm1637Config {
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub white_clk: u8,
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub white_dio: u8,
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub black_clk: u8,
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 27>")]
    pub black_dio: u8,
    /// 0 (dimmest) … 7 (brightest).
    #[serde(deserialize_with = "bounded::u8_in::<_, 0, 7>")]
    pub brightness: u8,
}

impl Default for Tm1637Config {
    fn default() -> Self {
        Tm1637Config {
            white_clk: 5,
            white_dio: 6,
            black_clk: 13,
            black_dio: 19,
            brightness: 7,
        }
    }
}

/// `[sensors.matrix]`: BCM pin numbers of the drive and sense lines.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatrixConfig {
    #[serde(deserialize_with = "bounded::each_in::<_, 8, 0, 27, false>")]
    pub drive: [u8; 8],
    #[serde(deserialize_with = "bounded::each_in::<_, 8, 0, 27, false>")]
    pub sense: [u8; 8],
    #[serde(deserialize_with = "bounded::u32_in::<_, 0, 10_000>")]
    pub settle_us: u32,
    #[serde(deserialize_with = "bounded::u32_in::<_, 0, 100_000>")]
    pub check_every: u32,
}

impl Default for MatrixConfig {
    fn default() -> Self {
        let t = MatrixTiming::default();
        MatrixConfig {
            drive: [5, 6, 13, 19, 26, 12, 16, 20],
            sense: [4, 17, 27, 22, 10, 9, 11, 21],
            settle_us: t.settle_us,
            check_every: t.check_every,
        }
    }
}

impl MatrixConfig {
    pub fn timing(&self) -> MatrixTiming {
        MatrixTiming {
            settle_us: self.settle_us,
            check_every: self.check_every,
        }
    }
}

/// `[sensors.mcp23017]`
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Mcp23017Config {
    /// The I²C bus number (1 on the 40-pin header: SDA BCM 2, SCL BCM 3).
    pub bus: u8,
    #[serde(deserialize_with = "bounded::each_in::<_, 4, 0x20, 0x27, true>")]
    pub addresses: [u8; 4],
    #[serde(deserialize_with = "bounded::u32_in::<_, 0, 100_000>")]
    pub verify_every: u32,
}

impl Default for Mcp23017Config {
    fn default() -> Self {
        Mcp23017Config {
            bus: 1,
            addresses: DEFAULT_ADDRESSES,
            verify_every: 50,
        }
    }
}

/// `[sensors.serial]`
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SerialConfig {
    pub port: String,
    #[serde(deserialize_with = "bounded::u32_in::<_, 1200, 4_000_000>")]
    pub baud: u32,
    #[serde(deserialize_with = "bounded::u64_in::<_, 50, 60_000>")]
    pub stale_ms: u64,
    #[serde(deserialize_with = "bounded::u64_in::<_, 100, 60_000>")]
    pub reconnect_ms: u64,
}

impl Default for SerialConfig {
    fn default() -> Self {
        let t = LinkTiming::default();
        SerialConfig {
            port: "/dev/pegboard-scanner".to_string(),
            baud: 115_200,
            stale_ms: t.stale_ms,
            reconnect_ms: 1000,
        }
    }
}

impl SerialConfig {
    pub fn timing(&self) -> LinkTiming {
        LinkTiming {
            stale_ms: self.stale_ms,
            hello_retry_ms: LinkTiming::default().hello_retry_ms,
        }
    }
}

/// `[sensors.trace]`
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TraceConfig {
    pub file: Option<String>,
}

/// `[board]`: where a1, h1 and h8 are on the matrix, and the order of the
/// lines. Checked when read: a layout that is no board names its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardConfig {
    pub layout: Layout,
    /// The physical line of each logical row and column (crossed wires put
    /// back in order); identity when wired in order.
    pub rows: [u8; 8],
    pub columns: [u8; 8],
}

impl Default for BoardConfig {
    fn default() -> Self {
        BoardConfig {
            layout: Layout::default(),
            rows: in_order(),
            columns: in_order(),
        }
    }
}

impl BoardConfig {
    /// The lines put in order, with no turn of the board: what `pegboard
    /// calibrate` reads through, so that the corners it finds are logical
    /// rows and columns and the `rows` and `columns` keys stay as they are.
    pub fn lines_in_order(&self) -> Layout {
        Layout::new((0, 0), (0, 7), (7, 7), self.rows, self.columns).unwrap_or_default()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFields {
    #[serde(default = "a1")]
    a1: [u8; 2],
    #[serde(default = "h1")]
    h1: [u8; 2],
    #[serde(default = "h8")]
    h8: [u8; 2],
    #[serde(default = "in_order")]
    rows: [u8; 8],
    #[serde(default = "in_order")]
    columns: [u8; 8],
}

fn a1() -> [u8; 2] {
    [0, 0]
}
fn h1() -> [u8; 2] {
    [0, 7]
}
fn h8() -> [u8; 2] {
    [7, 7]
}
fn in_order() -> [u8; 8] {
    [0, 1, 2, 3, 4, 5, 6, 7]
}

impl<'de> Deserialize<'de> for BoardConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = BoardFields::deserialize(d)?;
        let p = |x: [u8; 2]| (x[0], x[1]);
        Layout::new(p(f.a1), p(f.h1), p(f.h8), f.rows, f.columns)
            .map(|layout| BoardConfig {
                layout,
                rows: f.rows,
                columns: f.columns,
            })
            .map_err(serde::de::Error::custom)
    }
}

/// A key action's name, checked where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionName(pub Action);

impl<'de> Deserialize<'de> for ActionName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Action::parse(&text)
            .map(ActionName)
            .map_err(serde::de::Error::custom)
    }
}

/// One `[[buttons.key]]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyConfig {
    /// A GPIO button: its BCM pin (to ground; the pull-up is switched on).
    pub pin: Option<u8>,
    /// A button on the serial scanner: its bit (0–15).
    pub bit: Option<u8>,
    /// What a short press does.
    pub press: Option<ActionName>,
    /// What a long press does.
    pub long: Option<ActionName>,
}

/// `[buttons]`
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ButtonsConfig {
    /// The colour the keypad's owner (the blind player) plays.
    pub player: PlayerColor,
    #[serde(deserialize_with = "bounded::u64_in::<_, 1, 1000>")]
    pub debounce_ms: u64,
    #[serde(deserialize_with = "bounded::u64_in::<_, 100, 10_000>")]
    pub long_press_ms: u64,
    pub key: Vec<KeyConfig>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerColor {
    #[default]
    White,
    Black,
}

impl From<PlayerColor> for Color {
    fn from(c: PlayerColor) -> Color {
        match c {
            PlayerColor::White => Color::White,
            PlayerColor::Black => Color::Black,
        }
    }
}

impl Default for ButtonsConfig {
    fn default() -> Self {
        let t = ButtonTiming::default();
        ButtonsConfig {
            player: PlayerColor::White,
            debounce_ms: t.debounce_ms,
            long_press_ms: t.long_press_ms,
            key: Vec::new(),
        }
    }
}

impl ButtonsConfig {
    pub fn timing(&self) -> ButtonTiming {
        ButtonTiming {
            debounce_ms: self.debounce_ms,
            long_press_ms: self.long_press_ms,
        }
    }

    /// Key i's meaning, in the order of the `[[buttons.key]]` tables.
    pub fn keymaps(&self) -> Vec<KeyMap> {
        self.key
            .iter()
            .map(|k| KeyMap {
                press: k.press.map(|a| a.0),
                long: k.long.map(|a| a.0),
            })
            .collect()
    }
}

/// A problem at a key: the key's path (tables, key; a number picks one
/// of an array of tables) and what is wrong.
pub type KeyProblem = (Vec<String>, String);

fn at(path: &[&str], message: String) -> KeyProblem {
    (path.iter().map(|s| s.to_string()).collect(), message)
}

/// Checks what serde cannot: pins that clash, keys without a place.
pub fn check(
    sensors: &SensorsConfig,
    buttons: &ButtonsConfig,
    display: &DisplayConfig,
) -> Result<(), KeyProblem> {
    let mut used: Vec<(u8, String)> = Vec::new();
    let mut take = |pin: u8, what: String, path: &[&str]| -> Result<(), KeyProblem> {
        if pin > 27 {
            return Err(at(
                path,
                format!("{what}: BCM pin {pin} is not on the 40-pin header (0–27)"),
            ));
        }
        if let Some((_, other)) = used.iter().find(|(p, _)| *p == pin) {
            return Err(at(
                path,
                format!("{what}: BCM pin {pin} is already {other}"),
            ));
        }
        used.push((pin, what));
        Ok(())
    };
    if sensors.source == SourceKind::Matrix {
        for (i, &pin) in sensors.matrix.drive.iter().enumerate() {
            take(
                pin,
                format!("[sensors.matrix] drive line {i}"),
                &["sensors", "matrix", "drive"],
            )?;
        }
        for (i, &pin) in sensors.matrix.sense.iter().enumerate() {
            take(
                pin,
                format!("[sensors.matrix] sense line {i}"),
                &["sensors", "matrix", "sense"],
            )?;
        }
    }
    if display.faces.contains(&FaceKind::Tm1637) {
        let t = &display.tm1637;
        for (pin, what, key) in [
            (t.white_clk, "White's CLK", "white_clk"),
            (t.white_dio, "White's DIO", "white_dio"),
            (t.black_clk, "Black's CLK", "black_clk"),
            (t.black_dio, "Black's DIO", "black_dio"),
        ] {
            take(
                pin,
                format!("[display.tm1637] {what}"),
                &["display", "tm1637", key],
            )?;
        }
    }
    if buttons.key.len() > 16 {
        return Err(at(
            &["buttons", "key", "16"],
            format!("[buttons] has {} keys; at most 16", buttons.key.len()),
        ));
    }
    for (i, key) in buttons.key.iter().enumerate() {
        let n = i + 1;
        let index = i.to_string();
        let path = |field: &'static str| -> Vec<&str> { vec!["buttons", "key", &index, field] };
        match (key.pin, key.bit) {
            (Some(pin), None) => take(pin, format!("[[buttons.key]] number {n}"), &path("pin"))?,
            (None, Some(bit)) if bit < 16 => {
                if !matches!(sensors.source, SourceKind::Serial | SourceKind::Trace) {
                    return Err(at(
                        &path("bit"),
                        format!(
                            "[[buttons.key]] number {n} gives `bit`, a serial scanner's button \
                             (or a trace's `keys`); [sensors] source is neither \"serial\" nor \
                             \"trace\" (give `pin` for a GPIO button)"
                        ),
                    ));
                }
            }
            (None, Some(bit)) => {
                return Err(at(
                    &path("bit"),
                    format!(
                        "[[buttons.key]] number {n}: bit {bit}; the scanner's button bits are 0–15"
                    ),
                ));
            }
            _ => {
                return Err(at(
                    &path("pin"),
                    format!(
                        "[[buttons.key]] number {n} needs either `pin` (a GPIO button) or `bit` \
                         (a serial scanner's button), not both or neither"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(not(feature = "rpi"))]
const NO_RPI: &str = "this pegboard was built without Raspberry Pi support; build it with \
                      `cargo build --release --features rpi` (the install script does), or use a \
                      serial scanner (source = \"serial\")";

/// Whether this pegboard can open the sensors and keys as configured:
/// the source is built in, a trace source names a file that can be read,
/// and GPIO keys have Raspberry Pi support.
pub fn usable(
    sensors: &SensorsConfig,
    buttons: &ButtonsConfig,
    display: &DisplayConfig,
) -> Result<(), KeyProblem> {
    match sensors.source {
        SourceKind::Trace => match &sensors.trace.file {
            None => {
                return Err(at(
                    &["sensors", "source"],
                    "[sensors] source = \"trace\" needs [sensors.trace] file, the trace to play"
                        .to_string(),
                ));
            }
            Some(file) => {
                if let Err(e) = std::fs::File::open(file) {
                    return Err(at(
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
            return Err(at(
                &["sensors", "source"],
                format!("[sensors] source = \"{name}\": {NO_RPI}"),
            ));
        }
        _ => {}
    }
    #[cfg(not(feature = "rpi"))]
    if let Some(i) = buttons.key.iter().position(|k| k.pin.is_some()) {
        return Err(at(
            &["buttons", "key", &i.to_string(), "pin"],
            format!(
                "[[buttons.key]] number {} has a GPIO `pin`: {NO_RPI}",
                i + 1
            ),
        ));
    }
    #[cfg(not(feature = "rpi"))]
    if let Some(i) = display.faces.iter().position(|f| *f == FaceKind::Tm1637) {
        return Err(at(
            &["display", "faces", &i.to_string()],
            format!("[display] faces: \"tm1637\" drives GPIO pins: {NO_RPI}"),
        ));
    }
    #[cfg(feature = "rpi")]
    let _ = (buttons, display);
    Ok(())
}
