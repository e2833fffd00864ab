//! Reading a scoresheet back with readers pegboard did not write: the
//! pgn-reader crate and python-chess (`python3-chess`, installed by
//! `.ci/setup.sh`).
#![allow(dead_code)]

use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

/// One game as a reader saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadGame {
    pub tags: Vec<(String, String)>,
    pub sans: Vec<String>,
    /// The comment after each move ("" if none).
    pub comments: Vec<String>,
    /// The `[%clk]` after each move, in whole seconds.
    pub clks: Vec<Option<u64>>,
    pub result: String,
}

impl ReadGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The seconds of a `[%clk h:mm:ss]` in a comment.
pub fn clk_of(comment: &str) -> Option<u64> {
    let rest = comment.split("[%clk ").nth(1)?;
    let time = rest.split(']').next()?;
    let mut parts = time.split(':').map(|p| p.trim().parse::<f64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    Some((h * 3600.0 + m * 60.0 + s) as u64)
}

struct Collect;

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = ReadGame;
    type Output = ReadGame;

    fn begin_tags(&mut self) -> ControlFlow<ReadGame, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<ReadGame> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<ReadGame, ReadGame> {
        ControlFlow::Continue(ReadGame {
            tags,
            sans: Vec::new(),
            comments: Vec::new(),
            clks: Vec::new(),
            result: String::new(),
        })
    }

    fn san(&mut self, g: &mut ReadGame, san: SanPlus) -> ControlFlow<ReadGame> {
        g.sans.push(san.to_string());
        g.comments.push(String::new());
        g.clks.push(None);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, g: &mut ReadGame, comment: RawComment<'_>) -> ControlFlow<ReadGame> {
        let text = String::from_utf8_lossy(comment.as_bytes())
            .trim()
            .to_string();
        if let (Some(c), Some(k)) = (g.comments.last_mut(), g.clks.last_mut()) {
            *k = clk_of(&text);
            *c = text;
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _g: &mut ReadGame) -> ControlFlow<ReadGame, Skip> {
        panic!("a scoresheet has no variations");
    }

    fn outcome(&mut self, g: &mut ReadGame, outcome: Outcome) -> ControlFlow<ReadGame> {
        g.result = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: ReadGame) -> ReadGame {
        g
    }
}

/// Every game in `pgn`, as pgn-reader reads it.
pub fn with_pgn_reader(pgn: &str) -> Vec<ReadGame> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut Collect).expect("pgn-reader reads it") {
        games.push(g);
    }
    games
}

const PYTHON: &str = r#"
import io, json, sys
import chess.pgn
text = io.StringIO(sys.stdin.read())
games = []
while True:
    g = chess.pgn.read_game(text)
    if g is None:
        break
    if g.errors:
        raise SystemExit("python-chess: " + "; ".join(str(e) for e in g.errors))
    sans, comments, clks = [], [], []
    for node in g.mainline():
        sans.append(node.parent.board().san(node.move))
        comments.append(node.comment)
        c = node.clock()
        clks.append(None if c is None else int(c))
    games.append({"tags": list(g.headers.items()), "sans": sans, "comments": comments,
                  "clks": clks, "result": g.headers.get("Result", ""),
                  "chess960": g.board().chess960})
print(json.dumps(games))
"#;

/// Every game in `pgn`, as python-chess reads it (it checks each move's
/// legality on its own board), with whether it set up a Chess960 board.
pub fn with_python_chess(pgn: &str) -> Vec<(ReadGame, bool)> {
    let out = crate::common::piped("python3", &["-c", PYTHON], pgn);
    assert!(
        out.status.success(),
        "python-chess refused the scoresheet: {}\n{pgn}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).expect("python-chess's JSON");
    games
        .into_iter()
        .map(|g| {
            let strings = |k: &str| -> Vec<String> {
                g[k].as_array()
                    .map(|a| {
                        a.iter()
                            .map(|v| v.as_str().unwrap_or_default().to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let tags = g["tags"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| {
                            (
                                p[0].as_str().unwrap_or_default().to_string(),
                                p[1].as_str().unwrap_or_default().to_string(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let clks = g["clks"]
                .as_array()
                .map(|a| a.iter().map(serde_json::Value::as_u64).collect())
                .unwrap_or_default();
            (
                ReadGame {
                    tags,
                    sans: strings("sans"),
                    comments: strings("comments"),
                    clks,
                    result: g["result"].as_str().unwrap_or_default().to_string(),
                },
                g["chess960"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}
