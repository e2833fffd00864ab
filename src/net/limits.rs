//! How much a request may carry and how long it may take: the bounds that
//! keep one laptop in the hall from taking the server down.

use std::time::Duration;

/// A request's head (request line and headers) may be at most this long.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A connection that sends no request head within this long is closed.
pub const HEAD_WITHIN: Duration = Duration::from_secs(10);

/// A request body that does not arrive whole within this long is not
/// waited for: the request is refused and its connection closed.
pub const BODY_WITHIN: Duration = Duration::from_secs(5);

/// The largest body a request may carry.
pub const MAX_BODY_BYTES: usize = 4096;

/// At most this many connections at once, from everyone together; a
/// connection past it is closed as soon as it is taken. Lower still when
/// the process may open fewer files: see [`connection_cap`].
pub const MAX_CONNECTIONS: usize = 256;

/// At most this many connections at once from one address: one laptop in
/// the hall cannot take the others' places.
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 32;

/// File descriptors kept free of connections whatever happens: the
/// journal, the scoresheet, the beat file, the sensors, the voices and
/// the clock modules are always opened.
pub const RESERVED_DESCRIPTORS: usize = 128;

/// At most this many event streams at once; more get 503.
pub const MAX_STREAMS: usize = 64;

/// At most this many event streams at once from one address.
pub const MAX_STREAMS_PER_ADDRESS: usize = 8;

/// How long a stop waits for the open event streams to write what was
/// sent before it; a viewer that reads nothing is not waited for longer.
pub const FLUSH_WITHIN: Duration = Duration::from_millis(500);

/// The connections this process may hold: [`MAX_CONNECTIONS`], or fewer
/// when `open_files` (the process's limit on open files) would leave less
/// than [`RESERVED_DESCRIPTORS`] for everything else.
pub fn connection_cap(open_files: u64) -> usize {
    let room = usize::try_from(open_files).unwrap_or(usize::MAX);
    MAX_CONNECTIONS.min(room.saturating_sub(RESERVED_DESCRIPTORS) / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connections_leave_room_for_the_game_files() {
        assert_eq!(connection_cap(1024), MAX_CONNECTIONS);
        assert_eq!(connection_cap(1 << 20), MAX_CONNECTIONS);
        // A tight limit: half of what is left after the reserve.
        assert_eq!(connection_cap(256), 64);
        assert_eq!(connection_cap(100), 0);
    }
}
