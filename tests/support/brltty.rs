//! A real brltty (Debian's, installed by `.ci/setup.sh`) driving its
//! Virtual display driver, which the test plays: brltty connects to a Unix
//! socket the test listens on, is told the display's size (`cells N`),
//! sends what the display shows (`Braille "1|12| |…"`, dots per cell), and
//! takes the display's keys as brltty's commands (`route 3`). Its BrlAPI
//! listens on a host number of the test's own (TCP port 4101 + N), with no
//! authorization, so that it meets no other brltty.
//!
//! The Virtual driver is in brltty 6.5 to 6.8 (Debian 12 has 6.5); brltty
//! 6.9 removed it. Without it this test fails and says so: it does not
//! skip.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Where Debian's brltty keeps its Virtual driver.
pub const VIRTUAL_DRIVER: &str = "/lib/brltty/libbrlttybvr.so";

/// A brltty with a Virtual display of `cells` cells, played by the test.
pub struct Brltty {
    child: Child,
    peer: UnixStream,
    lines: Receiver<String>,
    /// The BrlAPI host to connect to ("127.0.0.1:N").
    pub host: String,
    dir: PathBuf,
}

impl Brltty {
    /// Starts brltty on a display of `cells` cells, its BrlAPI on host
    /// number `number`, and waits until it has connected to the display.
    pub fn start(name: &str, number: u16, cells: usize) -> Brltty {
        assert!(
            std::path::Path::new(VIRTUAL_DRIVER).exists(),
            "brltty's Virtual driver ({VIRTUAL_DRIVER}) is missing: these tests need brltty 6.5 to \
             6.8 with it (Debian 12's brltty package; .ci/setup.sh installs it). Upstream removed \
             the driver in 6.9."
        );
        let dir =
            std::env::temp_dir().join(format!("pegboard-brltty-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let socket = dir.join("vr.sock");
        let listener = UnixListener::bind(&socket).expect("the display's socket");
        let host = format!("127.0.0.1:{number}");
        let child = Command::new("brltty")
            .args(["-n", "-e", "-q", "-l", "warning", "-f", "/dev/null"])
            .arg("-U")
            .arg(&dir)
            .arg("-W")
            .arg(&dir)
            .args(["-b", "vr", "-d"])
            .arg(format!("client:{}", socket.display()))
            .args(["-x", "no", "-s", "no", "-t", "en-nabcc"])
            .arg("-A")
            .arg(format!("auth=none,host={host}"))
            .args(["-o", "show-screen-cursor=no,alert-tunes=no"])
            .env_remove("DISPLAY")
            .env_remove("WINDOWPATH")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("brltty runs (.ci/setup.sh installs Debian's brltty)");
        listener.set_nonblocking(true).expect("nonblocking");
        let began = Instant::now();
        let mut peer = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    assert!(
                        began.elapsed() < Duration::from_secs(20),
                        "brltty never connected to its Virtual display"
                    );
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => panic!("the display's socket: {e}"),
            }
        };
        peer.set_nonblocking(false).expect("blocking");
        writeln!(peer, "cells {cells}").expect("the display's size is told");
        // BrlAPI listens on TCP port 4101 + N once brltty has started it,
        // which may be a moment after the display is connected.
        let port = 4101 + number;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "brltty's BrlAPI never listened on port {port}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let (tx, lines) = channel();
        let reader = peer.try_clone().expect("a reading end");
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Brltty {
            child,
            peer,
            lines,
            host,
            dir,
        }
    }

    /// The next cells the display shows that `wanted` accepts, as dot
    /// numbers per cell (an empty string for a blank cell), within `within`.
    pub fn shown_until(&self, within: Duration, wanted: impl Fn(&[String]) -> bool) -> Vec<String> {
        let began = Instant::now();
        let mut seen = Vec::new();
        loop {
            let left = within.saturating_sub(began.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(cells) = braille_line(&line) {
                        if wanted(&cells) {
                            return cells;
                        }
                        seen.push(line);
                    }
                }
                Err(_) => panic!("the display never showed what was wanted; it showed {seen:?}"),
            }
        }
    }

    /// Presses a key on the display: one of brltty's commands (`route 3`).
    pub fn press(&mut self, command: &str) {
        writeln!(self.peer, "{command}").expect("the key is sent");
    }

    /// Stops brltty as `systemctl stop` would.
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

impl Drop for Brltty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The cells of a `Braille "…"` line: each cell's dot numbers, `|` between
/// cells, a space for a blank cell.
fn braille_line(line: &str) -> Option<Vec<String>> {
    let inner = line.strip_prefix("Braille \"")?.strip_suffix('"')?;
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}
