//! One engine process: started at a lower priority, told its options and
//! strength, asked for a move, and killed. Its standard output is read by
//! a thread of its own, so that every wait here has a deadline.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use shakmaty::uci::UciMove;

use super::section::EngineConfig;
use super::strength::Candidate;
use super::uci::{self, Go, Line, Score};

/// How long an engine may take to say `uciok` and `readyok`.
pub const HANDSHAKE_WITHIN: Duration = Duration::from_secs(10);

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// It could not be started, or did not speak UCI.
    Start(String),
    /// It ended (crashed, or was killed).
    Crashed,
    /// It gave no move in its time and the margin.
    Hung,
    /// It answered a move that is no move.
    Malformed(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Start(why) => write!(f, "the engine could not be started: {why}"),
            EngineError::Crashed => f.write_str("the engine ended"),
            EngineError::Hung => f.write_str("the engine gave no move in its time"),
            EngineError::Malformed(text) => {
                write!(f, "the engine answered \"{text}\", which is no move")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// The engine's answer: its move, and what its search said last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thought {
    pub uci: UciMove,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Its best lines' first moves and scores, best first: as many as it
    /// was asked to name (`MultiPV`), as deep as its search went for each.
    pub lines: Vec<Candidate>,
    /// Its main line (the best line's moves, as deep as its search went),
    /// beginning with the move it plays; empty when it named none.
    pub line: Vec<UciMove>,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Its name, from `id name`.
    pub name: String,
    /// The strength asked is below the lowest the engine plays at: its
    /// search is limited to one ply besides its lowest skill.
    pub below_lowest: bool,
    /// It was told the game is Chess960.
    pub chess960: bool,
}

impl Engine {
    /// Starts the engine `config` names at its priority, and tells it its
    /// options and strength. `chess960`: the game is Chess960.
    pub fn start(config: &EngineConfig, chess960: bool) -> Result<Engine, EngineError> {
        let program = config.program().ok_or_else(|| {
            EngineError::Start(format!(
                "no program \"{}\" (looked on PATH and in /usr/games)",
                config.command
            ))
        })?;
        // SCHED_IDLE (util-linux's chrt): the engine thinks only on what
        // no other thread wants, so a core it fills is free the instant the
        // scan loop wakes; `nice` orders it among idle work too. Without
        // chrt, `nice` alone.
        let spawn = |idle: bool| {
            let mut command = if idle {
                let mut c = Command::new("chrt");
                c.args(["--idle", "0", "nice"]);
                c
            } else {
                Command::new("nice")
            };
            command
                .arg("-n")
                .arg(config.nice.to_string())
                .arg(&program)
                .args(&config.args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
        };
        let mut child = match spawn(true) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => spawn(false),
            other => other,
        }
        .map_err(|e| EngineError::Start(format!("{}: {e}", program.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start("no pipes to the engine".into()));
        };
        let (tx, lines) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("engine-out".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| EngineError::Start(e.to_string()))?;
        let mut engine = Engine {
            child,
            stdin,
            lines,
            name: program
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            below_lowest: false,
            chess960,
        };
        match engine.handshake(config, chess960) {
            Ok(()) => Ok(engine),
            Err(e) => {
                engine.kill();
                Err(match e {
                    EngineError::Start(_) => e,
                    other => EngineError::Start(format!("it did not answer as UCI asks ({other})")),
                })
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    /// The next line, by `deadline`.
    fn next(&self, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Hung),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crashed),
        }
    }

    fn handshake(&mut self, config: &EngineConfig, chess960: bool) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_WITHIN;
        let mut offered: Vec<(String, Option<i64>, Option<i64>)> = Vec::new();
        loop {
            let line = self.next(deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_string();
            }
            match uci::read(&line) {
                Line::UciOk => break,
                Line::Option { name, min, max } => offered.push((name, min, max)),
                _ => {}
            }
        }
        let has = |name: &str| offered.iter().find(|(n, _, _)| n == name);
        for (name, value) in &config.options {
            self.send(&uci::set_option(name, &value.to_string()))?;
        }
        if chess960 && has("UCI_Chess960").is_some() {
            self.send(&uci::set_option("UCI_Chess960", "true"))?;
        }
        // A step of pegboard's: the engine at full strength names its
        // best few moves, and pegboard picks among them.
        if let Some(step) = config.step_played()
            && step.lines > 1
            && has("MultiPV").is_some()
        {
            self.send(&uci::set_option("MultiPV", &step.lines.to_string()))?;
        }
        if let Some(level) = config.level {
            self.send(&uci::set_option("Skill Level", &level.to_string()))?;
        }
        if let Some(elo) = config.elo {
            match has("UCI_Elo") {
                Some((_, min, max)) if min.is_none_or(|m| i64::from(elo) >= m) => {
                    let elo = max.map_or(i64::from(elo), |m| i64::from(elo).min(m));
                    self.send(&uci::set_option("UCI_LimitStrength", "true"))?;
                    self.send(&uci::set_option("UCI_Elo", &elo.to_string()))?;
                }
                // Below the engine's lowest rating: its lowest skill, and
                // (in `think`) a one-ply search.
                _ => {
                    self.below_lowest = true;
                    if has("Skill Level").is_some() {
                        self.send(&uci::set_option("Skill Level", "0"))?;
                    }
                }
            }
        }
        self.ready(deadline)
    }

    /// `isready`, and its answer by `deadline`.
    fn ready(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.send("isready")?;
        loop {
            if uci::read(&self.next(deadline)?) == Line::ReadyOk {
                return Ok(());
            }
        }
    }

    /// A new game: `ucinewgame`, answered when the engine is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.ready(Instant::now() + HANDSHAKE_WITHIN)
    }

    /// The engine's move in `position` (a `position` command), thinking
    /// as `go` says, by `within`.
    pub fn think(
        &mut self,
        position: &str,
        go: &Go,
        within: Duration,
    ) -> Result<Thought, EngineError> {
        // Lines left from an earlier search are not this one's.
        while self.lines.try_recv().is_ok() {}
        let mut go = go.clone();
        if self.below_lowest {
            go.depth = Some(go.depth.map_or(1, |d| d.min(1)));
        }
        self.send(position)?;
        self.send(&go.command())?;
        let deadline = Instant::now() + within;
        let (mut score, mut depth, mut nodes) = (None, None, None);
        let mut main_line = Vec::new();
        // Each line's latest first move and score, by its number.
        let mut lines: std::collections::BTreeMap<u32, Candidate> = Default::default();
        loop {
            match uci::read(&self.next(deadline)?) {
                Line::Info {
                    depth: d,
                    nodes: n,
                    score: s,
                    multipv,
                    pv,
                } => {
                    depth = d.or(depth);
                    nodes = n.or(nodes);
                    if multipv.unwrap_or(1) == 1 {
                        score = s.or(score);
                        // A line whose score is only a bound (a new best
                        // move found as the search stopped) is still the
                        // line of the move it plays.
                        if !pv.is_empty() {
                            main_line = pv.clone();
                        }
                    }
                    if let (Some(score), Some(&uci)) = (s, pv.first()) {
                        lines.insert(multipv.unwrap_or(1), Candidate { uci, score });
                    }
                }
                Line::BestMove(Ok(uci)) => {
                    let mut lines: Vec<Candidate> = lines.into_values().collect();
                    lines.sort_by_key(|c| std::cmp::Reverse(super::strength::centipawns(c.score)));
                    // A line that does not begin with the move played
                    // (a search stopped between two depths) is not its.
                    if main_line.first() != Some(&uci) {
                        main_line = vec![uci];
                    }
                    return Ok(Thought {
                        uci,
                        score,
                        depth,
                        nodes,
                        lines,
                        line: main_line,
                    });
                }
                Line::BestMove(Err(text)) => return Err(EngineError::Malformed(text)),
                _ => {}
            }
        }
    }

    /// Ends the engine at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The engine's process id (for the tests that crash and stop it).
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A moment to quit by itself, then for good.
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}
