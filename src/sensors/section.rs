//! The sensors' sections of the configuration file: `[sensors]` (where
//! the readings come from, and each source's settings), `[board]` (where
//! a1, h1 and h8 are on the matrix, and the lines' order) and each
//! `[[boards]]` entry (another board of the game).

use serde::Deserialize;

use super::Layout;
use super::matrix::MatrixTiming;
use super::mcp23017::DEFAULT_ADDRESSES;
use super::serial::LinkTiming;
use crate::text::bounded;

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
    /// Whether the scan loop asks for a real-time priority
    /// (`runtime::priority`): on a Pi that plays as a service, so that
    /// nothing else delays a scan.
    pub realtime: bool,
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
            realtime: false,
            matrix: MatrixConfig::default(),
            mcp23017: Mcp23017Config::default(),
            serial: SerialConfig::default(),
            trace: TraceConfig::default(),
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

/// A `[[boards]]` entry: another board of the game, its sensors and
/// layout. Which player moves on it is `[game] white_moves_on` /
/// `black_moves_on`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherBoard {
    /// The board's name in traces, events and `[game]`: "sighted".
    pub name: String,
    #[serde(default)]
    pub sensors: SensorsConfig,
    #[serde(default)]
    pub board: BoardConfig,
}
