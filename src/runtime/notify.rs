//! Telling systemd how the service is doing (`Type=notify`): `READY=1` once
//! the game runs, `WATCHDOG=1` from the scan loop at half the watchdog
//! interval, `STOPPING=1` on the way out. A scan loop that stalls stops the
//! pings, and systemd restarts the service (`WatchdogSec=` in the unit).
//!
//! Outside systemd (`NOTIFY_SOCKET` unset) every call does nothing.

use std::os::unix::net::UnixDatagram;
use std::time::{Duration, Instant};

/// The link to systemd's notification socket, if there is one.
pub struct Notifier {
    socket: Option<(UnixDatagram, std::os::unix::net::SocketAddr)>,
    /// How often the watchdog wants a ping (half its interval), if it is on.
    every: Option<Duration>,
    last: Option<Instant>,
}

impl Notifier {
    /// From the environment systemd gives its services: `NOTIFY_SOCKET`
    /// (a path, or `@name` in the abstract namespace) and `WATCHDOG_USEC`.
    pub fn from_env() -> Notifier {
        let socket = std::env::var_os("NOTIFY_SOCKET").and_then(|path| {
            let path = path.to_string_lossy().into_owned();
            let address = match path.strip_prefix('@') {
                Some(name) => abstract_address(name)?,
                None => std::os::unix::net::SocketAddr::from_pathname(&path).ok()?,
            };
            Some((UnixDatagram::unbound().ok()?, address))
        });
        let every = std::env::var("WATCHDOG_USEC")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|&us| us > 0)
            .map(|us| Duration::from_micros(us / 2));
        Notifier {
            socket,
            every,
            last: None,
        }
    }

    fn send(&self, message: &str) {
        if let Some((socket, address)) = &self.socket {
            // Nobody listening changes nothing for the game.
            let _ = socket.send_to_addr(message.as_bytes(), address);
        }
    }

    /// The service is up: the game runs.
    pub fn ready(&self) {
        self.send("READY=1");
    }

    /// Called from every turn of the scan loop; pings the watchdog when due.
    pub fn alive(&mut self, now: Instant) {
        let Some(every) = self.every else { return };
        if self
            .last
            .is_none_or(|t| now.saturating_duration_since(t) >= every)
        {
            self.last = Some(now);
            self.send("WATCHDOG=1");
        }
    }

    /// The service is stopping.
    pub fn stopping(&self) {
        self.send("STOPPING=1");
    }
}

#[cfg(target_os = "linux")]
fn abstract_address(name: &str) -> Option<std::os::unix::net::SocketAddr> {
    use std::os::linux::net::SocketAddrExt;
    std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).ok()
}

#[cfg(not(target_os = "linux"))]
fn abstract_address(_name: &str) -> Option<std::os::unix::net::SocketAddr> {
    None
}
