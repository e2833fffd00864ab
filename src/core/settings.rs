//! The values that tune the core. All times are in milliseconds.

use serde::{Deserialize, Serialize};
use shakmaty::Role;

use super::debounce::DEFAULT_WINDOW_MS;

/// What to do when a player moves another piece than the one touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TouchPolicy {
    /// Touch-move is not checked (casual play).
    Off,
    /// The move is made, and a `touch_violation` is reported.
    #[default]
    Warn,
    /// The move is refused: it must be taken back and the touched piece moved.
    Enforce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// A square's reading must hold this long to count (see `debounce`).
    pub debounce_ms: u64,
    /// How long a board that no move in progress explains must stay still
    /// before a mismatch or an illegal move is reported.
    pub settle_ms: u64,
    /// Chess960 only: a king placed where castling would also put it, while
    /// the rook could still follow, waits this long for the rook.
    pub castling_wait_ms: u64,
    /// King and rook touched within this interval count as touched together.
    pub together_ms: u64,
    pub touch_policy: TouchPolicy,
    /// The piece a promoted pawn becomes when nobody says (casual play);
    /// `None`: wait for the `promote` input (E2.1, 4.6c).
    pub default_promotion: Option<Role>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            debounce_ms: DEFAULT_WINDOW_MS,
            settle_ms: 1000,
            castling_wait_ms: 1500,
            together_ms: 300,
            touch_policy: TouchPolicy::Warn,
            default_promotion: None,
        }
    }
}
