//! How much a request may carry and how long it may take: the bounds that
//! keep one laptop in the hall from taking the server down.

use std::time::Duration;

/// A request's head (request line and headers) may be at most this long.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A connection that sends no request head within this long is closed.
pub const HEAD_WITHIN: Duration = Duration::from_secs(10);

/// The largest body a request may carry.
pub const MAX_BODY_BYTES: usize = 4096;

/// At most this many event streams at once; more get 503.
pub const MAX_STREAMS: usize = 64;

/// How long a stop waits for the open event streams to write what was
/// sent before it; a viewer that reads nothing is not waited for longer.
pub const FLUSH_WITHIN: Duration = Duration::from_millis(500);
