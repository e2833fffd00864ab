//! Writing a trace line: the one form every writer (the recorder, the
//! journal, the simulated hands) shares.

use shakmaty::Bitboard;

use super::reading::{Header, Reading};

/// Writes an occupancy word as 16 lowercase hexadecimal digits.
pub fn occ_to_hex(occ: Bitboard) -> String {
    format!("{:016x}", occ.0)
}

fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// Writes one entry as a trace line (without the newline).
pub fn write_line(t: u64, reading: &Reading) -> String {
    match reading {
        Reading::Header(Header {
            start,
            time_control,
            tags,
            white_moves_on,
            black_moves_on,
            laws,
            after,
        }) => {
            let variant = if start.chess960 {
                r#","variant":"chess960""#
            } else {
                ""
            };
            let control = time_control
                .as_ref()
                .map(|c| format!(r#","time_control":"{}""#, c.to_pgn()))
                .unwrap_or_default();
            let tags = if tags.is_empty() {
                String::new()
            } else {
                format!(
                    r#","tags":{}"#,
                    serde_json::to_string(tags).unwrap_or_default()
                )
            };
            let seats: String = [
                ("white_moves_on", white_moves_on),
                ("black_moves_on", black_moves_on),
            ]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!(r#","{k}":{}"#, json_str(v))))
            .collect();
            let laws = laws
                .map(|l| format!(r#","laws":"{l}""#))
                .unwrap_or_default();
            let after = after
                .as_ref()
                .map(|a| format!(r#","after":{}"#, json_str(a)))
                .unwrap_or_default();
            format!(
                r#"{{"t":{t},"trace":1,"start":{}{variant}{control}{tags}{seats}{laws}{after}}}"#,
                json_str(&start.start)
            )
        }
        Reading::Scan { board, occ } => format!(
            r#"{{"t":{t},"board":{},"occ":"{}"}}"#,
            json_str(board),
            occ_to_hex(*occ)
        ),
        Reading::Lift { board, square } => {
            format!(
                r#"{{"t":{t},"board":{},"lift":"{square}"}}"#,
                json_str(board)
            )
        }
        Reading::Place { board, square } => {
            format!(
                r#"{{"t":{t},"board":{},"place":"{square}"}}"#,
                json_str(board)
            )
        }
        Reading::Input(input) => {
            format!(
                r#"{{"t":{t},"input":"{}"{}}}"#,
                input.name(),
                input.fields()
            )
        }
        Reading::Keys(keys) => format!(r#"{{"t":{t},"keys":{keys}}}"#),
    }
}
