//! The pages over HTTPS: `play`'s mirror and console, and the hall hub,
//! each from a self-signed certificate made on first run. Python's own
//! TLS (OpenSSL underneath), which pegboard did not write, is the client:
//! it reads the pages and the certificate, whose fingerprint must be the
//! one `play` and `console-token` print. Plain HTTP only redirects. A hub
//! follows a board over HTTPS by the board's fingerprint, and no other.

mod common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::Reaped;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Over TLS with Python's `ssl`, trusting `cert` for the name `localhost`:
/// the answer's status and body to `GET path`, and the served
/// certificate's SHA-256 fingerprint (`AB:CD:…`). An `Err` says why the
/// handshake or the request failed.
fn python_get(
    port: u16,
    path: &str,
    cert: &std::path::Path,
) -> Result<(u16, String, String), String> {
    let script = "import ssl, socket, sys, hashlib\n\
        port, path, cafile = int(sys.argv[1]), sys.argv[2], sys.argv[3]\n\
        ctx = ssl.create_default_context(cafile=cafile)\n\
        s = ctx.wrap_socket(socket.create_connection(('127.0.0.1', port), timeout=20), server_hostname='localhost')\n\
        der = s.getpeercert(binary_form=True)\n\
        s.sendall(('GET ' + path + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n').encode())\n\
        data = b''\n\
        while True:\n\
        \x20   chunk = s.recv(65536)\n\
        \x20   if not chunk: break\n\
        \x20   data += chunk\n\
        print(':'.join('%02X' % b for b in hashlib.sha256(der).digest()))\n\
        sys.stdout.write(data.decode('utf-8', 'replace'))\n";
    let out = std::process::Command::new("python3")
        .args(["-c", script, &port.to_string(), path])
        .arg(cert)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).to_string());
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let (fingerprint, answer) = text.split_once('\n').ok_or("no answer")?;
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((status, body.to_string(), fingerprint.trim().to_string()))
}

/// A plain request's status and `Location`.
fn plain_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    );
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let location = text
        .lines()
        .find_map(|l| l.strip_prefix("location: "))
        .unwrap_or_default()
        .to_string();
    (status, location)
}

/// `play` over HTTPS on `https`, plain on `plain`, its state in `dir`:
/// what it printed until its console's address.
fn play(dir: &std::path::Path, https: u16, plain: u16) -> (Reaped, String) {
    let config = common::nf3_play_config(
        dir,
        &format!(
            "[mirror]\nlisten = \"127.0.0.1:{plain}\"\n[https]\nlisten = \"127.0.0.1:{https}\"\n\
             [console]\nenabled = true\n[journal]\ndir = \"{}\"\n",
            dir.join("state").display()
        ),
    );
    let mut child = Reaped(
        common::pegboard_command()
            .args(["play", "--silent", "--config", &config])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("play starts"),
    );
    let mut out = BufReader::new(child.0.stdout.take().expect("stdout"));
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).expect("a line") > 0, "{seen}");
        seen.push_str(&line);
        if line.contains("the console is at") {
            break;
        }
    }
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (child, seen)
}

fn fingerprint_in(text: &str) -> String {
    text.lines()
        .find_map(|l| l.split_once("fingerprint is ").map(|(_, f)| f))
        .and_then(|f| f.split_whitespace().next())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_mirror_and_console_are_served_over_https_with_the_fingerprint_console_token_prints() {
    let dir = common::empty_dir("https-play");
    let (https, plain) = (free_port(), free_port());
    let (_play, printed) = play(&dir, https, plain);
    assert!(
        printed.contains(&format!("the mirror is at https://127.0.0.1:{https}/")),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(
            "the console is at https://127.0.0.1:{https}/console"
        )),
        "{printed}"
    );
    let printed_fingerprint = fingerprint_in(&printed);
    assert_eq!(printed_fingerprint.len(), 95, "{printed}");
    let cert = dir.join("state").join("https-certificate.pem");
    // Python's TLS reads the state, and the certificate it was served.
    let began = Instant::now();
    let (status, body, served) = loop {
        match python_get(https, "/state", &cert) {
            Ok(got) if got.1.contains("\"ply\":1") => break got,
            other => {
                assert!(began.elapsed() < Duration::from_secs(60), "{other:?}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    };
    assert_eq!(status, 200, "{body}");
    assert_eq!(served, printed_fingerprint);
    // The console's page too.
    let (status, page, _) = python_get(https, "/console", &cert).expect("the console");
    assert_eq!(status, 200);
    assert!(page.contains("<html"), "{page}");
    // console-token prints the same fingerprint beside the secret.
    let config = dir.join("nf3.toml");
    let out = common::pegboard_command()
        .args(["console-token", "--config"])
        .arg(&config)
        .output()
        .expect("console-token runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!(
            "certificate SHA-256 fingerprint: {printed_fingerprint}"
        )),
        "{text}"
    );
    // Plain HTTP only sends each request on, path and all.
    let plain_addr: SocketAddr = format!("127.0.0.1:{plain}").parse().expect("addr");
    for path in ["/", "/console", "/state?x=1", "/api/session"] {
        let (status, location) = plain_get(plain_addr, path);
        assert_eq!(status, 308, "{path}");
        assert_eq!(location, format!("https://127.0.0.1:{https}{path}"));
    }
}

#[test]
fn a_client_that_trusts_another_certificate_is_refused_the_handshake() {
    let dir = common::empty_dir("https-other");
    let (https, plain) = (free_port(), free_port());
    let (_play, _) = play(&dir, https, plain);
    // Another self-signed certificate, made by openssl.
    let other = dir.join("other.pem");
    let made = std::process::Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
        ])
        .args([
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
        ])
        .arg("-keyout")
        .arg(dir.join("other-key.pem"))
        .arg("-out")
        .arg(&other)
        .output()
        .expect("openssl runs");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let refused = python_get(https, "/state", &other).expect_err("trusted a stranger");
    assert!(refused.contains("CERTIFICATE_VERIFY_FAILED"), "{refused}");
}

#[test]
fn a_hub_follows_a_board_over_https_by_its_fingerprint_and_serves_its_view_over_https() {
    let dir = common::empty_dir("https-hall");
    let (https, plain) = (free_port(), free_port());
    let (_play, printed) = play(&dir, https, plain);
    let fingerprint = fingerprint_in(&printed);
    let hub = |fingerprint: &str, name: &str| {
        let hub_dir = dir.join(name);
        std::fs::create_dir_all(&hub_dir).expect("dir");
        let config = hub_dir.join("hall.toml");
        let hub_https = free_port();
        std::fs::write(
            &config,
            format!(
                "[hall]\nlisten = \"127.0.0.1:0\"\n[https]\nlisten = \"127.0.0.1:{hub_https}\"\n\
                 [journal]\ndir = \"{}\"\n\
                 [[hall.boards]]\nnumber = 1\naddress = \"https://127.0.0.1:{https}\"\n\
                 fingerprint = \"{fingerprint}\"\n",
                hub_dir.join("state").display()
            ),
        )
        .expect("config");
        let mut child = Reaped(
            common::pegboard_command()
                .args(["hall", "--config"])
                .arg(&config)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("hall starts"),
        );
        let mut err = BufReader::new(child.0.stderr.take().expect("stderr"));
        let mut seen = String::new();
        while !seen.contains("fingerprint is") {
            let mut line = String::new();
            assert!(err.read_line(&mut line).expect("a line") > 0, "{seen}");
            seen.push_str(&line);
        }
        std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        assert!(
            seen.contains(&format!(
                "the hall view is at https://127.0.0.1:{hub_https}/"
            )),
            "{seen}"
        );
        (
            child,
            hub_https,
            hub_dir.join("state").join("https-certificate.pem"),
        )
    };
    let (_hub, hub_https, hub_cert) = hub(&fingerprint, "right");
    let began = Instant::now();
    loop {
        let got = python_get(hub_https, "/state", &hub_cert);
        if let Ok((200, body, _)) = &got
            && body.contains("\"presence\":\"followed\"")
            && body.contains("\"san\":\"Nf3\"")
        {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(60), "{got:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    // A hub told another fingerprint never follows the board.
    let wrong = format!("00:{}", &fingerprint[3..]);
    let (_other, other_https, other_cert) = hub(&wrong, "wrong");
    std::thread::sleep(Duration::from_secs(3));
    let (_, body, _) = python_get(other_https, "/state", &other_cert).expect("the view");
    assert!(body.contains("\"presence\":\"awaited\""), "{body}");
    assert!(!body.contains("Nf3"), "{body}");
}
