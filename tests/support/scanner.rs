//! A serial scanner on a pseudo-terminal: the cable (a socat pty pair)
//! and the device's end, speaking `hardware/serial-protocol.md`.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pegboard::sensors::serial::protocol::{FrameParser, Message, encode};

/// Two linked pseudo-terminals: `host` for pegboard, `dev` for the
/// simulated scanner. Killing socat is pulling the USB cable.
pub struct Cable {
    child: Child,
}

impl Cable {
    pub fn plug(dir: &Path) -> Cable {
        let host = dir.join("host");
        let dev = dir.join("dev");
        let _ = std::fs::remove_file(&host);
        let _ = std::fs::remove_file(&dev);
        let child = Command::new("socat")
            .arg(format!("pty,raw,echo=0,link={}", host.display()))
            .arg(format!("pty,raw,echo=0,link={}", dev.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("socat is installed by .ci/setup.sh");
        let start = Instant::now();
        while !(host.exists() && dev.exists()) {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "socat made no ptys"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        Cable { child }
    }

    pub fn unplug(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Cable {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The simulated scanner: reads the host's frames, writes its own.
pub struct Device {
    pub port: Box<dyn serialport::SerialPort>,
    pub parser: FrameParser,
}

impl Device {
    pub fn open(dir: &Path) -> Device {
        let path: PathBuf = dir.join("dev");
        let port = serialport::new(path.to_string_lossy(), 115_200)
            .timeout(Duration::from_millis(20))
            .open()
            .expect("the device end opens");
        Device {
            port,
            parser: FrameParser::new(),
        }
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.port.write_all(bytes).expect("device writes");
        self.port.flush().expect("device flushes");
    }

    pub fn send_message(&mut self, m: &Message) {
        self.send(&encode(m));
    }

    /// Waits for the host's HELLO and answers it.
    pub fn answer_hello(&mut self) -> (u8, u8) {
        let start = Instant::now();
        let mut buffer = [0u8; 256];
        loop {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "no HELLO from the host"
            );
            let n = self.port.read(&mut buffer).unwrap_or(0);
            let mut out = Vec::new();
            self.parser.push(&buffer[..n], &mut out);
            if let Some(Message::Hello {
                min_version,
                max_version,
            }) = out.into_iter().next()
            {
                self.send_message(&Message::Welcome {
                    version: 1,
                    scan_hz: 100,
                    name: "simulated scanner".into(),
                });
                return (min_version, max_version);
            }
        }
    }
}

impl Device {
    /// Answers a HELLO among the host's bytes, if one came; true if so.
    pub fn answer_any_hello(&mut self) -> bool {
        let mut buffer = [0u8; 256];
        let n = self.port.read(&mut buffer).unwrap_or(0);
        let mut out = Vec::new();
        self.parser.push(&buffer[..n], &mut out);
        let hello = out.iter().any(|m| matches!(m, Message::Hello { .. }));
        if hello {
            self.send_message(&Message::Welcome {
                version: 1,
                scan_hz: 100,
                name: "simulated scanner".into(),
            });
        }
        hello
    }

    /// Sends a frame without waiting for it to drain (a host that is not
    /// there does not stop the device).
    pub fn try_send(&mut self, message: &Message) {
        let _ = self.port.write_all(&encode(message));
    }
}
