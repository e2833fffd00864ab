//! The console in a real browser (Debian's Chromium over WebDriver): the
//! assistant logs in on the page `play` serves, in the configured
//! language, and relays moves by typing and by tapping, takes one back,
//! hears why a move is refused, presses the clocks, pauses, reports,
//! retraces and starts a new game; each step checked against `/state` and
//! against what the file voice said. The page is checked with axe-core in
//! each of its states and themes, and seen on four screens.

mod common;

#[path = "support/browser.rs"]
mod browser;

use std::io::{BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use browser::{Driver, accessible, in_view_and_apart, js, screenshot, wait_until};
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

/// `play` with a console (PIN 2468), both sides relayed, a 5-minute
/// clock, the file voice and the FIDE (German) words; ended on drop.
struct Played {
    child: common::Reaped,
    addr: SocketAddr,
    voice: std::path::PathBuf,
    dir: std::path::PathBuf,
}

const PIN: &str = "2468";

impl Played {
    fn start(name: &str) -> Played {
        let dir = std::env::temp_dir().join(format!(
            "pegboard-console-browser-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let voice = dir.join("voice");
        let config = common::nf3_play_config(
            &dir,
            &format!(
                "
             [game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"relay\"\n\
             [clock]\ncontrol = \"5+0\"\n\
             [speech]\nvoices = [\"file\"]\n[speech.file]\ndirectory = \"{}\"\n\
             [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{PIN}\"\n\
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
            .args(["play", "--seconds", "90", "--config", &config])
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
        Played {
            child,
            addr,
            voice,
            dir,
        }
    }

    /// Ends `play` as its user does, and checks it ended well.
    fn stop(mut self) {
        let _ = self.child.0.stdin.take().expect("stdin").write_all(b"q\n");
        assert!(self.child.0.wait().expect("ends").success());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn type_in(c: &Client, id: &str, text: &str) {
    let field = c.find(Locator::Id(id)).await.expect(id);
    field.clear().await.expect("cleared");
    field.send_keys(text).await.expect("typed");
}

async fn log_in(c: &Client, secret: &str) {
    type_in(c, "secret", secret).await;
    click(c, "#enter").await;
}

/// Logs in with a wrong `pin`, and waits for the page's answer.
async fn log_in_wrongly(c: &Client, pin: &str) {
    log_in(c, pin).await;
    wait_until(
        c,
        "return document.getElementById('login-answer').textContent",
        Duration::from_secs(10),
        "the wrong PIN was never answered",
        |v| v.as_str().is_some_and(|t| !t.is_empty()),
    )
    .await;
}

async fn desk_open(c: &Client) {
    wait_until(
        c,
        "return document.getElementById('desk').hidden",
        Duration::from_secs(10),
        "the desk never opened",
        |v| *v == Value::Bool(false),
    )
    .await;
}

/// Waits until the page's answer line contains `words`, and returns it.
async fn answered(c: &Client, words: &str) -> String {
    wait_until(
        c,
        "return document.getElementById('answer').textContent",
        Duration::from_secs(10),
        &format!("never answered \"{words}\""),
        |v| v.as_str().is_some_and(|t| t.contains(words)),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Waits until the page has drawn ply `ply`.
async fn page_at(c: &Client, ply: u32) {
    wait_until(
        c,
        "return document.body.dataset.ply",
        Duration::from_secs(10),
        &format!("the page never showed ply {ply}"),
        |v| *v == Value::String(ply.to_string()),
    )
    .await;
}

/// Taps a square of the console's board.
async fn tap(c: &Client, square: &str) {
    click(c, &format!("#board g[data-square='{square}']")).await;
}

#[test]
fn the_assistant_relays_presses_pauses_retraces_and_starts_again_from_the_console() {
    let played = Played::start("flow");
    let (addr, voice) = (played.addr, played.voice.clone());
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
        // The page is in German, as the FIDE words are.
        assert_eq!(
            js(
                &c,
                "return [document.documentElement.lang, document.title, \
                 document.getElementById('enter').textContent]"
            )
            .await,
            serde_json::json!(["de", "pegboard-Konsole", "Anmelden"])
        );
        // A wrong PIN first: refused, still on the login, said beside the
        // field, which keeps the focus.
        log_in_wrongly(&c, "0000").await;
        assert_eq!(
            js(
                &c,
                "const a = document.getElementById('login-answer'); \
                 return [a.textContent, a.offsetParent !== null, document.activeElement.id, \
                         document.getElementById('desk').hidden]"
            )
            .await,
            serde_json::json!(["Falsches Geheimnis oder falsche PIN.", true, "secret", true])
        );
        log_in(&c, PIN).await;
        desk_open(&c).await;
        // The legal moves are offered as one types.
        let offered = js(
            &c,
            "return document.querySelectorAll('#legal option').length",
        )
        .await;
        assert_eq!(offered, Value::from(40), "20 moves, in SAN and UCI");
        // The board as the game stands, the clocks, and the words.
        assert_eq!(
            js(
                &c,
                "return [document.querySelectorAll('#board g[data-piece]:not([data-piece=\"\"])').length, \
                 document.querySelector('#board g[data-square=e1]').dataset.piece, \
                 document.getElementById('relay').textContent, \
                 document.querySelector('[data-press=white]').textContent, \
                 document.getElementById('white-min').value, \
                 [...document.querySelectorAll('#board g[data-square=a1] rect')].map(r => r.getAttribute('x') + ',' + r.getAttribute('y'))[0]]"
            )
            .await,
            serde_json::json!([32, "K", "Ziehen", "Uhr von Weiß drücken", "5", "0,350"]),
            "the board from White's side (a1 in the lower left), the clock fields filled"
        );
        // Tapping the pawn, then its square, relays 1. e4.
        tap(&c, "e2").await;
        assert_eq!(
            js(&c, "return document.querySelector('#board g[data-square=e4]').dataset.mark").await,
            Value::from("target"),
            "the squares the pawn can go to are marked"
        );
        tap(&c, "e4").await;
        // The move, then its clock event: Black's clock runs.
        let s = state_until(addr, "1. e4, Black's clock", |s| {
            s["ply"] == 1 && s["clock"]["running"] == "black"
        });
        assert_eq!(s["last_move"]["san"], "e4");
        said_until(&voice, "Bauer Eva zwei nach Eva vier");
        // The answer says it once.
        let answer = answered(&c, "Eva vier").await;
        assert_eq!(
            answer.matches("Eva zwei nach Eva vier").count(),
            1,
            "{answer}"
        );
        // The wrong move: taken back, and White's clock runs again.
        wait_until(
            &c,
            "return document.getElementById('take-back').hidden",
            Duration::from_secs(5),
            "no take-back offered",
            |v| *v == Value::Bool(false),
        )
        .await;
        assert_eq!(text(&c, "take-back").await, "e4 zurücknehmen");
        click(&c, "#take-back").await;
        state_until(addr, "e4 taken back, White's clock running again", |s| {
            s["ply"] == 0 && s["clock"]["running"] == "white"
        });
        page_at(&c, 0).await;
        // A reload keeps the session: the desk, not the secret again.
        c.refresh().await.expect("reloaded");
        desk_open(&c).await;
        relay(&c, "d4").await;
        state_until(addr, "1. d4", |s| s["ply"] == 1);
        relay(&c, "e7e5").await;
        state_until(addr, "1... e5", |s| s["ply"] == 2);
        said_until(&voice, "Bauer Eva sieben nach Eva fünf");
        // An illegal move is refused, saying which rule and whose turn,
        // and changes nothing.
        relay(&c, "Ke3").await;
        let answer = answered(&c, "Art.").await;
        said_until(&voice, "Der gemeldete Zug ist nicht möglich.");
        // Where the game stands says it too, for whoever comes to the page.
        wait_until(
            &c,
            "return document.getElementById('status').textContent",
            Duration::from_secs(10),
            "the refusal never shown with the game",
            |v| v.as_str().is_some_and(|t| t.ends_with("Weiß ist am Zug. (Art. 3.8.1)")),
        )
        .await;
        assert_eq!(
            answer,
            "Der gemeldete Zug ist nicht möglich. König auf Eva eins kann nicht so ziehen. \
             Weiß ist am Zug. (Art. 3.8.1)"
        );
        assert_eq!(state(addr)["ply"], 2);
        // The clocks: White's press runs Black's clock, then pause, resume.
        click(&c, "button[data-press='white']").await;
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
        // A touch reported for Black, an illegal move by Black: kept
        // beside the move they follow, in the page's words.
        select_player(&c, "black").await;
        click(&c, "button[data-side='touch_report']").await;
        click(&c, "button[data-side='illegal_move']").await;
        let reports = wait_until(
            &c,
            "return [...document.querySelectorAll('#moves li ul li')].map(l => l.textContent)",
            Duration::from_secs(10),
            "the reports were never listed",
            |v| v.as_array().is_some_and(|a| a.len() == 2),
        )
        .await;
        assert_eq!(
            reports,
            serde_json::json!([
                "Schwarz: Berührung gemeldet (D.2.10.5)",
                "Weiß: Zeitgutschrift als Strafe für den Gegner (7.5.5, 9.5.3, III.5)"
            ])
        );
        // Retrace to move 1.
        type_in(&c, "ply", "1").await;
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
        select_player(&c, "white").await;
        click(&c, "button[data-side='resign']").await;
        let asked = text(&c, "confirm-text").await;
        assert_eq!(
            asked,
            "Weiß gibt auf: die Partie endet, Schwarz gewinnt."
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
    played.stop();
}

async fn select_player(c: &Client, color: &str) {
    c.find(Locator::Id("side"))
        .await
        .expect("the player")
        .select_by_value(color)
        .await
        .expect("selected");
}

async fn text(c: &Client, id: &str) -> String {
    browser::text(c, id).await
}

/// Puts the page in `theme`: `light`, `dark` or `large` (large type, in
/// the light theme), by its own buttons.
async fn theme(c: &Client, theme: &str) {
    js(
        c,
        &format!(
            "const b = document.body.classList, h = document.documentElement.classList; \
             b.remove('dark', 'light'); h.remove('large'); \
             if ('{theme}' === 'dark') document.getElementById('dark').click(); \
             else if ('{theme}' === 'large') document.getElementById('large').click(); \
             else b.add('light'); return 0"
        ),
    )
    .await;
}

#[test]
fn axe_core_finds_nothing_wrong_with_the_console_in_any_state_or_theme_on_any_screen() {
    let played = Played::start("axe");
    let addr = played.addr;
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
        for t in ["light", "dark", "large"] {
            theme(&c, t).await;
            accessible(&c, &format!("the login, {t}")).await;
        }
        log_in_wrongly(&c, "1111").await;
        for t in ["light", "dark", "large"] {
            theme(&c, t).await;
            accessible(&c, &format!("a wrong PIN, {t}")).await;
        }
        log_in(&c, PIN).await;
        desk_open(&c).await;
        relay(&c, "e4").await;
        page_at(&c, 1).await;
        relay(&c, "Ke7").await;
        answered(&c, "Art.").await;
        for t in ["light", "dark", "large"] {
            theme(&c, t).await;
            accessible(&c, &format!("the desk, a move refused, {t}")).await;
        }
        tap(&c, "e7").await;
        click(&c, "button[data-side='resign']").await;
        for t in ["light", "dark", "large"] {
            theme(&c, t).await;
            accessible(&c, &format!("a piece chosen, resigning asked, {t}")).await;
        }
        click(&c, "#confirm-no").await;
        c.close().await.expect("closed");
        // On every screen: where the game stands and both clocks in view
        // without scrolling, nothing overlapping, a screenshot kept.
        for (name, w, h, ratio) in [
            ("1920x1080", 1920, 1080, 1.0),
            ("800x480", 800, 480, 1.0),
            ("390x844", 390, 844, 3.0),
            ("1920x1080-at-200", 960, 540, 2.0),
        ] {
            let c = driver.browser_sized(w, h, ratio).await;
            c.goto(&format!("http://{addr}/console"))
                .await
                .expect("console");
            log_in(&c, PIN).await;
            desk_open(&c).await;
            page_at(&c, 1).await;
            in_view_and_apart(
                &c,
                name,
                (w as f64, h as f64),
                &["game", "clock-white", "clock-black"],
                &["board", "move"],
            )
            .await;
            screenshot(&c, &format!("console-{name}")).await;
            c.close().await.expect("closed");
        }
    });
    played.stop();
}
