//! A real browser for the tests: Debian's Chromium, headless, driven by
//! its chromedriver over WebDriver (fantoccini), and the waits the tests
//! share. `.ci/setup.sh` installs both packages; nothing is downloaded.
#![allow(dead_code)]

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// chromedriver on a port of its own, ended with the test, and every
/// browser it started with it: they share a process group of their own, so
/// a test that fails leaves no Chromium running behind it.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start() -> Driver {
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (.ci/setup.sh installs chromium-driver)");
        let began = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "chromedriver never listened"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }

    pub async fn browser(&self) -> Client {
        self.session(json!({})).await
    }

    /// A browser whose page is exactly `width` × `height` CSS pixels at
    /// `ratio` device pixels each (2.0: the browser zoomed to 200 %), as
    /// Chromium's device emulation lays it out.
    pub async fn browser_sized(&self, width: u32, height: u32, ratio: f64) -> Client {
        self.session(json!({
            "mobileEmulation": {
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": ratio }
            }
        }))
        .await
    }

    async fn session(&self, more: Value) -> Client {
        let mut options = json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1280,900"]
        });
        if let (Some(o), Value::Object(m)) = (options.as_object_mut(), more) {
            o.extend(m);
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a headless Chromium session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group: chromedriver and the browsers it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect("script runs")
}

/// Runs `script` every 20 ms until its value satisfies `ok`, and returns
/// that value; fails the test, saying `what` and the last value, after
/// `within`.
pub async fn wait_until(
    c: &Client,
    script: &str,
    within: Duration,
    what: &str,
    ok: impl Fn(&Value) -> bool,
) -> Value {
    let began = Instant::now();
    loop {
        let v = js(c, script).await;
        if ok(&v) {
            return v;
        }
        assert!(began.elapsed() < within, "{what}: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits up to 10 s until the page's `expression` (its value) satisfies
/// `ok`.
pub async fn shows(c: &Client, expression: &str, what: &str, ok: impl Fn(&Value) -> bool) {
    let script = format!("return {expression}");
    wait_until(c, &script, Duration::from_secs(10), what, ok).await;
}

/// Waits until the page shows `ply` moves.
pub async fn wait_ply(c: &Client, ply: u32) {
    let want = json!(ply.to_string());
    wait_until(
        c,
        "return document.body.dataset.ply || ''",
        Duration::from_secs(15),
        &format!("the page never showed ply {ply}"),
        |v| *v == want,
    )
    .await;
}

pub async fn text(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id))
        .await
        .expect("element")
        .text()
        .await
        .expect("text")
}

pub async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("a screenshot");
    let dir = format!("{}/target/mirror-screenshots", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(format!("{dir}/{name}.png"), png).expect("written");
}

/// Fails the test, naming `screen`, unless each element of `seen` (by
/// id) lies wholly within `viewport` (width, height) without scrolling,
/// and no element of `seen` and `others` overlaps another.
pub async fn in_view_and_apart(
    c: &Client,
    screen: &str,
    viewport: (f64, f64),
    seen: &[&str],
    others: &[&str],
) {
    let ids: Vec<&str> = seen.iter().chain(others).copied().collect();
    let boxes: Vec<(String, f64, f64, f64, f64)> = serde_json::from_value(
        c.execute(
            "return arguments[0].map(id => {\
               const r = document.getElementById(id).getBoundingClientRect();\
               return [id, r.left, r.top, r.right, r.bottom]; })",
            vec![json!(ids)],
        )
        .await
        .expect("script runs"),
    )
    .expect("boxes");
    for (id, left, top, right, bottom) in &boxes[..seen.len()] {
        assert!(
            *left >= 0.0 && *top >= 0.0 && *right <= viewport.0 && *bottom <= viewport.1,
            "{screen}: {id} is not all in view: {left} {top} {right} {bottom} in {viewport:?}"
        );
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart = a.3 <= b.1 || b.3 <= a.1 || a.4 <= b.2 || b.4 <= a.2;
            assert!(apart, "{screen}: {} overlaps {}", a.0, b.0);
        }
    }
}

/// axe-core (vendored, `tests/vendor/axe-core`), for the checks below.
const AXE: &str = include_str!("../vendor/axe-core/axe.min.js");

/// What axe-core finds wrong with the page as it stands, against WCAG 2.2
/// levels A and AA: each rule broken, with the elements that break it.
#[allow(dead_code)]
pub async fn axe_violations(c: &Client) -> Vec<String> {
    if js(c, "return typeof window.axe").await != json!("object") {
        c.execute(AXE, vec![]).await.expect("axe-core loads");
    }
    let found = c
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             axe.run(document, { runOnly: { type: 'tag', values: \
               ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] } })\
             .then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' [' + \
               v.nodes.map(n => n.target.join(' ')).join(', ') + ']')))\
             .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    serde_json::from_value(found).expect("a list")
}

/// Fails the test, naming `state`, if axe-core finds anything.
#[allow(dead_code)]
pub async fn accessible(c: &Client, state: &str) {
    let found = axe_violations(c).await;
    assert!(found.is_empty(), "{state}: {found:#?}");
}
