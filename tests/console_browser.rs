//! The console in a real browser (Debian's Chromium over WebDriver): the
//! assistant logs in on the page `play` serves and relays moves, presses
//! the clocks, pauses, retraces and starts a new game; each step checked
//! against `/state` and against what the file voice said.

mod common;

#[path = "support/browser.rs"]
mod browser;

use std::io::{BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use browser::{Driver, js, screenshot};
use fantoccini::{Client, Locator};
use serde_json::Value;

fn state(addr: SocketAddr) -> Value {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.write_all(
        format!("GET /state HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .expect("sent");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// Waits until `/state` satisfies `ok`.
fn state_until(addr: SocketAddr, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let began = Instant::now();
    loop {
        let s = state(addr);
        if ok(&s) {
            return s;
        }
        assert!(began.elapsed() < Duration::from_secs(10), "{what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What the file voice has said so far.
fn said(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("utterances.tsv")).unwrap_or_default()
}

fn said_until(dir: &std::path::Path, words: &str) {
    let began = Instant::now();
    while !said(dir).contains(words) {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "never said \"{words}\": {}",
            said(dir)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .expect(css)
        .click()
        .await
        .expect("clicked");
}

async fn relay(c: &Client, text: &str) {
    let field = c.find(Locator::Id("move")).await.expect("move box");
    field.clear().await.expect("cleared");
    field.send_keys(text).await.expect("typed");
    click(c, "#relay").await;
}

#[test]
fn the_assistant_relays_presses_pauses_retraces_and_starts_again_from_the_console() {
    let dir = std::env::temp_dir().join(format!("pegboard-console-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let voice = dir.join("voice");
    let pin = "2468";
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "
             [game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"relay\"\n\
             [clock]\ncontrol = \"5+0\"\n\
             [speech]\nvoices = [\"file\"]\n[speech.file]\ndirectory = \"{}\"\n\
             [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{pin}\"\n\
             [journal]\ndir = \"{}\"\n",
            voice.display(),
            dir.join("games").display()
        ),
    );
    // The trace makes 1. Nf3 on the pegged board; it is not used here:
    // a board with White's moves relayed only replicates. Its reading is
    // left at the start.
    std::fs::write(
        dir.join("nf3.jsonl"),
        "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n",
    )
    .expect("trace");
    let child = common::pegboard_command()
        .args(["play", "--seconds", "60", "--config", &config])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("play starts");
    let mut child = common::Reaped(child);
    let mut out = BufReader::new(child.0.stdout.take().expect("stdout"));
    let addr = common::mirror_of(&mut out, &mut String::new());
    std::thread::spawn(move || {
        let mut sink = String::new();
        let _ = out.read_to_string(&mut sink);
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        c.goto(&format!("http://{addr}/console"))
            .await
            .expect("console");
        // A wrong PIN first: refused, still on the login.
        c.find(Locator::Id("secret"))
            .await
            .expect("field")
            .send_keys("0000")
            .await
            .expect("typed");
        click(&c, "#enter").await;
        // The page's answer to the refusal, then the desk still closed.
        browser::wait_until(
            &c,
            "return document.getElementById('answer').classList.contains('bad')",
            Duration::from_secs(10),
            "the wrong PIN was never answered",
            |v| *v == Value::Bool(true),
        )
        .await;
        assert_eq!(
            js(&c, "return document.getElementById('desk').hidden").await,
            Value::Bool(true)
        );
        // The refusal is seen beside the field, which keeps the focus.
        assert_eq!(
            js(
                &c,
                "const a = document.getElementById('login-answer'); \
                 return [a.textContent, a.offsetParent !== null, document.activeElement.id]"
            )
            .await,
            serde_json::json!(["wrong secret", true, "secret"])
        );
        let field = c.find(Locator::Id("secret")).await.expect("field");
        field.clear().await.expect("cleared");
        field.send_keys(pin).await.expect("typed");
        click(&c, "#enter").await;
        browser::wait_until(
            &c,
            "return document.getElementById('desk').hidden",
            Duration::from_secs(10),
            "never logged in",
            |v| *v == Value::Bool(false),
        )
        .await;
        // The legal moves are offered as one types.
        let offered = js(
            &c,
            "return document.querySelectorAll('#legal option').length",
        )
        .await;
        assert_eq!(offered, Value::from(40), "20 moves, in SAN and UCI");
        // A move for each side.
        relay(&c, "e4").await;
        let s = state_until(addr, "1. e4", |s| s["ply"] == 1);
        assert_eq!(s["last_move"]["san"], "e4");
        said_until(&voice, "Bauer Eva zwei nach Eva vier");
        // The answer says it once.
        browser::wait_until(
            &c,
            "return document.getElementById('answer').textContent",
            Duration::from_secs(10),
            "the move was never answered",
            |v| v.as_str().is_some_and(|t| t.contains("Eva vier")),
        )
        .await;
        let answer = js(&c, "return document.getElementById('answer').textContent").await;
        let answer = answer.as_str().unwrap_or_default();
        assert_eq!(
            answer.matches("Eva zwei nach Eva vier").count(),
            1,
            "{answer}"
        );
        // A reload keeps the session: the desk, not the secret again.
        c.refresh().await.expect("reloaded");
        browser::wait_until(
            &c,
            "return document.getElementById('desk').hidden",
            Duration::from_secs(10),
            "a reload asked for the secret again",
            |v| *v == Value::Bool(false),
        )
        .await;
        relay(&c, "e7e5").await;
        state_until(addr, "1... e5", |s| s["ply"] == 2);
        said_until(&voice, "Bauer Eva sieben nach Eva fünf");
        // An illegal move is refused, said, and changes nothing.
        relay(&c, "Ke3").await;
        said_until(&voice, "Der gemeldete Zug ist nicht möglich.");
        assert_eq!(state(addr)["ply"], 2);
        // The clocks: White's press runs Black's clock, then pause, resume.
        click(
            &c,
            "button[data-input='{\"input\":\"clock\",\"color\":\"white\"}']",
        )
        .await;
        state_until(addr, "Black's clock runs", |s| {
            s["clock"]["running"] == "black"
        });
        click(&c, "button[data-input='{\"input\":\"pause\"}']").await;
        state_until(addr, "paused", |s| s["clock"]["paused"] == true);
        said_until(&voice, "Uhr angehalten.");
        click(&c, "button[data-input='{\"input\":\"resume\"}']").await;
        state_until(addr, "running again", |s| s["clock"]["paused"] == false);
        // Say the times aloud (E2.9d).
        click(&c, "button[data-input='{\"input\":\"times\"}']").await;
        said_until(&voice, "Weiß");
        // Retrace to move 1.
        let ply = c.find(Locator::Id("ply")).await.expect("ply");
        ply.send_keys("1").await.expect("typed");
        click(&c, "#retrace").await;
        let s = state_until(addr, "retraced", |s| s["ply"] == 1);
        assert_eq!(s["moves"].as_array().map(Vec::len), Some(1));
        said_until(&voice, "Die Partie ist zurückgesetzt.");
        screenshot(&c, "console").await;
        // A new game: the page asks first; nothing happens until yes.
        click(&c, "#new-game").await;
        assert_eq!(
            js(&c, "return document.getElementById('confirm').hidden").await,
            Value::Bool(false)
        );
        assert_eq!(state(addr)["ply"], 1, "nothing before the answer");
        click(&c, "#confirm-yes").await;
        state_until(addr, "a new game", |s| {
            s["ply"] == 0 && s["moves"].as_array().is_some_and(Vec::is_empty)
        });
        said_until(&voice, "Neue Partie.");
        // Resigning asks, naming the player; cancelled, nothing happens.
        relay(&c, "d4").await;
        state_until(addr, "1. d4", |s| s["ply"] == 1);
        click(&c, "button[data-side='resign']").await;
        let asked = js(
            &c,
            "return document.getElementById('confirm-text').textContent",
        )
        .await;
        assert!(
            asked
                .as_str()
                .is_some_and(|t| t.starts_with("White resigns")),
            "{asked}"
        );
        click(&c, "#confirm-no").await;
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            state(addr)["result"],
            Value::Null,
            "a cancelled resignation"
        );
        click(&c, "button[data-side='resign']").await;
        click(&c, "#confirm-yes").await;
        state_until(addr, "White resigned", |s| s["result"] == "0-1");
        c.close().await.expect("closed");
    });
    let _ = child.0.stdin.take().expect("stdin").write_all(b"q\n");
    assert!(child.0.wait().expect("ends").success());
    let _ = std::fs::remove_dir_all(&dir);
}
