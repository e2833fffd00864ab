//! The pure core: no threads, files, sockets or clock reads. Time comes in
//! as a value; the same calls always give the same events.
//!
//! Data flows one way: raw scans → [`debounce`] → square changes →
//! [`tracker`] (Art. 4, E2.2/E2.3) → [`game`] → [`event`]s.
//!
//! [`sections`] are the configuration file's tables that make the
//! [`Settings`]: `[debounce]`, `[tracker]`, `[clock]` and `[game]`.

pub mod analysis;
pub mod clock;
pub mod controller;
pub mod debounce;
pub mod event;
pub mod footprint;
pub mod game;
pub mod input;
pub mod laws;
pub mod material;
pub mod menu;
pub mod notices;
pub mod online;
pub mod opening;
pub mod relay;
pub mod replica;
pub mod review;
pub mod said;
pub mod sections;
pub mod settings;
pub mod touch;
pub mod tracker;

pub use controller::{Controller, Judged, Wanted};
pub use event::{Event, Stamped};
pub use game::{Game, StartPosition};
pub use input::{ClockSetting, Input};
pub use settings::{
    BLIND_BOARD, ClockSettings, ClockStart, FlagRule, Players, Seat, Seats, Settings, TouchPolicy,
};
