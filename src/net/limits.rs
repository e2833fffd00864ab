//! How much a request may carry and how long it may take: the bounds that
//! keep one laptop in the hall from taking the server down.

use std::time::Duration;

/// A request's head (request line and headers) may be at most this long.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A connection that sends no request head within this long (after it
/// opened, or after its last answer) is closed.
pub const HEAD_WITHIN: Duration = Duration::from_secs(10);

/// A request body that does not arrive whole within this long is not
/// waited for: the request is refused and its connection closed.
pub const BODY_WITHIN: Duration = Duration::from_secs(5);

/// The largest body a request may carry.
pub const MAX_BODY_BYTES: usize = 4096;

/// At most this many connections at once, from everyone together. When
/// they are all taken, a newcomer takes the oldest of whoever holds the
/// most ([`super::shares`]). Lower still when the process may open fewer
/// files: see [`connection_cap`].
pub const MAX_CONNECTIONS: usize = 256;

/// At most this many connections at once from one device (an address, an
/// IPv6 /64: [`super::shares::holder`]) that has shown no credential.
pub const CONNECTIONS_PER_DEVICE: usize = 32;

/// At most this many connections whose place a newcomer took may still be
/// closing; past it nobody new is let in until they are closed.
pub const CLOSING_AT_MOST: usize = 64;

/// A connection whose place a newcomer took is closed once its answer
/// under way is given, or after this long.
pub const TAKEN_CLOSES_WITHIN: Duration = Duration::from_secs(1);

/// A connection is closed after this long, once its answer under way is
/// given (an event stream is given its whole [`STREAM_LIFE`]): none is
/// held for ever.
pub const CONNECTION_LIFE: Duration = Duration::from_secs(120);

/// A connection is closed after this many requests.
pub const REQUESTS_PER_CONNECTION: u32 = 100;

/// An event stream ends after this long; the page opens it again a second
/// later (and so does a hub), so that no stream is held for ever.
pub const STREAM_LIFE: Duration = Duration::from_secs(100);

/// File descriptors kept free of connections whatever happens: the
/// journal, the scoresheet, the beat file, the sensors, the voices and
/// the clock modules are always opened.
pub const RESERVED_DESCRIPTORS: usize = 128;

/// At most this many event streams at once. When they are all open, a
/// newcomer's stream ends the oldest of whoever holds the most; one that
/// finds no such holder gets 503.
pub const MAX_STREAMS: usize = 64;

/// At most this many event streams at once from one device without a
/// credential.
pub const STREAMS_PER_DEVICE: usize = 8;

/// How long connections and streams may live, and how many requests a
/// connection may carry: the defaults above, or shorter ones to try them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lives {
    pub connection: Duration,
    pub requests: u32,
    pub stream: Duration,
    /// How long a connection may take to send a request's head, or wait
    /// idle for the next one ([`HEAD_WITHIN`]).
    pub head: Duration,
}

impl Default for Lives {
    fn default() -> Lives {
        Lives {
            connection: CONNECTION_LIFE,
            requests: REQUESTS_PER_CONNECTION,
            stream: STREAM_LIFE,
            head: HEAD_WITHIN,
        }
    }
}

/// How long a stop waits for the open event streams to write what was
/// sent before it; a viewer that reads nothing is not waited for longer.
pub const FLUSH_WITHIN: Duration = Duration::from_millis(500);

/// The connections this process may hold: [`MAX_CONNECTIONS`], or fewer
/// when `open_files` (the process's limit on open files) would leave less
/// than [`RESERVED_DESCRIPTORS`] for everything else, with those still
/// closing ([`CLOSING_AT_MOST`]).
pub fn connection_cap(open_files: u64) -> usize {
    let room = usize::try_from(open_files).unwrap_or(usize::MAX);
    MAX_CONNECTIONS.min(room.saturating_sub(RESERVED_DESCRIPTORS + CLOSING_AT_MOST) / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connections_leave_room_for_the_game_files() {
        assert_eq!(connection_cap(1024), MAX_CONNECTIONS);
        assert_eq!(connection_cap(1 << 20), MAX_CONNECTIONS);
        // A tight limit: half of what is left after the reserve.
        assert_eq!(connection_cap(256), 32);
        assert_eq!(connection_cap(100), 0);
    }
}
