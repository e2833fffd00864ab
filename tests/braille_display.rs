//! The refreshable Braille display held against a real brltty (Debian's,
//! with its Virtual driver, which the test plays as the display): what
//! pegboard shows reaches the display's cells, the display's routing keys
//! and commands reach pegboard, and a brltty that stops is seen as a lost
//! display, not a crash.

#[path = "support/brltty.rs"]
mod brltty;

use std::time::Duration;

use brltty::Brltty;
use pegboard::braille::brlapi::{Display, Key};
use pegboard::braille::cell;

/// A BrlAPI host number of this test binary's own, away from brltty's
/// default (0) and from other tests'.
fn number(n: u16) -> u16 {
    40 + (std::process::id() % 50) as u16 * 4 + n
}

#[test]
fn what_pegboard_shows_reaches_the_cells_and_the_keys_come_back() {
    let mut brltty = Brltty::start("show", number(0), 20);
    let mut display =
        Display::open(&brltty.host, "none", Duration::from_secs(10)).expect("the display opens");
    assert_eq!(display.cells(), 20);
    // "12. Nf3" in North American Braille ASCII, as cells.
    let cells = cell::from_ascii("#AB4 ,NF#C").expect("cells");
    display.show(&cells).expect("shown");
    let expected: Vec<String> = cells
        .iter()
        .map(|c| c.dots())
        .chain(std::iter::repeat(String::new()))
        .take(20)
        .collect();
    let shown = brltty.shown_until(Duration::from_secs(5), |c| c == expected.as_slice());
    assert_eq!(shown, expected);

    // The routing key over cell 5, and two of brltty's commands.
    // One at a time, as hands press them: the Virtual driver reads the
    // display's lines at its own pace and loses those that come at once.
    for key in ["route 5", "fwinrt", "key_enter"] {
        brltty.press(key);
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut keys = Vec::new();
    let began = std::time::Instant::now();
    while keys.len() < 3 {
        // None: no key yet (or another of brltty's packets came first).
        if let Some(k) = display.key(500).expect("a key is read") {
            keys.push(k);
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "only {keys:?} came"
        );
    }
    assert_eq!(keys[0], Key::Route(5));
    assert!(
        matches!(
            keys[1],
            Key::Command {
                block: 0,
                argument: 24
            }
        ),
        "{keys:?}"
    );
    assert_eq!(keys[2], Key::Sym(0xFF0D));
}

#[test]
fn a_brltty_that_stops_is_a_lost_display_not_a_crash() {
    let mut brltty = Brltty::start("stop", number(1), 12);
    let mut display =
        Display::open(&brltty.host, "none", Duration::from_secs(10)).expect("the display opens");
    brltty.stop();
    let e = loop {
        match display.key(2000) {
            Ok(Some(_)) | Ok(None) => continue,
            Err(e) => break e,
        }
    };
    assert!(e.is_lost(), "{e:?}");
    assert!(display.show(&[]).is_err(), "nothing more is written");
    // And a display that is not there is an error that says so.
    let none = Display::open(
        &format!("127.0.0.1:{}", number(3)),
        "none",
        Duration::from_secs(1),
    );
    let e = none.err().expect("no brltty there");
    assert!(e.to_string().contains("connecting"), "{e}");
}
