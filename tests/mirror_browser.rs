//! The mirror in a real browser: Debian's Chromium, headless, driven by
//! its chromedriver over WebDriver (fantoccini). Both come from apt
//! (`.ci/setup.sh`); nothing is downloaded. Games are replayed into a
//! running mirror and the page is read as the sighted player sees it: the
//! pieces on the board against the FEN, the move to repeat (castling, en
//! passant, promotion spelled out), the clocks and a flag, a mismatch's
//! squares, the result, a page opened in the middle of a game, and a page
//! that reconnects after the server restarts. Each scenario leaves a
//! screenshot in `target/mirror-screenshots/`.

use std::time::{Duration, Instant};

mod common;

use common::with_clock;
use fantoccini::Client;
use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Event, Settings, Stamped};
use pegboard::mirror::Mirror;

#[path = "support/browser.rs"]
mod browser;
use browser::{
    Driver, free_port, in_view_and_apart, js, screenshot, shows, text, wait_ply, wait_until,
};

#[path = "support/mirror.rs"]
mod mirror_view;
use mirror_view::{english, view_in};
use pegboard::runtime::replay::{Until, replay};
use pegboard::trace;
use serde_json::json;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, Square};

/// The events of a trace; timers fire until the last line and 2 s more
/// (a debounce, a settle time), a flag only when it falls by then.
fn events_of(text: &str, settings: Settings) -> Vec<Stamped> {
    let entries = trace::read(text.as_bytes(), "test").expect("trace");
    let end = entries.last().map_or(0, |e| e.t) + 2000;
    replay(
        &entries,
        "test",
        settings,
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::At(end),
    )
    .expect("replays")
}

/// The board as the page draws it: square → piece letter.
async fn board(c: &Client) -> Vec<(String, String)> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#board g')].map(g => [g.dataset.square, g.dataset.piece])",
    )
    .await;
    serde_json::from_value(v).expect("pairs")
}

fn pieces_of(fen: &str) -> Vec<(String, String)> {
    let pos: Chess = fen
        .parse::<Fen>()
        .expect("FEN")
        .into_position(CastlingMode::Chess960)
        .expect("position");
    let mut v: Vec<(String, String)> = Square::ALL
        .iter()
        .map(|&sq| {
            let p = pos
                .board()
                .piece_at(sq)
                .map(|p| p.char().to_string())
                .unwrap_or_default();
            (sq.to_string(), p)
        })
        .collect();
    v.sort();
    v
}

/// The Opera game's first move, 1. e4 e5, by hand.
const OPERA: &str = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"lift":"e7"}
{"t":2100,"place":"e5"}"#;

#[test]
fn the_page_shows_the_game_as_it_is_played() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let port = free_port();
        let listen = format!("127.0.0.1:{port}");
        let m = Mirror::start(&listen, english()).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");

        // 1. e4 e5 2. Nf3 d6: the board against each FEN, the move to
        // repeat after White's moves.
        let events = events_of(
            &format!(
                "{OPERA}\n{{\"t\":3000,\"lift\":\"g1\"}}\n{{\"t\":3100,\"place\":\"f3\"}}\n\
                 {{\"t\":4000,\"lift\":\"d7\"}}\n{{\"t\":4100,\"place\":\"d6\"}}"
            ),
            with_clock("300+3"),
        );
        let mut sent = 0;
        for (i, e) in events.iter().enumerate() {
            if let Event::Move {
                ply, fen, color, ..
            } = &e.event
            {
                m.send(&events[sent..=i]);
                sent = i + 1;
                wait_ply(&c, *ply).await;
                let mut shown = board(&c).await;
                shown.sort();
                assert_eq!(shown, pieces_of(fen), "ply {ply}");
                let repeat = text(&c, "repeat-move").await;
                if color.0 == Color::White && *ply == 3 {
                    assert_eq!(repeat, "♘ g1 → f3");
                    assert!(
                        text(&c, "repeat-note")
                            .await
                            .contains("to play on your board")
                    );
                }
                if color.0 == Color::Black {
                    assert_eq!(repeat, "–", "cleared by the sighted player's move");
                }
            }
        }
        m.send(&events[sent..]);
        // 5:03 after the first increment, less the time White's clock has
        // run since it was started (the test's own pace included).
        let white = text(&c, "clock-white").await;
        assert!(
            white.starts_with("White 5:0") || white.starts_with("White 4:5"),
            "{white}"
        );
        screenshot(&c, "moves").await;

        // Opened in the middle of the game: a second page is not stale.
        let c2 = driver.browser().await;
        c2.goto(&format!("http://{listen}/")).await.expect("page");
        wait_ply(&c2, 4).await;
        assert_eq!(text(&c2, "moves").await.lines().count(), 2);
        c2.close().await.expect("closed");

        // The server restarts: the page reconnects and catches up.
        m.stop();
        let m = Mirror::start(&listen, english()).expect("mirror again");
        let again = events_of(OPERA, with_clock("300+3"));
        let began = Instant::now();
        loop {
            m.send(&again);
            if js(&c, "return document.body.dataset.ply").await == json!("2") {
                break;
            }
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "never reconnected"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        screenshot(&c, "reconnected").await;
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn castling_en_passant_and_promotion_are_spelled_out_and_the_status_and_clocks_show() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");

        // Castling: White O-O from a set-up position.
        let castle = events_of(
            r#"{"t":0,"trace":1,"start":"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"}
{"t":1000,"lift":"e1"}
{"t":1100,"place":"g1"}
{"t":1200,"lift":"h1"}
{"t":1300,"place":"f1"}"#,
            Settings::default(),
        );
        m.send(&castle);
        wait_ply(&c, 1).await;
        let repeat = text(&c, "repeat-move").await;
        assert!(
            repeat.contains("e1 → g1") && repeat.contains("h1 → f1"),
            "{repeat}"
        );
        // All four squares of king and rook are marked on the board.
        let marked = js(
            &c,
            "return [...document.querySelectorAll('#board g')].filter(g => \
             g.querySelector('rect.mark.last')).map(g => g.dataset.square).sort()",
        )
        .await;
        assert_eq!(marked, json!(["e1", "f1", "g1", "h1"]));
        screenshot(&c, "castling").await;

        // En passant: 1. e4 a6 2. e5 d5 3. exd6.
        let ep = events_of(
            r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"lift":"a7"}
{"t":2100,"place":"a6"}
{"t":3000,"lift":"e4"}
{"t":3100,"place":"e5"}
{"t":4000,"lift":"d7"}
{"t":4100,"place":"d5"}
{"t":5000,"lift":"e5"}
{"t":5100,"place":"d6"}
{"t":5200,"lift":"d5"}"#,
            Settings::default(),
        );
        m.send(&ep);
        wait_ply(&c, 5).await;
        let note = text(&c, "repeat-note").await;
        assert!(note.contains("en passant: take the pawn on d5"), "{note}");

        // Promotion: a8=Q.
        let promo = events_of(
            r#"{"t":0,"trace":1,"start":"8/P7/8/8/8/8/k7/4K3 w - - 0 1"}
{"t":1000,"lift":"a7"}
{"t":1100,"place":"a8"}
{"t":1200,"input":"promote","piece":"q"}"#,
            Settings::default(),
        );
        m.send(&promo);
        wait_ply(&c, 1).await;
        let note = text(&c, "repeat-note").await;
        assert!(note.contains("promotes to ♕"), "{note}");

        // White's flag falls (a 3-second game) and the result shows.
        let flag = events_of(FLAG_FALLS, with_clock("3"));
        m.send(&flag);
        shows(
            &c,
            "document.getElementById('result').textContent",
            "no result shown",
            |v| v.as_str().is_some_and(|k| k.contains("0-1")),
        )
        .await;
        let classes = js(
            &c,
            "return document.getElementById('clock-white').className",
        )
        .await;
        assert!(
            classes.as_str().is_some_and(|k| k.contains("flag")),
            "{classes}"
        );
        screenshot(&c, "flag").await;
        // Pieces moved while the board was disconnected: a mismatch.
        let mismatch = events_of(MOVED_WHILE_LOST, Settings::default());
        m.send(&mismatch);
        shows(
            &c,
            "document.getElementById('status').dataset.kind",
            "no status shown",
            |v| *v == json!("mismatch"),
        )
        .await;
        let status = text(&c, "status").await;
        assert!(status.contains("e4") && status.contains("e5"), "{status}");
        screenshot(&c, "mismatch").await;
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn the_page_speaks_the_configured_language() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, view_in("de")).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        assert_eq!(
            js(&c, "return document.documentElement.lang").await,
            json!("de")
        );
        assert_eq!(
            js(&c, "return document.title").await,
            json!("pegboard-Spiegel")
        );
        // The clocks are labelled in German before any clock is read.
        assert_eq!(text(&c, "clock-white").await, "Weiß –");
        assert_eq!(text(&c, "clock-black").await, "Schwarz –");
        // The toggles say whether they are on, and a click changes what is
        // shown whatever the system's own choice.
        let theme = "return [getComputedStyle(document.body).backgroundColor, \
                     document.getElementById('dark').getAttribute('aria-pressed')]";
        let before = js(&c, theme).await;
        c.find(fantoccini::Locator::Id("dark"))
            .await
            .expect("dark")
            .click()
            .await
            .expect("clicked");
        let after = js(&c, theme).await;
        assert_ne!(before[0], after[0], "the first click changes the theme");
        assert_ne!(before[1], after[1], "and says so: {before} {after}");
        assert_eq!(
            js(&c, "return document.querySelector('h1 button')").await,
            json!(null),
            "no button inside the heading"
        );
        let headings = js(
            &c,
            "return [...document.querySelectorAll('h2')].map(h => h.textContent)",
        )
        .await;
        assert_eq!(
            headings,
            json!([
                "Brett",
                "Auf Ihrem Brett auszuführen",
                "Uhren",
                "Was geschieht",
                "Züge"
            ])
        );
        // The knight on g1 is lifted and held.
        let held = events_of(
            r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"lift":"g1"}"#,
            with_clock("300"),
        );
        m.send(&held);
        shows(
            &c,
            "document.getElementById('status').textContent",
            "the touch is not shown",
            |v| *v == json!("♘ Springer g1 berührt"),
        )
        .await;
        let white = text(&c, "clock-white").await;
        assert!(
            white.starts_with("Weiß 4:5") || white.starts_with("Weiß 5:00"),
            "{white}"
        );
        // Then played: Nf3, with the German note and table of squares.
        let played = events_of(
            r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"lift":"g1"}
{"t":1100,"place":"f3"}"#,
            with_clock("300"),
        );
        m.send(&played);
        wait_ply(&c, 1).await;
        let note = text(&c, "repeat-note").await;
        assert!(note.ends_with("auf Ihrem Brett ausführen"), "{note}");
        let cells = js(
            &c,
            "return [...document.querySelectorAll('#squares td')].map(td => td.textContent)",
        )
        .await;
        let cells: Vec<String> = serde_json::from_value(cells).expect("cells");
        // Rank 3 is the sixth row of the table (rank 8 first), f its sixth cell.
        assert_eq!(cells[5 * 8 + 5], "Springer (Weiß)");
        assert_eq!(cells[5 * 8 + 6], "leer");
        assert_eq!(cells[8 * 7 + 6], "leer", "g1 is empty now");
        screenshot(&c, "german").await;
        m.stop();
        c.close().await.expect("closed");
    });
}

/// The ply `/state` gives now.
fn http_state_ply(listen: &str) -> Option<u64> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(listen).ok()?;
    s.write_all(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let body = text.split_once("\r\n\r\n")?.1;
    serde_json::from_str::<serde_json::Value>(body).ok()?["ply"].as_u64()
}

#[test]
fn a_page_refused_for_too_many_viewers_shows_the_state_and_tries_again_until_it_is_let_in() {
    use std::io::{BufRead, BufReader, Write};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        // Two moves made before the page is opened.
        let events = events_of(OPERA, with_clock("300+3"));
        m.send(&events);
        let began = Instant::now();
        while http_state_ply(&listen) != Some(2) {
            assert!(began.elapsed() < Duration::from_secs(10), "never at ply 2");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // The browser's own address already holds its share of streams.
        let held: Vec<_> = (0..pegboard::net::limits::STREAMS_PER_DEVICE)
            .map(|_| {
                let mut s = std::net::TcpStream::connect(&listen).expect("connects");
                s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .expect("sent");
                let mut r = BufReader::new(s);
                let mut head = String::new();
                r.read_line(&mut head).expect("head");
                assert!(head.contains(" 200 "), "{head}");
                r
            })
            .collect();
        c.goto(&format!("http://{listen}/")).await.expect("page");
        shows(
            &c,
            "document.getElementById('link').textContent",
            "the page says it is reconnecting",
            |v| v.as_str().is_some_and(|t| !t.is_empty()),
        )
        .await;
        // Meanwhile it shows the game as /state gives it.
        shows(
            &c,
            "document.body.dataset.ply",
            "the game read from /state",
            |v| v == &json!("2"),
        )
        .await;
        assert_eq!(text(&c, "moves").await.lines().count(), 1, "1. e4 e5");
        // A place comes free: the page comes in by itself and follows.
        drop(held);
        let more = events_of(
            &format!("{OPERA}\n{{\"t\":3000,\"lift\":\"g1\"}}\n{{\"t\":3100,\"place\":\"f3\"}}"),
            with_clock("300+3"),
        );
        let began = Instant::now();
        loop {
            m.send(&more[events.len()..]);
            if js(&c, "return document.body.dataset.ply").await == json!("3") {
                break;
            }
            assert!(
                began.elapsed() < Duration::from_secs(15),
                "never let in again"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn a_language_files_words_are_shown_as_text_never_as_markup() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut words = pegboard::announce::Vocabulary::built_in("en")
            .expect("built in")
            .expect("parses");
        let trap = "<img src=x onerror=\"document.body.dataset.pwned=1\"><b>empty</b>";
        words.display.empty = trap.to_string();
        words.colors.white = "<i>White</i></script><script>document.body.dataset.pwned=2</script>"
            .to_string();
        let view = pegboard::mirror::View::new(Color::White, Color::Black, &words);
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, view).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        m.send(&events_of(OPERA, with_clock("300+3")));
        wait_ply(&c, 2).await;
        // The empty square's cell says the words, letter for letter.
        let cell = js(
            &c,
            "return [...document.querySelectorAll('#squares td')].map(t => t.textContent).find(t => t.includes('empty'))",
        )
        .await;
        assert_eq!(cell, json!(trap));
        let markup = js(&c, "return document.querySelectorAll('#squares img, #squares b').length").await;
        assert_eq!(markup, json!(0), "a word became markup");
        let clock = text(&c, "clock-white").await;
        assert!(clock.starts_with("<i>White</i>"), "{clock}");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(js(&c, "return document.body.dataset.pwned || ''").await, json!(""));
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn every_squares_colour_and_the_coordinates_are_right_from_either_side() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        for seen_from in [Color::White, Color::Black] {
            let words = pegboard::announce::Vocabulary::built_in("en")
                .expect("built in")
                .expect("parses");
            let view = pegboard::mirror::View::new(!seen_from, seen_from, &words);
            let listen = format!("127.0.0.1:{}", free_port());
            let m = Mirror::start(&listen, view).expect("mirror");
            c.goto(&format!("http://{listen}/")).await.expect("page");
            m.send(&events_of(OPERA, with_clock("300+3")));
            wait_ply(&c, 2).await;
            // Each square: its shade, the colour it is painted, and where
            // it stands on the screen.
            let drawn = js(
                &c,
                "const css = getComputedStyle(document.body);\
                 const paint = v => { const e = document.createElement('div'); e.style.color = css.getPropertyValue(v); document.body.append(e); const c = getComputedStyle(e).color; e.remove(); return c; };\
                 const light = paint('--light'), dark = paint('--dark');\
                 return [...document.querySelectorAll('#board g')].map(g => { const r = g.querySelector('rect'); const f = getComputedStyle(r).fill;\
                   return [g.dataset.square, f === light ? 'light' : f === dark ? 'dark' : f, +r.getAttribute('x'), +r.getAttribute('y')]; })",
            )
            .await;
            let drawn: Vec<(String, String, u32, u32)> =
                serde_json::from_value(drawn).expect("squares");
            assert_eq!(drawn.len(), 64);
            for (name, shade, x, y) in &drawn {
                let sq: Square = name.parse().expect("a square");
                let (file, rank) = (u32::from(sq.file()), u32::from(sq.rank()));
                // a1 (file 0, rank 0 counted from 0) is dark; so is every
                // square whose file and rank add up to an even number.
                let want = if (file + rank) % 2 == 0 { "dark" } else { "light" };
                assert_eq!(shade, want, "{name} seen from {seen_from:?}");
                let (col, row) = match seen_from {
                    Color::White => (file, 7 - rank),
                    Color::Black => (7 - file, rank),
                };
                assert_eq!((*x, *y), (col * 50, row * 50), "{name} seen from {seen_from:?}");
            }
            // The coordinates: files along the bottom, ranks down the left,
            // in the order this side sees them.
            let files = js(&c, "return [...document.querySelectorAll('#board text.coord[data-file]')].sort((a, b) => a.getAttribute('x') - b.getAttribute('x')).map(t => t.textContent).join('')").await;
            let ranks = js(&c, "return [...document.querySelectorAll('#board text.coord[data-rank]')].sort((a, b) => a.getAttribute('y') - b.getAttribute('y')).map(t => t.textContent).join('')").await;
            let (want_files, want_ranks) = match seen_from {
                Color::White => ("abcdefgh", "87654321"),
                Color::Black => ("hgfedcba", "12345678"),
            };
            assert_eq!(files, json!(want_files), "seen from {seen_from:?}");
            assert_eq!(ranks, json!(want_ranks), "seen from {seen_from:?}");
            screenshot(&c, &format!("seen-from-{seen_from:?}").to_lowercase()).await;
            m.stop();
        }
        c.close().await.expect("closed");
    });
}

/// A game with a clock and, after its moves, touches that put a status on
/// the page every half second while White's clock runs.
const TOUCHED: &str = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"lift":"e7"}
{"t":2100,"place":"e5"}
{"t":3000,"lift":"g1"}
{"t":3100,"place":"g1"}
{"t":3500,"lift":"b1"}
{"t":3600,"place":"b1"}
{"t":4000,"lift":"g1"}
{"t":4100,"place":"g1"}
{"t":4500,"lift":"b1"}
{"t":4600,"place":"b1"}
{"t":5000,"lift":"g1"}
{"t":5100,"place":"g1"}"#;

/// Now on the machine's clock, in ms since the epoch, as a page's
/// `performance.timeOrigin + performance.now()` reads it.
fn wall_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

#[test]
fn the_clock_shown_follows_the_servers_clock_and_stops_when_the_server_is_gone() {
    let events = events_of(TOUCHED, with_clock("300+3"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        wait_until(
            &c,
            "return !!document.body.dataset.ply || document.getElementById('clock-white') !== null",
            Duration::from_secs(10),
            "the page",
            |v| *v == json!(true),
        )
        .await;
        // The events are handed over in real time: game time t is the
        // instant `start` + t. The server's clock at any instant is its
        // latest reading, less the time since it when its side runs.
        let start = Instant::now();
        let game_now = || start.elapsed().as_millis() as u64;
        let mut next = 0;
        // (t, when it was handed over, White's ms, White runs, when it was
        // handed over on the machine's clock, the event): a busy machine
        // may hand a reading over later than its instant, and the page
        // counts it from when it came, as it must; the server's clock is
        // reckoned from the same instant, so that the test's own delay is
        // not counted against the page.
        let mut reading: Option<(u64, u64, u64, bool, f64, Stamped)> = None;
        let mut worst = 0i64;
        let mut samples = 0;
        // Through the game's 6.5 s, and on (the clock running) until 20
        // samples have come quickly enough to count: a busy machine makes
        // the test longer, not its verdict different.
        while game_now() < 6_500 || (samples < 20 && game_now() < 60_000) {
            while next < events.len() && events[next].t <= game_now() {
                if let Event::Clock { running, white, .. } = &events[next].event {
                    reading = Some((
                        events[next].t,
                        game_now(),
                        white.remaining_ms,
                        running.is_some_and(|r| r.0 == Color::White),
                        wall_ms(),
                        events[next].clone(),
                    ));
                }
                m.send(&events[next..next + 1]);
                next += 1;
            }
            if let Some((t, sent, ms, runs, sent_wall, ref event)) = reading {
                let before = game_now();
                // The page's reading's instant beside what it shows: a
                // sample counts once the page has the reading sent last.
                // The page draws its clocks ten times a second; drawn now,
                // the figure is what the page's own reckoning gives at the
                // instant of the sample.
                let shown = js(
                    &c,
                    "drawClocks(); return [state && state.clock ? state.clock.t : -1, \
                     +document.getElementById('clock-white').dataset.ms, \
                     performance.timeOrigin + received]",
                )
                .await;
                let after = game_now();
                let (page_t, shown, came): (i64, f64, f64) =
                    serde_json::from_value(shown).expect("the reading and the clock");
                // A sample whose round trip took long says little of the
                // instant it was read at, and one whose reading was long on
                // its way (the server and the browser held back by a busy
                // machine) is one the page could only count from when it
                // came: both are left out.
                let at = (before + after) / 2;
                let server = if runs {
                    ms.saturating_sub(at.saturating_sub(sent))
                } else {
                    ms
                };
                if page_t == t as i64 && after - before <= 40 && came - sent_wall <= 40.0 {
                    worst = worst.max((shown as i64 - server as i64).abs());
                    samples += 1;
                } else if page_t == t as i64 && came - sent_wall > 40.0 && runs {
                    // The last reading came late, and the page counts it
                    // from when it came: the same clock, as it stands now,
                    // is handed over again for samples that can count.
                    let now = game_now();
                    let mut fresh = event.clone();
                    fresh.t = now;
                    let white_now = ms.saturating_sub(now.saturating_sub(sent));
                    if let Event::Clock { white, .. } = &mut fresh.event {
                        white.remaining_ms = white_now;
                    }
                    m.send(std::slice::from_ref(&fresh));
                    reading = Some((now, now, white_now, runs, wall_ms(), fresh));
                }
            }
            // The next sample in 100 ms, or the next event at its instant
            // if that comes first: events are handed over on time.
            let wake = events
                .get(next)
                .map_or(u64::MAX, |e| e.t)
                .min(game_now() + 100);
            tokio::time::sleep(Duration::from_millis(wake.saturating_sub(game_now()))).await;
        }
        eprintln!("the page's clock: at most {worst} ms off the server's over {samples} samples");
        assert!(samples >= 20, "{samples} samples");
        assert!(
            worst <= 100,
            "the page's clock was {worst} ms off the server's"
        );
        // The server is gone: the clocks stand, and the page says so.
        m.stop();
        shows(
            &c,
            "document.body.classList.contains('lost')",
            "the page shows the connection lost",
            |v| *v == json!(true),
        )
        .await;
        // (A reconnection the stopping server still answered may land
        // meanwhile; after half a second nothing can.)
        tokio::time::sleep(Duration::from_millis(500)).await;
        let first = js(
            &c,
            "return document.getElementById('clock-white').dataset.ms",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let later = js(
            &c,
            "return document.getElementById('clock-white').dataset.ms",
        )
        .await;
        assert_eq!(first, later, "a clock ran on without its server");
        assert!(
            !text(&c, "link").await.is_empty(),
            "no word of the lost connection"
        );
        screenshot(&c, "connection-lost").await;
        c.close().await.expect("closed");
    });
}

#[test]
fn the_clock_shown_runs_on_across_the_streams_renewals() {
    // The events up to the first clock reading with a clock running,
    // handed over together: the server's clock then runs from the instant
    // they are handed over.
    let events = events_of(TOUCHED, with_clock("300+3"));
    let first = events
        .iter()
        .position(|e| {
            matches!(
                &e.event,
                Event::Clock {
                    running: Some(_),
                    ..
                }
            )
        })
        .expect("a clock that runs");
    let (running, reading) = match &events[first].event {
        Event::Clock {
            running: Some(side),
            white,
            black,
            ..
        } => {
            let side = side.0;
            (
                side,
                if side == Color::White {
                    white.remaining_ms
                } else {
                    black.remaining_ms
                },
            )
        }
        _ => unreachable!("found above"),
    };
    let side = if running == Color::White {
        "white"
    } else {
        "black"
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        // A stream lives one second: the page opens it again and again.
        let lives = pegboard::net::limits::Lives {
            stream: Duration::from_secs(1),
            ..Default::default()
        };
        let m = Mirror::serve_living(&listen, &[], english(), Default::default(), lives)
            .expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        wait_until(
            &c,
            "return document.getElementById('clock-white') !== null",
            Duration::from_secs(10),
            "the page",
            |v| *v == json!(true),
        )
        .await;
        // A stream's planned end is no loss: the page never says it is
        // reconnecting, nor shows the game lost, while it opens the next.
        js(
            &c,
            "window.everLost = false; \
             new MutationObserver(() => { \
               if (document.body.classList.contains('lost') \
                   || document.getElementById('link').textContent) window.everLost = true; \
             }).observe(document.body, {attributes: true, childList: true, subtree: true, \
                                       characterData: true}); return 0",
        )
        .await;
        // The last event handed over is the reading itself.
        let mut batch = events[..=first].to_vec();
        let handed = Instant::now();
        m.send(&batch);
        batch.clear();
        // Four renewals later the clock has run on four seconds, as the
        // server's has: a page that took each renewal's state as the
        // reading's instant would show it less than a second run.
        tokio::time::sleep(Duration::from_millis(4500)).await;
        let before = handed.elapsed().as_millis() as i64;
        let shown = js(
            &c,
            &format!("drawClocks(); return +document.getElementById('clock-{side}').dataset.ms"),
        )
        .await;
        let after = handed.elapsed().as_millis() as i64;
        let shown = shown.as_f64().expect("ms") as i64;
        let server_then = reading as i64 - before;
        let server_later = reading as i64 - after;
        // The page counts from when the reading came to it, which is after
        // it was handed over: it may show up to that much more.
        assert!(
            shown <= server_then + 1000 && shown >= server_later - 100,
            "the page shows {shown} ms, the server's clock {server_later}..{server_then}"
        );
        assert_eq!(
            js(&c, "return window.everLost").await,
            json!(false),
            "a stream's renewal was shown as the server lost"
        );
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn a_screen_reader_hears_each_move_once_in_the_blind_players_words() {
    let events = events_of(TOUCHED, with_clock("300+3"));
    let said: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Move { say, .. } => Some(say.as_str().to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 2);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        shows(&c, "document.body.dataset.ply", "the first state", |v| *v == json!("0")).await;
        // Every change of every live region, as a screen reader is told.
        js(
            &c,
            "window.heard = []; const seen = new Map();\
             new MutationObserver(() => document.querySelectorAll('[aria-live]').forEach(r => {\
               if (seen.get(r) !== r.textContent) { seen.set(r, r.textContent); window.heard.push([r.id, r.textContent]); } }))\
             .observe(document.body, { subtree: true, childList: true, characterData: true });\
             document.querySelectorAll('[aria-live]').forEach(r => seen.set(r, r.textContent)); return 0",
        )
        .await;
        // One event at a time, as a game sends them: moves, clock presses,
        // touches with their status lines.
        for i in 0..events.len() {
            m.send(&events[i..=i]);
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        wait_ply(&c, 2).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let heard: Vec<(String, String)> =
            serde_json::from_value(js(&c, "return window.heard").await).expect("heard");
        let expected: Vec<(String, String)> = said
            .iter()
            .map(|s| ("spoken".to_string(), s.clone()))
            .collect();
        assert_eq!(heard, expected, "once per ply, the spoken words, no touch");
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn axe_core_finds_nothing_wrong_with_the_mirror_in_any_state_or_theme() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, view_in("de")).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        // A piece in the hand, a move to repeat, clocks running.
        m.send(&events_of(TOUCHED, with_clock("300+3")));
        wait_ply(&c, 2).await;
        every_theme(&c, "a piece touched").await;
        // A flag fallen, and the result.
        m.send(&events_of(
            FLAG_FALLS,
            with_clock("3"),
        ));
        shows(
            &c,
            "document.getElementById('result').textContent",
            "no result shown",
            |v| v.as_str().is_some_and(|k| k.contains("0-1")),
        )
        .await;
        every_theme(&c, "a flag and the result").await;
        // A board that differs from the game.
        m.send(&events_of(
            MOVED_WHILE_LOST,
            Settings::default(),
        ));
        shows(
            &c,
            "document.getElementById('status').dataset.kind",
            "no mismatch shown",
            |v| *v == json!("mismatch"),
        )
        .await;
        every_theme(&c, "a mismatch").await;
        // The server gone: the banner over a dimmed page.
        m.stop();
        shows(
            &c,
            "document.body.classList.contains('lost')",
            "the lost server never shown",
            |v| *v == json!(true),
        )
        .await;
        every_theme(&c, "reconnecting").await;
        // The check itself can fail: an image without words is found.
        js(&c, "const i = document.createElement('img'); i.id = 'bare'; i.src = 'data:,'; document.body.append(i); return 0").await;
        let found = browser::axe_violations(&c).await;
        assert!(
            found.iter().any(|v| v.starts_with("image-alt")),
            "{found:?}"
        );
        c.close().await.expect("closed");
    });
}

/// axe-core on the page as it stands, in the light and dark themes, each
/// with and without large type.
async fn every_theme(c: &Client, state: &str) {
    // The theme's classes only: a page's own ("lost") stays.
    let set = |body: &str, large: bool| {
        format!(
            "const b = document.body.classList; b.remove('light', 'dark'); {body} \
             document.documentElement.classList.toggle('large', {large}); return 0"
        )
    };
    for (theme, script) in [
        ("light", set("b.add('light');", false)),
        ("dark", set("b.add('dark');", false)),
        ("large type", set("b.add('light');", true)),
        ("dark, large type", set("b.add('dark');", true)),
    ] {
        js(c, &script).await;
        browser::accessible(c, &format!("{state}, {theme}")).await;
    }
    js(c, &set("", false)).await;
}

/// White's flag falls in a 3-second game, and the result shows.
const FLAG_FALLS: &str = r#"{"t":0,"trace":1,"start":"startpos","time_control":"3"}
{"t":3500,"input":"times"}"#;

/// Pieces moved while the board was disconnected: a mismatch (e4 and e5
/// filled, e2 and e7 empty).
const MOVED_WHILE_LOST: &str = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":500,"input":"board_lost"}
{"t":1000,"input":"board_back"}
{"t":1000,"occ":"ffef00101000efff"}"#;

/// A game where a king stands in check and a piece is held in the hand:
/// 1. e4 f6 2. Qh5+, then Black's g-pawn lifted to block.
const MARKED: &str = r#"{"t":0,"trace":1,"start":"startpos"}
{"t":1000,"lift":"e2"}
{"t":1100,"place":"e4"}
{"t":2000,"lift":"f7"}
{"t":2100,"place":"f6"}
{"t":3000,"lift":"d1"}
{"t":3100,"place":"h5"}
{"t":4000,"lift":"g7"}"#;

/// The WCAG contrast of every mark and every piece against its square, in
/// the page as it stands: `[what, square, ratio]`, the least for each.
const CONTRASTS: &str = "\
  const rgb = c => (c.match(/[0-9.]+/g) || []).slice(0, 3).map(Number);\
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };\
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };\
  const out = [];\
  for (const g of document.querySelectorAll('#board g')) {\
    const square = getComputedStyle(g.querySelector('rect')).fill;\
    for (const m of g.querySelectorAll('.mark')) {\
      const cs = getComputedStyle(m); const paint = cs.stroke !== 'none' ? cs.stroke : cs.fill;\
      out.push([m.getAttribute('class'), g.dataset.square, ratio(paint, square)]); }\
    const p = g.querySelector('text.piece');\
    if (p) { const cs = getComputedStyle(p); out.push(['piece', g.dataset.square, Math.max(ratio(cs.fill, square), ratio(cs.stroke, square))]); }\
  }\
  return out;";

#[test]
fn marks_and_pieces_stand_out_from_their_squares_in_every_theme() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        m.send(&events_of(MARKED, with_clock("300+3")));
        wait_ply(&c, 3).await;
        shows(&c, "document.querySelectorAll('.mark.held').length", "the held piece", |v| {
            *v == json!(1)
        })
        .await;
        for theme in ["light", "dark"] {
            js(&c, &format!("document.body.className = '{theme}'; return 0")).await;
            let found: Vec<(String, String, f64)> =
                serde_json::from_value(js(&c, CONTRASTS).await).expect("contrasts");
            for kind in ["mark last", "mark held", "mark check", "piece"] {
                assert!(
                    found.iter().any(|(k, _, _)| k == kind),
                    "{theme}: no {kind} on the board"
                );
            }
            // WCAG 1.4.11: graphics 3:1 against what is beside them.
            for (kind, square, ratio) in &found {
                assert!(*ratio >= 3.0, "{theme}: {kind} on {square}: {ratio:.2}:1");
            }
            screenshot(&c, &format!("marks-{theme}")).await;
        }
        // The marks differ in shape, not colour alone.
        let shapes = js(
            &c,
            "return ['last', 'held', 'check'].map(k => { const e = document.querySelector('.mark.' + k); \
             return [e.tagName, e.getAttribute('stroke-dasharray')]; })",
        )
        .await;
        assert_eq!(shapes, json!([["rect", null], ["rect", "6 4"], ["path", null]]));
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn large_type_grows_every_text_on_the_page() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser().await;
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        c.goto(&format!("http://{listen}/")).await.expect("page");
        m.send(&events_of(MARKED, with_clock("300+3")));
        wait_ply(&c, 3).await;
        let sizes = "return ['repeat-move', 'repeat-note', 'clock-white', 'status', 'moves', 'h-board', 'dark']\
                     .map(id => parseFloat(getComputedStyle(document.getElementById(id)).fontSize))";
        let before: Vec<f64> = serde_json::from_value(js(&c, sizes).await).expect("sizes");
        c.find(fantoccini::Locator::Id("large"))
            .await
            .expect("large")
            .click()
            .await
            .expect("clicked");
        let after: Vec<f64> = serde_json::from_value(js(&c, sizes).await).expect("sizes");
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            assert!(a / b >= 1.5, "text {i} grew from {b} px to {a} px only");
        }
        assert_eq!(
            js(&c, "return document.getElementById('large').getAttribute('aria-pressed')").await,
            json!("true")
        );
        screenshot(&c, "large-type").await;
        m.stop();
        c.close().await.expect("closed");
    });
}

#[test]
fn the_move_to_repeat_both_clocks_and_on_a_wide_screen_the_board_are_seen_without_scrolling() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let listen = format!("127.0.0.1:{}", free_port());
        let m = Mirror::start(&listen, english()).expect("mirror");
        m.send(&events_of(MARKED, with_clock("5400+30")));
        // 200 % zoom of a 1920 × 1080 screen lays the page out as a
        // 960 × 540 one at twice the pixels.
        for (name, w, h, ratio) in [
            ("1920x1080", 1920, 1080, 1.0),
            ("800x480", 800, 480, 1.0),
            ("390x844", 390, 844, 3.0),
            ("1920x1080-at-200", 960, 540, 2.0),
        ] {
            let c = driver.browser_sized(w, h, ratio).await;
            c.goto(&format!("http://{listen}/")).await.expect("page");
            wait_ply(&c, 3).await;
            let viewport: (f64, f64) =
                serde_json::from_value(js(&c, "return [innerWidth, innerHeight]").await)
                    .expect("viewport");
            assert_eq!(viewport, (w as f64, h as f64), "{name}");
            // The move to repeat and both clocks in view, and on a screen
            // wider than tall (the Pi's 800 × 480 too) the whole board
            // beside them; nothing overlaps anything else.
            let (seen, others): (&[&str], &[&str]) = if w > h {
                (
                    &["repeat", "clock-white", "clock-black", "board"],
                    &["status", "moves"],
                )
            } else {
                (
                    &["repeat", "clock-white", "clock-black"],
                    &["board", "status", "moves"],
                )
            };
            in_view_and_apart(&c, name, viewport, seen, others).await;
            // The two clocks on one line each, the same size.
            let clocks: Vec<f64> = serde_json::from_value(
                js(
                    &c,
                    "return ['clock-white', 'clock-black'].flatMap(id => {\
                       const e = document.getElementById(id), r = e.getBoundingClientRect();\
                       return [r.width, r.height, e.querySelector('.time').getClientRects().length]; })",
                )
                .await,
            )
            .expect("clocks");
            assert!((clocks[0] - clocks[3]).abs() < 1.0, "{name}: widths {clocks:?}");
            assert!((clocks[1] - clocks[4]).abs() < 1.0, "{name}: heights {clocks:?}");
            assert_eq!((clocks[2], clocks[5]), (1.0, 1.0), "{name}: a time wraps");
            screenshot(&c, &format!("size-{name}")).await;
            c.close().await.expect("closed");
        }
        m.stop();
    });
}
