//! The round's games as one PGN (pure): each board's scoresheet as its
//! pegboard wrote it, under the round's tags, its moves held back by the
//! organiser's delay. The hub reads no move itself: it only cuts a
//! scoresheet's movetext after as many moves as the public may see.

/// A tag's value in a PGN's head (`[White "Ann"]` gives `Ann`), unescaped.
pub fn tag(pgn: &str, name: &str) -> Option<String> {
    for line in pgn.lines() {
        let line = line.trim();
        if !line.starts_with('[') {
            if line.is_empty() {
                continue;
            }
            break;
        }
        let inner = line.trim_start_matches('[').trim_end_matches(']');
        let Some((key, value)) = inner.split_once(' ') else {
            continue;
        };
        if key == name {
            let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
            return Some(value.replace("\\\"", "\"").replace("\\\\", "\\"));
        }
    }
    None
}

/// Whether lichess shows a game under this player's name: a broadcast
/// drops a name of one letter, or "unknown", and then every game with a
/// side unnamed (so does "bye", a pairing that is no game).
pub fn broadcast_name(name: &str) -> bool {
    let name = name.trim();
    name.chars().count() >= 2
        && !name.eq_ignore_ascii_case("unknown")
        && !name.eq_ignore_ascii_case("bye")
}

/// A value as a tag writes it: `\` and `"` escaped, on one line.
fn escaped(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// A PGN's head (its tags, in order) and its movetext.
fn split(pgn: &str) -> (Vec<(String, String)>, String) {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_head = true;
    for line in pgn.lines() {
        let trimmed = line.trim();
        if in_head && trimmed.starts_with('[') && trimmed.ends_with(']') {
            let inner = &trimmed[1..trimmed.len() - 1];
            if let Some((key, _)) = inner.split_once(' ')
                && let Some(value) = tag(trimmed, key)
            {
                tags.push((key.to_string(), value));
            }
            continue;
        }
        if in_head && trimmed.is_empty() {
            continue;
        }
        in_head = false;
        movetext.push_str(line);
        movetext.push('\n');
    }
    (tags, movetext)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A move (SAN) of the game itself.
    Move,
    /// A move number (`12.`, `12...`).
    Number,
    /// The result at the end.
    Result,
    /// Anything else: a comment, a NAG, a variation's part.
    Other,
}

/// The movetext's tokens, each with its kind.
fn tokens(movetext: &str) -> Vec<(String, Kind)> {
    let mut out = Vec::new();
    let mut chars = movetext.chars().peekable();
    let mut depth = 0usize;
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut token = String::new();
        match c {
            '{' => {
                for c in chars.by_ref() {
                    token.push(c);
                    if c == '}' {
                        break;
                    }
                }
                out.push((token, Kind::Other));
                continue;
            }
            ';' => {
                // A comment to the line's end, kept as a braced one.
                chars.next();
                let rest: String = chars.by_ref().take_while(|&c| c != '\n').collect();
                out.push((format!("{{{}}}", rest.replace('}', ")")), Kind::Other));
                continue;
            }
            '(' | ')' => {
                chars.next();
                if c == '(' {
                    depth += 1;
                } else {
                    depth = depth.saturating_sub(1);
                }
                out.push((c.to_string(), Kind::Other));
                continue;
            }
            _ => {}
        }
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || "{}();".contains(c) {
                break;
            }
            token.push(c);
            chars.next();
        }
        // A number written against its move ("12.e4"): two tokens.
        let digits = token.chars().take_while(char::is_ascii_digit).count();
        let dots = token[digits..].chars().take_while(|&c| c == '.').count();
        if digits > 0 && dots > 0 && digits + dots < token.len() {
            let san = token.split_off(digits + dots);
            out.push((
                token,
                if depth == 0 {
                    Kind::Number
                } else {
                    Kind::Other
                },
            ));
            token = san;
        }
        let kind = if depth > 0 {
            Kind::Other
        } else if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            Kind::Result
        } else if token.starts_with('$') {
            Kind::Other
        } else if token.chars().next().is_some_and(|c| c.is_ascii_digit()) && token.ends_with('.') {
            Kind::Number
        } else {
            Kind::Move
        };
        out.push((token, kind));
    }
    out
}

/// The moves (SAN) of a scoresheet's main line, in order.
pub fn sans(pgn: &str) -> Vec<String> {
    let (_, movetext) = split(pgn);
    tokens(&movetext)
        .into_iter()
        .filter(|(_, k)| *k == Kind::Move)
        .map(|(t, _)| t)
        .collect()
}

/// How many moves (plies) a scoresheet holds.
pub fn plies(pgn: &str) -> usize {
    let (_, movetext) = split(pgn);
    tokens(&movetext)
        .iter()
        .filter(|(_, k)| *k == Kind::Move)
        .count()
}

/// What the public may see of one board's game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown<'a> {
    /// The board's number in the round.
    pub number: u32,
    /// Its scoresheet, if the hub has read one.
    pub pgn: Option<&'a str>,
    /// The moves that may be shown: all, or the first so many.
    pub plies: Option<usize>,
    /// Whether its result may be shown (the game's end is past the delay).
    pub result: bool,
    /// The players' names given by the organiser ("" keeps the board's).
    pub white: &'a str,
    pub black: &'a str,
}

/// The round's tags, written over each game's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundTags<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub round: &'a str,
}

/// One game as the public sees it.
pub fn game(shown: &Shown, round: &RoundTags) -> String {
    let (mut tags, movetext) = split(shown.pgn.unwrap_or_default());
    let set = |tags: &mut Vec<(String, String)>, key: &str, value: String| match tags
        .iter_mut()
        .find(|(k, _)| k == key)
    {
        Some(entry) => entry.1 = value,
        None => tags.push((key.to_string(), value)),
    };
    for (key, default) in [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", "*"),
    ] {
        if !tags.iter().any(|(k, _)| k == key) {
            set(&mut tags, key, default.to_string());
        }
    }
    for (key, value) in [("Event", round.event), ("Site", round.site)] {
        if !value.is_empty() {
            set(&mut tags, key, value.to_string());
        }
    }
    if !round.round.is_empty() {
        // Round "3.1": the round's board 1, as broadcasts number them.
        set(
            &mut tags,
            "Round",
            format!("{}.{}", round.round, shown.number),
        );
    }
    set(&mut tags, "Board", shown.number.to_string());
    for (key, value) in [("White", shown.white), ("Black", shown.black)] {
        if !value.is_empty() {
            set(&mut tags, key, value.to_string());
        }
    }
    let all = tokens(&movetext);
    let total = all.iter().filter(|(_, k)| *k == Kind::Move).count();
    let plies = shown.plies.unwrap_or(total).min(total);
    let written_result = all
        .iter()
        .find(|(_, k)| *k == Kind::Result)
        .map_or("*", |(t, _)| t.as_str())
        .to_string();
    let result = if plies == total && shown.result {
        written_result
    } else {
        "*".to_string()
    };
    set(&mut tags, "Result", result.clone());
    if result == "*" {
        tags.retain(|(k, _)| k != "Termination");
    }
    // The tokens up to the first move not shown, less its number.
    let mut cut = all.len();
    let mut seen = 0;
    for (i, (_, kind)) in all.iter().enumerate() {
        if *kind == Kind::Move {
            if seen == plies {
                cut = i;
                break;
            }
            seen += 1;
        }
    }
    if cut < all.len() {
        while cut > 0 && all[cut - 1].1 == Kind::Number {
            cut -= 1;
        }
    }
    let mut kept: Vec<&str> = all[..cut]
        .iter()
        .filter(|(_, k)| *k != Kind::Result)
        .map(|(t, _)| t.as_str())
        .collect();
    kept.push(&result);
    let mut out = String::new();
    for (key, value) in &tags {
        out.push_str(&format!("[{key} \"{}\"]\n", escaped(value)));
    }
    out.push('\n');
    let mut line = String::new();
    for token in kept {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The round: every board's game, in the boards' order.
pub fn pgn(games: &[Shown], round: &RoundTags) -> String {
    games.iter().map(|g| game(g, round)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYED: &str = "[Event \"Club\"]\n[Site \"Home\"]\n[Date \"2026.11.27\"]\n\
        [Round \"?\"]\n[White \"Ann \\\"the\\\" Rook\"]\n[Black \"Ben\"]\n[Result \"1-0\"]\n\
        [TimeControl \"5400+30\"]\n[Termination \"normal\"]\n\n\
        1. e4 { [%clk 1:30:25] } e5 { [%clk 1:30:20] } 2. Qh5 { [%clk 1:30:40] } Nc6\n\
        { [%clk 1:30:41] } 3. Bc4 { [%clk 1:31:00] } Nf6 { (=) [%clk 1:31:02] } 4. Qxf7#\n\
        { [%clk 1:31:20] } 1-0\n\n";

    /// The text with every run of white space one space: the lines a
    /// game is broken into do not matter.
    fn flat(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn shown(plies: Option<usize>, result: bool) -> Shown<'static> {
        Shown {
            number: 4,
            pgn: Some(PLAYED),
            plies,
            result,
            white: "",
            black: "",
        }
    }

    #[test]
    fn the_tags_are_read_unescaped() {
        assert_eq!(tag(PLAYED, "White").as_deref(), Some("Ann \"the\" Rook"));
        assert_eq!(tag(PLAYED, "Termination").as_deref(), Some("normal"));
        assert_eq!(tag(PLAYED, "Annotator"), None);
        assert_eq!(plies(PLAYED), 7);
    }

    #[test]
    fn a_whole_game_keeps_its_moves_clocks_and_result_under_the_rounds_tags() {
        let round = RoundTags {
            event: "Open",
            site: "",
            round: "3",
        };
        let g = game(&shown(None, true), &round);
        assert!(g.starts_with("[Event \"Open\"]\n[Site \"Home\"]\n"), "{g}");
        assert!(g.contains("[Round \"3.4\"]\n"), "{g}");
        assert!(g.contains("[Board \"4\"]\n"), "{g}");
        assert!(g.contains("[White \"Ann \\\"the\\\" Rook\"]\n"), "{g}");
        assert!(g.contains("[Result \"1-0\"]\n[TimeControl"), "{g}");
        assert!(flat(&g).ends_with("4. Qxf7# { [%clk 1:31:20] } 1-0"), "{g}");
        assert_eq!(plies(&g), 7);
    }

    #[test]
    fn a_delayed_game_ends_after_the_moves_shown_with_their_clocks_and_no_result() {
        let g = game(&shown(Some(4), true), &RoundTags::default());
        assert!(g.contains("[Result \"*\"]\n"), "{g}");
        assert!(!g.contains("Termination"), "{g}");
        assert!(
            flat(&g).ends_with("2. Qh5 { [%clk 1:30:40] } Nc6 { [%clk 1:30:41] } *"),
            "{g}"
        );
        assert!(g.ends_with("*\n\n"), "{g}");
        // Cut after White's move: Black's reply and the next number go.
        let g = game(&shown(Some(5), true), &RoundTags::default());
        assert!(flat(&g).ends_with("} 3. Bc4 { [%clk 1:31:00] } *"), "{g}");
        let g = game(&shown(Some(0), true), &RoundTags::default());
        assert!(g.ends_with("\n\n*\n\n"), "{g}");
        assert_eq!(plies(&g), 0);
    }

    #[test]
    fn a_cut_after_whites_move_leaves_no_number_of_blacks_after_a_comment() {
        // As the export format writes it (8.2.2.2): Black's move after a
        // comment carries its number.
        let numbered = PLAYED
            .replace("} e5", "} 1... e5")
            .replace("} Nf6", "} 3... Nf6");
        let mut s = shown(Some(5), true);
        s.pgn = Some(&numbered);
        let g = game(&s, &RoundTags::default());
        assert!(flat(&g).ends_with("} 3. Bc4 { [%clk 1:31:00] } *"), "{g}");
        s.plies = Some(1);
        let g = game(&s, &RoundTags::default());
        assert!(flat(&g).ends_with("1. e4 { [%clk 1:30:25] } *"), "{g}");
        assert_eq!(sans(&numbered).len(), 7);
    }

    #[test]
    fn a_result_not_yet_past_the_delay_is_held_back_with_all_moves_shown() {
        let g = game(&shown(None, false), &RoundTags::default());
        assert!(g.contains("[Result \"*\"]\n"), "{g}");
        assert!(flat(&g).ends_with("4. Qxf7# { [%clk 1:31:20] } *"), "{g}");
    }

    #[test]
    fn a_board_not_yet_read_is_its_pairing_with_no_moves() {
        let g = game(
            &Shown {
                number: 2,
                pgn: None,
                plies: None,
                result: true,
                white: "Ann",
                black: "Ben",
            },
            &RoundTags {
                event: "Open",
                site: "Berlin",
                round: "1",
            },
        );
        assert_eq!(
            g,
            "[Event \"Open\"]\n[Site \"Berlin\"]\n[Date \"????.??.??\"]\n[Round \"1.2\"]\n\
             [White \"Ann\"]\n[Black \"Ben\"]\n[Result \"*\"]\n[Board \"2\"]\n\n*\n\n"
        );
    }

    #[test]
    fn the_round_is_read_back_by_a_pgn_reader_game_by_game() {
        let round = pgn(
            &[shown(None, true), shown(Some(3), true)],
            &RoundTags::default(),
        );
        let games = crate::record::pgn::read_games(round.as_bytes()).expect("reads");
        assert_eq!(games.len(), 2);
    }
}
