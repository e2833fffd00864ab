//! `pegboard hall`: the hub's loop. A follower thread per board hands in
//! what each board serves; the loop keeps the [`Hall`], and hands its view
//! and round to the server at each change and every second (what needs
//! the arbiter ages, and a delayed move comes due), and the round to the
//! broadcast's pusher when it changed. The hub keeps nothing of its own:
//! started again, it has everything back from the boards.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::hall::follow::Follower;
use crate::hall::push::Pusher;
use crate::hall::server::HallServer;
use crate::hall::{Hall, section};
use crate::net::limits::Lives;

use super::station::Stop;
use super::{Error, Result};

/// How often the view is made again without news.
const EVERY: Duration = Duration::from_secs(1);

/// The hub, running.
pub struct Hub {
    server: HallServer,
    pusher: Option<Pusher>,
    stop_followers: Arc<AtomicBool>,
    fingerprint: Option<String>,
}

impl Hub {
    pub fn addr(&self) -> std::net::SocketAddr {
        self.server.addr()
    }

    /// Where the hall view is: `https://ADDR` or `http://ADDR`.
    pub fn url(&self) -> String {
        self.server.url()
    }

    /// Where the round's games alone are served for a broadcast, if
    /// anywhere.
    pub fn broadcast_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.broadcast_addr()
    }

    /// Over HTTPS, its certificate's SHA-256 fingerprint.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_deref()
    }
}

/// With `[https] listen`: the hall view over HTTPS (the plain `listen`
/// only redirecting), with the certificate's fingerprint.
fn secure(
    config: &Config,
    listen: &str,
) -> Result<(Option<crate::mirror::Secure>, Option<String>)> {
    if config.https.listen.trim().is_empty() {
        return Ok((None, None));
    }
    let dir = super::keeper::journal_dir(config).unwrap_or_else(|| ".".into());
    let identity = crate::net::tls::Identity::configured(&config.https, &dir, &config.hall.hosts)
        .map_err(Error::Tls)?;
    let secure = crate::mirror::Secure {
        tls: identity.server_config().map_err(Error::Tls)?,
        redirect_from: listen.to_string(),
    };
    Ok((Some(secure), Some(identity.fingerprint())))
}

/// Starts the hub on `config` (`listen` instead of `[hall] listen`):
/// its server, its pusher and a follower per board; the hall they fill,
/// and what the followers hand in.
pub fn start(config: &Config, listen: Option<&str>) -> Result<(Hub, Hall, Receiver)> {
    let words = super::parts::phrasebook(config)?;
    let hall = &config.hall;
    if hall.boards.is_empty() {
        return Err(Error::Config(
            config.error(crate::text::key::KeyProblem::at(
                &["hall"],
                "[hall] lists no boards: add a [[hall.boards]] table for each board, with its \
             number and address"
                    .into(),
            )),
        ));
    }
    let listen = listen.unwrap_or(&hall.listen);
    let (secure, fingerprint) = secure(config, listen)?;
    let served_on = match &secure {
        Some(_) => config.https.listen.as_str(),
        None => listen,
    };
    let server = HallServer::start(
        served_on,
        &hall.broadcast_listen,
        &hall.hosts,
        &words.words,
        Lives::default(),
        secure,
    )
    .map_err(Error::Serve)?;
    let pusher = match &hall.push {
        None => None,
        Some(push) => {
            let path = std::path::Path::new(&push.token_file);
            let token = crate::lichess::token::load(path)
                .map_err(Error::Token)?
                .ok_or_else(|| {
                    Error::Token(crate::lichess::token::TokenError(format!(
                        "{}: no broadcast token is kept there ([hall.push] token_file): make \
                         one on lichess with the study:write scope and keep it with `pegboard \
                         hall --keep-token`",
                        push.token_file
                    )))
                })?;
            let after_429 = Duration::from_secs(u64::from(push.retry_after_429_s));
            let pusher = Pusher::start(&push.server, &push.round, token, after_429)
                .map_err(|e| Error::Serve(crate::net::Error::Start(e)))?;
            Some(pusher)
        }
    };
    let (tx, rx) = crossbeam_channel::unbounded();
    let stop_followers = Arc::new(AtomicBool::new(false));
    for (i, b) in hall.boards.iter().enumerate() {
        let url = section::base_url(&b.address).map_err(|e| {
            Error::Config(config.error(crate::text::key::KeyProblem::at(
                &["hall", "boards", &i.to_string(), "address"],
                e.0,
            )))
        })?;
        Follower::start(
            i,
            url,
            &b.fingerprint,
            tx.clone(),
            Arc::clone(&stop_followers),
        )
        .map_err(|e| Error::Serve(crate::net::Error::Start(e)))?;
    }
    Ok((
        Hub {
            server,
            pusher,
            stop_followers,
            fingerprint,
        },
        Hall::new(hall, 0),
        rx,
    ))
}

/// What `check-config` checks of a hub's file beyond the file itself:
/// a certificate it names must serve; a broadcast token not yet kept is a
/// warning (it is kept with `pegboard hall --keep-token`).
pub fn usable(config: &Config) -> Result<Vec<String>> {
    if !config.https.certificate.is_empty() {
        crate::net::tls::Identity::read(
            std::path::Path::new(&config.https.certificate),
            std::path::Path::new(&config.https.key),
        )
        .and_then(|i| i.server_config().map(drop))
        .map_err(Error::Tls)?;
    }
    let mut warnings = Vec::new();
    if let Some(push) = &config.hall.push {
        match crate::lichess::token::load(std::path::Path::new(&push.token_file)) {
            Ok(Some(_)) => {}
            Ok(None) => warnings.push(format!(
                "{}: no broadcast token is kept there yet ([hall.push] token_file): keep one \
                 with `pegboard hall --keep-token`",
                push.token_file
            )),
            Err(e) => return Err(Error::Token(e)),
        }
    }
    Ok(warnings)
}

/// What the followers hand in.
pub type Receiver = crossbeam_channel::Receiver<crate::hall::follow::Report>;

/// The shortest time between two views: news within it waits for the
/// next, so that 24 boards' reports make 20 views a second at most.
const GATHER: Duration = Duration::from_millis(50);

/// Runs the hub until `stop`: the view made anew at news (gathered for
/// [`GATHER`]) and every second; the round anew when a scoresheet came,
/// and every second (a delayed move comes due).
pub fn run(hub: Hub, mut hall: Hall, reports: Receiver, stop: &Stop) {
    let begun = Instant::now();
    let now = || begun.elapsed().as_millis() as u64;
    let mut view_made = Instant::now() - EVERY;
    let mut round_made = Instant::now() - EVERY;
    let mut news = false;
    let mut scoresheet = false;
    let mut round = String::new();
    let mut round_offered = String::new();
    while !stop.now() {
        let gap = if news { GATHER } else { EVERY };
        let wait = gap.saturating_sub(view_made.elapsed());
        if !wait.is_zero() {
            match reports.recv_timeout(wait.min(Duration::from_millis(100))) {
                Ok(report) => {
                    news = true;
                    scoresheet |= hall.take(report, now());
                    while let Ok(report) = reports.try_recv() {
                        scoresheet |= hall.take(report, now());
                    }
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            continue;
        }
        view_made = Instant::now();
        news = false;
        let t = now();
        if scoresheet || round_made.elapsed() >= EVERY {
            round = hall.round_pgn(t);
            round_made = Instant::now();
            scoresheet = false;
        }
        let mut view = hall.view(t);
        if let Some(p) = &hub.pusher {
            view["push"] = serde_json::json!(p.state());
        }
        hub.server.publish(&view.to_string(), &round);
        if let Some(p) = &hub.pusher
            && round != round_offered
        {
            p.offer(&round);
            round_offered.clone_from(&round);
        }
    }
    hub.stop_followers.store(true, Ordering::SeqCst);
    if let Some(p) = hub.pusher {
        p.stop();
    }
    hub.server.stop();
}
