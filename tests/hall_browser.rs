//! The arbiter's hall view in a real browser (Debian's Chromium over
//! WebDriver, as the mirror's tests): 24 boards, each a real mirror
//! serving a real game replayed into it, followed by a real `pegboard
//! hall`. The view must show every board at 1920 × 1080 without
//! scrolling, what needs the arbiter first, and be readable on a phone;
//! axe-core finds nothing wrong with it in either theme. Screenshots are
//! left in `target/mirror-screenshots/`.

use std::io::BufRead as _;
use std::time::Duration;

mod common;

use fantoccini::Client;
use pegboard::mirror::Mirror;
use serde_json::json;

#[path = "support/browser.rs"]
mod browser;
use browser::{Driver, in_view_and_apart, js, screenshot, wait_until};

#[path = "support/mirror.rs"]
mod mirror_view;

#[path = "support/round.rs"]
mod round;
use round::{board_events, games, scoresheet};

/// 24 mirrors, each showing its game; boards 3, 7 and 12 need the arbiter
/// (a call, the sensors lost, a touch reported).
fn boards() -> Vec<Mirror> {
    let games = games();
    assert!(games.len() >= 24, "{} games", games.len());
    (0..24)
        .map(|i| {
            let more: &[&str] = match i + 1 {
                3 => &["\"input\":\"call_arbiter\""],
                7 => &["\"input\":\"board_lost\""],
                12 => &["\"input\":\"touch_report\",\"color\":\"black\""],
                _ => &[],
            };
            let events = board_events(&games[i], i, more);
            let m = Mirror::start("127.0.0.1:0", mirror_view::view_in("en")).expect("mirror");
            m.send(&events);
            m.scoresheet(scoresheet(&games[i], &events));
            m
        })
        .collect()
}

/// The hub following `boards`, its page in `language`.
fn hub(boards: &[Mirror], language: &str) -> (common::Reaped, String) {
    let dir = common::empty_dir(&format!("hall-browser-{language}"));
    let mut text = format!(
        "language = \"{language}\"\n[hall]\nlisten = \"127.0.0.1:0\"\nevent = \"IBCA Open\"\n\
         round = \"5\"\n"
    );
    for (i, m) in boards.iter().enumerate() {
        text.push_str(&format!(
            "[[hall.boards]]\nnumber = {}\naddress = \"{}\"\n",
            i + 1,
            m.addr()
        ));
    }
    let config = dir.join("hall.toml");
    std::fs::write(&config, text).expect("config");
    let mut child = common::Reaped(
        common::pegboard_command()
            .args(["hall", "--config"])
            .arg(&config)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("hall starts"),
    );
    let mut err = std::io::BufReader::new(child.0.stderr.take().expect("stderr"));
    let mut line = String::new();
    loop {
        line.clear();
        assert!(err.read_line(&mut line).expect("a line") > 0, "no address");
        if let Some((_, rest)) = line.split_once("http://") {
            let addr = rest.split('/').next().unwrap_or_default().to_string();
            std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
            return (child, addr);
        }
    }
}

/// Waits until the page shows all 24 boards with their positions and
/// three needs.
async fn all_shown(c: &Client) {
    wait_until(
        c,
        "return [document.querySelectorAll('.tile svg g').length, \
                 [...document.querySelectorAll('#needs li')].map(l => l.textContent)]",
        Duration::from_secs(60),
        "the 24 boards and their needs never shown",
        |v| v[0] == json!(24 * 64) && v[1].as_array().is_some_and(|n| n.len() == 3),
    )
    .await;
}

async fn both_themes(c: &Client, screen: &str) {
    for theme in ["light", "dark"] {
        js(
            c,
            &format!(
                "const b = document.body.classList; b.remove('light', 'dark'); \
                 b.add('{theme}'); return 0"
            ),
        )
        .await;
        browser::accessible(c, &format!("{screen}, {theme}")).await;
        screenshot(c, &format!("hall-{}-{theme}", screen.replace(' ', "-"))).await;
    }
}

#[test]
fn the_hall_view_shows_24_boards_at_once_what_needs_the_arbiter_first_and_reads_on_a_phone() {
    let boards = boards();
    let (_hub, addr) = hub(&boards, "en");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        // A hall's screen: 1920 × 1080.
        let c = driver.browser_sized(1920, 1080, 1.0).await;
        c.goto(&format!("http://{addr}/")).await.expect("page");
        all_shown(&c).await;
        let mut ids: Vec<String> = vec!["needs-section".into()];
        ids.extend((1..=24).map(|n| format!("board-{n}")));
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        in_view_and_apart(&c, "24 boards at 1920 × 1080", (1920.0, 1080.0), &ids, &[]).await;
        // The needs, the call first, each naming its board; and the
        // boards marked in words as well as by their frame.
        let needs = js(
            &c,
            "return [...document.querySelectorAll('#needs li')].map(l => l.textContent)",
        )
        .await;
        let needs: Vec<String> = serde_json::from_value(needs).expect("texts");
        assert!(
            needs[0].starts_with("Board 3 (") && needs[0].contains("The arbiter is called"),
            "{needs:?}"
        );
        assert!(
            needs[1].starts_with("Board 7 (") && needs[1].contains("sensors are lost"),
            "{needs:?}"
        );
        assert!(
            needs[2].starts_with("Board 12 (") && needs[2].contains("Touch-move: Black"),
            "{needs:?}"
        );
        let marked = js(
            &c,
            "return [...document.querySelectorAll('.tile.needs')].map(t => t.id + ': ' + \
             t.querySelector('.marks').textContent)",
        )
        .await;
        let marked: Vec<String> = serde_json::from_value(marked).expect("texts");
        assert_eq!(marked.len(), 3, "{marked:?}");
        assert!(marked[0].starts_with("board-3: The arbiter is called"), "{marked:?}");
        // Each tile's last move is the board's, in figurines.
        let wrong = c
            .execute_async(
                "const done = arguments[arguments.length - 1]; \
                 fetch('/state').then(r => r.json()).then(v => done(v.boards.filter(b => \
                   !document.querySelector('#board-' + b.number + ' .last-move').textContent \
                   .endsWith(' ' + b.last_move.figurine)).map(b => b.number)));",
                vec![],
            )
            .await
            .expect("script runs");
        assert_eq!(wrong, json!([]), "tiles without their last move");
        // Every text is at least 12 px at this size.
        let smallest = js(
            &c,
            "return Math.min(...[...document.querySelectorAll('#boards *, #needs li')] \
             .filter(e => e.childNodes.length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) \
             .map(e => parseFloat(getComputedStyle(e).fontSize)))",
        )
        .await;
        assert!(smallest.as_f64().is_some_and(|px| px >= 12.0), "{smallest}");
        both_themes(&c, "1920x1080").await;
        c.close().await.expect("closed");
        // A phone: one column, nothing wider than the screen.
        let c = driver.browser_sized(390, 844, 3.0).await;
        c.goto(&format!("http://{addr}/")).await.expect("page");
        all_shown(&c).await;
        let wide = js(
            &c,
            "return [document.documentElement.scrollWidth, window.innerWidth, \
             Math.max(...[...document.querySelectorAll('.tile')].map(t => t.getBoundingClientRect().right))]",
        )
        .await;
        let wide: Vec<f64> = serde_json::from_value(wide).expect("widths");
        assert!(
            wide[0] <= wide[1] && wide[2] <= wide[1],
            "wider than the phone: {wide:?}"
        );
        in_view_and_apart(&c, "the phone", (390.0, 844.0), &["needs-section"], &["board-1", "board-2"]).await;
        both_themes(&c, "phone").await;
        c.close().await.expect("closed");
    });
}

#[test]
fn a_board_that_stops_is_shown_lost_on_the_hall_view_and_the_view_speaks_the_configured_language() {
    let mut boards = boards();
    let (_hub, addr) = hub(&boards, "de");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let driver = Driver::start();
        let c = driver.browser_sized(1920, 1080, 1.0).await;
        c.goto(&format!("http://{addr}/")).await.expect("page");
        all_shown(&c).await;
        assert_eq!(js(&c, "return document.documentElement.lang").await, "de");
        assert_eq!(js(&c, "return document.title").await, "Saalansicht");
        // Board 20's pegboard ends.
        boards.remove(19).stop();
        let lost = wait_until(
            &c,
            "const t = document.getElementById('board-20'); \
             return [t.classList.contains('lost'), t.querySelector('.marks').textContent]",
            Duration::from_secs(60),
            "board 20 never shown lost",
            |v| v[0] == json!(true),
        )
        .await;
        assert!(
            lost[1]
                .as_str()
                .is_some_and(|t| t.starts_with("Das Brett ist nicht erreichbar")),
            "{lost}"
        );
        // Its position stays shown as last seen.
        assert_eq!(
            js(
                &c,
                "return document.querySelectorAll('#board-20 svg g').length"
            )
            .await,
            json!(64)
        );
        browser::accessible(&c, "a board lost").await;
        c.close().await.expect("closed");
    });
}
