//! `pegboard replay`.

use std::io::{BufReader, Write};
use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::load_config;
use pegboard::core::BLIND_BOARD;
use pegboard::runtime::parts;
use pegboard::runtime::replay::{self, ReplayError, Until};
use pegboard::trace;

#[derive(ClapArgs)]
pub struct Args {
    /// The trace file, or - for standard input.
    trace: String,
    /// A configuration file (see config/pegboard.toml).
    #[arg(long)]
    config: Option<String>,
    /// Let simulated time run on to this instant (ms since the trace
    /// began) after the last line, firing the timers due by then.
    #[arg(long, value_name = "T")]
    until: Option<u64>,
    /// Serve the mirror's page with the state at the end of the trace, on
    /// ADDR (default: [mirror] listen, 127.0.0.1:8080), until q and Enter
    /// or Ctrl-C.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    mirror: Option<String>,
}

/// `pegboard replay`: streams the trace through the controller, writing
/// each line's events as soon as it is read.
pub fn run(a: Args) -> ExitCode {
    let (path, config, until) = (a.trace.as_str(), a.config.as_deref(), a.until);
    let config = match load_config(config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pegboard replay: {e}");
            return ExitCode::from(2);
        }
    };
    let words = match parts::phrasebook(&config) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("pegboard replay: {e}");
            return ExitCode::from(2);
        }
    };
    let name = if path == "-" { "<stdin>" } else { path };
    // A journal is a trace with a record's frame around each line.
    let journal =
        path != "-" && pegboard::record::journal::store::is_journal(std::path::Path::new(path));
    let lines: Box<dyn Iterator<Item = Result<trace::Entry, trace::TraceError>>> = if journal {
        match pegboard::record::journal::store::load_file(std::path::Path::new(path)) {
            Ok(loaded) => {
                let damage = pegboard::record::journal::store::trace_error(&loaded);
                Box::new(loaded.entries.into_iter().map(Ok).chain(damage.map(Err)))
            }
            Err(e) => {
                eprintln!("pegboard replay: {e}");
                return ExitCode::from(2);
            }
        }
    } else if path == "-" {
        Box::new(trace::Reader::new(std::io::stdin().lock(), name))
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(trace::Reader::new(BufReader::new(f), name)),
            Err(e) => {
                eprintln!("pegboard replay: {path}: cannot be opened: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let mirror = match a.mirror.as_deref() {
        Some(addr) => {
            let listen = config.mirror.address(addr);
            let view = parts::mirror_view(&config, &words.words);
            let routes = Default::default();
            match pegboard::mirror::Mirror::serve(&listen, &config.mirror.hosts, view, routes) {
                Ok(m) => Some(m),
                Err(e) => {
                    eprintln!("pegboard replay: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        None => None,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    let sink = |events: &[pegboard::core::Stamped]| {
        if let Some(m) = &mirror {
            m.send(events);
        }
        for e in events {
            line.clear();
            // Events are plain data; they always serialize.
            if let Ok(text) = serde_json::to_string(e) {
                line.push_str(&text);
            }
            writeln!(out, "{line}")?;
        }
        Ok(())
    };
    let until = until.map_or(Until::LastLine, Until::At);
    let result = replay::stream(
        lines,
        name,
        parts::settings(&config),
        words,
        &[BLIND_BOARD],
        until,
        sink,
    );
    let flushed = out.flush();
    drop(out);
    if let Some(m) = mirror {
        eprintln!(
            "pegboard replay: the mirror shows the end of the trace at http://{}/ (q and Enter, \
             or Ctrl-C, to stop)",
            m.addr()
        );
        let stop = pegboard::runtime::station::Stop::new(None, true);
        while !stop.now() {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        m.stop();
    }
    match result {
        Ok(done) => {
            if flushed.is_err() {
                return ExitCode::FAILURE;
            }
            match done.torn {
                Some(e) => {
                    eprintln!(
                        "pegboard replay: {e} (the recording's last line is damaged, as a \
                         power cut leaves it; everything before it was replayed)"
                    );
                    ExitCode::from(3)
                }
                None => ExitCode::SUCCESS,
            }
        }
        Err(ReplayError::Trace(e)) => {
            eprintln!("pegboard replay: {e}");
            ExitCode::from(2)
        }
        Err(ReplayError::Write(_)) => ExitCode::FAILURE,
    }
}
