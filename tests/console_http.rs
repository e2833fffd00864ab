//! The console over real sockets: who may change the game, and what a
//! request may hold (E2.9, E2.10).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use pegboard::announce::{Narrator, Phrasebook};
use pegboard::console::Door;
use pegboard::console::{Answer, Request};
use pegboard::core::{BLIND_BOARD, Controller, Settings, StartPosition};
use pegboard::mirror::Mirror;
use pegboard::net::auth::Strength;
use serde_json::Value;

#[path = "support/audio.rs"]
mod audio;
#[path = "support/hall.rs"]
mod hall;
#[path = "support/mirror.rs"]
mod mirror_view;

const SECRET: &str = "0123456789abcdef0123456789abcdef";

/// A mirror with its console, and a game behind its door: a thread that
/// plays the console's inputs on a controller, as the runtime does.
struct Console {
    mirror: Mirror,
    game: std::thread::JoinHandle<Controller>,
}

impl Console {
    fn start(secret: &str) -> Console {
        Console::start_living(secret, Default::default())
    }

    /// The same, its connections and streams living as `lives` says.
    fn start_living(secret: &str, lives: pegboard::net::limits::Lives) -> Console {
        let (tx, rx) = crossbeam_channel::bounded::<Request>(64);
        let game = std::thread::spawn(move || {
            let mut settings = Settings::default();
            settings.seats.black = pegboard::core::Seat::Relay;
            let mut narrator = Narrator::new(Phrasebook::default(), &settings.preferences.language);
            let mut c = Controller::new(&StartPosition::default(), settings, &[BLIND_BOARD])
                .expect("start");
            let mut t = 0;
            for request in rx {
                t += 1000;
                let answer = match c.refusal(t, &request.input) {
                    Some(mut refused) => {
                        narrator.tell(std::slice::from_mut(&mut refused));
                        Answer::Refused(Box::new(refused))
                    }
                    None => {
                        let mut out = Vec::new();
                        c.input(t, request.input, &mut out);
                        // In words, as the runtime hands them on.
                        narrator.tell(&mut out);
                        Answer::Done(out)
                    }
                };
                let _ = request.reply.send(answer);
            }
            c
        });
        // The generated secret is 32 hexadecimal digits; anything shorter
        // is a PIN.
        let strength = if secret.len() == 32 {
            Strength::Generated
        } else {
            Strength::Pin
        };
        let door = Door {
            requests: tx,
            secret: secret.as_bytes().to_vec(),
            strength,
        };
        let view = mirror_view::english();
        let mirror = Mirror::serve_living(
            "127.0.0.1:0",
            &[],
            view.clone(),
            pegboard::console::routes(door, view.console_page.clone(), view.written.clone()),
            lives,
        )
        .expect("starts");
        Console { mirror, game }
    }

    fn addr(&self) -> SocketAddr {
        self.mirror.addr()
    }

    /// The controller behind the door, once the server has stopped.
    fn stop(self) -> Controller {
        self.mirror.stop();
        self.game.join().expect("game thread")
    }
}

/// A response: status, headers (lowercased names), body.
struct Answered {
    code: u16,
    head: String,
    body: String,
}

impl Answered {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

fn send(addr: SocketAddr, raw: &[u8]) -> Answered {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    s.write_all(raw).expect("sent");
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Answered {
        code,
        head: head.to_string(),
        body: body.to_string(),
    }
}

/// A POST with `headers` (each "Name: value") and `body`.
fn post(addr: SocketAddr, path: &str, headers: &[&str], body: &str) -> Answered {
    let mut raw = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for h in headers {
        raw.push_str(h);
        raw.push_str("\r\n");
    }
    raw.push_str("\r\n");
    raw.push_str(body);
    send(addr, raw.as_bytes())
}

fn bearer(secret: &str) -> String {
    format!("Authorization: Bearer {secret}")
}

#[test]
fn every_state_changing_request_needs_the_secret_and_the_servers_own_origin() {
    let c = Console::start(SECRET);
    let a = c.addr();
    // A move the game would take from anyone allowed (the next test
    // relays it): every refused request below must leave it unmade.
    let e4 = r#"{"input":"move","san":"e4"}"#;
    // No credential, a wrong one, a session that does not exist (or has
    // ended): 401.
    assert_eq!(post(a, "/api/input", &[], e4).code, 401);
    assert_eq!(post(a, "/api/input", &[&bearer("0123")], e4).code, 401);
    let own = format!("Origin: http://{a}");
    let stale = post(
        a,
        "/api/input",
        &["Cookie: pegboard-session=feedbeef", &own],
        e4,
    );
    assert_eq!(stale.code, 401);
    assert!(stale.body.contains("session has ended"), "{}", stale.body);
    assert_eq!(post(a, "/api/login", &[&bearer("0123")], "").code, 401);
    // Another site's page: 403, even with the right secret.
    let foreign = "Origin: http://evil.example";
    assert_eq!(
        post(a, "/api/input", &[&bearer(SECRET), foreign], e4).code,
        403
    );
    assert_eq!(
        post(a, "/api/login", &[&bearer(SECRET), foreign], "").code,
        403
    );
    let cross = post(
        a,
        "/api/input",
        &[&bearer(SECRET), "Sec-Fetch-Site: cross-site"],
        e4,
    );
    assert_eq!(cross.code, 403);
    // A page logged in: its cookie alone, without its page's Origin, or
    // with two of them, is refused (403).
    let login = post(a, "/api/login", &[&bearer(SECRET), &own], "");
    let cookie = login.header("set-cookie").expect("a session cookie");
    let session = format!("Cookie: {}", cookie.split(';').next().expect("name=value"));
    assert_eq!(post(a, "/api/input", &[&session], e4).code, 403);
    let two = post(a, "/api/input", &[&session, &own, foreign], e4);
    assert_eq!(two.code, 403, "{}", two.body);
    let two = post(a, "/api/input", &[&session, foreign, &own], e4);
    assert_eq!(two.code, 403, "{}", two.body);
    // A body not declared JSON (what a form of another site can send
    // without asking): 415, even with the secret.
    for (kind, body) in [
        ("text/plain", e4),
        ("application/x-www-form-urlencoded", "a=b"),
    ] {
        let raw = format!(
            "POST /api/input HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\
             Authorization: Bearer {SECRET}\r\nContent-Type: {kind}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        assert_eq!(send(a, raw.as_bytes()).code, 415, "{kind}");
    }
    // A Host that only begins like this server's (DNS rebinding): refused.
    for host in ["[::1]evil.example", "127.0.0.1:80@evil.example"] {
        let raw = format!(
            "POST /api/input HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
             Authorization: Bearer {SECRET}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{e4}",
            e4.len()
        );
        let r = send(a, raw.as_bytes());
        assert!(
            r.code == 403 || r.code == 421 || r.code == 400,
            "{host}: {}",
            r.code
        );
    }
    // Read-only routes need nothing.
    for path in ["/", "/state", "/pgn", "/console"] {
        let r = send(
            a,
            format!("GET {path} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        assert_eq!(r.code, 200, "{path}");
    }
    // Only POST changes anything.
    let r = send(
        a,
        format!("GET /api/input HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    assert_eq!(r.code, 405);
    // Nothing got through: e4 was never made.
    let game = c.stop();
    assert_eq!(game.game().ply(), 0);
}

#[test]
fn the_secret_or_a_session_opened_with_it_relays_a_move() {
    let c = Console::start(SECRET);
    let a = c.addr();
    let own = format!("Origin: http://{a}");
    let r = post(
        a,
        "/api/input",
        &[&bearer(SECRET), &own],
        r#"{"input":"move","san":"e4"}"#,
    );
    assert_eq!(r.code, 200, "{}", r.body);
    let events = r.json()["events"].clone();
    assert_eq!(events[0]["event"], "move");
    assert_eq!(events[0]["san"], "e4");
    // Log in once: an HttpOnly, SameSite=Strict cookie.
    let login = post(a, "/api/login", &[&bearer(SECRET), &own], "");
    assert_eq!(login.code, 200);
    let cookie = login.header("set-cookie").expect("a session cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let session = cookie.split(';').next().expect("name=value").to_string();
    let r = post(
        a,
        "/api/input",
        &[&format!("Cookie: {session}"), &own],
        r#"{"input":"move","uci":"e7e5"}"#,
    );
    assert_eq!(r.code, 200, "{}", r.body);
    // A refused move answers why, and changes nothing.
    let r = post(
        a,
        "/api/input",
        &[&format!("Cookie: {session}"), &own],
        r#"{"input":"move","san":"Ke3"}"#,
    );
    assert_eq!(r.code, 422);
    assert_eq!(r.json()["refused"]["reason"], "moves_otherwise");
    // The king's move to an adjoining square: 3.8.1 in today's Laws.
    assert_eq!(r.json()["refused"]["article"], "3.8.1");
    let game = c.stop();
    assert_eq!(game.game().ply(), 2);
}

#[test]
fn malformed_oversized_and_wrongly_typed_requests_get_a_4xx_and_change_nothing() {
    let c = Console::start(SECRET);
    let a = c.addr();
    let key = bearer(SECRET);
    for body in [
        "",
        "not json",
        "[1,2,3]",
        r#"{"input":"clock"}"#,
        r#"{"input":"clock","color":7}"#,
        r#"{"input":"clock","colour":"white"}"#,
        r#"{"input":"teleport"}"#,
        r#"{"input":"announced","ply":1}"#,
        r#"{"input":"move","uci":"e2e4","san":"e4"}"#,
        "{\"input\":\"move\",\"san\":\"\u{0}\"}",
    ] {
        let r = post(a, "/api/input", &[&key], body);
        assert_eq!(r.code, 400, "{body}: {}", r.body);
        assert!(r.json()["error"].is_string(), "{body}: {}", r.body);
    }
    let big = format!(r#"{{"input":"move","san":"{}"}}"#, "N".repeat(8000));
    assert_eq!(post(a, "/api/input", &[&key], &big).code, 413);
    let game = c.stop();
    assert_eq!(game.game().ply(), 0);
}

#[test]
fn ten_wrong_secrets_lock_the_address_out_even_for_the_right_one() {
    let c = Console::start("4711");
    let a = c.addr();
    let clock = r#"{"input":"clock","color":"white"}"#;
    let began = Instant::now();
    let mut codes = Vec::new();
    for guess in 0..10_000 {
        let r = post(a, "/api/input", &[&bearer(&format!("{guess:04}"))], clock);
        codes.push(r.code);
        if guess == 4711 {
            assert_eq!(r.code, 429, "the right PIN is not even checked now");
        }
    }
    let took = began.elapsed();
    assert_eq!(codes.iter().filter(|&&c| c == 401).count(), 10);
    assert_eq!(codes.iter().filter(|&&c| c == 429).count(), 9_990);
    // The ten answers were held back: 50 + 100 + 200 + 400 + 6 × 800 ms.
    assert!(took >= Duration::from_millis(5_550), "{took:?}");
    let locked = post(a, "/api/input", &[&bearer("4711")], clock);
    assert_eq!(locked.code, 429);
    let retry: u64 = locked
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!(
        (500..=600).contains(&retry),
        "locked for the rest of ten minutes: {retry} s"
    );
    let game = c.stop();
    assert_eq!(game.game().ply(), 0);
}

#[test]
fn play_journals_a_relayed_move_not_a_refused_one_and_never_its_secret() {
    let dir = std::env::temp_dir().join(format!("pegboard-console-play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let pin = "73915";
    let journal = dir.join("games");
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[game]\nblack_moves_on = \"relay\"\n[mirror]\nlisten = \"127.0.0.1:0\"\n\
             [console]\npin = \"{pin}\"\n[journal]\ndir = \"{}\"\n",
            journal.display()
        ),
    );
    let child = common::pegboard_command()
        .args([
            "play",
            "--silent",
            "--events",
            "--seconds",
            "5",
            "--config",
            &config,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("play starts");
    let mut child = common::Reaped(child);
    let mut out = std::io::BufReader::new(child.0.stdout.take().expect("stdout"));
    let mut seen = String::new();
    let addr = common::mirror_of(&mut out, &mut seen);
    // 1. Nf3 is made on the pegged board at 0.7 s; then Black's replies.
    std::thread::sleep(Duration::from_millis(1500));
    let key = bearer(pin);
    let refused = post(
        addr,
        "/api/input",
        &[&key],
        r#"{"input":"move","san":"Ke2"}"#,
    );
    assert_eq!(refused.code, 422, "{}", refused.body);
    let played = post(
        addr,
        "/api/input",
        &[&key],
        r#"{"input":"move","san":"Nf6"}"#,
    );
    assert_eq!(played.code, 200, "{}", played.body);
    assert_eq!(played.json()["events"][0]["san"], "Nf6");
    let mut rest = String::new();
    let _ = out.read_to_string(&mut rest);
    seen.push_str(&rest);
    let mut err = String::new();
    let _ = child
        .0
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err);
    assert!(child.0.wait().expect("ends").success(), "{err}");
    let journal_text: String = std::fs::read_dir(&journal)
        .expect("journal dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "journal"))
        .map(|e| std::fs::read_to_string(e.path()).expect("journal"))
        .collect();
    assert!(
        journal_text.contains(r#""input":"move","san":"Nf6""#),
        "{journal_text}"
    );
    assert!(
        !journal_text.contains("Ke2"),
        "a refused input leaves no record"
    );
    for (what, text) in [("output", &seen), ("log", &err), ("journal", &journal_text)] {
        assert!(!text.contains(pin), "the PIN is in the {what}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn console_token_makes_a_secret_once_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("pegboard-console-token-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!("[journal]\ndir = \"{}\"\n", dir.join("state").display()),
    )
    .expect("config");
    let run = || {
        let out = common::pegboard_command()
            .args(["console-token", "--config"])
            .arg(&config)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        (String::from_utf8_lossy(&out.stdout).trim().to_string(), err)
    };
    let token = || run().0;
    let first = token();
    assert_eq!(first.len(), 32, "128 bits as hexadecimal: {first}");
    assert!(first.chars().all(|c| c.is_ascii_hexdigit()));
    let (again, quiet) = run();
    assert_eq!(again, first, "made once, then kept");
    assert!(!quiet.contains("warning"), "{quiet}");
    let file = dir.join("state").join("console-secret");
    let mode = std::fs::metadata(&file).expect("kept").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // Made readable by others (a copy, a restored backup): said, with
    // what to do, and without the secret.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let (_, warned) = run();
    assert!(
        warned.contains("can be read by others (mode 644)"),
        "{warned}"
    );
    assert!(warned.contains("chmod 600"), "{warned}");
    assert!(!warned.contains(&first), "{warned}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_state_directory_is_its_owners_alone_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::empty_dir("console-state-umask");
    let state = dir.join("state");
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!("[journal]\ndir = \"{}\"\n", state.display()),
    )
    .expect("config");
    // console-token under umask 000, through the shell that sets it.
    let token = || {
        let plain = common::pegboard_command();
        let mut run = std::process::Command::new("sh");
        run.arg("-c")
            .arg("umask 000; exec \"$0\" \"$@\"")
            .arg(plain.get_program())
            .args(plain.get_args())
            .args(["console-token", "--config"])
            .arg(&config);
        for (k, v) in plain.get_envs() {
            match v {
                Some(v) => run.env(k, v),
                None => run.env_remove(k),
            };
        }
        run.output().expect("runs")
    };
    let made = token();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let mode =
        |p: &std::path::Path| std::fs::metadata(p).expect("there").permissions().mode() & 0o777;
    assert_eq!(mode(&state), 0o700);
    assert_eq!(mode(&state.join("console-secret")), 0o600);
    // Opened up to everyone, it is refused: anyone could put a secret of
    // their own in it. Nothing is printed but why.
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let refused = token();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(err.contains("can be written by others (mode 777)"), "{err}");
    assert!(err.contains("chmod 700"), "{err}");
    assert!(refused.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pegboard play` with both players' moves relayed from the console
/// (`[console] pin`), the pegged board standing at the start, and the
/// mirror on a free port; it runs `seconds`, writing its events.
struct Played {
    child: common::Reaped,
    out: std::io::BufReader<std::process::ChildStdout>,
    addr: SocketAddr,
    seen: String,
    dir: std::path::PathBuf,
}

const PIN: &str = "52817";

impl Played {
    fn start(name: &str, before: &str, seconds: u32) -> Played {
        Played::start_with(name, before, seconds, None)
    }

    /// The same, allowed at most `open_files` open files (as a service
    /// often is: 1,024), when given.
    fn start_with(name: &str, before: &str, seconds: u32, open_files: Option<u32>) -> Played {
        let dir = common::empty_dir(name);
        let trace = dir.join("still.jsonl");
        std::fs::write(&trace, "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n").expect("trace");
        let config = dir.join("play.toml");
        std::fs::write(
            &config,
            format!(
                "{before}[game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"relay\"\n\
                 [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{PIN}\"\n\
                 [journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\n\
                 [sensors.trace]\nfile = \"{}\"\n",
                dir.join("games").display(),
                trace.display()
            ),
        )
        .expect("config");
        let mut command = common::pegboard_command();
        command
            .args(["play", "--silent", "--events", "--seconds"])
            .arg(seconds.to_string())
            .arg("--config")
            .arg(&config);
        if let Some(n) = open_files {
            // util-linux's prlimit runs the command under the limit.
            let mut limited = std::process::Command::new("prlimit");
            limited
                .arg(format!("--nofile={n}:{n}"))
                .arg(command.get_program())
                .args(command.get_args());
            for (k, v) in command.get_envs() {
                match v {
                    Some(v) => limited.env(k, v),
                    None => limited.env_remove(k),
                };
            }
            command = limited;
        }
        let child = command
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("play starts");
        let mut child = common::Reaped(child);
        let mut out = std::io::BufReader::new(child.0.stdout.take().expect("stdout"));
        let mut seen = String::new();
        let addr = common::mirror_of(&mut out, &mut seen);
        Played {
            child,
            out,
            addr,
            seen,
            dir,
        }
    }

    /// An input sent to `POST /api/input` with the PIN.
    fn send(&self, input: &str) -> Answered {
        post(self.addr, "/api/input", &[&bearer(PIN)], input)
    }

    /// The events of a request that was done (200).
    fn done(&self, input: &str) -> Vec<Value> {
        let r = self.send(input);
        assert_eq!(r.code, 200, "{input}: {}", r.body);
        r.json()["events"].as_array().cloned().unwrap_or_default()
    }

    /// The reason a request was refused (422).
    fn refused(&self, input: &str) -> String {
        let r = self.send(input);
        assert_eq!(r.code, 422, "{input}: {}", r.body);
        r.json()["refused"]["reason"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Every event `play` wrote, once it has ended.
    fn events(self) -> Vec<Value> {
        self.output()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .collect()
    }

    /// Every event `play` wrote, and its journals' text, once it has
    /// ended.
    fn events_and_journal(self) -> (Vec<Value>, String) {
        let games = self.dir.join("games");
        let dir = self.dir.clone();
        let copy = std::env::temp_dir().join(format!(
            "{}-journal",
            dir.file_name().and_then(|n| n.to_str()).unwrap_or("played")
        ));
        let events = {
            let mut this = self;
            let mut rest = String::new();
            let _ = this.out.read_to_string(&mut rest);
            this.seen.push_str(&rest);
            assert!(this.child.0.wait().expect("ends").success());
            this.seen
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .collect()
        };
        let mut journal = String::new();
        for entry in std::fs::read_dir(&games).expect("journal dir").flatten() {
            if entry.path().extension().is_some_and(|x| x == "journal") {
                let text = std::fs::read_to_string(entry.path()).expect("journal");
                std::fs::write(&copy, &text).expect("copy");
                journal.push_str(&text);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        (events, journal)
    }

    /// Ends `play` as `systemctl stop` does (SIGTERM), for a test that
    /// keeps it alive for as long as it needs.
    fn terminate(&self) {
        let pid = i32::try_from(self.child.0.id()).expect("a pid");
        // SAFETY: kill only sends a signal, to the child this test started
        // and has not yet reaped (so the pid is still its).
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }

    /// Everything `play` wrote, once it has ended.
    fn output(mut self) -> String {
        let mut rest = String::new();
        let _ = self.out.read_to_string(&mut rest);
        self.seen.push_str(&rest);
        assert!(self.child.0.wait().expect("ends").success());
        let _ = std::fs::remove_dir_all(&self.dir);
        self.seen
    }
}

/// The text of the `say` event among a request's events.
fn said(events: &[Value]) -> String {
    events
        .iter()
        .filter(|e| e["event"] == "say")
        .filter_map(|e| e["text"].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_arbiter_sets_up_a_position_or_a_chess960_start_and_the_next_game_begins_there() {
    let p = Played::start("console-setup", "", 10);
    assert_eq!(
        common::sans(&p.done(r#"{"input":"move","san":"e4"}"#)),
        ["e4"]
    );
    // A game under way ends only when the set-up is asked for twice.
    let asked = p.done(r#"{"input":"setup","chess960":0}"#);
    assert!(common::of(&asked, "new_game").is_empty(), "{asked:?}");
    assert!(said(&asked).contains("noch einmal"), "{asked:?}");
    let begun = p.done(r#"{"input":"setup","chess960":0}"#);
    assert_eq!(common::of(&begun, "new_game").len(), 1, "{begun:?}");
    // In Chess960 position 0 the e-pawn still stands on e2.
    assert_eq!(
        common::sans(&p.done(r#"{"input":"move","san":"e4"}"#)),
        ["e4"]
    );
    p.done(r#"{"input":"setup","fen":"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}"#);
    p.done(r#"{"input":"setup","fen":"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}"#);
    assert_eq!(
        common::sans(&p.done(r#"{"input":"move","san":"e4"}"#)),
        ["e4"]
    );
    // A position that is none is refused as the request is read: 400.
    for bad in [
        r#"{"input":"setup","fen":"8/8/8/8/8/8/8/8 w - - 0 1"}"#,
        r#"{"input":"setup","chess960":960}"#,
        r#"{"input":"setup"}"#,
    ] {
        assert_eq!(p.send(bad).code, 400, "{bad}");
    }
    let events = p.events();
    let ready: Vec<(&str, &str)> = common::of(&events, "ready")
        .iter()
        .map(|r| {
            (
                r["fen"].as_str().unwrap_or(""),
                r["variant"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        ready,
        [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "standard"
            ),
            // X-FEN: the rooks are the outermost, so KQkq names them.
            (
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
                "chess960"
            ),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "standard"),
        ]
    );
    assert_eq!(common::of(&events, "new_game").len(), 2);
    assert_eq!(common::sans(&events), ["e4", "e4", "e4"]);
}

#[test]
fn the_opening_is_named_from_pgn_extracts_classification_journaled_and_replayed() {
    let p = Played::start("console-opening", "", 10);
    // 1. e4 c5 2. Nf3 d6: the Sicilian, B50 in pgn-extract's data.
    for san in ["e4", "c5", "Nf3", "d6"] {
        assert_eq!(
            common::sans(&p.done(&format!(r#"{{"input":"move","san":"{san}"}}"#))),
            [san]
        );
    }
    p.done(r#"{"input":"opening"}"#);
    // What a console may not send: the classification's answer.
    assert_eq!(
        p.send(r#"{"input":"opening_classified","ply":4,"eco":"A00"}"#)
            .code,
        400
    );
    let (events, journal) = p.events_and_journal();
    let named = common::of(&events, "opening");
    assert_eq!(named.len(), 1, "{events:?}");
    assert_eq!(named[0]["eco"], "B50");
    assert_eq!(named[0]["ply"], 4);
    assert_eq!(named[0]["family"], "sicilian");
    assert_eq!(named[0]["say"], "Sizilianische Verteidigung, B50.");
    assert!(
        journal.contains(r#""input":"opening_classified","ply":4,"eco":"B50","family":"sicilian""#),
        "{journal}"
    );
    // Replayed from the journal alone, the same answer.
    let copy = std::env::temp_dir().join(format!(
        "pegboard-console-opening-{}-journal",
        std::process::id()
    ));
    let out = common::pegboard_command()
        .arg("replay")
        .arg(&copy)
        .output()
        .expect("replay runs");
    let _ = std::fs::remove_file(&copy);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let again = common::of(&replayed, "opening");
    assert_eq!(again.len(), 1, "{replayed:?}");
    assert_eq!(again[0]["say"], "Sizilianische Verteidigung, B50.");
}

#[test]
fn the_blind_players_questions_and_their_answers_are_for_his_voices_alone() {
    let p = Played::start("console-private", "[clock]\npgn_control = \"300\"\n", 10);
    p.done(r#"{"input":"move","san":"e4"}"#);
    // A viewer of the mirror follows the game as it is played.
    let mut viewer = TcpStream::connect(p.addr).expect("connects");
    viewer
        .write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("sent");
    viewer
        .set_read_timeout(Some(Duration::from_millis(300)))
        .expect("timeout");
    // The opening asked first: its name comes from the runtime's lookup,
    // done well before the questions below are.
    assert!(p.done(r#"{"input":"opening"}"#).is_empty());
    let questions = [
        r#"{"input":"to_replicate"}"#,
        r#"{"input":"differences"}"#,
        r#"{"input":"position"}"#,
        r#"{"input":"square","square":"e4"}"#,
        r#"{"input":"rank","rank":2}"#,
        r#"{"input":"file","file":"e"}"#,
        r#"{"input":"times"}"#,
        r#"{"input":"material"}"#,
        r#"{"input":"repeat"}"#,
        r#"{"input":"move_number"}"#,
    ];
    for q in questions {
        let answered = p.done(q);
        assert!(
            answered.is_empty(),
            "{q}: the console is told nothing: {answered:?}"
        );
    }
    p.done(r#"{"input":"move","san":"e5"}"#);
    let state = get_state(p.addr);
    let mut streamed = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = viewer.read(&mut buffer) {
        if n == 0 {
            break;
        }
        streamed.extend_from_slice(&buffer[..n]);
        if String::from_utf8_lossy(&streamed).contains("e7e5") {
            break;
        }
    }
    let streamed = String::from_utf8_lossy(&streamed).into_owned();
    assert!(streamed.contains("e7e5"), "the viewer follows: {streamed}");
    // The voices had every answer (the printed stream holds them)…
    let events = p.events();
    let answers: Vec<String> = common::of(&events, "answer")
        .iter()
        .filter_map(|e| e["text"].as_str().map(str::to_string))
        .collect();
    assert_eq!(answers.len(), questions.len(), "{answers:?}");
    let opening = common::of(&events, "opening");
    assert_eq!(opening.len(), 1, "the opening named");
    let named = opening[0]["say"].as_str().expect("its name").to_string();
    // …and neither the mirror's state nor its stream shows any: no
    // answer is streamed, and no words of one are shown (but the move to
    // make and the board's match, which the game itself shows).
    for private in ["\"event\":\"answer\"", "\"event\":\"opening\""] {
        assert!(!streamed.contains(private), "the stream shows {private}");
    }
    for a in answers[2..].iter().chain([&named]) {
        assert!(
            !state.contains(a.as_str()),
            "the state shows {a:?}: {state}"
        );
        assert!(!streamed.contains(a.as_str()), "the stream shows {a:?}");
    }
}

/// The mirror's `/state`, as text.
fn get_state(addr: SocketAddr) -> String {
    send(
        addr,
        format!("GET /state HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .body
}

#[test]
fn e2_9_f_an_adjourned_game_keeps_its_sealed_move_secret_until_it_resumes() {
    let p = Played::start("console-adjourn", "[clock]\npgn_control = \"300\"\n", 12);
    p.done(r#"{"input":"move","san":"e4"}"#);
    // Black seals a legal move.
    let sealed = p.done(r#"{"input":"adjourn","san":"Nf6"}"#);
    assert_eq!(common::of(&sealed, "adjourned")[0]["color"], "black");
    // The clocks stand: the same times two seconds apart (under ten
    // minutes they are said to the second). The times are said to the
    // blind player alone: the console's answer does not carry them (the
    // voices', the printed stream, do: read at the end).
    let asked = p.done(r#"{"input":"times"}"#);
    assert!(common::of(&asked, "answer").is_empty(), "{asked:?}");
    assert_eq!(said(&asked), "");
    std::thread::sleep(Duration::from_millis(2200));
    p.done(r#"{"input":"times"}"#);
    // A move given meanwhile, a second sealing (of a legal move): refused.
    assert_eq!(p.refused(r#"{"input":"move","san":"e5"}"#), "adjourned");
    assert_eq!(p.refused(r#"{"input":"adjourn","san":"e5"}"#), "adjourned");
    // Unsealed, the sealed move is made, and the clocks run again.
    // One tap on a set-up, a new game or resigning does not end the
    // adjourned game: each asks again first.
    for once in [
        r#"{"input":"setup","chess960":0}"#,
        r#"{"input":"new_game"}"#,
        r#"{"input":"resign","color":"white"}"#,
    ] {
        let asked = p.done(once);
        assert!(
            common::of(&asked, "new_game").is_empty() && common::of(&asked, "game_over").is_empty(),
            "{once}: {asked:?}"
        );
        assert!(said(&asked).contains("noch einmal"), "{once}: {asked:?}");
    }
    let resumed = p.done(r#"{"input":"unseal"}"#);
    assert_eq!(common::sans(&resumed), ["Nf6"]);
    p.done(r#"{"input":"times"}"#);
    std::thread::sleep(Duration::from_millis(2200));
    p.done(r#"{"input":"times"}"#);
    assert_eq!(p.refused(r#"{"input":"unseal"}"#), "not_adjourned");
    let events = p.events();
    let times: Vec<&str> = common::of(&events, "answer")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(times.len(), 4, "{times:?}");
    assert_eq!(times[0], times[1], "standing while adjourned");
    assert!(times[0].contains("Sekunden"), "{}", times[0]);
    assert_ne!(times[2], times[3], "running again");
    // Nothing before the resumption names the sealed move.
    let unsealed_at = events
        .iter()
        .position(|e| e["event"] == "move" && e["san"] == "Nf6")
        .expect("Nf6 is made");
    for e in &events[..unsealed_at] {
        let text = e.to_string();
        assert!(
            !text.contains("Nf6") && !text.contains("g8f6") && !text.contains("Felix sechs"),
            "{text}"
        );
    }
    assert_eq!(common::sans(&events), ["e4", "Nf6"]);
}

#[test]
fn the_console_resigns_only_when_asked_twice_and_never_drives_the_spoken_menu() {
    let p = Played::start("console-resign", "", 10);
    p.done(r#"{"input":"move","san":"e4"}"#);
    // The blind player's spoken menu is his alone: refused as read.
    for menu in [
        r#"{"input":"menu"}"#,
        r#"{"input":"menu_next"}"#,
        r#"{"input":"menu_select"}"#,
        r#"{"input":"menu_back"}"#,
        r#"{"input":"times","menu":"next"}"#,
    ] {
        let r = p.send(menu);
        assert_eq!(r.code, 400, "{menu}: {}", r.body);
        assert!(r.body.contains("menu"), "{menu}: {}", r.body);
    }
    // So are the server's own inputs.
    let r = p.send(r#"{"input":"online_lost"}"#);
    assert_eq!(r.code, 400, "{}", r.body);
    // One resign asks; the second, within its time, resigns.
    let asked = p.done(r#"{"input":"resign","color":"black"}"#);
    assert!(common::of(&asked, "game_over").is_empty(), "{asked:?}");
    let resigned = p.done(r#"{"input":"resign","color":"black"}"#);
    let over = common::of(&resigned, "game_over");
    assert_eq!(over.len(), 1, "{resigned:?}");
    assert_eq!(over[0]["result"], "1-0");
    // No choices were saved for later games.
    assert!(!p.dir.join("games").join("choices.toml").exists());
}

/// `play` (its files named `name`, which must not hold the PIN) on a
/// trace whose fourth key asks for the console's `pin`, with
/// `voices` (in a sound system of the test's own): what it printed, what
/// the file voice said, and the journal.
fn pin_asked(name: &str, pin: &str, voices: &str) -> (String, String, String) {
    let dir = common::empty_dir(name);
    // The fourth key (bit 3) held for 120 ms: a short press.
    let trace = dir.join("key.jsonl");
    std::fs::write(
        &trace,
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n\
         {\"t\":0,\"keys\":0}\n{\"t\":800,\"keys\":8}\n{\"t\":920,\"keys\":0}\n",
    )
    .expect("trace");
    let voice = dir.join("voice");
    let sound = audio::AudioEnv::start(name, false);
    let config = dir.join("pin.toml");
    std::fs::write(
        &config,
        format!(
            "[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n\
             [[buttons.key]]\nbit = 3\npress = \"console_token\"\n\
             [console]\npin = \"{pin}\"\n[mirror]\nlisten = \"127.0.0.1:0\"\n\
             [speech]\nvoices = {voices}\n[speech.file]\ndirectory = \"{}\"\n\
             [journal]\ndir = \"{}\"\n",
            trace.display(),
            voice.display(),
            dir.join("games").display()
        ),
    )
    .expect("config");
    let out = common::pegboard_command()
        .args(["play", "--events", "--seconds", "4", "--config"])
        .arg(&config)
        .envs(sound.vars())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("pegboard play runs");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{printed}");
    let said = std::fs::read_to_string(voice.join("utterances.tsv")).unwrap_or_default();
    let journal: String = std::fs::read_dir(dir.join("games"))
        .expect("journal dir")
        .filter_map(|e| e.ok())
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (printed, said, journal)
}

#[test]
fn a_key_says_the_console_pin_to_the_voices_and_nowhere_else() {
    let (printed, said, journal) = pin_asked("console-pin", "8642", "[\"file\"]");
    assert!(
        said.contains("8 6 4 2"),
        "the PIN is spoken, one digit a word: {said}"
    );
    for (what, text) in [("output or log", &printed), ("journal", &journal)] {
        assert!(
            !text.contains("8642") && !text.contains("8 6 4 2"),
            "the PIN is in the {what}"
        );
    }
}

#[test]
fn a_voice_that_cannot_say_the_pin_says_so_without_it() {
    // No clip says Q: the clip voice fails for these words, and tells it.
    let (printed, _, journal) = pin_asked("console-pin-letter", "86Q2", "[\"clips\", \"file\"]");
    assert!(
        printed.contains("voice clips: cannot say this"),
        "the failure is told: {printed}"
    );
    for (what, text) in [("output or log", &printed), ("journal", &journal)] {
        assert!(
            !text.contains("86Q2")
                && !text.contains("8 6 Q 2")
                && !text.to_lowercase().contains("\"q\""),
            "the PIN is in the {what}: {text}"
        );
    }
}

/// A connection from `from` that sends a POST's head and never its body.
fn stalled_post(from: [u8; 3], to: SocketAddr) -> Option<TcpStream> {
    let mut s = hall::try_connect_from(from, to).ok()?;
    let head = format!(
        "POST /api/input HTTP/1.1\r\nHost: {to}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n"
    );
    s.write_all(head.as_bytes()).ok()?;
    Some(s)
}

/// A GET from `from`, answered whole; its status.
fn get_from(from: [u8; 3], to: SocketAddr, path: &str) -> u16 {
    let mut s = hall::connect_from(from, to);
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let head = format!("GET {path} HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n\r\n");
    s.write_all(head.as_bytes()).expect("sent");
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    String::from_utf8_lossy(&text)
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// The test's own limit on open files raised to its hard limit (it holds
/// hundreds of sockets, and the server in it as many).
fn many_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write one rlimit struct
    // that lives for the call.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
    assert!(limit.rlim_cur >= 3000, "the test needs 3,000 open files");
}

/// A kept-alive connection from `from` that has asked for `/state` once:
/// the status it was answered with (0: closed unanswered), and the
/// connection when it stays open.
fn held_from(from: [u8; 3], to: SocketAddr) -> (u16, Option<TcpStream>) {
    let Ok(mut s) = hall::try_connect_from(from, to) else {
        return (0, None);
    };
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    if s.write_all(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .is_err()
    {
        return (0, None);
    }
    let mut r = BufReader::new(s);
    let mut head = String::new();
    let _ = r.read_line(&mut head);
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    // The rest of the answer read, so that the connection waits idle.
    let mut length = 0;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return (code, None);
        }
        if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = n.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    let _ = r.read_exact(&mut body);
    (code, Some(r.into_inner()))
}

/// Whether the connection `s`, idle, is closed by the server within
/// `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).expect("timeout");
    let mut byte = [0u8; 1];
    match s.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

#[test]
fn one_laptop_with_many_addresses_and_a_full_hall_shut_out_neither_viewers_nor_the_console() {
    use pegboard::net::limits::{CONNECTIONS_PER_DEVICE, MAX_CONNECTIONS};
    many_files();
    // The idle connections wait as long as the test takes (a busy machine
    // takes long to open them all): only a newcomer closes one.
    let c = Console::start_living(
        SECRET,
        pegboard::net::limits::Lives {
            head: Duration::from_secs(600),
            ..Default::default()
        },
    );
    let a = c.addr();
    // One laptop with 8 addresses on the hall's network keeps 33
    // connections alive from each: each address's share is served, the
    // rest closed, and together they hold every place.
    let mut laptop = Vec::new();
    let mut served = 0;
    for host in 0..8u8 {
        for _ in 0..=CONNECTIONS_PER_DEVICE {
            let (code, open) = held_from(hall::in_network(66, 10 + host), a);
            served += usize::from(code == 200);
            laptop.extend(open);
        }
    }
    assert_eq!(served, 8 * CONNECTIONS_PER_DEVICE, "each address's share");
    assert_eq!(served, MAX_CONNECTIONS, "every place taken");
    // A viewer is served at once, in a place the laptop gives up…
    assert_eq!(get_from(hall::address(1), a, "/state"), 200);
    // …and so is the console, with its secret and with its session, and
    // the page it logs in from.
    assert_eq!(get_from(hall::address(2), a, "/console"), 200);
    let own = format!("Origin: http://{a}");
    let login = post(a, "/api/login", &[&bearer(SECRET), &own], "");
    assert_eq!(login.code, 200, "{}", login.body);
    let cookie = login.header("set-cookie").expect("a session cookie");
    let session = format!("Cookie: {}", cookie.split(';').next().expect("name=value"));
    let moved = post(
        a,
        "/api/input",
        &[&session, &own],
        r#"{"input":"move","san":"e4"}"#,
    );
    assert_eq!(moved.code, 200, "{}", moved.body);
    let moved = post(
        a,
        "/api/input",
        &[&bearer(SECRET)],
        r#"{"input":"move","san":"e5"}"#,
    );
    assert_eq!(moved.code, 200, "{}", moved.body);
    // 40 more viewers, each holding his connection: all served.
    let mut viewers = Vec::new();
    for i in 0..40 {
        let (code, open) = held_from(hall::address(10 + i), a);
        assert_eq!(code, 200, "viewer {i}");
        viewers.extend(open);
    }
    // The laptop gave up a connection for each newcomer that stayed (the
    // console's requests closed theirs, freeing places); no viewer did.
    let closed = laptop
        .iter_mut()
        .map(|s| closed_within(s, Duration::from_millis(50)))
        .filter(|&closed| closed)
        .count();
    assert!((40..=46).contains(&closed), "the laptop gave up {closed}");
    assert!(
        viewers
            .iter_mut()
            .all(|s| !closed_within(s, Duration::from_millis(50))),
        "a viewer's one connection is never taken"
    );
    drop((laptop, viewers));
    let game = c.stop();
    assert_eq!(game.game().ply(), 2);
}

#[test]
fn the_event_streams_of_the_console_and_the_hub_are_never_taken() {
    use pegboard::net::limits::{MAX_STREAMS, STREAMS_PER_DEVICE};
    let c = Console::start(SECRET);
    let a = c.addr();
    let stream = |from: [u8; 3], extra: &str| -> (u16, TcpStream) {
        let mut s = hall::connect_from(from, a);
        s.set_read_timeout(Some(Duration::from_secs(5)))
            .expect("timeout");
        s.write_all(format!("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n").as_bytes())
            .expect("sent");
        let mut r = BufReader::new(s);
        let mut head = String::new();
        let _ = r.read_line(&mut head);
        let code = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        (code, r.into_inner())
    };
    // Strangers, one stream each, fill every place…
    let mut strangers = Vec::new();
    for i in 0..MAX_STREAMS {
        let (code, s) = stream(hall::address(i), "");
        assert_eq!(code, 200, "stream {i}");
        strangers.push(s);
    }
    assert_eq!(stream(hall::address(99), "").0, 503, "a stranger more");
    // …and the console's secret (the hall hub's) still gets its streams,
    // past any one device's share, each in a stranger's place.
    let key = format!("{}\r\n", bearer(SECRET));
    let mut hub = Vec::new();
    for _ in 0..=STREAMS_PER_DEVICE {
        let (code, s) = stream(hall::address(999), &key);
        assert_eq!(code, 200);
        hub.push(s);
    }
    // No stranger takes one of them back: the hub holds the most, but
    // with its credential.
    assert_eq!(stream(hall::address(998), "").0, 503);
    assert!(
        hub.iter_mut()
            .all(|s| !closed_within(s, Duration::from_millis(50))),
        "the hub's streams stay"
    );
    drop((strangers, hub));
    c.stop();
}

#[test]
fn a_flood_from_one_address_takes_neither_the_server_nor_the_game_down() {
    // The test holds thousands of sockets: its own limit up to the hard one.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write one rlimit struct
    // that lives for the call.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
    assert!(limit.rlim_cur >= 3000, "the test needs 3,000 open files");
    // play as a service often runs: at most 1,024 open files. It lives
    // until the test ends it, however long the flood takes to make.
    let played = Played::start_with("flood", "", 3600, Some(1024));
    let attacker = [0, 66, 66];
    let flood: Vec<TcpStream> = (0..2000)
        .filter_map(|_| stalled_post(attacker, played.addr))
        .collect();
    let mut streams = Vec::new();
    for _ in 0..200 {
        let Ok(mut s) = hall::try_connect_from(attacker, played.addr) else {
            continue;
        };
        if s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .is_ok()
        {
            streams.push(s);
        }
    }
    // A viewer elsewhere in the hall is served at once.
    let viewer = [0, 7, 7];
    for path in ["/", "/state"] {
        let began = Instant::now();
        assert_eq!(get_from(viewer, played.addr, path), 200, "{path}");
        // Not behind the flood: its stalled requests hold their places
        // for 10 s each; a bound this side of them, not a speed.
        let took = began.elapsed();
        assert!(took < Duration::from_secs(5), "{path} took {took:?}");
    }
    // A move relayed meanwhile is played, journaled and on the scoresheet.
    let events = played.done(r#"{"input":"move","san":"e4"}"#);
    assert!(events.iter().any(|e| e["event"] == "move"), "{events:?}");
    let journal = played.dir.join("games");
    let pgn_holds_e4 = || {
        std::fs::read_dir(&journal)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                e.path().extension().is_some_and(|x| x == "pgn")
                    && std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("1. e4"))
            })
    };
    // (A bound against a hang only: the claim is that it is written.)
    let began = Instant::now();
    while !pgn_holds_e4() {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "no e4 in the PGN"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let journal_text: String = std::fs::read_dir(&journal)
        .expect("journal dir")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "journal"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(journal_text.contains(r#""san":"e4""#), "{journal_text}");
    drop(flood);
    drop(streams);
    played.terminate();
    let output = played.output();
    assert!(
        !output.contains("Too many open files"),
        "a file could not be opened: {output}"
    );
}

/// Wrong guesses of `secret`, one from each of `n` hall addresses, eight
/// at a time; their statuses.
fn sweep(addr: SocketAddr, n: usize) -> Vec<u16> {
    let clock = r#"{"input":"clock","color":"white"}"#;
    let guesses: Vec<usize> = (0..n).collect();
    let mut codes = Vec::new();
    for chunk in guesses.chunks(8) {
        let handles: Vec<_> = chunk
            .iter()
            .map(|&i| {
                std::thread::spawn(move || {
                    let mut s = hall::connect_from(hall::address(i), addr);
                    s.set_read_timeout(Some(Duration::from_secs(10)))
                        .expect("timeout");
                    let request = format!(
                        "POST /api/input HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
                         Authorization: Bearer {:04}\r\nContent-Length: {}\r\n\r\n{clock}",
                        (i * 7919 + 1) % 10_000,
                        clock.len()
                    );
                    s.write_all(request.as_bytes()).expect("sent");
                    let mut text = String::new();
                    let _ = s.read_to_string(&mut text);
                    text.split(' ')
                        .nth(1)
                        .and_then(|c| c.parse::<u16>().ok())
                        .unwrap_or(0)
                })
            })
            .collect();
        codes.extend(handles.into_iter().map(|h| h.join().expect("guess")));
    }
    codes
}

#[test]
fn a_pin_sweep_from_many_addresses_stops_at_the_days_bound_and_a_session_goes_on() {
    use pegboard::net::auth::PIN_FAILURES_PER_DAY;
    // 4711 is never among the sweep's guesses below ((i × 7919 + 1) mod
    // 10,000 for i < 300).
    assert!((0..300).all(|i| (i * 7919 + 1) % 10_000 != 4711));
    let c = Console::start("4711");
    let a = c.addr();
    // The assistant logged in before the sweep.
    let login = post(a, "/api/login", &[&bearer("4711")], "");
    assert_eq!(login.code, 200, "{}", login.body);
    let cookie = login
        .header("set-cookie")
        .and_then(|v| v.split(';').next().map(str::to_string))
        .expect("a session cookie");
    let codes = sweep(a, 300);
    let wrong = codes.iter().filter(|&&c| c == 401).count();
    let locked = codes.iter().filter(|&&c| c == 429).count();
    assert_eq!(wrong, PIN_FAILURES_PER_DAY, "{codes:?}");
    assert_eq!(locked, 300 - PIN_FAILURES_PER_DAY, "{codes:?}");
    // Locked for everyone, the right PIN too, for the rest of the day…
    let refused = post(
        a,
        "/api/input",
        &[&bearer("4711")],
        r#"{"input":"clock","color":"white"}"#,
    );
    assert_eq!(refused.code, 429, "{}", refused.body);
    assert!(refused.body.contains("PIN is locked"), "{}", refused.body);
    let retry: u64 = refused
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!(retry > 23 * 3600, "{retry} s");
    // …while the session opened before goes on working.
    let pressed = post(
        a,
        "/api/input",
        &[&format!("Cookie: {cookie}"), &format!("Origin: http://{a}")],
        r#"{"input":"clock","color":"white"}"#,
    );
    assert_eq!(pressed.code, 200, "{}", pressed.body);
    c.stop();
}

#[test]
fn the_generated_secret_is_never_locked_by_a_sweep() {
    let c = Console::start(SECRET);
    let a = c.addr();
    let codes = sweep(a, 300);
    assert!(codes.iter().all(|&c| c == 401), "{codes:?}");
    let pressed = post(
        a,
        "/api/input",
        &[&bearer(SECRET)],
        r#"{"input":"clock","color":"white"}"#,
    );
    assert_eq!(pressed.code, 200, "{}", pressed.body);
    c.stop();
}

#[test]
fn a_session_is_renewed_on_use_and_ended_by_logging_out() {
    let c = Console::start(SECRET);
    let a = c.addr();
    let login = post(a, "/api/login", &[&bearer(SECRET)], "");
    assert_eq!(login.code, 200, "{}", login.body);
    let cookie = login
        .header("set-cookie")
        .and_then(|v| v.split(';').next().map(str::to_string))
        .expect("a session cookie");
    let with_session = format!("Cookie: {cookie}");
    let own = format!("Origin: http://{a}");
    let clock = r#"{"input":"clock","color":"white"}"#;
    // A reloaded page asks whether its session lives.
    let alive = |headers: &str| {
        let extra = if headers.is_empty() {
            String::new()
        } else {
            format!("{headers}\r\n")
        };
        send(
            a,
            format!("GET /api/session HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n{extra}\r\n")
                .as_bytes(),
        )
        .code
    };
    assert_eq!(alive(&with_session), 200);
    assert_eq!(alive(""), 401);
    // Each use renews the cookie's life in the browser.
    let used = post(a, "/api/input", &[&with_session, &own], clock);
    assert_eq!(used.code, 200, "{}", used.body);
    let renewed = used.header("set-cookie").expect("renewed");
    assert!(renewed.starts_with(&cookie), "{renewed}");
    assert!(renewed.contains("Max-Age=1800"), "{renewed}");
    // Logging out ends it, in the browser and on the server.
    let out = post(a, "/api/logout", &[&with_session], "");
    assert_eq!(out.code, 200, "{}", out.body);
    let cleared = out.header("set-cookie").expect("cleared");
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    let after = post(a, "/api/input", &[&with_session, &own], clock);
    assert_eq!(after.code, 401, "{}", after.body);
    assert_eq!(alive(&with_session), 401);
    assert!(
        after.body.contains("the session has ended"),
        "{}",
        after.body
    );
    c.stop();
}

#[test]
fn the_sensors_words_are_not_the_consoles() {
    let c = Console::start(SECRET);
    for input in [r#"{"input":"board_lost"}"#, r#"{"input":"board_back"}"#] {
        let r = post(c.addr(), "/api/input", &[&bearer(SECRET)], input);
        assert_eq!(r.code, 400, "{input}: {}", r.body);
        assert!(r.body.contains("the sensors'"), "{}", r.body);
    }
    // Nor is what the online server says.
    for input in [
        r#"{"input":"online_takeback"}"#,
        r#"{"input":"online_rematch"}"#,
        r#"{"input":"online_lost"}"#,
    ] {
        let r = post(c.addr(), "/api/input", &[&bearer(SECRET)], input);
        assert_eq!(r.code, 400, "{input}: {}", r.body);
        assert!(
            r.body.contains("the online game's server only"),
            "{}",
            r.body
        );
    }
    c.stop();
}
