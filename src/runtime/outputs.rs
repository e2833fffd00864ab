//! Events to the people: each event printed as a line (and, with
//! `--events`, as a JSON line), the printing every run loop shares.

use std::io::Write;

use shakmaty::ByColor;

use crate::announce::Narrator;
use crate::core::clock::Face;
use crate::core::{Controller, Event, Input, Stamped};
use crate::display::TerminalDisplay;
use crate::mirror::Mirror;
use crate::runtime::voices::Voices;

/// Where the pages are served: the plain address (`[mirror] listen`, or
/// the command line's), the host names answered to, and, with `[https]
/// listen`, HTTPS there (the plain address then only redirects), its
/// self-signed certificate kept in `dir`.
pub struct Serving<'a> {
    pub listen: &'a str,
    pub hosts: &'a [String],
    pub https: Option<(&'a crate::net::tls::HttpsConfig, std::path::PathBuf)>,
}

impl<'a> Serving<'a> {
    /// As `config` says.
    pub fn of(config: &'a crate::config::Config) -> Serving<'a> {
        let https = (!config.https.listen.trim().is_empty()).then(|| {
            let dir = super::keeper::journal_dir(config).unwrap_or_else(|| ".".into());
            (&config.https, dir)
        });
        Serving {
            listen: &config.mirror.listen,
            hosts: &config.mirror.hosts,
            https,
        }
    }

    /// Plain HTTP on `listen`.
    pub fn plain(listen: &'a str, hosts: &'a [String]) -> Serving<'a> {
        Serving {
            listen,
            hosts,
            https: None,
        }
    }

    /// The mirror on its server, with `routes`: over HTTPS when asked,
    /// with the certificate's fingerprint.
    fn start(
        &self,
        view: crate::mirror::View,
        routes: crate::net::request::Routes,
    ) -> Result<(Mirror, Option<String>), String> {
        let lives = crate::net::limits::Lives::default();
        let Some((https, dir)) = &self.https else {
            return Mirror::serve(self.listen, self.hosts, view, routes)
                .map(|m| (m, None))
                .map_err(|e| e.to_string());
        };
        let identity =
            crate::net::tls::Identity::configured(https, dir, self.hosts).map_err(|e| e.0)?;
        let secure = crate::mirror::Secure {
            tls: identity.server_config().map_err(|e| e.0)?,
            redirect_from: self.listen.to_string(),
        };
        Mirror::serve_secure(&https.listen, self.hosts, view, routes, lives, Some(secure))
            .map(|m| (m, Some(identity.fingerprint())))
            .map_err(|e| e.to_string())
    }
}

/// The mirror `serving` asks for, showing `history` (a resumed game's
/// events before the restart) from the start. One that cannot start is
/// told on `out` and left out: the game goes on without it.
pub fn open_mirror(
    serving: &Serving,
    view: crate::mirror::View,
    door: Option<crate::console::Door>,
    history: &[Stamped],
    out: &mut dyn Write,
) -> std::io::Result<Option<Mirror>> {
    if serving.listen.trim().is_empty() && serving.https.is_none() {
        return Ok(None);
    }
    let console = door.is_some();
    let routes = door
        .map(|d| crate::console::routes(d, view.console_page.clone(), view.written.clone()))
        .unwrap_or_default();
    match serving.start(view, routes) {
        Ok((m, fingerprint)) => {
            // A resumed game's events first, before its address is told.
            m.send(history);
            writeln!(out, "pegboard: the mirror is at {}/", m.url())?;
            if let Some(f) = fingerprint {
                writeln!(
                    out,
                    "pegboard: its certificate's SHA-256 fingerprint is {f} (pegboard                      console-token prints it too)"
                )?;
            }
            if console {
                writeln!(
                    out,
                    "pegboard: the console is at {}/console (its secret: pegboard                      console-token)",
                    m.url()
                )?;
            }
            Ok(Some(m))
        }
        Err(e) => {
            writeln!(out, "pegboard: {e}; the game goes on without the mirror")?;
            Ok(None)
        }
    }
}

fn clock(t: u64) -> String {
    format!("{:02}:{:02}.{:03}", t / 60_000, (t / 1000) % 60, t % 1000)
}

/// The clock as an event shows it.
fn face_of(event: &Event) -> Option<Face> {
    match event {
        Event::Clock {
            running,
            paused,
            white,
            black,
            ..
        } => Some(Face {
            running: running.map(|s| s.0),
            paused: *paused,
            remaining: ByColor {
                white: white.remaining_ms,
                black: black.remaining_ms,
            },
            moves: ByColor {
                white: white.moves,
                black: black.moves,
            },
            periods: ByColor {
                white: white.period,
                black: black.period,
            },
            flags: ByColor {
                white: white.flag,
                black: black.flag,
            },
        }),
        _ => None,
    }
}

/// Prints one event: the announcement as the player hears it, a touch
/// or the clock as a note, nothing for the rest; with `json` its JSON line
/// first.
pub fn print_event(out: &mut dyn Write, e: &Stamped, json: bool) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(e).unwrap_or_default())?;
    }
    let t = clock(e.t);
    match &e.event {
        Event::Ready { .. } => Ok(()),
        Event::Clock { .. } => match face_of(&e.event) {
            Some(face) => {
                let line = TerminalDisplay::new(std::io::sink(), "White", "Black").line(&face);
                writeln!(out, "[{t}]   ({line})")
            }
            None => Ok(()),
        },
        Event::Touch { square, piece, .. } => {
            writeln!(out, "[{t}]   (touched {piece} on {square})")
        }
        Event::TouchReported { color } => {
            let who = if color.0 == shakmaty::Color::White {
                "White"
            } else {
                "Black"
            };
            writeln!(
                out,
                "[{t}]   (the assistant reports a touch by {who}, for the arbiter)"
            )
        }
        Event::Move { ply, san, say, .. } => {
            let number = ply.div_ceil(2);
            let dots = if ply % 2 == 1 { "." } else { "..." };
            writeln!(out, "[{t}] {number}{dots} {san:<8} « {} »", say.as_str())
        }
        other => match other.spoken() {
            Some(text) => writeln!(out, "[{t}] {:<12} « {text} »", other.name()),
            None => Ok(()),
        },
    }
}

/// Where inputs that the outputs cause go in: the controller itself, or
/// the keeper that journals what it is fed; and who puts the game's facts
/// into words, in the game's language.
pub trait Door {
    fn input(&mut self, t: u64, input: Input, out: &mut Vec<Stamped>);
    /// Makes the words of what `events` say as facts.
    fn tell(&mut self, events: &mut [Stamped]);
}

/// A controller with the narrator that puts its events in words: a door
/// that journals nothing (the demo's).
pub struct Narrated<'a> {
    pub controller: &'a mut Controller,
    pub narrator: &'a mut Narrator,
}

impl Door for Narrated<'_> {
    fn input(&mut self, t: u64, input: Input, out: &mut Vec<Stamped>) {
        self.controller.input(t, input, out);
    }

    fn tell(&mut self, events: &mut [Stamped]) {
        self.narrator.tell(events);
    }
}

/// Hands every event to the outputs, and the events they lead to: each is
/// printed, shown on the Braille display, and said by `voices`. Without
/// voices the printed line is the announcement, so a move counts as
/// announced as it is printed (E2.3c); with Braille alone, the display's
/// showing it is (the display's thread reports it).
pub fn emit(
    door: &mut dyn Door,
    events: &mut Vec<Stamped>,
    voices: Option<&Voices>,
    mirror: Option<&Mirror>,
    braille: Option<&crate::runtime::braille::BrailleDisplay>,
    out: &mut dyn Write,
    json: bool,
) -> std::io::Result<()> {
    let display_announces = braille.is_some_and(|b| b.announces());
    while !events.is_empty() {
        let mut batch = std::mem::take(events);
        // The words are made here, at the edge, before any output sees
        // the events.
        door.tell(&mut batch);
        if let Some(m) = mirror {
            m.send(&batch);
        }
        if let Some(b) = braille {
            b.show(&batch);
        }
        for e in batch {
            print_event(out, &e, json)?;
            match voices {
                Some(v) => v.say(&e),
                None if display_announces => {}
                None => {
                    if let Event::Move { ply, .. } = e.event {
                        door.input(e.t, Input::Announced(ply), events);
                    }
                }
            }
        }
    }
    Ok(())
}
