//! `pegboard play` as a service: it ends cleanly at SIGTERM and SIGINT
//! (exit 0 within 2 s, everything written), tells systemd when it is ready,
//! and pings the watchdog from its scan loop, so a frozen daemon is seen;
//! and the install script keeps its configuration from other users.

mod common;

use std::io::Read;
use std::os::unix::net::UnixDatagram;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pegboard-service-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary folder");
    d
}

/// A configuration whose sensors replay one move, 1. Nf3.
fn config(d: &std::path::Path) -> String {
    common::nf3_play_config(d, "")
}

fn play(config: &str, envs: &[(&str, String)]) -> Child {
    common::pegboard_command()
        .args(["play", "--silent", "--events", "--config", config])
        .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pegboard starts")
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name}");
}

/// Waits at most `limit` for the child to end; its exit code and how long
/// it took, or a failed test if it never ended.
fn ends_within(child: &mut Child, limit: Duration) -> (Option<i32>, Duration) {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return (status.code(), began.elapsed());
        }
        if began.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn output(child: &mut Child) -> String {
    let mut out = String::new();
    if let Some(mut s) = child.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    if let Some(mut s) = child.stderr.take() {
        let _ = s.read_to_string(&mut out);
    }
    out
}

#[test]
fn play_ends_cleanly_within_2_s_of_sigterm_or_sigint_with_everything_written() {
    for name in ["TERM", "INT"] {
        let d = dir(name);
        let config = config(&d);
        let mut child = play(&config, &[]);
        // The move is made 0.7 s in; stop it well after.
        std::thread::sleep(Duration::from_millis(2000));
        signal(&child, name);
        let (code, took) = ends_within(&mut child, Duration::from_secs(5));
        let out = output(&mut child);
        assert_eq!(code, Some(0), "SIG{name}: {out}");
        assert!(took <= Duration::from_secs(2), "SIG{name}: took {took:?}");
        // Everything concluded before the signal was written out.
        assert!(out.contains("\"san\":\"Nf3\""), "SIG{name}: {out}");
        assert!(out.contains("\"event\":\"announced\""), "SIG{name}: {out}");
        let _ = std::fs::remove_dir_all(&d);
    }
}

fn next(socket: &UnixDatagram, within: Duration) -> Option<String> {
    socket.set_read_timeout(Some(within)).expect("timeout");
    let mut buf = [0u8; 256];
    let n = socket.recv(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

#[test]
fn play_tells_systemd_it_is_ready_and_pings_the_watchdog_from_its_scan_loop() {
    let d = dir("notify");
    let config = config(&d);
    let path = d.join("notify.sock");
    let socket = UnixDatagram::bind(&path).expect("notification socket");
    // A 200 ms watchdog: pinged every 100 ms.
    let mut child = play(
        &config,
        &[
            ("NOTIFY_SOCKET", path.display().to_string()),
            ("WATCHDOG_USEC", "200000".to_string()),
        ],
    );
    let mut first = Vec::new();
    while first.len() < 6 {
        match next(&socket, Duration::from_secs(5)) {
            Some(m) => first.push(m),
            None => panic!("no notification within 5 s; had {first:?}"),
        }
    }
    assert!(first.contains(&"READY=1".to_string()), "{first:?}");
    let pings = first.iter().filter(|m| *m == "WATCHDOG=1").count();
    assert!(pings >= 4, "{first:?}");
    // Frozen, the daemon pings no more: systemd would restart it.
    signal(&child, "STOP");
    std::thread::sleep(Duration::from_millis(150));
    while next(&socket, Duration::from_millis(10)).is_some() {}
    assert_eq!(
        next(&socket, Duration::from_millis(800)),
        None,
        "a frozen scan loop pinged the watchdog"
    );
    signal(&child, "CONT");
    assert_eq!(
        next(&socket, Duration::from_secs(2)).as_deref(),
        Some("WATCHDOG=1")
    );
    signal(&child, "TERM");
    let mut last = Vec::new();
    while let Some(m) = next(&socket, Duration::from_secs(3)) {
        let stopping = m == "STOPPING=1";
        last.push(m);
        if stopping {
            break;
        }
    }
    assert_eq!(
        last.last().map(String::as_str),
        Some("STOPPING=1"),
        "{last:?}"
    );
    let (code, _) = ends_within(&mut child, Duration::from_secs(5));
    assert_eq!(code, Some(0), "{}", output(&mut child));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn sigterm_syncs_the_journal_up_to_the_instant_it_came() {
    let d = dir("journal");
    let config = config(&d);
    let mut text = std::fs::read_to_string(&config).expect("config");
    text.push_str(&format!(
        "[journal]\ndir = \"{}\"\n",
        d.join("journal").display()
    ));
    std::fs::write(&config, text).expect("config");
    let mut child = play(&config, &[]);
    // No clock: after the move (0.7 s) and its announcement nothing is
    // journaled until the end; the last record is the end's own.
    std::thread::sleep(Duration::from_millis(3000));
    signal(&child, "TERM");
    let (code, _) = ends_within(&mut child, Duration::from_secs(5));
    let out = output(&mut child);
    assert_eq!(code, Some(0), "{out}");
    let store = pegboard::record::journal::Store::open(&d.join("journal")).expect("journal");
    let loaded = store.load(1).expect("game 1");
    assert_eq!(loaded.damage, None, "whole");
    let last = loaded.entries.last().expect("records");
    assert!(
        last.t > 1500 && matches!(last.reading, pegboard::trace::Reading::Scan { .. }),
        "the time at the signal is on the disk: {last:?}"
    );
    let beat = pegboard::record::journal::store::read_beat(&loaded.files.beat);
    assert_eq!(beat, Some(last.t), "and the beat file says the same");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_install_script_keeps_the_configuration_from_other_users() {
    // It may hold the console's PIN: installed 0640, an existing one made
    // unreadable to others, the folder 0750.
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("hardware/install.sh"),
    )
    .expect("install.sh");
    let installs: Vec<&str> = script
        .lines()
        .filter(|l| l.contains("install -m") && l.contains("/etc/pegboard/pegboard.toml"))
        .collect();
    assert_eq!(installs.len(), 1, "{installs:?}");
    assert!(installs[0].contains("install -m 0640"), "{}", installs[0]);
    assert!(script.contains("chmod o-rwx /etc/pegboard/pegboard.toml"));
    assert!(script.contains("chmod 0750 /etc/pegboard"));
    let syntax = std::process::Command::new("bash")
        .args(["-n", "hardware/install.sh"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("bash");
    assert!(syntax.success(), "install.sh does not parse");
}
