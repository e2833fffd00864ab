//! The UCI protocol's lines, read and written (pure): what pegboard says
//! to an engine, and what it makes of the engine's answers.

use shakmaty::uci::UciMove;

/// A score as the engine gives it, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// One line from the engine, as far as pegboard uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    UciOk,
    ReadyOk,
    /// `option name NAME type …`: its name, and its `min` and `max` when
    /// it is a number.
    Option {
        name: String,
        min: Option<i64>,
        max: Option<i64>,
    },
    /// `info …`: how deep, how many nodes, the score; which of the
    /// engine's best lines it is (`multipv`, 1 the best) and the line's
    /// moves (`pv`, the first is the move it would play). A score that is
    /// only a bound (`lowerbound`, `upperbound`, from a search cut short)
    /// is none.
    Info {
        depth: Option<u32>,
        nodes: Option<u64>,
        score: Option<Score>,
        multipv: Option<u32>,
        pv: Vec<UciMove>,
    },
    /// `bestmove MOVE …`: the move, read as UCI; `Err` with the text when
    /// it is none.
    BestMove(Result<UciMove, String>),
    /// Anything else (`id`, `copyprotection`, chatter).
    Other,
}

/// Reads one line the engine wrote.
pub fn read(line: &str) -> Line {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first().copied() {
        Some("uciok") => Line::UciOk,
        Some("readyok") => Line::ReadyOk,
        Some("bestmove") => {
            let given = words.get(1).copied().unwrap_or("");
            Line::BestMove(given.parse::<UciMove>().map_err(|_| given.to_string()))
        }
        Some("option") => {
            // The name runs from "name" to "type" and may hold spaces.
            let at = |key: &str| words.iter().position(|w| *w == key);
            let name = match (at("name"), at("type")) {
                (Some(n), Some(t)) if t > n => words[n + 1..t].join(" "),
                _ => return Line::Other,
            };
            let number = |key: &str| at(key).and_then(|i| words.get(i + 1)?.parse().ok());
            Line::Option {
                name,
                min: number("min"),
                max: number("max"),
            }
        }
        Some("info") => {
            // Everything after `string` is free text (the UCI protocol).
            let words = match words.iter().position(|w| *w == "string") {
                Some(i) => &words[..i],
                None => &words[..],
            };
            let after = |key: &str| {
                words
                    .iter()
                    .position(|w| *w == key)
                    .and_then(|i| words.get(i + 1).copied())
            };
            let bound = words
                .iter()
                .any(|w| *w == "lowerbound" || *w == "upperbound");
            let score = words
                .iter()
                .position(|w| *w == "score")
                .filter(|_| !bound)
                .and_then(|i| {
                    let value = words.get(i + 2)?.parse().ok()?;
                    match *words.get(i + 1)? {
                        "cp" => Some(Score::Cp(value)),
                        "mate" => Some(Score::Mate(value)),
                        _ => None,
                    }
                });
            Line::Info {
                depth: after("depth").and_then(|d| d.parse().ok()),
                nodes: after("nodes").and_then(|n| n.parse().ok()),
                score,
                multipv: after("multipv").and_then(|n| n.parse().ok()),
                // The line runs from `pv` to the end, or to the first
                // word that is no move.
                pv: words
                    .iter()
                    .position(|w| *w == "pv")
                    .map(|i| {
                        words[i + 1..]
                            .iter()
                            .map_while(|m| m.parse::<UciMove>().ok())
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        }
        _ => Line::Other,
    }
}

/// How long and how far the engine may think for one move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    pub movetime_ms: Option<u64>,
    /// On the clock: both times, increments and the moves to the control.
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl Go {
    /// The `go` command.
    pub fn command(&self) -> String {
        let mut out = String::from("go");
        let mut add = |key: &str, value: Option<String>| {
            if let Some(v) = value {
                out.push_str(&format!(" {key} {v}"));
            }
        };
        add("wtime", self.wtime.map(|v| v.to_string()));
        add("btime", self.btime.map(|v| v.to_string()));
        add("winc", self.winc.map(|v| v.to_string()));
        add("binc", self.binc.map(|v| v.to_string()));
        add("movestogo", self.movestogo.map(|v| v.to_string()));
        add("movetime", self.movetime_ms.map(|v| v.to_string()));
        add("depth", self.depth.map(|v| v.to_string()));
        add("nodes", self.nodes.map(|v| v.to_string()));
        out
    }
}

/// The `position` command: the start position as a FEN, then the moves.
pub fn position(start_fen: &str, moves: &[String]) -> String {
    let mut out = format!("position fen {start_fen}");
    if !moves.is_empty() {
        out.push_str(" moves ");
        out.push_str(&moves.join(" "));
    }
    out
}

/// `setoption name NAME value VALUE`.
pub fn set_option(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines as Stockfish 15 writes them.
    #[test]
    fn an_engines_lines_are_read() {
        assert_eq!(read("uciok"), Line::UciOk);
        assert_eq!(read("readyok"), Line::ReadyOk);
        assert_eq!(
            read("option name UCI_Elo type spin default 1350 min 1350 max 2850"),
            Line::Option {
                name: "UCI_Elo".into(),
                min: Some(1350),
                max: Some(2850)
            }
        );
        assert_eq!(
            read("option name Skill Level type spin default 20 min 0 max 20"),
            Line::Option {
                name: "Skill Level".into(),
                min: Some(0),
                max: Some(20)
            }
        );
        assert_eq!(
            read(
                "info depth 12 seldepth 15 multipv 1 score cp -34 nodes 40211 nps 800000 pv e7e5 g1f3 b8c6"
            ),
            Line::Info {
                depth: Some(12),
                nodes: Some(40211),
                score: Some(Score::Cp(-34)),
                multipv: Some(1),
                pv: ["e7e5", "g1f3", "b8c6"]
                    .iter()
                    .map(|m| m.parse().expect("uci"))
                    .collect(),
            }
        );
        assert_eq!(
            read("info depth 5 score mate -2 nodes 99"),
            Line::Info {
                depth: Some(5),
                nodes: Some(99),
                score: Some(Score::Mate(-2)),
                multipv: None,
                pv: Vec::new(),
            }
        );
        // A line followed by another field ends before it; after
        // `string` nothing is read.
        assert!(matches!(
            read("info depth 3 score cp 5 pv e2e4 e7e5 string a note"),
            Line::Info { pv, .. } if pv.len() == 2
        ));
        assert!(matches!(
            read("info depth 3 string the score cp 9 pv d2d4"),
            Line::Info { score: None, pv, depth: Some(3), .. } if pv.is_empty()
        ));
        // A bound from a search cut short is no score.
        assert!(matches!(
            read("info depth 9 multipv 2 score cp 40 lowerbound nodes 5 pv d2d4"),
            Line::Info {
                score: None,
                multipv: Some(2),
                ..
            }
        ));
        assert_eq!(
            read("bestmove e2e4 ponder e7e5"),
            Line::BestMove(Ok("e2e4".parse().expect("uci")))
        );
        assert_eq!(
            read("bestmove e7e8q"),
            Line::BestMove(Ok("e7e8q".parse().expect("uci")))
        );
        assert_eq!(
            read("bestmove (none)"),
            Line::BestMove(Err("(none)".into()))
        );
        assert_eq!(read("bestmove"), Line::BestMove(Err(String::new())));
        assert_eq!(read("id name Stockfish 15.1"), Line::Other);
    }

    #[test]
    fn the_commands_are_written_as_uci_asks() {
        assert_eq!(
            Go {
                wtime: Some(300_000),
                btime: Some(295_000),
                winc: Some(3000),
                binc: Some(3000),
                movestogo: Some(20),
                ..Go::default()
            }
            .command(),
            "go wtime 300000 btime 295000 winc 3000 binc 3000 movestogo 20"
        );
        assert_eq!(
            Go {
                movetime_ms: Some(500),
                depth: Some(1),
                ..Go::default()
            }
            .command(),
            "go movetime 500 depth 1"
        );
        assert_eq!(
            position("8/8/8/8/8/8/8/K6k w - - 0 1", &[]),
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1"
        );
        assert_eq!(
            position("startfen", &["e2e4".into(), "e7e5".into()]),
            "position fen startfen moves e2e4 e7e5"
        );
        assert_eq!(
            set_option("Skill Level", "0"),
            "setoption name Skill Level value 0"
        );
    }
}
