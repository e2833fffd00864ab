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

/// At most this many connections at once from one network (a /24 of IPv4,
/// a /64 of IPv6: [`network`]): one laptop in the hall, however many
/// addresses it takes, cannot take the others' places.
pub const MAX_CONNECTIONS_PER_NETWORK: usize = 32;

/// Of all connections, this many are kept for requests that show a
/// credential (a console's session or secret, the hall hub): when the rest
/// are taken, the assistant, the arbiter and the hub still get in.
pub const RESERVED_CONNECTIONS: usize = 32;

/// A connection is closed after this long, once its answer under way is
/// given (an event stream ends first: [`STREAM_LIFE`]): none is held for
/// ever.
pub const CONNECTION_LIFE: Duration = Duration::from_secs(120);

/// A connection is closed after this many requests.
pub const REQUESTS_PER_CONNECTION: u32 = 100;

/// An event stream ends after this long, within its connection's life;
/// the page opens it again at once (and so does a hub), so a stranger's
/// streams cannot hold their places.
pub const STREAM_LIFE: Duration = Duration::from_secs(100);

/// File descriptors kept free of connections whatever happens: the
/// journal, the scoresheet, the beat file, the sensors, the voices and
/// the clock modules are always opened.
pub const RESERVED_DESCRIPTORS: usize = 128;

/// At most this many event streams at once; more get 503.
pub const MAX_STREAMS: usize = 64;

/// At most this many event streams at once from one network.
pub const MAX_STREAMS_PER_NETWORK: usize = 8;

/// Of all event streams, this many are kept for requests that show a
/// credential.
pub const RESERVED_STREAMS: usize = 8;

/// The network an address counts in: its /24 for IPv4 (an IPv4 address
/// written as IPv6 included), its /64 for IPv6, the block one host is
/// commonly given.
pub fn network(address: std::net::IpAddr) -> std::net::IpAddr {
    use std::net::IpAddr;
    match address {
        IpAddr::V4(v4) => IpAddr::V4((u32::from(v4) & 0xffff_ff00).into()),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => network(IpAddr::V4(v4)),
            None => IpAddr::V6((u128::from(v6) & (u128::MAX << 64)).into()),
        },
    }
}

/// How long connections and streams may live, and how many requests a
/// connection may carry: the defaults above, or shorter ones to try them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lives {
    pub connection: Duration,
    pub requests: u32,
    pub stream: Duration,
}

impl Default for Lives {
    fn default() -> Lives {
        Lives {
            connection: CONNECTION_LIFE,
            requests: REQUESTS_PER_CONNECTION,
            stream: STREAM_LIFE,
        }
    }
}

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
    fn a_stream_ends_within_its_connections_life() {
        // A stream outliving its connection would be cut mid-answer.
        assert!(STREAM_LIFE < CONNECTION_LIFE);
    }

    #[test]
    fn addresses_count_by_their_network() {
        let n = |a: &str| network(a.parse().expect("address")).to_string();
        assert_eq!(n("192.168.1.20"), "192.168.1.0");
        assert_eq!(n("192.168.1.254"), "192.168.1.0");
        assert_ne!(n("192.168.2.20"), n("192.168.1.20"));
        assert_eq!(n("::ffff:192.168.1.20"), "192.168.1.0");
        assert_eq!(n("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(n("2001:db8:1:2::1"), n("2001:db8:1:2:ffff::9"));
        assert_ne!(n("2001:db8:1:3::1"), n("2001:db8:1:2::1"));
    }

    #[test]
    fn the_connections_leave_room_for_the_game_files() {
        assert_eq!(connection_cap(1024), MAX_CONNECTIONS);
        assert_eq!(connection_cap(1 << 20), MAX_CONNECTIONS);
        // A tight limit: half of what is left after the reserve.
        assert_eq!(connection_cap(256), 64);
        assert_eq!(connection_cap(100), 0);
    }
}
