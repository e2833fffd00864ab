//! What every benchmark shares: its two lengths of run and its targets.
//!
//! `cargo bench --bench NAME` is the full run, whose figures the README's
//! performance table gives. With `PEGBOARD_BENCH_SMOKE=1` the same
//! benchmark makes a short run of a few seconds, which `.ci/test.sh` runs
//! on every change. Either way each target is checked when its figure is
//! known, and a missed one ends the benchmark with a failure that names it:
//! the full run holds a figure to the target itself, the smoke run to the
//! target with [`SMOKE_MARGIN`], because a few seconds on a shared build
//! machine measure with less certainty than minutes on a quiet one.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The environment variable that asks for the short run.
pub const SMOKE: &str = "PEGBOARD_BENCH_SMOKE";

/// How far a smoke run's figure may miss its target: by half of it. A
/// limit of 50 ms holds a smoke figure to 75 ms, a floor of 1,000,000 a
/// second to 666,667; a count or a size that must be nought stays nought.
pub const SMOKE_MARGIN: f64 = 0.5;

/// Whether this is the short run.
pub fn smoke() -> bool {
    std::env::var(SMOKE).is_ok_and(|v| v == "1")
}

/// `full` in a full run, `short` in a smoke run.
pub fn pick<T>(full: T, short: T) -> T {
    if smoke() { short } else { full }
}

/// The targets of one benchmark, checked one by one as their figures come.
pub struct Targets {
    bench: &'static str,
    checked: usize,
    missed: Vec<String>,
}

impl Targets {
    pub fn new(bench: &'static str) -> Targets {
        println!(
            "benchmark {bench}: {} run",
            if smoke() {
                "smoke (targets with a margin of 50%)"
            } else {
                "full"
            }
        );
        Targets {
            bench,
            checked: 0,
            missed: Vec::new(),
        }
    }

    /// `measured` must not exceed `target` (in `unit`).
    pub fn at_most(&mut self, what: &str, measured: f64, target: f64, unit: &str) {
        let limit = if smoke() {
            target * (1.0 + SMOKE_MARGIN)
        } else {
            target
        };
        self.check(what, measured, measured <= limit, "≤", target, limit, unit);
    }

    /// `measured` must reach at least `target` (in `unit`).
    pub fn at_least(&mut self, what: &str, measured: f64, target: f64, unit: &str) {
        let limit = if smoke() {
            target / (1.0 + SMOKE_MARGIN)
        } else {
            target
        };
        self.check(what, measured, measured >= limit, "≥", target, limit, unit);
    }

    /// `measure()` must not exceed `target`. In a smoke run, a figure that
    /// misses is measured once more, and the second counts: a change that
    /// made pegboard slower misses twice, while one stall of a shared
    /// build machine (a disk flushing, another program's burst) seldom
    /// comes back in the same place.
    pub fn at_most_measured(
        &mut self,
        what: &str,
        target: f64,
        unit: &str,
        mut measure: impl FnMut() -> f64,
    ) {
        let mut measured = measure();
        if smoke() && measured > target * (1.0 + SMOKE_MARGIN) {
            println!(
                "  {what}: {} {unit} misses the smoke limit; measured once more",
                figure(measured)
            );
            measured = measure();
        }
        self.at_most(what, measured, target, unit);
    }

    /// A target that has no figure to compare: it holds or it does not
    /// (every viewer got every line, every request was answered).
    pub fn holds(&mut self, what: &str, held: bool, detail: &str) {
        self.checked += 1;
        if held {
            println!("  target met: {what}");
        } else {
            println!("  TARGET MISSED: {what} ({detail})");
            self.missed.push(format!("{what} ({detail})"));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        what: &str,
        measured: f64,
        met: bool,
        sign: &str,
        target: f64,
        limit: f64,
        unit: &str,
    ) {
        self.checked += 1;
        let (m, t, l) = (figure(measured), figure(target), figure(limit));
        let against = if limit == target {
            format!("target {sign} {t} {unit}")
        } else {
            format!("target {sign} {t} {unit}, smoke limit {l} {unit}")
        };
        let line = format!("{what}: {m} {unit} ({against})");
        if met {
            println!("  target met: {line}");
        } else {
            println!("  TARGET MISSED: {line}");
            self.missed.push(line);
        }
    }

    /// Ends the benchmark: a failure, naming each missed target, if any was.
    pub fn finish(self) {
        if self.missed.is_empty() {
            println!("benchmark {}: all {} targets met", self.bench, self.checked);
            return;
        }
        eprintln!(
            "benchmark {}: {} of {} targets missed:",
            self.bench,
            self.missed.len(),
            self.checked
        );
        for m in &self.missed {
            eprintln!("  {m}");
        }
        std::process::exit(1);
    }
}

/// A figure as the README writes it: whole above 100, else with as many
/// decimals as make three digits.
fn figure(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 || a == 0.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// Where the criterion benchmarks write their estimates.
pub fn criterion_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/criterion")
}

/// The mean time of one iteration of the criterion benchmark `id` (as
/// criterion names it: `group/function`, or the function alone), in
/// nanoseconds, from the estimates of its last run.
pub fn criterion_mean_ns(id: &str) -> f64 {
    let path = criterion_dir().join(id).join("new/estimates.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    v["mean"]["point_estimate"]
        .as_f64()
        .unwrap_or_else(|| panic!("{}: no mean", path.display()))
}

/// A criterion configured for this run: criterion's own defaults in a full
/// run, a second of measurement in a smoke run.
pub fn criterion() -> criterion::Criterion {
    let c = criterion::Criterion::default()
        .output_directory(&criterion_dir())
        .configure_from_args();
    if smoke() {
        c.warm_up_time(std::time::Duration::from_millis(300))
            .measurement_time(std::time::Duration::from_secs(1))
            .sample_size(10)
    } else {
        c
    }
}

/// The value at quantile `q` (0 to 1) of `sorted`.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// What `pegboard play --scan-timing` said of its scans at its end.
pub struct ScanTiming {
    /// Where the scan loop ran: "real-time priority (SCHED_FIFO 4)", or
    /// the ordinary priority and why.
    pub place: String,
    /// "scans taken after they were due: …"
    pub taken: String,
    /// "scans handled after they were taken: …"
    pub handled: String,
}

impl ScanTiming {
    /// The two lines in what `play --scan-timing` printed.
    pub fn of(printed: &str) -> ScanTiming {
        let line = |what: &str| -> String {
            printed
                .lines()
                .find_map(|l| l.strip_prefix(&format!("pegboard: scans {what}: ")))
                .unwrap_or_else(|| panic!("play did not say how its scans were {what}: {printed}"))
                .to_string()
        };
        let place = printed
            .lines()
            .find_map(|l| l.strip_prefix("pegboard: the scan loop ran at "))
            .unwrap_or_else(|| panic!("play did not say where its scan loop ran: {printed}"))
            .to_string();
        ScanTiming {
            place,
            taken: line("taken after they were due"),
            handled: line("handled after they were taken"),
        }
    }

    /// The latest a scan was taken after it was due, ms.
    pub fn max_taken(&self) -> f64 {
        max_ms(&self.taken)
    }

    /// The scans taken later than one period after they were due, per
    /// thousand scans.
    pub fn late_per_thousand(&self) -> f64 {
        let (n, late) = counts(&self.taken);
        if n == 0 {
            0.0
        } else {
            late as f64 * 1000.0 / n as f64
        }
    }

    /// The longest a scan waited between being taken and being handled, ms.
    pub fn max_handled(&self) -> f64 {
        max_ms(&self.handled)
    }
}

/// The scans and those later than one period, of a line `play
/// --scan-timing` printed ("(N scans at 200 Hz, K by more than one
/// period)").
fn counts(line: &str) -> (u64, u64) {
    let inside = line
        .rsplit_once('(')
        .map_or("", |(_, rest)| rest.trim_end_matches(')'));
    let number = |text: &str, after: &str| -> u64 {
        text.split(after)
            .next()
            .and_then(|t| t.split_whitespace().last())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count before {after:?} in {line}"))
    };
    let (scans, late) = inside.split_once(',').unwrap_or((inside, ""));
    (
        number(scans, " scans"),
        number(late, " by more than one period"),
    )
}

/// The "max N ms" of a line `play --scan-timing` printed.
fn max_ms(line: &str) -> f64 {
    line.split_once("max ")
        .and_then(|(_, rest)| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no max in {line}"))
}

/// Kasparov – Deep Blue 1997, game 6, played by simulated `style` hands
/// (seed `seed`), as a trace `play` reads: `dir/game.jsonl`.
pub fn game_six_trace(dir: &Path, seed: u64, style: pegboard::sim::Style) -> PathBuf {
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games =
        pegboard::record::pgn::read_games(&std::fs::read(path).expect("games")).expect("PGN");
    let entries = pegboard::sim::simulate(&games[5].record, seed, style).expect("simulated");
    let text: String = entries
        .iter()
        .map(|e| pegboard::trace::write_line(e.t, &e.reading) + "\n")
        .collect();
    let trace = dir.join("game.jsonl");
    std::fs::write(&trace, text).expect("trace");
    trace
}

/// `pegboard play` with `args` and `--config config`: the child and its
/// printed lines to read (its errors go nowhere).
pub fn play(
    args: &[&str],
    config: &Path,
    stdin: std::process::Stdio,
) -> (
    std::process::Child,
    std::io::BufReader<std::process::ChildStdout>,
) {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegboard"))
        .arg("play")
        .args(args)
        .arg("--config")
        .arg(config)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("play starts");
    let out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    (child, out)
}

/// The mirror's address, from the line `play` prints once it listens.
pub fn mirror_address(out: &mut impl std::io::BufRead) -> std::net::SocketAddr {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap_or(0) > 0,
            "play ended without a mirror line"
        );
        if let Some(rest) = line
            .trim()
            .strip_prefix("pegboard: the mirror is at http://")
        {
            return rest.trim_end_matches('/').parse().expect("address");
        }
    }
}
